"""The printable mat: drawn from the layout in `vision.runbuster.mat`, written out by `vision.markers`."""

from __future__ import annotations

from typing import cast

import cv2
import numpy as np

from vision.markers import BGRImage, draw_markers, print_scale
from vision.runbuster.mat import (
    MARKERS,
    MAT_HEIGHT,
    MAT_WIDTH,
    SCALE_BAR_AREA,
    TITLE_AREA,
    ZONES,
    Paper,
    PrintedArea,
    Side,
    Zone,
    zone_label_area,
)

SCALE_BAR = 50.0
"""The length of the bar printed to check the print scale, in millimetres on A3."""

INK = {Side.RED: (43, 49, 200), Side.BLUE: (200, 99, 45)}
TINT = {Side.RED: (228, 231, 252), Side.BLUE: (252, 236, 226)}


def draw_mat(px_per_unit: float) -> BGRImage:
    """The mat as printed, `px_per_unit` pixels per mat unit (millimetre of the A3 print), white paper."""
    width, height = round(MAT_WIDTH * px_per_unit), round(MAT_HEIGHT * px_per_unit)
    image = np.full((height, width, 3), 255, np.uint8)
    for zone in ZONES:
        _draw_zone(image, zone, px_per_unit)
    draw_markers(image, MARKERS, px_per_unit)
    _draw_title(image, px_per_unit)
    # Blue reads the mat from the far edge: its labels are drawn on the sheet turned half a turn.
    turned = cast(BGRImage, cv2.rotate(image, cv2.ROTATE_180))
    for zone in ZONES:
        if zone.side is Side.BLUE:
            area = zone_label_area(zone)
            flipped = PrintedArea(
                MAT_WIDTH - area.right, MAT_HEIGHT - area.bottom, MAT_WIDTH - area.left, MAT_HEIGHT - area.top
            )
            _label_zone(turned, zone, flipped, px_per_unit)
    image = cast(BGRImage, cv2.rotate(turned, cv2.ROTATE_180))
    for zone in ZONES:
        if zone.side is Side.RED:
            _label_zone(image, zone, zone_label_area(zone), px_per_unit)
    return image


def _point(x: float, y: float, px_per_unit: float) -> tuple[int, int]:
    return round(x * px_per_unit), round(y * px_per_unit)


def _draw_zone(image: BGRImage, zone: Zone, px_per_unit: float) -> None:
    top_left = _point(zone.left, zone.top, px_per_unit)
    bottom_right = _point(zone.right, zone.bottom, px_per_unit)
    cv2.rectangle(image, top_left, bottom_right, TINT[zone.side], -1)
    line = max(1, round(1.2 * px_per_unit))
    cv2.rectangle(image, top_left, bottom_right, INK[zone.side], line, cv2.LINE_AA)


def _label_zone(image: BGRImage, zone: Zone, area: PrintedArea, px_per_unit: float) -> None:
    """The zone's owner and use in two lines up the label strip, read from the player's side."""
    x0, y0 = _point(area.left, area.top, px_per_unit)
    x1, y1 = _point(area.right, area.bottom, px_per_unit)
    # Drawn level on the strip turned a quarter clockwise, then turned back: the text runs up the strip.
    strip = np.ascontiguousarray(cv2.rotate(image[y0:y1, x0:x1], cv2.ROTATE_90_CLOCKWISE))
    scale = 7.0 * px_per_unit / 22.0
    thickness = max(1, round(0.8 * px_per_unit))
    for line, text in enumerate((zone.side.name, zone.area.name)):
        origin = _point(3.0, 10.0 + line * 11.0, px_per_unit)
        cv2.putText(
            strip, text, origin, cv2.FONT_HERSHEY_DUPLEX, scale, INK[zone.side], thickness, cv2.LINE_AA
        )
    image[y0:y1, x0:x1] = cv2.rotate(strip, cv2.ROTATE_90_COUNTERCLOCKWISE)


def _draw_title(image: BGRImage, px_per_unit: float) -> None:
    """The game's name in the middle band and a bar to check the print scale."""
    ink = (40, 40, 40)
    title = TITLE_AREA
    origin = _point(title.left + 2.0, title.bottom - 3.0, px_per_unit)
    scale, thickness = 7.0 * px_per_unit / 22.0, max(1, round(0.8 * px_per_unit))
    cv2.putText(image, "RUN BUSTER", origin, cv2.FONT_HERSHEY_DUPLEX, scale, ink, thickness, cv2.LINE_AA)
    bar = SCALE_BAR_AREA
    middle = (bar.top + bar.bottom) / 2 - 2.0
    left = bar.left + 4.0
    top_left, bottom_right = (
        _point(left, middle - 1.0, px_per_unit),
        _point(left + SCALE_BAR, middle + 1.0, px_per_unit),
    )
    cv2.rectangle(image, top_left, bottom_right, ink, -1)
    label_scale, label_thickness = 3.0 * px_per_unit / 22.0, max(1, round(0.3 * px_per_unit))
    label_origin = _point(left, bar.bottom - 1.0, px_per_unit)
    label = f"{SCALE_BAR:.0f} mm on A3"
    cv2.putText(
        image, label, label_origin, cv2.FONT_HERSHEY_SIMPLEX, label_scale, ink, label_thickness, cv2.LINE_AA
    )


def mat_image(paper: Paper, dpi: float) -> BGRImage:
    """The mat drawn for `paper` at `dpi` dots per inch."""
    return draw_mat(print_scale(dpi) * paper.scale)
