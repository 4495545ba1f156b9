"""Recognised dice to zones: each die's footprint on the mat decides whose hand or roll it belongs to.

The dice are found on top-down views of the mat (`vision.runbuster.topdown`), at the height of a die's
middle and of their tops; each find's footprint is moved onto the top face nearest it by the face locator
(`vision.runbuster.footprints`), and the face is read there, in the view at the dice's tops, by the dice
reader and the face reader trained on that view alone (`vision.runbuster.faces`). A die is then given to
the zone its footprint lies in, or to the nearest zone when it overhangs an edge by less than half a die.
Dice elsewhere on the sheet are kept as `outside` so the page can say so; dice off the sheet (on the
table, in a cup), detections on a marker or on the lettering, and detections far from a die's size at
their place (a hand reaching in) are left out, and two finds of one die (closer than two dice can stand,
or its top and its near side found apart) count once.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from vision.colors import DIE_COLORS
from vision.detect import DieCandidate
from vision.face_reader import FaceReader
from vision.markers import BGRImage, FloatArray, MatLocation
from vision.observation import Box, DetectedDie, box_centre
from vision.read import DieReading, Gains, white_balance_gains
from vision.recognizer import DiceRecognizer, RecognizerSettings
from vision.runbuster.faces import face_cuts, face_reader
from vision.runbuster.footprints import FootprintLocator
from vision.runbuster.locate import locate_mat
from vision.runbuster.mat import (
    DIE_EDGE,
    MARKERS,
    MAT_HEIGHT,
    MAT_WIDTH,
    PRINTED_AREAS,
    ZONE_KEYS,
    ZONES,
    Paper,
)
from vision.runbuster.topdown import VIEW_SCALE, mat_to_view, plane_views, view_to_mat

UNSURE_BELOW = 0.6
"""A die whose value is read with less confidence than this is flagged for the players to check. On 100
rendered mats (`python -m bench.bench_runbuster_camera --scenes 100 --seed 3 --dice-per-zone 3 6`) it
flags 5 of the 7 dice misread and 4 of the 1809 read right; on 40 (`--scenes 40`), where none is misread,
2 of 635 (with the dice reader alone, before the face reader and the face locator: 2 of 5 misread and 7 of
628). The detection's confidence is about as high for misread dice as for the others, so it is not used."""
DIE_SIZE_RANGE = (0.9, 3.0)
"""A detection's box (the square root of its area) over a die's face as the camera sees it there: a die's
box spans its face at least, and its sides too when seen aslant; smaller or larger is print or clutter."""
FACE_BOXES = (1.2, 1.35, 1.5)
"""The boxes the reader is shown round a top face, in die edges (the face turned 45 degrees needs 1.41).
Each face is read in every box at every quarter turn, and the value with the most confidence summed over
those readings wins: one reading's glint or cut-off pip is outvoted."""
CLOSEST_DICE = 0.8
"""Footprints closer than this many die edges are one die found twice; the more confident is kept."""
CANDIDATE_CONFIDENCE = 0.15
"""The recognizer's floor (detector score x the reader's die probability) for a die on the mat, half its
general 0.3: the mat's own rules (the print, a die's size and footprint) already turn away look-alikes.
Measured against 0.3 (this constant changed, nothing else) with session 5's models: 2 more of the 510 dice of
the end-to-end test right (`python -m bench.bench_runbuster_camera --scenes 28 --seed 20261129
--dice-per-zone 3 6`), no extra; with the models before, 3 more of those 510, 3 more of its 193 on A4 and 1
more of 635 on 40 mats (`--scenes 40`), no extra anywhere."""
FACE_READER_WEIGHT = 2.0
"""How much more the face reader's value probabilities count than the dice reader's share of readings
(`read_faces`). On 100 rendered mats (`--scenes 100 --seed 2`) the dice reader alone misread 15 of the
1808 dice placed, the face reader alone 8, the two weighed equally 8 and at 2 to 1 5; on the 28 mats of
the tests 2, 5, 3 and 2 of 506 (a one-off script reading the same placed dice every way). On 100 mats
read only once the weight was fixed (`--seed 3`), values misread fell from 11 to 9 of 1820."""
RESCUE_DIE_PROBABILITY = 0.85
"""A candidate under CANDIDATE_CONFIDENCE is still a die when the dice reader, shown its located footprint
in both top-down views, is this sure of a die in each: a faint die (white and translucent on the pale
print) that the detector boxes by one pip. Chosen on the tests' 28 mats (`python -m
bench.bench_runbuster_camera --scenes 28 --seed 20261129 --dice-per-zone 3 6`): there the dice so kept
read 0.90-1.00 in the view at the tops, and the look-alikes (shadows, zone edges, a neighbour's side) at
most 0.62; a zone's lettering on A4, read 0.86-0.88 there, reads 0.22 in the view at the dice's middle,
where the dice so kept read 0.87 or more (`tests/vision/runbuster/test_end_to_end.py`'s A4 mats; a
one-off script read both views at each located footprint)."""
RESCUE_BOX = 1.3
"""The box, in die edges, round a located footprint in which a weak candidate is looked at again."""
TOWARDS_CAMERA = 0.9
"""Two footprints less than an edge apart, lined up within this cosine of the way to the camera, are a
die's top and its near side found apart (two dice that close would have to touch in that very line)."""


