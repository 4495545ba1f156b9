"""Procedural table surfaces: what the dice lie on.

Each surface is painted flat, as seen from straight above, on a canvas whose scale is `px_per_unit` pixels per
die edge, so wood grain, felt mottling and printed shapes keep their real size next to the dice; the scene
then warps the canvas into the camera's perspective. Printed boards carry hard negatives: die-face icons,
numbers and coloured squares that a detector must learn not to call dice.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.colors import hsv_to_bgr
from vision.synth.dice import PIP_LAYOUTS, spread3

Image = NDArray[np.float32]

BACKGROUND_KINDS: tuple[str, ...] = ("tray", "wood", "felt", "paper", "board", "cloth", "stone")

PAINT_SCALE: dict[str, float] = {"board": 1.0, "paper": 0.75}
"""Canvas resolution relative to the image, per kind: smooth surfaces are painted at half resolution (the
default) and enlarged by the perspective warp; printed boards keep their sharp edges and small print."""


class UnknownBackground(ValueError):
    """A background kind the renderer does not paint."""


def value_noise(height: int, width: int, cells: tuple[int, int], rng: np.random.Generator) -> Image:
    """Smooth noise in about 0..1 with `cells` (rows, columns) random knots across the canvas."""
    grid = rng.random((cells[0] + 1, cells[1] + 1)).astype(np.float32)
    return np.asarray(cv2.resize(grid, (width, height), interpolation=cv2.INTER_CUBIC))


def _cells(extent_px: int, px_per_unit: float, unit_size: float) -> int:
    return max(1, min(64, int(extent_px / max(px_per_unit * unit_size, 1.0))))


def _random_bgr(
    rng: np.random.Generator, saturation: tuple[float, float], value: tuple[float, float]
) -> NDArray[np.float32]:
    return np.asarray(
        hsv_to_bgr(rng.uniform(0, 180), rng.uniform(*saturation), rng.uniform(*value)), dtype=np.float32
    )


def solid_canvas(
    height: int, width: int, colour: Sequence[float] | NDArray[np.floating[Any]], dtype: type = np.float32
) -> NDArray[Any]:
    """An (height, width, 3) canvas of one colour, filled a row at a time: filling with a (3,) colour by
    broadcasting runs an inner loop of length 3 and is many times slower."""
    canvas: NDArray[Any] = np.empty((height, width * 3), dtype)
    canvas[:] = np.tile(np.asarray(colour, dtype), width)
    return canvas.reshape(height, width, 3)


def _grid(height: int, width: int, step: float) -> tuple[Image, Image]:
    """Row and column coordinates times `step`, as (height, 1) and (1, width) arrays that broadcast."""
    ys = (np.arange(height, dtype=np.float32) * np.float32(step))[:, None]
    xs = (np.arange(width, dtype=np.float32) * np.float32(step))[None, :]
    return ys, xs


def _mix(first: NDArray[np.float32], second: NDArray[np.float32], weight: Image) -> Image:
    """Per pixel, `first` colour blended towards `second` by `weight` (0..1), as an (H, W, 3) canvas."""
    weight = weight.astype(np.float32, copy=False)
    return np.asarray(
        cv2.merge([np.float32(a) + np.float32(b - a) * weight for a, b in zip(first, second, strict=True)]),
        np.float32,
    )


def _mottle(canvas: Image, px_per_unit: float, rng: np.random.Generator, amount: float, unit: float) -> Image:
    h, w = canvas.shape[:2]
    noise = value_noise(h, w, (_cells(h, px_per_unit, unit), _cells(w, px_per_unit, unit)), rng)
    canvas *= spread3(1.0 + amount * (noise - 0.5))
    return canvas


def _streaks(height: int, width: int, angle: float, rng: np.random.Generator) -> Image:
    """Fine streaks running along `angle`: noise with many knots across the grain and few along it."""
    side = int(math.hypot(height, width)) + 2
    noise = value_noise(side, side, (max(side // 3, 2), max(side // 60, 2)), rng)
    turn = cv2.getRotationMatrix2D((side / 2, side / 2), -math.degrees(angle), 1.0)
    turn[:, 2] -= np.array([(side - width) / 2, (side - height) / 2])
    return np.asarray(cv2.warpAffine(noise, turn, (width, height)), np.float32)


def paint_wood(height: int, width: int, px_per_unit: float, rng: np.random.Generator) -> Image:
    """Planks with wavy grain, from pale pine to dark walnut."""
    angle = rng.uniform(0, math.pi)
    ys, xs = _grid(height, width, 1.0 / px_per_unit)
    across = -xs * math.sin(angle) + ys * math.cos(angle)
    warp = value_noise(height, width, (_cells(height, px_per_unit, 4), _cells(width, px_per_unit, 4)), rng)
    rings = 0.5 + 0.5 * np.sin((across * rng.uniform(0.8, 3.0) + warp * rng.uniform(0.3, 1.5)) * 2 * math.pi)
    for _ in range(int(rng.integers(0, 3))):  # sharper rings: squared or cubed
        rings = rings * (0.5 + 0.5 * rings)
    grain = 0.6 * rings + 0.4 * _streaks(height, width, angle, rng)
    plank_width = rng.uniform(3.0, 12.0)
    position = across / plank_width + 1000
    plank = np.floor(position).astype(np.int32)
    tones = rng.uniform(0.88, 1.12, size=int(plank.max()) + 2).astype(np.float32)
    seam = np.abs(position - plank - 0.5) > 0.5 - 0.03 / plank_width * px_per_unit / 10
    hue = rng.uniform(8, 22)
    light = np.asarray(hsv_to_bgr(hue, rng.uniform(0.25, 0.7), rng.uniform(0.4, 0.95)), np.float32)
    dark = light * rng.uniform(0.6, 0.85)
    canvas = _mix(light, dark, grain)
    # Tones repeat every len(tones) planks: a table seen nearly edge-on, as a camera leaning 45 degrees with
    # a wide lens sees its far edge, holds planks past the offset above (negative ones, read from the end).
    canvas *= spread3(tones[plank % len(tones)] * np.where(seam, np.float32(0.55), np.float32(1.0)))
    return canvas


def paint_felt(height: int, width: int, px_per_unit: float, rng: np.random.Generator) -> Image:
    """A dice mat or card-table cloth: a saturated or dark colour, softly mottled."""
    canvas = solid_canvas(height, width, _random_bgr(rng, (0.3, 0.9), (0.15, 0.65)))
    return _mottle(canvas, px_per_unit, rng, 0.12, 3.0)


def paint_paper(height: int, width: int, px_per_unit: float, rng: np.random.Generator) -> Image:
    """Off-white paper, sometimes ruled or squared like a score pad."""
    canvas = solid_canvas(height, width, _random_bgr(rng, (0.0, 0.12), (0.75, 0.98)))
    style = rng.integers(3)
    if style > 0:
        ink = _random_bgr(rng, (0.2, 0.6), (0.4, 0.8))
        spacing = max(rng.uniform(0.3, 0.8) * px_per_unit, 4.0)
        thickness = 1
        for y in np.arange(rng.uniform(0, spacing), height, spacing):
            cv2.line(canvas, (0, int(y)), (width, int(y)), ink.tolist(), thickness, cv2.LINE_AA)
        if style == 2:
            for x in np.arange(rng.uniform(0, spacing), width, spacing):
                cv2.line(canvas, (int(x), 0), (int(x), height), ink.tolist(), thickness, cv2.LINE_AA)
    if rng.random() < 0.4:
        # A score sheet's printed die faces: pips without a die.
        ink = _random_bgr(rng, (0.0, 0.7), (0.05, 0.5))
        paper = canvas[0, 0].copy()
        for _ in range(int(rng.integers(2, 12))):
            center = (rng.uniform(0, width), rng.uniform(0, height))
            size = rng.uniform(0.4, 1.2) * px_per_unit
            icon_angle = rng.uniform(0, 2 * math.pi)
            draw_die_icon(canvas, center, size, icon_angle, int(rng.integers(1, 7)), paper * 0.97, ink)
    return _mottle(canvas, px_per_unit, rng, 0.08, 4.0)


def paint_cloth(height: int, width: int, px_per_unit: float, rng: np.random.Generator) -> Image:
    """A checked or striped tablecloth with soft folds."""
    angle = rng.uniform(0, math.pi)
    ys, xs = _grid(height, width, 1.0 / px_per_unit)
    u = xs * math.cos(angle) + ys * math.sin(angle)
    v = -xs * math.sin(angle) + ys * math.cos(angle)
    period = rng.uniform(0.8, 5.0)
    # Square waves with edges one canvas pixel wide, so the weave does not alias.
    sharpness = px_per_unit * period / (2 * math.pi)
    stripes_u = np.clip(0.5 + sharpness * np.sin(u * (2 * math.pi / period)), 0.0, 1.0)
    stripes_v = np.clip(0.5 + sharpness * np.sin(v * (2 * math.pi / period)), 0.0, 1.0)
    first = _random_bgr(rng, (0.3, 0.9), (0.3, 0.9))
    second = _random_bgr(rng, (0.0, 0.2), (0.8, 1.0))
    weave = 0.5 * (stripes_u + stripes_v) if rng.random() < 0.6 else stripes_u
    return _mottle(_mix(second, first, np.asarray(weave, np.float32)), px_per_unit, rng, 0.3, 6.0)


def paint_stone(height: int, width: int, px_per_unit: float, rng: np.random.Generator) -> Image:
    """A granite or marble table top: cloudy tones, fine speckles and, on marble, thin veins."""
    base = _random_bgr(rng, (0.0, 0.25), (0.2, 0.9))
    canvas = solid_canvas(height, width, base)
    cloud = sum(
        value_noise(height, width, (_cells(height, px_per_unit, unit), _cells(width, px_per_unit, unit)), rng)
        * weight
        for unit, weight in ((6.0, 0.5), (1.5, 0.3), (0.4, 0.2))
    )
    canvas *= spread3(0.8 + 0.4 * np.asarray(cloud, np.float32))
    if rng.random() < 0.5:
        veins = np.abs(np.sin(np.asarray(cloud, np.float32) * rng.uniform(15, 40)))
        canvas *= spread3((1 - rng.uniform(0.2, 0.5) * (veins < 0.08)).astype(np.float32))
    speckles = rng.random((height, width)) < rng.uniform(0.005, 0.05)
    canvas[speckles] *= rng.uniform(0.3, 1.6)
    return canvas


def draw_die_icon(
    canvas: NDArray[np.uint8] | Image,
    center: tuple[float, float],
    size: float,
    angle: float,
    value: int,
    body: NDArray[np.float32],
    pip: NDArray[np.float32],
) -> None:
    """A printed, flat die face: a hard negative that has pips but no depth, sides or shadow.

    Colours are in the canvas's own scale (0-255 for an 8-bit canvas)."""
    corners = cv2.boxPoints(((center[0], center[1]), (size, size), math.degrees(angle)))
    cv2.fillConvexPoly(canvas, np.round(corners * 16).astype(np.int32), body.tolist(), cv2.LINE_AA, 4)
    spread = 0.27 * size
    cos_a, sin_a = math.cos(angle), math.sin(angle)
    radius = max(size * 0.1, 1.0)
    for col, row in PIP_LAYOUTS[value]:
        dx, dy = col * spread, row * spread
        x = center[0] + dx * cos_a - dy * sin_a
        y = center[1] + dx * sin_a + dy * cos_a
        cv2.circle(canvas, (int(x * 16), int(y * 16)), int(radius * 16), pip.tolist(), -1, cv2.LINE_AA, 4)


