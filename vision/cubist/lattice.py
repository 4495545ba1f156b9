"""Place a workroom's top faces on the structure's square lattice, from their image centres and box sizes.

Dice in a workroom touch, so neighbouring top faces lie one step apart along the lattice's two axes. A
camera up to about 35 degrees off overhead shortens one axis and skews the pair, and a stacked column's top
face stands a die higher, so the slant also moves it along the image of the vertical (about tan(tilt) of a
step a level: at a steep view, onto its neighbour's place). No one vector between faces can be trusted to
be a step, so every one is tried (whole, or halved for faces two cells apart), with a square's step at
every fifth degree of heading for structures whose faces all stand at different heights; each gives the
other axis from the faces' box size (a face's box spans both steps' extents). Under weak perspective the
vertical's image then follows from the two axes (the rows of a scaled rotation are orthogonal and equally
long) up to its sign. For each hypothesis and sign every face's extra levels (0-2) are tried, and the
placement kept is the cheapest: faces close to whole cells, no two on one cell, one piece, raised faces
a little bigger (nearer the camera), few raised levels and little slant. A homography through the placed
faces' cells then corrects for perspective.

The axes are ordered so that the lattice is not mirrored (the image's y runs down, so the table's x and y
show with a negative cross product), which keeps the quarter-turn matching of installation cards valid.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from engine.cubist.structures import Column

FloatArray = npt.NDArray[np.float64]

FACE_SHARE = 0.97
"""A top face's edge against the lattice's step: dice pushed together, or a hair apart."""
SIZE_TOLERANCE = 0.15
"""How much longer than the faces' boxes allow a step may be, on either image axis (box sizes are noisy)."""
HEADING_STEP_DEG = 5.0
"""Headings tried for a square step where no vector between faces is one."""
TILT_PRICE = 0.3
"""What a steep view costs, times the sine squared of the tilt the axes imply (squared cells): of two
lattices through the faces equally well, the one that needs less slant is likelier."""
STEEPEST_SINE = 0.75
"""Axes implying a view more than about 50 degrees off overhead are no hypothesis (the reader is meant for
up to about 35)."""
SIZE_PRICE = 10.0
"""Squared cells a unit of `size_misfits` costs: a raised face is nearer the camera, so a little bigger;
of two placements alike but for which faces are raised (the vertical's sign), the sizes choose."""
SPLIT_PRICE = 1.0
"""What each group of faces apart from the rest costs (squared cells): a workroom is one piece."""
MAX_LEVELS_UP = 2
"""A column's top face can stand 0, 1 or 2 levels above the lowest: the renderer's three levels."""
EXHAUSTIVE_FACES = 9
"""Up to this many faces every combination of levels is tried (3^9 placements); beyond, faces are raised
one at a time while that improves the placement."""
LEVEL_PRICE = 0.02
"""What a raised level costs in squared cells: a face that fits as well on the ground stays there."""
PLACED_WITHIN = 0.35
"""A face further than this from its cell's centre, in cells, is not placed."""
HOMOGRAPHY_CELLS = 6
"""The perspective correction needs this many distinct cells: with fewer, a homography's eight degrees of
freedom follow the faces' noise rather than the camera."""
ISOLATED_BEYOND = 1.6
"""A face further than this many steps from every other face is not part of the structure."""


@dataclass(frozen=True)
class LatticeFit:
    """Where each face stands: its column (None when not placed), its levels above the lowest placed
    face's, and its distance from its cell's centre, in cells."""

    columns: tuple[Column | None, ...]
    levels: tuple[int, ...]
    misfits: tuple[float, ...]


@dataclass(frozen=True)
class Faces:
    """The faces to place: image centres (N x 2) and the log of each box's size (its area's square root)."""

    centres: FloatArray
    log_sizes: FloatArray


@dataclass(frozen=True)
class _Placement:
    cost: float
    axes: FloatArray
    rise: FloatArray
    coordinates: FloatArray
    levels: npt.NDArray[np.int64]


