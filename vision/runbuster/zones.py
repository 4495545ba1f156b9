"""Recognised dice to zones: each die's place on the mat decides whose hand or roll it belongs to.

A die is mapped to the mat at the height of its middle (its box centre in the image is the middle of the
cube, half an edge above the paper), then given to the zone it lies in, or to the nearest zone when it
overhangs an edge by less than half a die. Dice elsewhere on the sheet are kept as `outside` so the page can
say so; dice off the sheet (on the table, in a cup), detections on a marker or on the lettering, and
detections far from a die's size at their place (a hand reaching in) are left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Protocol

import numpy as np

from vision.observation import DetectedDie, DiceObservation
from vision.recognizer import DiceRecognizer
from vision.runbuster.locate import BGRImage, MatLocation, locate_mat
from vision.runbuster.mat import (
    DIE_EDGE,
    MARKER_SIDE,
    MARKERS,
    MAT_HEIGHT,
    MAT_WIDTH,
    PRINTED_AREAS,
    ZONE_KEYS,
    ZONES,
    Paper,
)

UNSURE_BELOW = 0.8
DIE_SIZE_RANGE = (0.55, 2.4)
"""A detection's box (the square root of its area) over a die's face as the camera sees it there: a die's
box spans its face at least, and its sides too when seen aslant; smaller or larger is print or clutter."""
"""A die read with less confidence than this (value or detection) is flagged for the players to check."""


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
        return min(self.die.value_confidence, self.die.detection_confidence) < UNSURE_BELOW


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
    placed = []
    for die, (x, y) in zip(dice, points, strict=True):
        if not (-edge / 2 <= x <= MAT_WIDTH + edge / 2 and -edge / 2 <= y <= MAT_HEIGHT + edge / 2):
            continue
        if _on_print(x, y) or not _die_sized(location, die, float(x), float(y), edge):
            continue
        placed.append(PlacedDie(_zone_at(x, y, edge / 2), (float(x), float(y)), die))
    return MatReading(tuple(placed), location.markers, location.reprojection_error)


def read_mat(pixels: BGRImage, dice: Sequence[DetectedDie], paper: Paper = Paper.A3) -> MatReading:
    """Find the mat in `pixels` and place `dice` (found in the same pixels) in its zones."""
    return assign_dice(locate_mat(pixels), dice, paper)


def _die_sized(location: MatLocation, die: DetectedDie, x: float, y: float, edge: float) -> bool:
    """Whether the detection is about as large as a die standing at (x, y) would look."""
    half = edge / 2
    square = np.array(
        [[x - half, y - half], [x + half, y - half], [x + half, y + half], [x - half, y + half]]
    )
    face = location.to_image(square, height=half)
    xs, ys = face[:, 0], face[:, 1]
    face_side = float(np.sqrt(abs(np.dot(xs, np.roll(ys, 1)) - np.dot(ys, np.roll(xs, 1))) / 2))
    ratio = float(np.sqrt(max(die.width, 0.0) * max(die.height, 0.0))) / max(face_side, 1e-9)
    return DIE_SIZE_RANGE[0] <= ratio <= DIE_SIZE_RANGE[1]


def _zone_at(x: float, y: float, tolerance: float) -> str | None:
    nearest = min(ZONES, key=lambda zone: zone.distance(x, y))
    return nearest.key if nearest.distance(x, y) <= tolerance else None


def _on_print(x: float, y: float) -> bool:
    """Whether (x, y) lies on a marker or on lettering, where a detection is the print, not a die."""
    on_marker = any(
        m.left <= x <= m.left + MARKER_SIDE and m.top <= y <= m.top + MARKER_SIDE for m in MARKERS
    )
    return on_marker or any(area.contains(x, y) for area in PRINTED_AREAS)


class PixelRecognizer(Protocol):
    """What reading a mat needs of a recognizer: `vision.recognizer.DiceRecognizer`, or a stand-in."""

    def recognize_pixels(self, pixels: BGRImage) -> DiceObservation: ...


def read_mat_photo(recognizer: PixelRecognizer, pixels: BGRImage, paper: Paper = Paper.A3) -> MatReading:
    """Find the mat, recognise the dice on it and place them in the zones.

    The mat is found first, so a photo without it fails fast (MatNotFound) and costs no recognition; the
    recognizer then sees only the mat's part of the photo, where the dice are larger at its working scale.
    """
    location = locate_mat(pixels)
    height, width = pixels.shape[:2]
    outline = location.outline
    margin = 0.06 * float(np.ptp(outline[:, 0]))  # a die on the far edge leans past the sheet by its height
    x0, y0 = (max(0, int(v - margin)) for v in outline.min(axis=0))
    x1 = min(width, int(outline[:, 0].max() + margin) + 1)
    y1 = min(height, int(outline[:, 1].max() + margin) + 1)
    observation = recognizer.recognize_pixels(np.ascontiguousarray(pixels[y0:y1, x0:x1]))
    dice = [
        replace(
            die,
            center=(die.center[0] + x0, die.center[1] + y0),
            box=(die.box[0] + x0, die.box[1] + y0, die.box[2] + x0, die.box[3] + y0),
        )
        for die in observation.dice
    ]
    return assign_dice(location, dice, paper)


class SharedRecognizer:
    """The process's dice recognizer, loaded on first use and then kept: a photo without the mat, refused
    before any die is read, never loads the models (and a missing model is looked for again next time)."""

    def recognize_pixels(self, pixels: BGRImage) -> DiceObservation:
        return _loaded_recognizer().recognize_pixels(pixels)


@cache
def _loaded_recognizer() -> DiceRecognizer:
    return DiceRecognizer()
