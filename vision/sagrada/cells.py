"""Read each space of a found window: empty (and what is printed there) or a die (its colour and value).

The window is warped flat (seen from straight above, `PX_PER_UNIT` pixels per die edge) in two planes:
that of the dice's top faces, where a die seen at a slant is cut out around its face, and that of the card,
where an empty space shows its print in place. Each space is cut out of both with a margin for a die
standing off-centre, the two cuts stacked as one six-channel image. A flat print lies at the same place in
both; a raised face does not (the parallax grows with the camera's slant), which tells a printed value
from a die, and a neighbour's side leaning into the top plane from a die standing there. A small network
trained on rendered windows
(`models/train_sagrada_cells.py`) sorts each cut into one of `CELL_CLASSES`: the 12 prints an empty space
can show (plain, five colours, six values) and the 30 dice. One network for both questions means a printed
value space is weighed against every die it could be mistaken for, and its probability row gives the
confidence and the alternatives to offer the player.

Pip counts are where that network goes wrong most, and colours next, so every space that may hold a die is
cut again at twice the resolution round its face and read by two more networks: the face reader
(`vision.face_reader`, trained on exactly these cuts of rendered windows by `models/train_sagrada_faces.py`)
and the dice reader (`vision.read`, trained on many more dice and on the real photos). Each die class's
probability is weighed by the face reader's probability of its value (cubed: it has the larger say), the
dice reader's of its value and the dice reader's of its colour; the chance that a die stands there is the
network's, weighed a little by the dice reader's belief that its cut holds a die. A die still read unsure
has its side faces that show beside an empty space read by the dice reader too (`vision.sagrada.sides`):
opposite faces add up to seven, and a side shows the die's colour without the top face's glare.
`models/SAGRADA_FACES.md` and `models/SAGRADA_CELLS.md` give the figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from engine.sagrada.window import ALL_CELLS, Cell, Color, Die, Restriction
from vision.face_reader import FaceReader
from vision.onnx_session import MODELS_FOLDER, open_session
from vision.read import (
    COLOR_CLASSES,
    NOT_A_DIE,
    READER_MODEL,
    DiceReader,
    balanced,
    face_probabilities,
    read_with_second_look,
    reader_input,
    softmax,
    white_balance_gains,
)
from vision.sagrada.lattice import GRID_HEIGHT, GRID_WIDTH, GROUT, PITCH, SPACE, WindowLattice
from vision.sagrada.sides import beside, colour_weights, die_camera, facing_sides, side_cut, top_value_weights

BGRImage = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float32]

CELL_MODEL = MODELS_FOLDER / "sagrada_cells.onnx"
FACE_MODEL = MODELS_FOLDER / "sagrada_faces.onnx"
PX_PER_UNIT = 24
CROP_PX = 40
"""Side of the cut around each space: the space (27 px) and most of a die leaning out of it."""
DIE_TOP = 0.94
"""Height of a die's top face above the card, in die edges: the spaces are cut out in that plane, so a
die seen at a slant is cut around its face, not around its foot and a neighbour's face."""
READER_ZOOM = 2
"""The value readers' flat view has this many times `PX_PER_UNIT`: 48 px a die edge, like the dice reader's
training dice."""
READER_CUT = 1.2
"""The side of the value readers' cut round each space's centre, in die edges: a die and the dice reader's
margin. Each reader gets it scaled to its own input side."""
FACE_CUT_PX = 48
"""The side the face reader is trained on (`models.train_sagrada_faces`): the dice reader's crop side until
session 41, when the dice reader moved to 64."""
SECOND_LOOK_BELOW = 0.9
"""A space the classifier, or a die the face reader, reads with less confidence than this is read again
at its other quarter turns. (On 250 rendered windows the face reader turned 4-8 % of the dice so, and the
space reader misread the same dice as when the face reader turned every one; a one-off script.)"""
SECOND_OPINION_FROM = 0.2
"""Spaces whose die probability reaches this get the value readers' opinion of the die."""
FACE_READER_WEIGHT = 3.0
"""The face reader's probabilities are raised to this power before they are multiplied by the dice
reader's (a weighted product: the face reader, trained on these very cuts, has the larger say)."""
READER_DIE_WEIGHT = 0.5
"""The odds that a space holds a die are the space classifier's times the dice reader's odds that its cut
holds one (its "not a die" class), raised to this power: the reader, cut round the dice's tops, has a
smaller say than the classifier, which sees both planes (`models/SAGRADA_CELLS.md`, session 50)."""
UNSURE = 0.98
"""A space whose reading is less likely than this is reported as uncertain (`vision.sagrada.reader`), and,
holding a die, has its die's side faces read (`_weigh_sides`: reading every die's sides changed no bench
window, and each side costs the dice reader a look). At 0.98 rather than 0.9 the player is asked about twice
as many spaces (about one in 90) and half as many misreads pass unasked (`models/SAGRADA_CELLS.md`, session
45): a question costs a tap, a silent misread a wrong score."""
DIE_LIKELY = 0.5
"""A space whose die probability reaches this is taken to hold a die when its neighbours' side faces are
chosen (its die would stand in front of them); a side's cut is read only where the dice reader takes it
for a die's face with this probability."""
PLANES = (DIE_TOP, 0.0)
"""The planes each space is cut from, in die edges above the card, stacked channel-wise in this order."""
CUT_CHANNELS = 3 * len(PLANES)
_READER_COLORS = tuple(color.name.lower() for color in Color)
_READER_COLOR_COLUMNS = [COLOR_CLASSES.index(name) for name in _READER_COLORS]
"""Where the dice reader's colour probabilities hold the five Sagrada colours, in `Color`'s order."""
_BORDER = 1.0
"""Die edges of card and table kept around the grid in the flat view, so edge spaces cut out whole."""