@dataclass(frozen=True)
class PlacedDie:
    """A die on the mat: its zone (None when it lies on the sheet outside every zone) and where it lies."""

    zone: str | None
    mat_point: tuple[float, float]
    die: DetectedDie

    @property
    def value(self) -> int:
        return self.die.value

    @property
    def unsure(self) -> bool:
        return self.die.value_confidence < UNSURE_BELOW


@dataclass(frozen=True)
class MatReading:
    """The dice read on a mat, zone by zone, with how the mat was found."""

    dice: tuple[PlacedDie, ...]
    markers: tuple[int, ...]
    reprojection_error: float

    def values(self, zone_key: str) -> tuple[int, ...]:
        """The values in one zone, sorted."""
        return tuple(sorted(d.value for d in self.dice if d.zone == zone_key))

    @property
    def outside(self) -> tuple[PlacedDie, ...]:
        return tuple(d for d in self.dice if d.zone is None)

    def to_json(self) -> dict[str, Any]:
        """What the app stores: each zone's values, the zones holding a die read unsurely, the stray dice."""
        return {
            "zones": {key: list(self.values(key)) for key in ZONE_KEYS},
            "unsure": sorted({d.zone for d in self.dice if d.zone is not None and d.unsure}),
            "outside": len(self.outside),
            "markers": list(self.markers),
        }


def die_height(paper: Paper) -> float:
    """A die's edge in mat units when the mat is printed on `paper`."""
    return DIE_EDGE / paper.scale


def assign_dice(location: MatLocation, dice: Sequence[DetectedDie], paper: Paper = Paper.A3) -> MatReading:
    """Place every die on the mat and in its zone."""
    if not dice:
        return MatReading((), location.markers, location.reprojection_error)
    centres = np.array([die.center for die in dice], np.float64)
    edge = die_height(paper)
    points = location.to_mat(centres, height=edge / 2)
    kept: dict[int, PlacedDie] = {}
    for index in sorted(range(len(dice)), key=lambda i: -dice[i].detection_confidence):
        die, (x, y) = dice[index], points[index]
        if not (-edge / 2 <= x <= MAT_WIDTH + edge / 2 and -edge / 2 <= y <= MAT_HEIGHT + edge / 2):
            continue
        if on_print(x, y) or not _die_sized(location, die.box, float(x), float(y), edge):
            continue
        point = (float(x), float(y))
        twin = next(
            (k for k, other in kept.items() if _one_die(location, point, other.mat_point, edge)), None
        )
        if twin is None:
            kept[index] = PlacedDie(_zone_at(*point, edge / 2), point, die)
        elif math.dist(point, kept[twin].mat_point) >= CLOSEST_DICE * edge:
            # The top and the near side of a die seen aslant, found apart: the side, below the top, shows
            # nearer the camera in the views, so the die stands at the find farther from it.
            camera = location.camera_position[:2]
            if math.dist(point, camera) > math.dist(kept[twin].mat_point, camera):
                kept[twin] = replace(kept[twin], zone=_zone_at(*point, edge / 2), mat_point=point)
    placed = tuple(kept[index] for index in sorted(kept))
    return MatReading(placed, location.markers, location.reprojection_error)


