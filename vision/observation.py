"""The value types recognition produces: dice found in one image, with per-die confidences and timings.

Coordinates are pixels of the image as stored on disk (before any EXIF rotation), x to the right and
y down, so that a client can draw on the file it sent without knowing about orientation tags.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

Box = tuple[float, float, float, float]
"""An axis-aligned box: left, top, right, bottom in pixels."""


def box_centre(box: Box) -> tuple[float, float]:
    """The box's middle: where a die found by its box is said to be."""
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def box_area(box: Box) -> float:
    return (box[2] - box[0]) * (box[3] - box[1])


def overlap_area(a: Box, b: Box) -> float:
    """The area two boxes share (0 when they are apart)."""
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return width * height if width > 0 and height > 0 else 0.0


def overlap_areas(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """`overlap_area` of each of the boxes `a` (N x 4) with each of `b` (M x 4), as an N x M array: the same
    arithmetic, for the hundreds of boxes a detector pass compares."""
    a, b = a[:, None, :], b[None, :, :]
    width = np.minimum(a[..., 2], b[..., 2]) - np.maximum(a[..., 0], b[..., 0])
    height = np.minimum(a[..., 3], b[..., 3]) - np.maximum(a[..., 1], b[..., 1])
    areas: npt.NDArray[np.float64] = np.where((width > 0) & (height > 0), width * height, 0.0)
    return areas


def box_areas(boxes: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """`box_area` of each of `boxes` (N x 4)."""
    areas: npt.NDArray[np.float64] = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    return areas


def box_iou(a: Box, b: Box) -> float:
    """Intersection over union of two boxes (0 where they do not overlap)."""
    overlap = overlap_area(a, b)
    return overlap / (box_area(a) + box_area(b) - overlap) if overlap else 0.0


def box_ious(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """`box_iou` of each of the boxes `a` (N x 4) with each of `b` (M x 4), as an N x M array."""
    overlap = overlap_areas(a, b)
    union = box_areas(a)[:, None] + box_areas(b)[None, :]
    ious: npt.NDArray[np.float64] = np.divide(
        overlap, union - overlap, out=np.zeros_like(overlap), where=overlap != 0
    )
    return ious


def kept_in_order(order: Iterable[int], clashes: npt.NDArray[np.bool_]) -> list[int]:
    """The indices of `order` each kept unless it clashes with one kept before it (`clashes[i, j]`, both
    ways): the greedy pass behind the detector's duplicates and the recognizer's parts of dice."""
    taken = np.zeros(len(clashes), bool)
    kept = []
    for index in order:
        if not taken[index]:
            kept.append(index)
            taken |= clashes[index]
    return kept


@dataclass(frozen=True)
class DetectedDie:
    """One die: where it is (centre and axis-aligned box) and its read top-face value and colour."""

    center: tuple[float, float]
    box: Box
    value: int
    color: str
    detection_confidence: float
    value_confidence: float
    color_confidence: float

    @property
    def width(self) -> float:
        return self.box[2] - self.box[0]

    @property
    def height(self) -> float:
        return self.box[3] - self.box[1]

    def to_json(self) -> dict[str, Any]:
        """The command line's per-die JSON: centre, size, value, colour and the two reading confidences."""
        return {
            "x": round(self.center[0], 1),
            "y": round(self.center[1], 1),
            "w": round(self.width, 1),
            "h": round(self.height, 1),
            "value": self.value,
            "color": self.color,
            "value_confidence": round(self.value_confidence, 4),
            "color_confidence": round(self.color_confidence, 4),
        }


@dataclass(frozen=True)
class DiceObservation:
    """Everything recognised in one image, plus how long each stage took (milliseconds, by stage name)."""

    width: int
    height: int
    dice: tuple[DetectedDie, ...]
    timings_ms: Mapping[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "height": self.height,
            "dice": [die.to_json() for die in self.dice],
            "timings_ms": {stage: round(ms, 2) for stage, ms in self.timings_ms.items()},
        }