@dataclass(frozen=True)
class PrintedSpace:
    """An empty space's print: a colour, a value, or plain (both None)."""

    color: Color | None
    value: int | None

    @classmethod
    def of(cls, restriction: Restriction) -> PrintedSpace:
        return cls(restriction.color, restriction.value)


CellClass = PrintedSpace | Die
CELL_CLASSES: tuple[CellClass, ...] = (
    PrintedSpace(None, None),
    *(PrintedSpace(color, None) for color in Color),
    *(PrintedSpace(None, value) for value in range(1, 7)),
    *(Die(color, value) for color in Color for value in range(1, 7)),
)
"""What the network tells apart, in the order of its outputs."""
_DIE_CLASSES = np.array([isinstance(kind, Die) for kind in CELL_CLASSES])
_DIE_VALUES = np.array([kind.value for kind in CELL_CLASSES if isinstance(kind, Die)])
_DIE_COLORS = np.array([list(Color).index(kind.color) for kind in CELL_CLASSES if isinstance(kind, Die)])


def class_index(kind: CellClass) -> int:
    return CELL_CLASSES.index(kind)


@dataclass(frozen=True)
class SpaceReading:
    """One space as read: the probability of each of `CELL_CLASSES` (the dice reader's opinion weighed in)."""

    cell: Cell
    probabilities: FloatArray

    @property
    def die_probability(self) -> float:
        return float(self.probabilities[_DIE_CLASSES].sum())

    @property
    def die(self) -> Die | None:
        """The most likely die, when a die is likelier than an empty space; else None."""
        if self.die_probability <= 0.5:
            return None
        return cast(Die, CELL_CLASSES[_most_likely(self.probabilities, _DIE_CLASSES)])

    @property
    def printed(self) -> PrintedSpace | None:
        """The most likely print, when the space reads as empty; else None."""
        if self.die_probability > 0.5:
            return None
        return cast(PrintedSpace, CELL_CLASSES[_most_likely(self.probabilities, ~_DIE_CLASSES)])

    def print_belief(self) -> dict[PrintedSpace, float]:
        """How likely the space is empty and showing each print (the rest: a die stands there)."""
        prints = self.probabilities[~_DIE_CLASSES]
        kinds = (kind for kind in CELL_CLASSES if isinstance(kind, PrintedSpace))
        return {kind: float(p) for kind, p in zip(kinds, prints, strict=True)}

    def readings(self) -> list[tuple[str, float]]:
        """What the space may hold in window notation (`--` for empty, every print together), with its
        probability, most likely first."""
        options = [("--", 1.0 - self.die_probability)] + [
            (str(kind), float(p))
            for kind, p in zip(CELL_CLASSES, self.probabilities, strict=True)
            if isinstance(kind, Die)
        ]
        return sorted(options, key=lambda option: -option[1])