def fit_lattice(centres: FloatArray, extents: FloatArray) -> LatticeFit:
    """The lattice through the face centres (N x 2, image pixels), each face's column in it; `extents` are
    the faces' box widths and heights (N x 2), which tell the steps' size whatever the structure's shape."""
    count = len(centres)
    if count <= 1:
        return LatticeFit(((0, 0),) * count, (0,) * count, (0.0,) * count)
    extent = np.median(extents, axis=0) / FACE_SHARE
    faces = Faces(centres, 0.5 * np.log(np.maximum(extents.prod(axis=1), 1.0)))
    best: _Placement | None = None
    for axes in axis_hypotheses(centres, extent):
        candidate = refined(faces, placement(faces, axes))
        if best is None or candidate.cost < best.cost:
            best = candidate
    if best is None:  # box sizes that no pair of steps fits
        return LatticeFit((None,) * count, (0,) * count, (math.inf,) * count)
    ground = centres - best.levels[:, None] * best.rise
    columns, misfits = placed_columns(perspective_cells(ground, best.coordinates))
    distances = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(distances, np.inf)
    step = float(max(np.linalg.norm(best.axes, axis=0)))
    isolated = distances.min(axis=1) > ISOLATED_BEYOND * step
    kept = [None if isolated[i] else column for i, column in enumerate(columns)]
    lowest = min((int(level) for level, c in zip(best.levels, kept, strict=True) if c is not None), default=0)
    return LatticeFit(
        tuple(kept),
        tuple(max(0, int(level) - lowest) for level in best.levels),
        tuple(float(misfit) for misfit in misfits),
    )


def axis_hypotheses(centres: FloatArray, extent: FloatArray) -> list[FloatArray]:
    """Candidate axes (2x2, x step then y step as columns), near duplicates left out: every vector between
    two faces, whole or halved (faces a cell or two apart), and a square's step at every fifth degree of
    heading (for structures whose faces are all stacked apart), each taken for the x step, with the y step
    that with it makes a top face's box `extent` (a face's box spans |x step| + |y step| on each image
    axis), turned to be nearly perpendicular to the x step with a negative cross product."""
    steps = [
        (centres[second] - centres[first]) / cells
        for first, second in itertools.combinations(range(len(centres)), 2)
        for cells in (1, 2)
    ]
    for heading in np.radians(np.arange(0.0, 90.0, HEADING_STEP_DEG)):
        direction = np.array([math.cos(heading), math.sin(heading)])
        steps.append(direction * float(np.mean(extent)) / float(np.abs(direction).sum()))
    hypotheses: list[FloatArray] = []
    for x_step in steps:
        y_step = matching_step(x_step, extent)
        if y_step is None:
            continue
        axes = np.column_stack([x_step, y_step])
        if all(not _same_lattice(axes, other) for other in hypotheses):
            hypotheses.append(axes)
    return hypotheses


def matching_step(x_step: FloatArray, extent: FloatArray) -> FloatArray | None:
    """The y step that with `x_step` spans a face's box `extent`, or None where `x_step` alone overshoots
    it or the two would be nearly parallel."""
    room = extent - np.abs(x_step)
    if (room < -SIZE_TOLERANCE * extent).any():
        return None
    size = np.maximum(room, 0.0)
    options = [np.array([sx * size[0], sy * size[1]]) for sx in (1, -1) for sy in (1, -1)]
    options = [y for y in options if x_step[0] * y[1] - x_step[1] * y[0] < 0]
    if not options:
        return None
    y_step = min(options, key=lambda y: abs(float(x_step @ y)))
    if abs(x_step[0] * y_step[1] - x_step[1] * y_step[0]) < 0.1 * float(np.prod(extent)):
        return None
    return y_step


