"""The value types recognition produces: dice found in one image, with per-die confidences and timings.

Coordinates are pixels of the image as stored on disk (before any EXIF rotation), x to the right and
y down, so that a client can draw on the file it sent without knowing about orientation tags.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

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


def share_inside(inner: Box, outer: Box) -> float:
    """How much of `inner`'s area lies inside `outer` (0 to 1)."""
    area = box_area(inner)
    return overlap_area(inner, outer) / area if area > 0 else 0.0


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
