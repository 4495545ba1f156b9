"""The Run Buster mat as data: its ArUco markers and, for each player, a hand zone and a roll zone.

Mat coordinates are millimetres on the printed A3 sheet (landscape, 420 x 297), x to the right and y down as
printed. Red sits at the bottom edge and Blue at the top, so each player's hand zone is the strip nearest
them and the two roll zones meet in the middle. A smaller paper shrinks everything by the same factor, so a
reader works in these units whatever the paper and only needs the printed scale to know how tall a die is.

Six markers of OpenCV's predefined 4x4 dictionary (ids 0-5) sit in the corners and halfway down the short
edges, outside every zone, so dice rarely cover more than one of them and any two fix the mat's homography.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np
from numpy.typing import NDArray

from vision.markers import Marker

FloatArray = NDArray[np.float64]

MAT_WIDTH = 420.0
MAT_HEIGHT = 297.0
MARKER_SIDE = 34.0
DIE_EDGE = 16.0
"""A standard die's edge in millimetres, the height that matters when a die's image is mapped to the mat."""


class Paper(Enum):
    """A sheet the mat prints on, with its landscape size in millimetres."""

    A3 = (420.0, 297.0)
    A4 = (297.0, 210.0)

    @property
    def scale(self) -> float:
        """Printed millimetres per mat unit."""
        return self.value[0] / MAT_WIDTH

    @classmethod
    def named(cls, name: str) -> Paper:
        try:
            return cls[name.upper()]
        except KeyError:
            raise ValueError(f"unknown paper {name!r}; choose one of: a3, a4") from None


class Side(Enum):
    """A player's side of the mat; Red is player 0 and starts in the rule text, Blue is player 1."""

    RED = 0
    BLUE = 1

    @property
    def label(self) -> str:
        return self.name.lower()

    @property
    def title(self) -> str:
        return self.name.capitalize()


class Area(Enum):
    HAND = "hand"
    ROLL = "roll"


@dataclass(frozen=True)
class Zone:
    """A rectangle of the mat holding one player's hand or roll: `left, top, right, bottom` in mat units."""

    side: Side
    area: Area
    left: float
    top: float
    right: float
    bottom: float

    @property
    def key(self) -> str:
        """The zone's name in readings and corrections: ``red.hand``, ``blue.roll``..."""
        return f"{self.side.label}.{self.area.value}"

    def contains(self, x: float, y: float) -> bool:
        return self.left <= x <= self.right and self.top <= y <= self.bottom

    def distance(self, x: float, y: float) -> float:
        """How far a point lies outside the zone (0 inside)."""
        dx = max(self.left - x, 0.0, x - self.right)
        dy = max(self.top - y, 0.0, y - self.bottom)
        return float(np.hypot(dx, dy))


_ZONE_LEFT, _ZONE_RIGHT = 84.0, 336.0
_LABEL_WIDTH = 26.0

MARKERS: tuple[Marker, ...] = (
    Marker(0, 10.0, 10.0, MARKER_SIDE),
    Marker(1, MAT_WIDTH - 10.0 - MARKER_SIDE, 10.0, MARKER_SIDE),
    Marker(2, 10.0, MAT_HEIGHT - 10.0 - MARKER_SIDE, MARKER_SIDE),
    Marker(3, MAT_WIDTH - 10.0 - MARKER_SIDE, MAT_HEIGHT - 10.0 - MARKER_SIDE, MARKER_SIDE),
    Marker(4, 10.0, (MAT_HEIGHT - MARKER_SIDE) / 2, MARKER_SIDE),
    Marker(5, MAT_WIDTH - 10.0 - MARKER_SIDE, (MAT_HEIGHT - MARKER_SIDE) / 2, MARKER_SIDE),
)

ZONES: tuple[Zone, ...] = (
    Zone(Side.RED, Area.HAND, _ZONE_LEFT, 235.0, _ZONE_RIGHT, 287.0),
    Zone(Side.RED, Area.ROLL, _ZONE_LEFT, 157.0, _ZONE_RIGHT, 225.0),
    Zone(Side.BLUE, Area.HAND, _ZONE_LEFT, 10.0, _ZONE_RIGHT, 62.0),
    Zone(Side.BLUE, Area.ROLL, _ZONE_LEFT, 72.0, _ZONE_RIGHT, 140.0),
)
ZONE_KEYS: tuple[str, ...] = tuple(zone.key for zone in ZONES)


@dataclass(frozen=True)
class PrintedArea:
    """A rectangle of lettering outside every zone (a zone's name, the title, the scale bar), in mat units.

    Letters can look like pips to a dice detector, so nothing found on them counts as a die; keeping them
    out of the zones means no die in play ever stands on them.
    """

    left: float
    top: float
    right: float
    bottom: float

    def contains(self, x: float, y: float) -> bool:
        return self.left <= x <= self.right and self.top <= y <= self.bottom


def zone_label_area(zone: Zone) -> PrintedArea:
    """Where a zone's name is printed: beside the zone's end at the player's left (Blue sits opposite)."""
    if zone.side is Side.RED:
        return PrintedArea(zone.left - 6.0 - _LABEL_WIDTH, zone.top, zone.left - 6.0, zone.bottom)
    return PrintedArea(zone.right + 6.0, zone.top, zone.right + 6.0 + _LABEL_WIDTH, zone.bottom)


TITLE_AREA = PrintedArea(_ZONE_LEFT, 142.0, _ZONE_LEFT + 90.0, 155.0)
SCALE_BAR_AREA = PrintedArea(_ZONE_RIGHT - 60.0, 142.0, _ZONE_RIGHT, 155.0)
PRINTED_AREAS: tuple[PrintedArea, ...] = (
    *(zone_label_area(z) for z in ZONES),
    TITLE_AREA,
    SCALE_BAR_AREA,
)


def zone(side: Side, area: Area) -> Zone:
    return next(z for z in ZONES if z.side is side and z.area is area)


def zone_named(key: str) -> Zone:
    for candidate in ZONES:
        if candidate.key == key:
            return candidate
    raise ValueError(f"the mat has no zone {key!r}; its zones are {', '.join(ZONE_KEYS)}")
