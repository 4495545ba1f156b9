"""Real dice in rendered photos: dice cut from the labelled top-down photos (tests/data/dice_real) along
their silhouettes and laid into rendered scenes.

The real photos all show one white tray. Laid on the renderer's tables (wood, felt, cloth, printed boards)
under its light and camera, those same dice check how recognition meets real dice on tables no photo shows,
and `vision.synth.sagrada.paste_real_dice` fills Sagrada windows with them.
"""

from __future__ import annotations

import csv
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.synth.scene import RenderedDie, Scene, SceneConfig, draw_objects, photograph, stage_table

CROP_TO_BOX = 1.12
"""A crop's side over its die's labelled box: the die and a rim of tray round it."""
MAX_TILT_DEG = 20.0
"""The steepest view of a table of real dice: the crops are top-down photos laid flat, which a steeper
camera would show as pictures lying on the table."""


@dataclass(frozen=True)
class RealDieCrop:
    """A die cut from a real top-down photo: its pixels (BGR), a soft mask of the die, value and colour."""

    pixels: NDArray[np.uint8]
    mask: NDArray[np.float32]
    value: int
    color: str
    """The die's colour name as `colors.csv` gives it (a die colour, or "other")."""
    source: str
    """The photo's file name and the die's index in its label file."""


def die_mask(crop: NDArray[np.uint8]) -> NDArray[np.float32] | None:
    """The die's silhouette in a crop whose border shows the tray: pixels far from the border's colour,
    closed into their convex hull. None when no convincing silhouette is found."""
    border = np.concatenate((crop[0], crop[-1], crop[:, 0], crop[:, -1])).astype(np.float32)
    tray = np.median(border, axis=0)
    distance = np.abs(crop.astype(np.float32) - tray).max(axis=2)
    foreground = (distance > 40).astype(np.uint8)
    rim = np.concatenate((foreground[0], foreground[-1], foreground[:, 0], foreground[:, -1]))
    if rim.mean() > 0.15:  # a neighbouring die or the tray's edge reaches into the crop
        return None
    contours, _ = cv2.findContours(foreground, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    area = cv2.contourArea(hull) / (crop.shape[0] * crop.shape[1])
    if not 0.3 <= area <= 0.95:
        return None
    filled = np.zeros(crop.shape[:2], np.uint8)
    cv2.fillConvexPoly(filled, hull, 255)
    shrunk = cv2.erode(filled, np.ones((3, 3), np.uint8))
    return np.asarray(cv2.GaussianBlur(shrunk, (0, 0), 0.8), np.float32) * np.float32(1 / 255)


def load_real_dice(
    root: Path, colors: Collection[str], images: Collection[str] | None = None
) -> list[RealDieCrop]:
    """Crops of the dice of `colors` (names as in colors.csv) in a real dice set laid out like
    tests/data/dice_real (images/, labels/ in YOLO format with class = value - 1, colors.csv), skipping dice
    with an unclear silhouette.

    `images` limits the crops to those photos (file names), e.g. a validation split never trained on."""
    wanted = set(colors)
    by_image: dict[str, dict[int, str]] = {}
    with (root / "colors.csv").open(newline="") as handle:
        for row in csv.DictReader(handle):
            if row["color"] in wanted and (images is None or row["filename"] in images):
                by_image.setdefault(row["filename"], {})[int(row["index"])] = row["color"]
    crops = []
    for filename, dice_colors in sorted(by_image.items()):
        image = cv2.imread(str(root / "images" / filename))
        if image is None:
            raise FileNotFoundError(
                f"{root / 'images' / filename} is listed in colors.csv but cannot be read"
            )
        height, width = image.shape[:2]
        lines = (root / "labels" / (Path(filename).stem + ".txt")).read_text().split("\n")
        for index, color in sorted(dice_colors.items()):
            klass, xc, yc, w, h = (float(v) for v in lines[index].split())
            half = max(w * width, h * height) * CROP_TO_BOX / 2
            x0, x1 = round(xc * width - half), round(xc * width + half)
            y0, y1 = round(yc * height - half), round(yc * height + half)
            if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
                continue
            crop = np.ascontiguousarray(image[y0:y1, x0:x1], np.uint8)
            mask = die_mask(crop)
            if mask is not None:
                crops.append(RealDieCrop(crop, mask, int(klass) + 1, color, f"{filename}#{index}"))
    return crops


def lay_crop(
    image: NDArray[np.float32],
    crop: RealDieCrop,
    crop_to_image: NDArray[np.float64],
    shadow_sigma: float,
    brightness: float = 1.0,
) -> NDArray[np.float32]:
    """`image` with `crop`'s die laid flat where the homography `crop_to_image` puts it, over a soft shadow
    cast down and right; `brightness` scales the crop's 0-255 pixels to the image's scale."""
    size = (image.shape[1], image.shape[0])
    mask = cv2.warpPerspective(crop.mask, crop_to_image, size, flags=cv2.INTER_LINEAR)[..., None]
    pixels = cv2.warpPerspective(
        crop.pixels.astype(np.float32) * np.float32(brightness), crop_to_image, size, flags=cv2.INTER_LINEAR
    )
    shadow = cv2.GaussianBlur(mask, (0, 0), shadow_sigma)[..., None]
    image *= 1 - 0.35 * np.roll(shadow, (2, 2), axis=(0, 1))
    laid: NDArray[np.float32] = image * (1 - mask) + pixels * mask
    return laid


def no_larger(crop: RealDieCrop, side: float) -> RealDieCrop:
    """`crop` shrunk by area averaging to about `side` pixels a side if it is larger: a camera farther away
    averages the die's light over its pixels, where warping straight down to a few pixels would alias the
    pips away."""
    rows, cols = crop.pixels.shape[:2]
    if side >= max(rows, cols):
        return crop
    size = (max(round(cols * side / max(rows, cols)), 2), max(round(rows * side / max(rows, cols)), 2))
    pixels = np.asarray(cv2.resize(crop.pixels, size, interpolation=cv2.INTER_AREA), np.uint8)
    mask = np.asarray(cv2.resize(crop.mask, size, interpolation=cv2.INTER_AREA), np.float32)
    return replace(crop, pixels=pixels, mask=mask)


def render_real_dice_scene(
    config: SceneConfig, crops: Sequence[RealDieCrop], rng: np.random.Generator
) -> Scene:
    """A rendered table photo (`config`'s camera, at most MAX_TILT_DEG from overhead, table, distractors,
    light and photo effects) whose dice are real ones: each die the renderer would stand is a crop, laid on
    the square through the die's middle. Labels as `render_scene`'s: the die's box, value and colour (the
    crop's)."""
    if not crops:
        raise ValueError("render_real_dice_scene needs at least one crop; load_real_dice found none")
    config = replace(config, max_tilt_deg=min(config.max_tilt_deg, MAX_TILT_DEG))
    table = stage_table(config, rng)
    camera, image = table.camera, table.image
    draw_objects(image, camera, table.distractors, table.lighting, config, rng)
    labels = []
    for placed in table.dice:
        box = placed.box
        middle = box.face_corners(box.up_face) - [0.0, 0.0, float(box.half_extents[0])]
        quad = camera.project(middle).astype(np.float32)
        edge = float(np.linalg.norm(quad[1] - quad[0]))
        crop = no_larger(crops[int(rng.integers(len(crops)))], edge * CROP_TO_BOX)
        turn = int(rng.integers(4))
        rows, cols = crop.pixels.shape[:2]
        die_corners = np.array([[0, 0], [1, 0], [1, 1], [0, 1]]) / CROP_TO_BOX + (1 - 1 / CROP_TO_BOX) / 2
        source = np.roll(die_corners * [cols, rows], turn, axis=0).astype(np.float32)
        crop_to_image = cv2.getPerspectiveTransform(source, quad).astype(np.float64)
        image = lay_crop(image, crop, crop_to_image, max(edge * 0.04, 1.0), brightness=1 / 255)
        centre = quad.mean(axis=0)
        (left, top), (right, bottom) = quad.min(axis=0), quad.max(axis=0)
        labels.append(
            RenderedDie(
                value=crop.value,
                color=crop.color,
                top_face=quad,
                outline=quad,
                box=(float(left), float(top), float(right), float(bottom)),
                center=(float(centre[0]), float(centre[1])),
                visible_fraction=1.0,
            )
        )
    return Scene(image=photograph(image, config, rng), dice=tuple(labels))