def read_mat(pixels: BGRImage, dice: Sequence[DetectedDie], paper: Paper = Paper.A3) -> MatReading:
    """Find the mat in `pixels` and place `dice` (found in the same pixels) in its zones."""
    return assign_dice(locate_mat(pixels), dice, paper)


def _die_sized(location: MatLocation, box: Box, x: float, y: float, edge: float) -> bool:
    """Whether a detection's box (photo pixels) is about as large as a die standing at (x, y) would look."""
    half = edge / 2
    square = np.array(
        [[x - half, y - half], [x + half, y - half], [x + half, y + half], [x - half, y + half]]
    )
    face = location.to_image(square, height=half)
    xs, ys = face[:, 0], face[:, 1]
    face_side = float(np.sqrt(abs(np.dot(xs, np.roll(ys, 1)) - np.dot(ys, np.roll(xs, 1))) / 2))
    width, height = box[2] - box[0], box[3] - box[1]
    ratio = float(np.sqrt(max(width, 0.0) * max(height, 0.0))) / max(face_side, 1e-9)
    return DIE_SIZE_RANGE[0] <= ratio <= DIE_SIZE_RANGE[1]


def _one_die(location: MatLocation, a: tuple[float, float], b: tuple[float, float], edge: float) -> bool:
    """Whether detections with footprints `a` and `b` are one die (see CLOSEST_DICE and TOWARDS_CAMERA)."""
    apart = math.dist(a, b)
    if apart < CLOSEST_DICE * edge:
        return True
    if apart >= edge:
        return False
    camera = location.camera_position[:2]
    between = np.subtract(b, a)
    towards = camera - np.add(a, b) / 2
    cosine = abs(float(between @ towards)) / max(apart * float(np.linalg.norm(towards)), 1e-9)
    return cosine >= TOWARDS_CAMERA


def _zone_at(x: float, y: float, tolerance: float) -> str | None:
    nearest = min(ZONES, key=lambda zone: zone.distance(x, y))
    return nearest.key if nearest.distance(x, y) <= tolerance else None


def on_print(x: float, y: float) -> bool:
    """Whether (x, y) lies on a marker or on lettering, where a detection is the print, not a die."""
    return any(marker.covers(x, y) for marker in MARKERS) or any(
        area.contains(x, y) for area in PRINTED_AREAS
    )


class MatRecognizer(Protocol):
    """What reading a mat needs of a recognizer: `SharedRecognizer` (the dice models), or a stand-in."""

    def find_candidates(self, pixels: BGRImage) -> Sequence[DieCandidate]:
        """The detector's candidate dice in `pixels`, in its pixels."""
        ...

    def read_boxes(self, pixels: BGRImage, boxes: Sequence[Box], gains: Gains) -> Sequence[DieReading]:
        """Whether each box of `pixels` (white-balanced by `gains`) holds a die, and its value and colour."""
        ...

    def locate_faces(self, tops: BGRImage, points: FloatArray, face_side: float, gains: Gains) -> FloatArray:
        """The centre of the top face nearest each of `points` (N x 2) in the view at the dice's tops
        `tops` (white-balanced by `gains`), where a face is `face_side` pixels across."""
        ...

    def read_face_values(
        self, tops: BGRImage, centres: FloatArray, face_side: float, gains: Gains
    ) -> npt.NDArray[np.float32]:
        """The probability of each value 1-6 (N x 6) of the top face centred at each of `centres` in the
        view at the dice's tops `tops` (white-balanced by `gains`), where a face is `face_side` pixels
        across."""
        ...


