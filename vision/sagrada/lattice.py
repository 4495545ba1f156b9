"""Find Sagrada windows in a photo and fit each one's 4x5 lattice of spaces, without markers.

A window card is a dark frame whose printed spaces (and the dice standing in them) are lighter, split by
thin dark grout. So the spaces show up as light, nearly square blobs enclosed by dark: blobs of one size
whose neighbours lie one pitch away are linked into a lattice, each blob gets integer lattice coordinates,
and a homography from the card's own coordinates (in die edges, as `vision.synth.sagrada` lays the card
out) to the photo is fitted to them with RANSAC. Which corner is r1c1 is decided by the card's asymmetry
(the 5 columns are the long side; the name strip under row 4 makes the bottom frame wide) and, when that
evidence is weak, by the pattern match the caller runs over both turns of the card.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from engine.sagrada.window import COLS, ROWS

FloatArray = npt.NDArray[np.float64]
BGRImage = npt.NDArray[np.uint8]

# Card geometry in die edges, the layout of the printed window cards.
SPACE = 1.14
GROUT = 0.1
PITCH = SPACE + GROUT
GRID_WIDTH = COLS * PITCH + GROUT
GRID_HEIGHT = ROWS * PITCH + GROUT
FRAME = 0.35
NAME_STRIP = 0.8

_DARK_LEVELS = ((60, 20), (85, 12), (40, 30))
"""Brightness (max of B, G, R) below which a pixel counts as card frame, and the black-hat contrast above
which it counts as grout, tried in this order."""
_LEAK_KERNEL = np.ones((3, 3), np.uint8)
"""Erosion that cuts the narrow light bridges a die or a blurred grout line makes between two spaces."""
_GROUT_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
_MIN_SPACES = 5
"""Fewest space blobs that make a window: fewer cannot fix a homography robustly."""


@dataclass(frozen=True)
class WindowLattice:
    """A window found in the photo: the homography from grid coordinates (die edges, x along the 5 columns
    from r1c1's outer corner, y down the 4 rows) to image pixels, and how sure the orientation is.

    `orientation_margin` is how much more the frame's evidence favours this turn of the card over the half
    turn (0 = no evidence either way, 1 = all of it); `spaces_seen` the blobs the fit rests on.
    """

    grid_to_image: FloatArray
    orientation_margin: float
    spaces_seen: int

    @property
    def corners(self) -> FloatArray:
        """Outer corners of the grid of spaces in the image: r1c1, r1c5, r4c5, r4c1."""
        grid = np.array([[0, 0], [GRID_WIDTH, 0], [GRID_WIDTH, GRID_HEIGHT], [0, GRID_HEIGHT]])
        return project(self.grid_to_image, grid)

    def cell_centers(self) -> FloatArray:
        """Image centres of the 20 spaces, row-major."""
        return project(self.grid_to_image, cell_centers_grid())

    def cell_quad(self, row: int, col: int) -> FloatArray:
        """The printed space's four corners in the image."""
        x0, y0 = GROUT + col * PITCH, GROUT + row * PITCH
        square = np.array([[x0, y0], [x0 + SPACE, y0], [x0 + SPACE, y0 + SPACE], [x0, y0 + SPACE]])
        return project(self.grid_to_image, square)

    def turned(self) -> WindowLattice:
        """The same lattice read the other way up (r1c1 and r4c5 swapped)."""
        half_turn = np.array([[-1.0, 0, GRID_WIDTH], [0, -1.0, GRID_HEIGHT], [0, 0, 1.0]])
        return WindowLattice(self.grid_to_image @ half_turn, -self.orientation_margin, self.spaces_seen)


def cell_centers_grid() -> FloatArray:
    """Grid coordinates of the 20 space centres, row-major."""
    offsets = GROUT + SPACE / 2 + PITCH * np.arange(max(ROWS, COLS))
    return np.array([[offsets[c], offsets[r]] for r in range(ROWS) for c in range(COLS)])


def project(homography: FloatArray, points: FloatArray) -> FloatArray:
    """Apply a 3x3 homography to (N, 2) points."""
    moved = cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2), homography)
    return cast(FloatArray, moved.reshape(-1, 2))


@dataclass(frozen=True)
class _Blob:
    center: FloatArray
    side: float
    angle: float
    """Direction of one of the blob's sides, in radians: the lattice's axes, modulo a quarter turn."""


