"""A die whose value the reader is unsure of is read again at its top face.

The detector's box can lie off a die's top face: round the top and its near side, or shifted in a cluster.
A die boxed that far off is misread about ten times as often as the rest (`models/DICE_HISTORY.md`, session
49), and read again from its true box it mostly comes out right. The face locator (`vision.face_locator`),
trained on rendered photos as taken (`python -m models.train_dice_locator`), finds the top face near the
box's centre, and its shape: a photo at a slant shows the square face as a parallelogram.

Read under RELOCATE_BELOW sure, the die is read again by the dice reader from its box moved onto that face.
Read under FACE_READ_BELOW sure (after that), its face is also cut square, centred on it and unskewed, and
read by a face reader trained on exactly such cuts (`python -m models.train_dice_faces`), whose value
probabilities are added to the dice reader's. The dice reader shown the labelled face cut square misreads
about half as many dice; the located face is close enough only for a reader trained on it
(`models/DICE_HISTORY.md`, session 56). The die's colour and whether it is a die stay the first reading's,
which neither improved (`models/MODEL_CARD.md`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.decode import BGRImage
from vision.face_locator import Cuts, FaceLocator, Points
from vision.face_reader import FaceReader
from vision.observation import Box
from vision.onnx_session import MODELS_FOLDER
from vision.read import SECOND_LOOK_BELOW, FloatArray, Gains, balanced

LOCATOR_MODEL = MODELS_FOLDER / "dice_locator.onnx"
FACES_MODEL = MODELS_FOLDER / "dice_faces.onnx"
FACE_SHARE = 0.8
"""A top face's side, as a share of its box's longer side: the scale the locator's cuts are made at."""
RELOCATE_BELOW = SECOND_LOOK_BELOW
"""Value confidence under which a die is read again from its box moved onto its face, the reader's second
look's: reading every die again gained no more values and cost a second read stage
(`models/MODEL_CARD.md`)."""
FACE_READ_BELOW = 0.9
"""Value confidence under which a die's face is cut square and read by the face reader."""
FACE_READER_WEIGHT = 1.0
"""The face reader's value probabilities' weight against the dice reader's (chosen on rendered photos of a
seed the benchmark does not use: `models/MODEL_CARD.md`)."""
MOST_MOVED = 0.35
"""Box sides: a face found further off the box's centre is another die's, and the box stays."""
SQUARE_CUT = 0.8
"""The square cut's reach either way of the face's centre, in face sides: the face and a rim round it."""
SQUARE_CUT_PX = 48
_UNIT_SQUARE = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])


@dataclass(frozen=True)
class LocatedFaces:
    """Top faces found in a photo: each centre (N x 2 pixels) and the symmetric matrix that maps a unit
    square round the origin onto the face (N x 2 x 2: a turn within the face does not matter to a reader)."""

    centres: Points
    matrices: FloatArray

    def at(self, indices: Sequence[int]) -> LocatedFaces:
        return LocatedFaces(self.centres[list(indices)], self.matrices[list(indices)])