def paint_board(height: int, width: int, px_per_unit: float, rng: np.random.Generator) -> Image:
    """A printed game board or box lid: coloured shapes, tracks of squares, numbers and die-face icons."""
    # Drawn in 8-bit because OpenCV writes text only into 8-bit images.
    canvas = solid_canvas(height, width, np.round(_random_bgr(rng, (0.0, 0.8), (0.3, 1.0)) * 255), np.uint8)
    area_units = height * width / px_per_unit**2
    for _ in range(int(min(area_units / 6, 80) * rng.uniform(0.3, 1.0))):
        colour = (_random_bgr(rng, (0.0, 1.0), (0.1, 1.0)) * 255).tolist()
        x, y = rng.uniform(0, width), rng.uniform(0, height)
        extent = rng.uniform(0.3, 4.0) * px_per_unit
        kind = rng.integers(6)
        if kind == 0:
            box = ((x, y), (extent, extent * rng.uniform(0.3, 3)), rng.uniform(0, 180))
            points = np.round(cv2.boxPoints(box) * 16).astype(np.int32)
            cv2.fillConvexPoly(canvas, points, colour, cv2.LINE_AA, 4)
        elif kind == 1:
            cv2.circle(canvas, (int(x), int(y)), int(extent / 2), colour, -1, cv2.LINE_AA)
        elif kind == 2:
            end = (int(x + rng.uniform(-3, 3) * extent), int(y + rng.uniform(-3, 3) * extent))
            cv2.line(canvas, (int(x), int(y)), end, colour, max(1, int(extent * 0.08)), cv2.LINE_AA)
        elif kind == 3:
            text = (
                str(rng.integers(1, 13))
                if rng.random() < 0.7
                else "".join(chr(65 + int(c)) for c in rng.integers(0, 26, size=rng.integers(2, 7)))
            )
            scale = extent / 30.0
            cv2.putText(
                canvas,
                text,
                (int(x), int(y)),
                int(rng.integers(0, 8)),
                scale,
                colour,
                max(1, int(scale * 2)),
                cv2.LINE_AA,
            )
        elif kind == 4:
            step = extent * 0.9
            angle = rng.uniform(0, 2 * math.pi)
            for i in range(int(rng.integers(3, 9))):
                cx = x + i * step * math.cos(angle)
                cy = y + i * step * math.sin(angle)
                box = ((cx, cy), (step * 0.92, step * 0.92), math.degrees(angle))
                points = np.round(cv2.boxPoints(box) * 16).astype(np.int32)
                cv2.polylines(canvas, [points], True, colour, max(1, int(step * 0.05)), cv2.LINE_AA, 4)
        else:
            body = _random_bgr(rng, (0.0, 1.0), (0.2, 1.0))
            pip = np.float32(1.0) - body if rng.random() < 0.5 else _random_bgr(rng, (0, 0.2), (0.0, 1.0))
            size = rng.uniform(0.4, 1.6) * px_per_unit
            icon_angle = rng.uniform(0, 2 * math.pi)
            draw_die_icon(canvas, (x, y), size, icon_angle, int(rng.integers(1, 7)), body * 255, pip * 255)
    return canvas.astype(np.float32) * np.float32(1 / 255)