def _same_lattice(axes: FloatArray, other: FloatArray) -> bool:
    """Whether two axis pairs are one lattice up to a quarter or half turn of the steps (10% apart)."""
    scale = float(np.linalg.norm(axes))
    for turned in (
        other,
        other[:, ::-1] * np.array([1.0, -1.0]),
        -other,
        -other[:, ::-1] * np.array([1.0, -1.0]),
    ):
        if np.linalg.norm(turned - axes) < 0.1 * scale:
            return True
    return False


def placement(faces: Faces, axes: FloatArray) -> _Placement:
    """The best levels for the faces on the lattice of `axes`, trying the vertical's image both ways."""
    rise = vertical_image(axes)
    scale_squared = float(axes[0] @ axes[0] + rise[0] ** 2)
    slant = float(rise @ rise) / max(scale_squared, 1e-9)
    best: _Placement | None = None
    for sign in (1.0, -1.0):
        cost, coordinates, levels = best_levels(faces, axes, sign * rise)
        cost += SPLIT_PRICE * (pieces(np.round(coordinates)) - 1) + TILT_PRICE * slant
        if slant > STEEPEST_SINE**2:
            cost = math.inf
        if best is None or cost < best.cost:
            best = _Placement(cost, axes, sign * rise, coordinates, levels)
    assert best is not None
    return best


def refined(faces: Faces, found: _Placement) -> _Placement:
    """`found` with its axes fitted again by least squares to every face it placed (where the cells span
    both axes), and the levels chosen again on them; the better of the two."""
    cells = np.round(found.coordinates)
    if not np.isfinite(found.cost) or np.linalg.matrix_rank(cells - cells.mean(axis=0)) < 2:
        return found
    ground = faces.centres - found.levels[:, None] * found.rise
    design = np.column_stack([cells, np.ones(len(cells))])
    solution, *_ = np.linalg.lstsq(design, ground, rcond=None)
    again = placement(faces, np.asarray(solution[:2].T, np.float64))
    return again if again.cost < found.cost else found


def pieces(cells: FloatArray) -> int:
    """How many separate groups the cells make, side by side counting as joined."""
    remaining = {(int(x), int(y)) for x, y in cells}
    groups = 0
    while remaining:
        groups += 1
        frontier = [remaining.pop()]
        while frontier:
            x, y = frontier.pop()
            for neighbour in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if neighbour in remaining:
                    remaining.remove(neighbour)
                    frontier.append(neighbour)
    return groups


def vertical_image(axes: FloatArray) -> FloatArray:
    """The image of one die edge straight up, up to its sign, under weak perspective: the vector w that
    makes the rows of [x step, y step, w] orthogonal and equally long (w = sqrt(D - 2iR) as a complex
    number, D and R from the two steps); zero when the camera looks straight down."""
    rows_x, rows_y = axes[0], axes[1]
    difference = float(rows_y @ rows_y - rows_x @ rows_x)
    product = float(rows_x @ rows_y)
    root = complex(difference, -2.0 * product) ** 0.5
    return np.array([root.real, root.imag])


def best_levels(
    faces: Faces, axes: FloatArray, rise: FloatArray
) -> tuple[float, FloatArray, npt.NDArray[np.int64]]:
    """The cheapest levels for the faces under `rise`: the cost (squared distances from whole cells plus
    the levels' price; infinite with two faces on a cell), each face's lattice coordinates, its levels."""
    count = len(faces.centres)
    if count <= EXHAUSTIVE_FACES:
        options = np.array(list(itertools.product(range(MAX_LEVELS_UP + 1), repeat=count)), np.int64)
        costs, coordinates = placement_costs(faces, axes, rise, options)
        best = int(np.argmin(costs))
        return float(costs[best]), coordinates[best], options[best]
    levels = np.zeros(count, np.int64)
    costs, coordinates = placement_costs(faces, axes, rise, levels[None])
    cost = float(costs[0])
    improved = True
    while improved:
        improved = False
        for face, level in itertools.product(range(count), range(MAX_LEVELS_UP + 1)):
            trial = levels.copy()
            trial[face] = level
            trial_costs, trial_coordinates = placement_costs(faces, axes, rise, trial[None])
            if trial_costs[0] < cost - 1e-9:
                levels, cost, coordinates, improved = trial, float(trial_costs[0]), trial_coordinates, True
    return cost, coordinates[0], levels