def read_mat_photo(recognizer: MatRecognizer, pixels: BGRImage, paper: Paper = Paper.A3) -> MatReading:
    """Find the mat, find the dice on it, place them in the zones and read their top faces.

    The mat is found first, so a photo without it fails fast (MatNotFound) and costs no recognition; only
    the dice placed are read, each at its footprint.
    """
    location = locate_mat(pixels)
    views = MatViews.of(pixels, location, paper)
    placed = assign_dice(location, find_on_mat(recognizer, location, views), paper)
    return read_top_faces(recognizer, placed, views)


@dataclass(frozen=True)
class MatViews:
    """The photo's top-down views at the height of a die's middle and of the dice's tops, each with its
    white balance (`white_balance_gains`), worked out once: every reading of a view uses it."""

    middle: BGRImage
    tops: BGRImage
    edge: float
    """A die's edge in mat units on the paper of the mat."""
    middle_gains: Gains
    tops_gains: Gains

    @classmethod
    def of(cls, pixels: BGRImage, location: MatLocation, paper: Paper) -> MatViews:
        edge = die_height(paper)
        middle, tops = plane_views(pixels, location, (edge / 2, edge))
        return cls(middle, tops, edge, white_balance_gains(middle), white_balance_gains(tops))


def find_on_mat(recognizer: MatRecognizer, location: MatLocation, views: MatViews) -> tuple[DetectedDie, ...]:
    """Every die found in the top-down views, with its box and, as its centre, the photo's point above its
    footprint at half a die's height, before any is placed, left out or read on its top face.

    The detector's candidates are looked for in the view at the dice's middle, where a box is centred on
    the footprint, and in the view at their tops, where it finds some white dice on the white sheet that
    it misses in the other; those whose box is centred on the print are left out at once. Each
    candidate's footprint, first its box's centre, is then moved to the top face the face locator sees
    nearest (`vision.runbuster.footprints`). A candidate is a die when its detector
    score times the dice reader's probability that its box holds a die reaches CANDIDATE_CONFIDENCE, or,
    short of that, when the dice reader shown the located face is sure of a die (RESCUE_DIE_PROBABILITY):
    a faint die the detector boxes by one pip. A find in the view at the tops within CLOSEST_DICE of a
    die-sized find in the other is the same die; `assign_dice` sorts out the rest.
    """
    candidates, centres = [], []
    for view, gains, height in (
        (views.middle, views.middle_gains, views.edge / 2),
        (views.tops, views.tops_gains, views.edge),
    ):
        found = [
            candidate
            for candidate in recognizer.find_candidates(view)
            if not on_print(*view_to_mat(np.array([box_centre(candidate.box)]))[0])
        ]
        readings = recognizer.read_boxes(view, [candidate.box for candidate in found], gains)
        for box_found, reading in zip(found, readings, strict=True):
            candidates.append(
                _Candidate(box_found.score, reading, _photo_box(location, box_found.box, height), height)
            )
            centres.append(box_centre(box_found.box))
    if not candidates:
        return ()
    face_side = views.edge * VIEW_SCALE
    footprints = view_to_mat(
        recognizer.locate_faces(views.tops, np.array(centres), face_side, views.tops_gains)
    )
    candidates = _rescued(recognizer, location, views, candidates, footprints)
    found_dice: list[DetectedDie] = []
    middle_dice: list[FloatArray] = []
    for candidate, footprint in zip(candidates, footprints, strict=True):
        if candidate.confidence < CANDIDATE_CONFIDENCE:
            continue
        if any(math.dist(footprint, other) < CLOSEST_DICE * views.edge for other in middle_dice):
            continue
        centre = location.to_image(footprint[None], views.edge / 2)[0]
        die = DetectedDie(
            center=(float(centre[0]), float(centre[1])),
            box=candidate.box,
            value=candidate.reading.value,
            color=candidate.reading.color,
            detection_confidence=candidate.confidence,
            value_confidence=candidate.reading.value_confidence,
            color_confidence=candidate.reading.color_confidence,
        )
        found_dice.append(die)
        x, y = float(footprint[0]), float(footprint[1])
        if candidate.plane_height < views.edge and _die_sized(location, die.box, x, y, views.edge):
            middle_dice.append(footprint)
    return tuple(found_dice)