def _space_blobs(dark: npt.NDArray[np.bool_], min_side: float) -> list[_Blob]:
    """Light, nearly square regions wholly enclosed by dark: candidate printed spaces (empty or not)."""
    light = cv2.erode((~dark).astype(np.uint8), _LEAK_KERNEL)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(light, connectivity=4)
    height, width = dark.shape
    x, y, w, h, area = (stats[:, i] for i in range(5))
    plausible = (
        (area >= min_side**2 * 0.6)
        & (np.maximum(w, h) <= 2.2 * np.sqrt(area) + 2)
        & (area <= height * width / 30)
        & (x > 0)
        & (y > 0)
        & (x + w < width)
        & (y + h < height)
    )
    blobs = []
    for index in np.nonzero(plausible)[0][1:] if plausible[0] else np.nonzero(plausible)[0]:
        x0, y0, x1, y1 = int(x[index]), int(y[index]), int(x[index] + w[index]), int(y[index] + h[index])
        mask = (labels[y0:y1, x0:x1] == index).astype(np.uint8)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        outline = max(contours, key=cv2.contourArea)
        filled = cv2.contourArea(outline)
        (_, _), (rect_w, rect_h), rect_angle = cv2.minAreaRect(outline)
        if (
            rect_w * rect_h <= 0
            or filled / (rect_w * rect_h) < 0.8
            or max(rect_w, rect_h) > 1.4 * min(rect_w, rect_h)
        ):
            continue
        moments = cv2.moments(outline)
        if moments["m00"] <= 0 or math.sqrt(filled) < min_side:
            continue
        center = np.array([moments["m10"] / moments["m00"] + x0, moments["m01"] / moments["m00"] + y0])
        side = math.sqrt(filled) + _LEAK_KERNEL.shape[0] - 1
        blobs.append(_Blob(center, side, math.radians(rect_angle)))
    return blobs


def _axis_near(angle: float, reference: float) -> float:
    """`angle` turned by whole quarter turns to lie within 45 degrees of `reference`."""
    quarter = math.pi / 2
    return angle + quarter * round((reference - angle) / quarter)


def _lattice_groups(blobs: list[_Blob]) -> list[dict[int, tuple[int, int]]]:
    """Link blobs of one size lying whole pitches apart along their own sides' directions into groups, and
    give each blob integer lattice coordinates; links may skip up to two spaces (dice hide many spaces)."""
    if len(blobs) < _MIN_SPACES:
        return []
    centers = np.array([b.center for b in blobs])
    sides = np.array([b.side for b in blobs])
    seen: set[int] = set()
    groups = []
    for start in sorted(range(len(blobs)), key=lambda i: -sides[i]):
        if start in seen:
            continue
        reference = blobs[start].angle
        coords = {start: (0, 0)}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            axis_angle = _axis_near(blobs[here].angle, reference)
            axis = np.array([math.cos(axis_angle), math.sin(axis_angle)])
            normal = np.array([-axis[1], axis[0]])
            offsets = centers - centers[here]
            pitch = (sides + sides[here]) / 2 * (PITCH / SPACE)
            along, across = offsets @ axis / pitch, offsets @ normal / pitch
            steps_a, steps_b = np.round(along), np.round(across)
            linked = (
                (np.abs(along - steps_a) < 0.22)
                & (np.abs(across - steps_b) < 0.22)
                & (np.abs(steps_a) + np.abs(steps_b) > 0)
                & (np.abs(steps_a) <= 3)
                & (np.abs(steps_b) <= 3)
                & (sides / sides[here] > 0.75)
                & (sides / sides[here] < 1.33)
            )
            for found in np.nonzero(linked)[0]:
                there = int(found)
                if there in coords or there in seen:
                    continue
                coords[there] = (coords[here][0] + int(steps_a[there]), coords[here][1] + int(steps_b[there]))
                queue.append(there)
        seen.update(coords)
        if len(coords) >= _MIN_SPACES:
            groups.append(coords)
    return groups


def _frame_samples() -> tuple[FloatArray, FloatArray]:
    """Grid-coordinate points on the card's frame: the plain border (left, right, top) and the wider
    bottom border holding the name strip."""
    step = 0.12
    border = []
    xs = np.arange(-FRAME + step / 2, GRID_WIDTH + FRAME, step)
    ys = np.arange(-FRAME + step / 2, GRID_HEIGHT, step)
    for depth in np.arange(step / 2, FRAME - 0.05, step):
        border += [[x, -depth] for x in xs]
        border += [[-depth, y] for y in ys] + [[GRID_WIDTH + depth, y] for y in ys]
    bottom = [
        [x, GRID_HEIGHT + depth] for depth in np.arange(step / 2, FRAME + NAME_STRIP - 0.05, step) for x in xs
    ]
    return np.array(border), np.array(bottom)


_BORDER_SAMPLES, _BOTTOM_SAMPLES = _frame_samples()


def _dark_share(dark: npt.NDArray[np.bool_], homography: FloatArray, points: FloatArray) -> float:
    """Share of `points` (grid coordinates) that land on dark pixels; points off the image count as light."""
    pixels = np.round(project(homography, points)).astype(np.int64)
    height, width = dark.shape
    inside = (pixels[:, 0] >= 0) & (pixels[:, 0] < width) & (pixels[:, 1] >= 0) & (pixels[:, 1] < height)
    hits = dark[pixels[inside, 1], pixels[inside, 0]]
    return float(hits.sum()) / len(points)