def placement_costs(
    faces: Faces, axes: FloatArray, rise: FloatArray, options: npt.NDArray[np.int64]
) -> tuple[FloatArray, FloatArray]:
    """For each row of `options` (levels per face): its cost, and the faces' lattice coordinates (K x N x 2)
    with the lattice slid so that, on average, faces lie at whole cells."""
    ground = faces.centres[None] - options[..., None] * rise
    coordinates = ground @ np.linalg.inv(axes).T
    phase = np.angle(np.exp(2j * np.pi * coordinates).mean(axis=1)) / (2 * np.pi)
    coordinates = coordinates - phase[:, None, :]
    cells = np.round(coordinates)
    costs = (
        ((coordinates - cells) ** 2).sum(axis=(1, 2))
        + LEVEL_PRICE * options.sum(axis=1)
        + SIZE_PRICE * size_misfits(faces.log_sizes, options)
    )
    keys = cells[..., 0] * 4096 + cells[..., 1]
    ordered = np.sort(keys, axis=1)
    crowded = (np.diff(ordered, axis=1) == 0).any(axis=1)
    costs[crowded] = np.inf
    return costs, coordinates


def perspective_cells(ground: FloatArray, coordinates: FloatArray) -> FloatArray:
    """Lattice coordinates refined for perspective: a homography from the rounded cells to the faces' ground
    points (where `HOMOGRAPHY_CELLS` cells are not all in a line), the faces mapped back through it."""
    cells = np.round(coordinates)
    for _ in range(2):
        if (
            len(np.unique(cells, axis=0)) < HOMOGRAPHY_CELLS
            or np.linalg.matrix_rank(cells - cells.mean(0)) < 2
        ):
            return coordinates
        homography, _ = cv2.findHomography(cells, ground, 0)
        if homography is None or abs(np.linalg.det(homography)) < 1e-9:
            return coordinates
        back: FloatArray = np.asarray(
            cv2.perspectiveTransform(ground[None], np.linalg.inv(homography))[0], np.float64
        )
        if np.array_equal(np.round(back), cells):
            return back
        coordinates, cells = back, np.round(back)
    return coordinates


def placed_columns(coordinates: FloatArray) -> tuple[list[Column | None], FloatArray]:
    """Each face's column, the nearest face keeping a cell two faces share; and its distance from the
    cell's centre in cells. Columns count from the lowest x and y seen."""
    cells = np.round(coordinates).astype(np.int64)
    misfits: FloatArray = np.linalg.norm(coordinates - cells, axis=1)
    columns: list[Column | None] = [None] * len(cells)
    taken: set[Column] = set()
    low = cells.min(axis=0)
    for index in np.argsort(misfits):
        column = (int(cells[index, 0] - low[0]), int(cells[index, 1] - low[1]))
        if misfits[index] <= PLACED_WITHIN and column not in taken:
            taken.add(column)
            columns[index] = column
    return columns, misfits


def size_misfits(log_sizes: FloatArray, options: npt.NDArray[np.int64]) -> FloatArray:
    """For each row of levels, how badly the faces' sizes follow them: the residual of log size = b + k x
    level with k at least 0 (a face nearer the camera looks bigger), summed over the faces."""
    levels = options - options.mean(axis=1, keepdims=True)
    sizes = log_sizes - log_sizes.mean()
    spread = (levels**2).sum(axis=1)
    growth = np.maximum((levels * sizes).sum(axis=1) / np.maximum(spread, 1e-9), 0.0)
    misfits: FloatArray = ((sizes[None] - growth[:, None] * levels) ** 2).sum(axis=1)
    return misfits