@dataclass(frozen=True)
class _Candidate:
    """A detector candidate in one of the views, read by the dice reader; its box in the photo's pixels."""

    score: float
    reading: DieReading
    box: Box
    plane_height: float
    """The height above the paper of the view it was found in, in mat units."""

    @property
    def confidence(self) -> float:
        return self.score * self.reading.die_probability


def _photo_box(location: MatLocation, view_box: Box, height: float) -> Box:
    """The photo's box round a view's box, the view being the plane `height` above the paper."""
    x0, y0, x1, y1 = view_box
    corners = location.to_image(view_to_mat(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])), height)
    (left, top), (right, bottom) = corners.min(axis=0), corners.max(axis=0)
    return (float(left), float(top), float(right), float(bottom))


def _rescued(
    recognizer: MatRecognizer,
    location: MatLocation,
    views: MatViews,
    candidates: list[_Candidate],
    footprints: FloatArray,
) -> list[_Candidate]:
    """The candidates, those under CANDIDATE_CONFIDENCE looked at again at their located footprint, unless
    a die-sized find there already stands for them: kept, with the box round the face, when the dice reader
    finds a die with RESCUE_DIE_PROBABILITY in a box of RESCUE_BOX edges round the footprint both in the
    view at the dice's tops and in the view at their middle. A die stands in both; print that looks like a
    die in one view lies elsewhere in the other."""
    found = footprints[
        [
            c.confidence >= CANDIDATE_CONFIDENCE
            and _die_sized(location, c.box, float(footprint[0]), float(footprint[1]), views.edge)
            for c, footprint in zip(candidates, footprints, strict=True)
        ]
    ]
    weak = [
        index
        for index, c in enumerate(candidates)
        if c.confidence < CANDIDATE_CONFIDENCE
        and not (np.hypot(*(found - footprints[index]).T) < CLOSEST_DICE * views.edge).any()
    ]
    if not weak:
        return candidates
    half = RESCUE_BOX * views.edge * VIEW_SCALE / 2
    boxes = [(x - half, y - half, x + half, y + half) for x, y in mat_to_view(footprints[weak])]
    on_tops = recognizer.read_boxes(views.tops, boxes, views.tops_gains)
    in_middle = recognizer.read_boxes(views.middle, boxes, views.middle_gains)
    rescued = list(candidates)
    for index, box, top, middle in zip(weak, boxes, on_tops, in_middle, strict=True):
        sure = min(top.die_probability, middle.die_probability) >= RESCUE_DIE_PROBABILITY
        rescued[index] = _Candidate(
            candidates[index].score if sure else 0.0,
            top,
            _photo_box(location, box, views.edge),
            candidates[index].plane_height,
        )
    return rescued


def read_top_faces(recognizer: MatRecognizer, reading: MatReading, views: MatViews) -> MatReading:
    """The reading with every placed die's value and colour read on its top face at its footprint."""
    if not reading.dice:
        return reading
    footprints = np.array([die.mat_point for die in reading.dice])
    faces = read_faces(
        recognizer, views.tops, views.tops_gains, mat_to_view(footprints), views.edge * VIEW_SCALE
    )
    dice = tuple(
        replace(
            placed,
            die=replace(
                placed.die,
                value=face.value,
                value_confidence=face.value_confidence,
                color=face.color,
                color_confidence=face.color_confidence,
            ),
        )
        for placed, face in zip(reading.dice, faces, strict=True)
    )
    return replace(reading, dice=dice)


