"""Look at each space of a found window: is a die standing in it, and if not, what is printed there.

The window is first warped flat (the card seen from straight above, `PX_PER_UNIT` pixels per die edge), so
every space is the same square. A printed space is one of three things, and none of them is both coloured
and textured: a stained-glass colour (saturated, smooth), a value space (grey with light pips: textured but
not coloured) or a plain light space (neither). A die is coloured and textured at once (a coloured body with
pips and edges), so that pair of measures separates dice from every kind of empty space.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from engine.sagrada.window import ALL_CELLS, Cell, Color
from vision.sagrada.lattice import GRID_HEIGHT, GRID_WIDTH, GROUT, PITCH, SPACE, WindowLattice

BGRImage = npt.NDArray[np.uint8]

PX_PER_UNIT = 32
SPACE_PX = round(SPACE * PX_PER_UNIT)
_INNER = 0.1
"""Share of a space's side left out on each edge: a neighbouring die may lean over it."""

PRINTED_HUES: dict[Color, float] = {
    Color.RED: 0.0,
    Color.YELLOW: 24.0,
    Color.GREEN: 61.0,
    Color.BLUE: 107.0,
    Color.PURPLE: 140.0,
}
"""Centre hue (OpenCV's 0-180) of each printed stained-glass colour."""

_COLOURED = 60.0
"""Median saturation (0-255) above which a space is coloured (printed colours far above, grey far below)."""
_TEXTURED = 0.2
"""Mean brightness gradient, relative to the median brightness, above which a space is textured."""


@dataclass(frozen=True)
class SpaceLook:
    """What one space looks like: the two measures that tell dice from print (median saturation, and the
    mean brightness gradient relative to the median brightness), and its mean hue."""

    cell: Cell
    saturation: float
    texture: float
    hue: float
    die_score: float
    """Above 0 for a die, below 0 for an empty space; its size is how clear the call is."""

    @property
    def has_die(self) -> bool:
        return self.die_score > 0


@dataclass(frozen=True)
class PrintedSpace:
    """An empty space's print as read: a colour, a value (pips counted), or plain (both None)."""

    color: Color | None
    value: int | None


def flatten(image: BGRImage, lattice: WindowLattice) -> BGRImage:
    """The grid of spaces warped to a straight, top-down view at `PX_PER_UNIT` pixels per die edge."""
    size = (round(GRID_WIDTH * PX_PER_UNIT), round(GRID_HEIGHT * PX_PER_UNIT))
    grid_to_flat = np.diag([PX_PER_UNIT, PX_PER_UNIT, 1.0])
    image_to_flat = grid_to_flat @ np.linalg.inv(lattice.grid_to_image)
    flat = cv2.warpPerspective(
        image, image_to_flat, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )
    return cast(BGRImage, flat)


def space_pixels(flat: BGRImage, cell: Cell, inner: float = _INNER) -> BGRImage:
    """One space of the flattened grid, less `inner` of its side on every edge."""
    x0 = round((GROUT + cell.col * PITCH + inner * SPACE) * PX_PER_UNIT)
    y0 = round((GROUT + cell.row * PITCH + inner * SPACE) * PX_PER_UNIT)
    side = round(SPACE * (1 - 2 * inner) * PX_PER_UNIT)
    return flat[y0 : y0 + side, x0 : x0 + side]


def look_at_space(flat: BGRImage, cell: Cell) -> SpaceLook:
    pixels = space_pixels(flat, cell)
    hsv = cv2.cvtColor(pixels, cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.float32)
    saturation = float(np.median(hsv[:, 1]))
    grey = cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gradient = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    texture = float(gradient[2:-2, 2:-2].mean()) / max(float(np.median(hsv[:, 2])), 1.0)
    # Hue is circular (red wraps at 180): average it as an angle over the saturated pixels.
    saturated = hsv[hsv[:, 1] > 60, 0] if np.any(hsv[:, 1] > 60) else hsv[:, 0]
    angle = saturated * (np.pi / 90)
    hue = float(np.degrees(np.arctan2(np.sin(angle).mean(), np.cos(angle).mean())) / 2) % 180
    die_score = min(saturation / _COLOURED - 1, texture / _TEXTURED - 1)
    return SpaceLook(cell, saturation, texture, hue, die_score)


def look_at_spaces(flat: BGRImage) -> tuple[SpaceLook, ...]:
    """The 20 spaces, row-major."""
    return tuple(look_at_space(flat, cell) for cell in ALL_CELLS)


def nearest_printed_color(hue: float) -> Color:
    def distance(color: Color) -> float:
        gap = abs(hue - PRINTED_HUES[color]) % 180
        return min(gap, 180 - gap)

    return min(PRINTED_HUES, key=distance)


def read_print(flat: BGRImage, look: SpaceLook) -> PrintedSpace:
    """What is printed on an empty space: its colour, or the pips of a value space, or nothing."""
    if look.saturation > _COLOURED:
        return PrintedSpace(nearest_printed_color(look.hue), None)
    grey = cv2.cvtColor(space_pixels(flat, look.cell, inner=0.04), cv2.COLOR_BGR2GRAY)
    level = float(np.median(grey))
    pips = (grey > level + max(30.0, 0.25 * level)).astype(np.uint8)
    _, _, stats, _ = cv2.connectedComponentsWithStats(pips, connectivity=8)
    pip_area = (0.1 * SPACE * PX_PER_UNIT) ** 2 * np.pi
    sizes = stats[1:, cv2.CC_STAT_AREA]
    value = int(np.count_nonzero((sizes > 0.3 * pip_area) & (sizes < 2.5 * pip_area)))
    if 1 <= value <= 6 and level < 200:
        return PrintedSpace(None, value)
    return PrintedSpace(None, None)