def paint_tray(height: int, width: int, px_per_unit: float, rng: np.random.Generator) -> Image:
    """A white or light grey dice tray whose rim crosses the view, with another surface beyond it."""
    outside_kind = ("wood", "felt", "board", "paper", "cloth", "stone")[int(rng.integers(6))]
    canvas = paint_surface(outside_kind, height, width, px_per_unit, rng)
    floor_colour = _random_bgr(rng, (0.0, 0.08), (0.6, 0.97))
    rim_colour = floor_colour * rng.uniform(0.9, 1.15)
    inset = rng.uniform(-0.3, 0.25, size=4) * np.array([width, height, width, height])
    x0, y0 = inset[0], inset[1]
    x1, y1 = width - inset[2], height - inset[3]
    rim = rng.uniform(0.4, 1.5) * px_per_unit
    ys, xs = _grid(height, width, 1.0)
    inside_floor = np.minimum(np.minimum(xs - x0, x1 - xs), np.minimum(ys - y0, y1 - ys))
    floor = np.clip(inside_floor / 1.5, 0, 1)
    wall = np.clip((inside_floor + rim) / 1.5, 0, 1) * (1 - floor)
    wall_shade = 0.8 + 0.3 * np.clip(-inside_floor / max(rim, 1.0), 0, 1)
    tray_floor = _mottle(solid_canvas(height, width, floor_colour), px_per_unit, rng, 0.06, 3.0)
    canvas *= spread3(1 - floor - wall)
    canvas += tray_floor * spread3(floor)
    canvas += _mix(np.zeros(3, np.float32), rim_colour, wall_shade * wall)
    return canvas


_PAINTERS = {
    "wood": paint_wood,
    "felt": paint_felt,
    "paper": paint_paper,
    "board": paint_board,
    "cloth": paint_cloth,
    "tray": paint_tray,
    "stone": paint_stone,
}


def paint_surface(kind: str, height: int, width: int, px_per_unit: float, rng: np.random.Generator) -> Image:
    """A (height, width, 3) BGR float canvas of the table surface `kind` (one of BACKGROUND_KINDS)."""
    try:
        painter = _PAINTERS[kind]
    except KeyError:
        raise UnknownBackground(
            f"unknown background kind {kind!r}; expected one of {', '.join(BACKGROUND_KINDS)}"
        ) from None
    return painter(height, width, px_per_unit, rng)