def sureness(spaces: Sequence[SpaceReading]) -> float:
    """How surely a window's spaces read: the mean log probability of each space's likeliest class (0: every
    space certain). A lattice off the grid cuts the dice across, and its spaces read less surely."""
    likeliest = np.array([space.probabilities.max() for space in spaces])
    return float(np.log(np.maximum(likeliest, 1e-12)).mean())


def _most_likely(probabilities: FloatArray, among: npt.NDArray[np.bool_]) -> int:
    return int(np.flatnonzero(among)[probabilities[among].argmax()])


def image_to_flat(lattice: WindowLattice, height: float, image_width: int, image_height: int) -> FloatArray:
    """The homography from image pixels to the flat view of the plane `height` die edges above the card."""
    grid_to_flat = np.array(
        [[PX_PER_UNIT, 0, _BORDER * PX_PER_UNIT], [0, PX_PER_UNIT, _BORDER * PX_PER_UNIT], [0, 0, 1.0]]
    )
    plane_to_image = lattice.raised(height, image_width, image_height) if height else lattice.grid_to_image
    return cast(FloatArray, grid_to_flat @ np.linalg.inv(plane_to_image))


def flatten(image: BGRImage, lattice: WindowLattice, height: float = 0.0, zoom: int = 1) -> BGRImage:
    """The plane `height` die edges above the card (0: the print; `DIE_TOP`: the dice's top faces), over
    the grid and `_BORDER` around it, warped to a top-down view at `zoom` x `PX_PER_UNIT`."""
    size = (
        round((GRID_WIDTH + 2 * _BORDER) * PX_PER_UNIT * zoom),
        round((GRID_HEIGHT + 2 * _BORDER) * PX_PER_UNIT * zoom),
    )
    to_flat = np.diag([zoom, zoom, 1.0]) @ image_to_flat(lattice, height, image.shape[1], image.shape[0])
    flat = cv2.warpPerspective(image, to_flat, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return cast(BGRImage, flat)


def space_centres(zoom: int = 1) -> FloatArray:
    """The centre (x, y) of each space in the flat view at `zoom` x `PX_PER_UNIT`, row-major."""
    grid = np.array([(cell.col, cell.row) for cell in ALL_CELLS], np.float64)
    return cast(FloatArray, (_BORDER + GROUT + grid * PITCH + SPACE / 2) * PX_PER_UNIT * zoom)


def cut_origins() -> npt.NDArray[np.int64]:
    """The top-left pixel (x, y) of each space's cut in the flat view, row-major."""
    return np.round(space_centres()).astype(np.int64) - CROP_PX // 2


def cell_crops(flat: BGRImage) -> npt.NDArray[np.uint8]:
    """The 20 spaces cut out of the flat view, row-major, each `CROP_PX` square around its centre."""
    return np.stack([flat[y : y + CROP_PX, x : x + CROP_PX] for x, y in cut_origins()])


def space_cuts(image: BGRImage, lattice: WindowLattice) -> npt.NDArray[np.uint8]:
    """The 20 spaces' cuts, row-major, each the `PLANES`' cuts stacked: 20 x `CROP_PX` x `CROP_PX` x
    `CUT_CHANNELS`."""
    return np.concatenate([cell_crops(flatten(image, lattice, height)) for height in PLANES], axis=3)


class CellReader:
    """The space classifier, loaded once; `read` gives the 20 spaces of each window in one batch.

    `dice_reader` and `face_reader` are the models that give their opinion of the die a space may hold, the
    face reader on its value and the dice reader on its value and colour (None: leave that one out; both
    None: the classifier alone)."""

    def __init__(
        self,
        threads: int = 1,
        model: Path = CELL_MODEL,
        dice_reader: Path | None = READER_MODEL,
        face_reader: Path | None = FACE_MODEL,
    ):
        self._session = open_session(model, threads, "python -m models.train_sagrada_cells")
        self._input_name = self._session.get_inputs()[0].name
        self._dice_reader = DiceReader(threads, dice_reader) if dice_reader else None
        self._face_reader = (
            FaceReader(face_reader, "python -m models.train_sagrada_faces", threads, SECOND_LOOK_BELOW)
            if face_reader
            else None
        )

    def read(self, image: BGRImage, lattices: Sequence[WindowLattice]) -> list[tuple[SpaceReading, ...]]:
        if not lattices:
            return []
        crops = np.concatenate([space_cuts(image, lattice) for lattice in lattices])
        rows = self.classify(crops).reshape(len(lattices), len(ALL_CELLS), -1)
        if self._dice_reader is not None or self._face_reader is not None:
            rows = self._with_readers_opinion(image, lattices, rows)
        return [
            tuple(SpaceReading(cell, row) for cell, row in zip(ALL_CELLS, window, strict=True))
            for window in rows
        ]

    def classify(self, crops: npt.NDArray[np.uint8]) -> FloatArray:
        """The probability of each of `CELL_CLASSES` for each cut (N x 42).

        A die reads the same a quarter turn round: a cut read with less confidence than
        `SECOND_LOOK_BELOW` is read at its three other turns too and the four readings averaged."""
        return read_with_second_look(self.one_look, crops, SECOND_LOOK_BELOW)

    def one_look(self, crops: npt.NDArray[np.uint8]) -> FloatArray:
        """The probability of each of `CELL_CLASSES` for each cut as it lies, without turning it."""
        (logits,) = self._session.run(None, {self._input_name: reader_input(crops)})
        return softmax(np.asarray(logits, np.float32))

    def _with_readers_opinion(
        self, image: BGRImage, lattices: Sequence[WindowLattice], rows: FloatArray
    ) -> FloatArray:
        """`rows` (windows x spaces x classes) with the readers' opinion of each possible die: each space
        that may hold a die is cut once (`reader_cuts`); the face reader and the dice reader weigh in on its
        value, the dice reader on its colour and on whether a die stands there at all."""
        maybe_die = rows[:, :, _DIE_CLASSES].sum(axis=2) >= SECOND_OPINION_FROM
        if not maybe_die.any():
            return rows
        gains = white_balance_gains(image)
        flats = [
            (flatten(image, lattice, DIE_TOP, READER_ZOOM), spaces)
            for lattice, spaces in zip(lattices, maybe_die, strict=True)
            if spaces.any()
        ]

        def cuts(size: int) -> npt.NDArray[np.uint8]:
            return np.array(
                [balanced(cut, gains) for flat, spaces in flats for cut in reader_cuts(flat, spaces, size)]
            )

        dice = int(maybe_die.sum())
        faces, colors = np.ones((dice, 6)), np.ones((dice, len(Color)), np.float32)
        reader_die: FloatArray | None = None
        if self._dice_reader is not None:
            values, reader_colors = self._dice_reader.probabilities(
                cuts(self._dice_reader.input_size), _READER_COLORS
            )
            reader_die = 1.0 - values[:, NOT_A_DIE]
            faces *= face_probabilities(values)
            colors = reader_colors[:, _READER_COLOR_COLUMNS]
            colors /= np.maximum(colors.sum(axis=1, keepdims=True), 1e-12)
        if self._face_reader is not None:
            faces *= (
                self._face_reader.value_probabilities(cuts(self._face_reader.input_size))
                ** FACE_READER_WEIGHT
            )
        weighed = rows.copy()
        faces /= faces.sum(axis=1, keepdims=True)
        spaces = weigh_dice(rows[maybe_die], faces.astype(np.float32), colors)
        weighed[maybe_die] = spaces if reader_die is None else weigh_die_or_empty(spaces, reader_die)
        if self._dice_reader is not None:
            self._weigh_sides(image, lattices, weighed, gains)
        return weighed

    def _weigh_sides(
        self, image: BGRImage, lattices: Sequence[WindowLattice], rows: FloatArray, gains: FloatArray
    ) -> None:
        """Each die read less surely than `UNSURE` weighed (in place) by the dice reader's reading of its
        side faces that show, beside spaces holding no die (`vision.sagrada.sides`): the values they leave
        possible on top, and their colour."""
        assert self._dice_reader is not None
        height, width = image.shape[:2]
        likely_die = rows[:, :, _DIE_CLASSES].sum(axis=2) >= DIE_LIKELY
        unsure = likely_die & (rows.max(axis=2) < UNSURE)
        cuts: list[BGRImage] = []
        sides_of: dict[tuple[int, int], list[int]] = {}
        for window in map(int, np.flatnonzero(unsure.any(axis=1))):
            camera = die_camera(lattices[window], DIE_TOP, width, height)
            for space in map(int, np.flatnonzero(unsure[window])):
                for face in facing_sides(camera, ALL_CELLS[space], DIE_TOP, READER_CUT):
                    neighbour = beside(face.cell, face.direction)
                    if neighbour is None or not likely_die[window, neighbour.index]:
                        sides_of.setdefault((window, space), []).append(len(cuts))
                        cuts.append(balanced(side_cut(image, face, self._dice_reader.input_size), gains))
        if not cuts:
            return
        values, colors = self._dice_reader.probabilities(np.array(cuts), _READER_COLORS)
        faces = face_probabilities(values)
        colors = colors[:, _READER_COLOR_COLUMNS]
        colors /= np.maximum(colors.sum(axis=1, keepdims=True), 1e-12)
        # A cut the reader does not take for a die's face (a shadow, a die's photo laid flat) says nothing.
        shows_die = 1.0 - values[:, NOT_A_DIE] >= DIE_LIKELY
        for (window, space), indices in sides_of.items():
            sides = [index for index in indices if shows_die[index]]
            if sides:
                rows[window, space] = weigh_dice(
                    rows[window, space][None],
                    top_value_weights(faces[sides])[None].astype(np.float32),
                    colour_weights(colors[sides])[None].astype(np.float32),
                )[0]


def reader_cuts(flat: BGRImage, spaces: npt.NDArray[np.bool_], size: int) -> list[BGRImage]:
    """The chosen spaces cut out of a flat view at `READER_ZOOM` for the value readers, `size` px a side."""
    side = round(READER_CUT * PX_PER_UNIT * READER_ZOOM)
    cuts = []
    for left, top in np.round(space_centres(READER_ZOOM)[spaces] - side / 2).astype(np.int64):
        cut = flat[top : top + side, left : left + side]
        cuts.append(cast(BGRImage, cv2.resize(cut, (size, size), interpolation=cv2.INTER_AREA)))
    return cuts


def weigh_dice(probabilities: FloatArray, faces: FloatArray, colors: FloatArray) -> FloatArray:
    """Each die class of `probabilities` (N x classes) weighed by the probability of its value in `faces`
    (N x 6) and of its colour in `colors` (N x 5, in `Color`'s order), renormalised so the die classes keep
    their total: the chance a die is there is unchanged."""
    weighed = probabilities.copy()
    dice = probabilities[:, _DIE_CLASSES] * faces[:, _DIE_VALUES - 1] * colors[:, _DIE_COLORS]
    total = probabilities[:, _DIE_CLASSES].sum(axis=1, keepdims=True)
    weighed[:, _DIE_CLASSES] = dice / np.maximum(dice.sum(axis=1, keepdims=True), 1e-12) * total
    return weighed


def weigh_die_or_empty(probabilities: FloatArray, die_belief: FloatArray) -> FloatArray:
    """`probabilities` (N x classes) with the odds that a die stands there multiplied by the odds of
    `die_belief` (N, another reader's probability of a die) raised to `READER_DIE_WEIGHT`; the dice classes
    keep their shares of the dice, the prints theirs of the empty space."""
    die = probabilities[:, _DIE_CLASSES].sum(axis=1)
    belief = np.clip(die_belief, 1e-6, 1 - 1e-6)
    odds = (belief / (1.0 - belief)) ** READER_DIE_WEIGHT
    weighed_die = die * odds / (die * odds + 1.0 - die)
    weighed = probabilities.copy()
    weighed[:, _DIE_CLASSES] *= (weighed_die / np.maximum(die, 1e-12))[:, None]
    weighed[:, ~_DIE_CLASSES] *= ((1.0 - weighed_die) / np.maximum(1.0 - die, 1e-12))[:, None]
    return weighed