@dataclass(frozen=True)
class FaceReading:
    """A top face's value and colour. The colour's confidence is summed over the dice reader's readings of
    the face (a reading of another colour adding nothing) and divided by their number; the value's is that
    share for the value averaged with the face reader's probability of it, weighted FACE_READER_WEIGHT."""

    value: int
    value_confidence: float
    color: str
    color_confidence: float


def read_faces(
    recognizer: MatRecognizer, tops: BGRImage, gains: Gains, centres: FloatArray, face_side: float
) -> list[FaceReading]:
    """Read the top faces centred at `centres` (pixels of the view at the dice's tops, white-balanced by
    `gains`, where a face is `face_side` pixels across): the dice reader in every box of FACE_BOXES at every
    quarter turn of the view (a turn changes no colour, so not the gains), and the face reader
    (`vision.runbuster.faces`)."""
    values: list[defaultdict[int, float]] = [defaultdict(float) for _ in centres]
    colors: list[defaultdict[str, float]] = [defaultdict(float) for _ in centres]
    halves = [share * face_side / 2 for share in FACE_BOXES]
    turned, points = tops, np.asarray(centres, np.float64)
    for _quarter in range(4):
        boxes = [(x - half, y - half, x + half, y + half) for half in halves for x, y in points]
        faces = zip(
            values * len(halves),
            colors * len(halves),
            recognizer.read_boxes(turned, boxes, gains),
            strict=True,
        )
        for value, color, reading in faces:
            value[reading.value] += reading.value_confidence
            color[reading.color] += reading.color_confidence
        # np.rot90 turns the view a quarter counterclockwise: (x, y) moves to (y, width - 1 - x).
        points = np.column_stack((points[:, 1], turned.shape[1] - 1 - points[:, 0]))
        turned = np.ascontiguousarray(np.rot90(turned))
    readings_per_face = 4 * len(FACE_BOXES)
    face_values = recognizer.read_face_values(tops, np.asarray(centres, np.float64), face_side, gains)
    readings = []
    for value, color, probabilities in zip(values, colors, face_values, strict=True):
        shares = {
            face: (value[face] / readings_per_face + FACE_READER_WEIGHT * float(probabilities[face - 1]))
            / (1 + FACE_READER_WEIGHT)
            for face in range(1, 7)
        }
        best_value, best_color = max(shares, key=shares.__getitem__), max(color, key=color.__getitem__)
        readings.append(
            FaceReading(best_value, shares[best_value], best_color, color[best_color] / readings_per_face)
        )
    return readings


class SharedRecognizer:
    """The process's dice recognizer, loaded on first use and then kept: a photo without the mat, refused
    before any die is read, never loads the models (and a missing model is looked for again next time)."""

    def find_candidates(self, pixels: BGRImage) -> Sequence[DieCandidate]:
        return _loaded_recognizer().detector.find(pixels)

    def read_boxes(self, pixels: BGRImage, boxes: Sequence[Box], gains: Gains) -> Sequence[DieReading]:
        return _loaded_recognizer().reader.read(pixels, boxes, DIE_COLORS, gains)

    def read_face_values(
        self, tops: BGRImage, centres: FloatArray, face_side: float, gains: Gains
    ) -> npt.NDArray[np.float32]:
        return _loaded_face_reader().value_probabilities(face_cuts(tops, centres, face_side, gains))

    def locate_faces(self, tops: BGRImage, points: FloatArray, face_side: float, gains: Gains) -> FloatArray:
        return _loaded_face_locator().face_centres(tops, points, face_side, gains)


@cache
def _loaded_recognizer() -> DiceRecognizer:
    # No second look nor second read at a located face: `read_faces` reads every top face at all four
    # quarter turns itself, where `locate_faces` put it.
    return DiceRecognizer(RecognizerSettings(second_look_below=0.0, relocate_below=0.0, face_read_below=0.0))


@cache
def _loaded_face_reader() -> FaceReader:
    return face_reader()


@cache
def _loaded_face_locator() -> FootprintLocator:
    return FootprintLocator()
