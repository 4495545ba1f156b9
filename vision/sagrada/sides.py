"""The side faces of a die standing in a window's space: which of them the camera sees, cut out flat, and
what each says of the die.

A die's opposite faces add up to seven, so a side face showing s rules out s and 7 - s on top; and a side
face shows the die's colour without the lamp's glare on the top face or the print a translucent top lets
through. Where a glare spot makes a top face's 2 and 3 (or 4 and 5) look alike, a side showing 4 settles it.
A side face is only cut where the space beyond it holds no die: a neighbour stands between the camera and
the face it looks at, and its own faces would be read in its place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from engine.sagrada.window import COLS, ROWS, Cell
from vision.sagrada.lattice import WindowLattice, cell_centers_grid

BGRImage = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float64]

DIRECTIONS: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""Grid steps (column, row) from a space to the one beyond each of its die's side faces: towards row 1,
column 5, row 4 and column 1."""
MIN_DEPTH_PX = 10.0
"""How deep a side face must show in the image, from its top edge to its foot, for its pips to be read (a
die 40 px across seen 15 degrees from overhead). The dice reader put a sixth of a side's value probability,
on average, on the two values the true top rules out at 8-12 px deep, a twentieth from 12 px, and a third
(chance) under 8 (`models/SAGRADA_CELLS.md`, session 53)."""
LEAST_WEIGHT = 0.05
"""The least weight a side's reading gives a top value or colour it argues against: one misread side may
make the top face's reader less sure, not overrule it."""
_OPPOSITES_ALLOWED = np.array(
    [[0.0 if side in (top, 7 - top) else 1.0 for side in range(1, 7)] for top in range(1, 7)]
)
"""[top value - 1, side value - 1]: 1 where a die with that top can show that value on a side."""


@dataclass(frozen=True)
class SideFace:
    """A side face the camera sees: the space its die stands in, which side (an index into
    `DIRECTIONS`), the homography from the face's plane (the unit square, top edge first) to the image, and
    how deep it shows there in pixels."""

    cell: Cell
    direction: int
    square_to_image: FloatArray
    depth_px: float


def beside(cell: Cell, direction: int) -> Cell | None:
    """The space beyond `cell`'s side face in `direction`, or None past the window's edge."""
    step_col, step_row = DIRECTIONS[direction]
    row, col = cell.row + step_row, cell.col + step_col
    return Cell(row, col) if 0 <= row < ROWS and 0 <= col < COLS else None


def die_camera(lattice: WindowLattice, die_edge: float, image_width: int, image_height: int) -> FloatArray:
    """The 3x4 projection of points (x, y in grid units, height above the card in die edges) to the image,
    from the camera `WindowLattice.raised` recovers: a raised plane's homography differs from the card's in
    its third column alone, by a multiple of the height. Made once per window for all its dice."""
    card = lattice.grid_to_image
    up = (lattice.raised(die_edge, image_width, image_height)[:, 2] - card[:, 2]) / die_edge
    return np.column_stack((card[:, 0], card[:, 1], up, card[:, 2]))


def _to_image(camera: FloatArray, points: FloatArray) -> FloatArray:
    projected = np.column_stack((points, np.ones(len(points)))) @ camera.T
    return projected[:, :2] / projected[:, 2:]


def facing_sides(camera: FloatArray, cell: Cell, die_edge: float, cut: float) -> list[SideFace]:
    """The side faces of a die `die_edge` die edges tall standing in the middle of `cell` that face the
    camera (`die_camera`) and show at least `MIN_DEPTH_PX` deep, from the window's geometry alone (the
    die's place and turn within its space are taken as the space's own); each face's square is `cut` die
    edges a side round its middle, as a top face is cut for the dice reader."""
    centre = cell_centers_grid()[cell.index]
    half = die_edge / 2
    (top_centre,) = _to_image(camera, np.array([[*centre, die_edge]]))
    faces = []
    for direction, step in enumerate(DIRECTIONS):
        # The middle of the face's foot, and the direction along the face.
        middle = centre + np.array(step, np.float64) * half
        along = np.array([-step[1], step[0]], np.float64)
        top_left, top_right, foot = _to_image(
            camera,
            np.array(
                [[*(middle - along * half), die_edge], [*(middle + along * half), die_edge], [*middle, 0.0]]
            ),
        )
        edge = top_right - top_left
        normal = np.array([-edge[1], edge[0]]) / max(float(np.linalg.norm(edge)), 1e-9)
        # A face turned away folds under the top face: its foot shows on the top face's side of the edge.
        depth = float(np.dot(foot - top_left, normal))
        if depth * float(np.dot(top_centre - top_left, normal)) >= 0 or abs(depth) < MIN_DEPTH_PX:
            continue
        reach = cut / 2
        corners = np.array(
            [
                [*(middle + along * across), half + up]
                for across, up in ((-reach, reach), (reach, reach), (reach, -reach), (-reach, -reach))
            ]
        )
        square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
        square_to_image = cv2.getPerspectiveTransform(square, _to_image(camera, corners).astype(np.float32))
        faces.append(SideFace(cell, direction, square_to_image.astype(np.float64), abs(depth)))
    return faces


def side_cut(image: BGRImage, face: SideFace, size: int) -> BGRImage:
    """The side face warped flat into a `size` square, its top edge up, as the dice reader takes a die."""
    to_image = face.square_to_image @ np.diag([1.0 / size, 1.0 / size, 1.0])
    cut = cv2.warpPerspective(
        image,
        to_image,
        (size, size),
        flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return cast(BGRImage, cut)


def top_value_weights(side_values: npt.ArrayLike) -> FloatArray:
    """How well each top value (1-6) agrees with the sides read (sides x 6 value probabilities): a side
    showing s rules out s and 7 - s on top, down to `LEAST_WEIGHT`."""
    agreement = np.asarray(side_values, np.float64) @ _OPPOSITES_ALLOWED.T
    weights = np.prod(np.maximum(agreement, LEAST_WEIGHT), axis=0)
    return cast(FloatArray, weights / weights.sum())


def colour_weights(side_colours: npt.ArrayLike) -> FloatArray:
    """How well each colour agrees with the sides read (sides x colours probabilities), each side's
    reading kept from ruling a colour out below `LEAST_WEIGHT`."""
    weights = np.prod(np.maximum(np.asarray(side_colours, np.float64), LEAST_WEIGHT), axis=0)
    return cast(FloatArray, weights / weights.sum())