def flat_view(quad: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """The linear part (2 x 2, acting on column vectors) of the flat (affine) view that best takes the unit
    square round the origin onto `quad` (4 x 2 pixels, corners in order round it)."""
    fitted, *_ = np.linalg.lstsq(np.c_[_UNIT_SQUARE, np.ones(4)], np.asarray(quad, np.float64), rcond=None)
    linear: npt.NDArray[np.float64] = fitted[:2].T
    return linear


def face_shape(quad: npt.ArrayLike, unit: float) -> tuple[float, float, float]:
    """What the locator learns of a face drawn as `quad` (4 x 2 pixels, corners in order round it), `unit`
    pixels being one cut width: the log of its side and the two free terms of its shape of determinant 1
    (half the difference of the diagonal terms, and the off-diagonal one), which `face_matrices` undoes."""
    linear = flat_view(quad) / unit
    shape = linear @ linear.T
    area = float(np.sqrt(max(np.linalg.det(shape), 1e-12)))
    normalised = shape / area
    return 0.5 * float(np.log(area)), float(normalised[0, 0] - normalised[1, 1]) / 2, float(normalised[0, 1])


def face_matrices(shapes: FloatArray, unit: npt.ArrayLike) -> FloatArray:
    """The symmetric matrix (N x 2 x 2, pixels) of each face whose `face_shape` is a row of `shapes`, in
    cuts `unit` pixels wide (one a face, or one for all)."""
    log_side, squash, shear = (np.asarray(shapes, np.float64)[:, k] for k in range(3))
    half_trace = np.sqrt(1 + squash**2 + shear**2)
    rows = (np.stack((half_trace + squash, shear), axis=-1), np.stack((shear, half_trace - squash), axis=-1))
    normalised = np.stack(rows, axis=-2)
    values, vectors = np.linalg.eigh(normalised)
    roots = vectors @ (np.sqrt(np.maximum(values, 1e-9))[..., None] * np.swapaxes(vectors, -1, -2))
    sides = np.exp(log_side) * np.broadcast_to(np.asarray(unit, np.float64), len(log_side))
    matrices: FloatArray = (roots * sides[:, None, None]).astype(np.float32)
    return matrices


class BoxLocator(FaceLocator):
    """The face locator of photos as taken."""

    def __init__(self, threads: int = 1, model: Path = LOCATOR_MODEL):
        super().__init__(model, "python -m models.train_dice_locator", threads)

    def faces(self, pixels: BGRImage, boxes: Sequence[Box], gains: Gains) -> LocatedFaces:
        """The top face nearest each box's centre, looked for at FACE_SHARE of the box's longer side."""
        corners = np.array(boxes, np.float64).reshape(-1, 4)
        centres = (corners[:, :2] + corners[:, 2:]) / 2
        sides = np.max(corners[:, 2:] - corners[:, :2], axis=1)
        located, answers, unit = self.located(pixels, centres, FACE_SHARE * sides, gains)
        return LocatedFaces(located, face_matrices(answers[:, 2:], unit))


def moved_onto(boxes: Sequence[Box], faces: LocatedFaces) -> list[Box]:
    """Each box moved, unchanged in size, to centre on its face, unless that lies more than MOST_MOVED of
    the box off its centre."""
    corners = np.array(boxes, np.float64).reshape(-1, 4)
    moves = faces.centres - (corners[:, :2] + corners[:, 2:]) / 2
    moves[np.hypot(*moves.T) > MOST_MOVED * np.max(corners[:, 2:] - corners[:, :2], axis=1)] = 0.0
    return [
        (x0 + dx, y0 + dy, x1 + dx, y1 + dy)
        for (x0, y0, x1, y1), (dx, dy) in zip(corners, moves, strict=True)
    ]


def square_cuts(pixels: BGRImage, faces: LocatedFaces, gains: Gains) -> Cuts:
    """Each face cut square (SQUARE_CUT_PX a side, SQUARE_CUT face sides either way of its centre): the
    photo mapped back through the face's matrix, so the face is an upright-or-turned square whatever the
    slant, white-balanced with `gains`."""
    scale = 2 * SQUARE_CUT / SQUARE_CUT_PX
    cuts = [
        balanced(
            np.asarray(
                cv2.warpAffine(
                    pixels,
                    np.c_[matrix * scale, centre - matrix @ np.full(2, SQUARE_CUT)],
                    (SQUARE_CUT_PX, SQUARE_CUT_PX),
                    flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                    borderMode=cv2.BORDER_REPLICATE,
                ),
                np.uint8,
            ),
            gains,
        )
        for centre, matrix in zip(faces.centres, faces.matrices.astype(np.float64), strict=True)
    ]
    return np.array(cuts, np.uint8).reshape(-1, SQUARE_CUT_PX, SQUARE_CUT_PX, 3)


def photo_face_reader(threads: int = 1, model: Path = FACES_MODEL) -> FaceReader:
    """The face reader of dice's faces cut square from photos as taken. A cut read under SECOND_LOOK_BELOW
    sure is read at its three other quarter turns too, as the dice reader's crops are: reading every cut
    four times read the dice of rendered photos no better and made the read stage of a 12 MP photo of small
    dice about a fifth longer (`models/MODEL_CARD.md`, session 59)."""
    return FaceReader(model, "python -m models.train_dice_faces", threads, SECOND_LOOK_BELOW)