def _frame_score(dark: npt.NDArray[np.bool_], homography: FloatArray) -> float:
    """How well the frame a lattice placement predicts is dark in the photo (0-1)."""
    return (
        _dark_share(dark, homography, _BORDER_SAMPLES) + _dark_share(dark, homography, _BOTTOM_SAMPLES)
    ) / 2


def _placements(coords: dict[int, tuple[int, int]]) -> list[npt.NDArray[np.float64]]:
    """Every way to lay the 5x4 lattice over the blobs' integer coordinates, as 3x3 maps from integer
    coordinates to (column, row); mirror images are left out, since a camera never sees the card mirrored."""
    values = np.array(list(coords.values()))
    low, high = values.min(axis=0), values.max(axis=0)
    maps = []
    for swap in (False, True):
        for sign_a in (1, -1):
            sign_b = sign_a if not swap else -sign_a
            linear = (
                np.array([[sign_a, 0], [0, sign_b]]) if not swap else np.array([[0, sign_b], [sign_a, 0]])
            )
            corners = np.array([[low[0], low[1]], [high[0], high[1]]]) @ linear.T
            col_low, row_low = corners.min(axis=0)
            col_span, row_span = corners.max(axis=0) - corners.min(axis=0)
            if col_span >= COLS or row_span >= ROWS:
                continue
            for col_shift in range(int(COLS - col_span)):
                for row_shift in range(int(ROWS - row_span)):
                    mapping = np.eye(3)
                    mapping[:2, :2] = linear
                    mapping[:2, 2] = (col_shift - col_low, row_shift - row_low)
                    maps.append(mapping)
    return maps


def _fit_group(
    blobs: list[_Blob], coords: dict[int, tuple[int, int]], dark: npt.NDArray[np.bool_]
) -> WindowLattice | None:
    indices = list(coords)
    lattice_points = np.array([coords[i] for i in indices], np.float64)
    image_points = np.array([blobs[i].center for i in indices])
    pitch_px = float(np.median([blobs[i].side for i in indices])) * PITCH / SPACE
    lattice_to_image, inliers = cv2.findHomography(lattice_points, image_points, cv2.RANSAC, 0.25 * pitch_px)
    if lattice_to_image is None or int(inliers.sum()) < _MIN_SPACES:
        return None
    kept = {i: coords[i] for i, keep in zip(indices, inliers.ravel(), strict=True) if keep}
    # Grid coordinates of a space centre from (column, row): offset and pitch.
    cell_to_grid = np.array([[PITCH, 0, GROUT + SPACE / 2], [0, PITCH, GROUT + SPACE / 2], [0, 0, 1.0]])
    scored = []
    for placement in _placements(kept):
        grid_to_image = lattice_to_image @ np.linalg.inv(cell_to_grid @ placement)
        if np.linalg.det(_local_jacobian(grid_to_image)) <= 0:
            continue
        scored.append((_frame_score(dark, grid_to_image), grid_to_image))
    if not scored:
        return None
    scored.sort(key=lambda item: -item[0])
    best_score, best = scored[0]
    half_turn = WindowLattice(best, 0.0, len(kept)).turned().grid_to_image
    margin = best_score - _frame_score(dark, half_turn)
    return WindowLattice(best / best[2, 2], margin, len(kept))


def _local_jacobian(homography: FloatArray) -> FloatArray:
    """The homography's 2x2 derivative at the grid's centre: its sign of determinant says mirrored or not."""
    centre = np.array([[GRID_WIDTH / 2, GRID_HEIGHT / 2]])
    base = project(homography, centre)[0]
    along_x = project(homography, centre + np.array([[0.01, 0]]))[0] - base
    along_y = project(homography, centre + np.array([[0, 0.01]]))[0] - base
    return np.column_stack((along_x, along_y))


def find_windows(image: BGRImage, min_space_px: float = 8.0) -> list[WindowLattice]:
    """Every window whose spaces show at least `min_space_px` wide, most spaces seen first.

    Dark means below a brightness level, or a thin dark line (the grout) that a morphological black-hat
    picks out even where blur or bright light lifts it above that level.
    """
    brightness = cast(npt.NDArray[np.uint8], image.max(axis=2))
    grout = cv2.morphologyEx(brightness, cv2.MORPH_BLACKHAT, _GROUT_KERNEL)
    found: list[WindowLattice] = []
    for level, line_contrast in _DARK_LEVELS:
        frame_dark = brightness < level
        dark = frame_dark | (grout > line_contrast)
        blobs = _space_blobs(dark, min_space_px)
        for coords in _lattice_groups(blobs):
            lattice = _fit_group(blobs, coords, frame_dark)
            if lattice is None:
                continue
            centre = lattice.cell_centers().mean(axis=0)
            duplicate = any(
                np.linalg.norm(other.cell_centers().mean(axis=0) - centre)
                < np.linalg.norm(other.corners[0] - other.corners[2]) / 2
                for other in found
            )
            if not duplicate:
                found.append(lattice)
    return sorted(found, key=lambda lattice: -lattice.spaces_seen)
