"""Find Sagrada windows in a photo and fit each one's 4x5 lattice of spaces, without markers.

A window card is a dark frame around light printed spaces (and the dice standing in them), split by thin
dark grout. Each dark region of a card's size is a candidate outline: simplified to a quad, tried in its
four turns, and aligned on the grout by matching the grid's layout (spaces light, grout and frame dark)
against the photo (ECC image alignment, coarse in a shrunk copy, then fine in the full image with every
space made as light as the next, so that darker prints, dice and shadows do not pull it off). Where dice,
light or a dark table bend that outline, the empty printed spaces still show as light squares in the
dark grout: three or more on one lattice place the grid too, in every way a window can hold them. The layout
is the same both ways up, so which end is row 1 is decided by the card's name strip: a dark band, wider
than the frame, below row 4; the pattern match the caller runs over both turns has the last word. A fit
that shows none of its inner grout is a ruled square on the table, not a card, and is dropped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
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
CARD_THICKNESS = 0.12
"""The card's thickness: its print lies this far above the table (or a mat's paper)."""


@dataclass(frozen=True)
class WindowLattice:
    """A window found in the photo: the homography from grid coordinates (die edges, x along the 5 columns
    from r1c1's outer corner, y down the 4 rows) to image pixels, and how sure the orientation is.

    `orientation_margin` is how much more the frame's evidence favours this turn of the card over the half
    turn (0 = no evidence either way, 1 = all of it): the name strip shows most clearly through the fit on
    the grid, so it also tells a window's fits apart; `layout_match` how well the photo matches the grid's
    layout there (a correlation, up to 1); `mat_seat` the seat of the printed mat the card lies on
    (`vision.sagrada.mat`), None for a window found without one.
    """

    grid_to_image: FloatArray
    orientation_margin: float
    layout_match: float
    mat_seat: int | None = None

    @classmethod
    def through(cls, corners: npt.ArrayLike) -> WindowLattice:
        """The lattice whose grid's outer corners lie at `corners` (r1c1, r1c5, r4c5, r4c1) in the image,
        orientation taken as certain: a labelled window's, as the renderer gives it."""
        grid_to_image = cv2.getPerspectiveTransform(
            _GRID_CORNERS.astype(np.float32), np.asarray(corners, np.float32)
        ).astype(np.float64)
        return cls(grid_to_image, 1.0, 1.0)

    @property
    def corners(self) -> FloatArray:
        """Outer corners of the grid of spaces in the image: r1c1, r1c5, r4c5, r4c1."""
        return project(self.grid_to_image, _GRID_CORNERS)

    def cell_centers(self) -> FloatArray:
        """Image centres of the 20 spaces, row-major."""
        return project(self.grid_to_image, cell_centers_grid())

    def cell_quad(self, row: int, col: int) -> FloatArray:
        """The printed space's four corners in the image."""
        x0, y0 = GROUT + col * PITCH, GROUT + row * PITCH
        square = np.array([[x0, y0], [x0 + SPACE, y0], [x0 + SPACE, y0 + SPACE], [x0, y0 + SPACE]])
        return project(self.grid_to_image, square)

    def raised(self, height: float, image_width: int, image_height: int) -> FloatArray:
        """The homography of the plane `height` die edges above the card (where the dice's top faces are).

        The camera is recovered from the card's homography, taking the principal point at the image's
        centre and square pixels: the focal length is what makes the card's axes perpendicular and of one
        length; a view too straight on to tell it (where parallax matters little) takes a phone's.
        """
        centre = np.array([image_width / 2, image_height / 2])
        to_centre = np.array([[1.0, 0, -centre[0]], [0, 1.0, -centre[1]], [0, 0, 1.0]])
        h = to_centre @ self.grid_to_image
        h1, h2 = h[:, 0], h[:, 1]
        estimates = []
        if abs(h1[2] * h2[2]) > 1e-12:
            estimates.append(-(h1[0] * h2[0] + h1[1] * h2[1]) / (h1[2] * h2[2]))
        if abs(h1[2] ** 2 - h2[2] ** 2) > 1e-12:
            estimates.append(-(h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2) / (h1[2] ** 2 - h2[2] ** 2))
        # Each estimate is of the focal length squared; a small error in the fit can swing one of them
        # far, so they are averaged in log and kept within what cameras have.
        long_side = max(image_width, image_height)
        usable = [math.log(e) / 2 for e in estimates if e > 0]
        focal = math.exp(float(np.mean(usable))) if usable else 0.9 * long_side
        focal = float(np.clip(focal, 0.5 * long_side, 2.5 * long_side))
        intrinsics = np.diag([focal, focal, 1.0])
        axes = np.linalg.inv(intrinsics) @ h
        scale = (np.linalg.norm(axes[:, 0]) + np.linalg.norm(axes[:, 1])) / 2
        up = np.cross(axes[:, 0], axes[:, 1])
        up *= scale / np.linalg.norm(up)
        if up[2] > 0:  # up from the card is towards the camera: depth shrinks
            up = -up
        raised = h.copy()
        raised[:, 2] += height * (intrinsics @ up)
        return cast(FloatArray, np.linalg.inv(to_centre) @ raised)

    def turned(self) -> WindowLattice:
        """The same lattice read the other way up (r1c1 and r4c5 swapped)."""
        return replace(
            self, grid_to_image=self.grid_to_image @ _HALF_TURN, orientation_margin=-self.orientation_margin
        )


def cell_centers_grid() -> FloatArray:
    """Grid coordinates of the 20 space centres, row-major."""
    offsets = GROUT + SPACE / 2 + PITCH * np.arange(max(ROWS, COLS))
    return np.array([[offsets[c], offsets[r]] for r in range(ROWS) for c in range(COLS)])


def project(homography: FloatArray, points: FloatArray) -> FloatArray:
    """Apply a 3x3 homography to (N, 2) points."""
    moved = cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2), homography)
    return cast(FloatArray, moved.reshape(-1, 2))


CARD_WIDTH = GRID_WIDTH + 2 * FRAME
CARD_HEIGHT = GRID_HEIGHT + 2 * FRAME + NAME_STRIP
WORKING_LONG_SIDE = 800
"""Windows are looked for in a copy shrunk to at most this long side; the fine alignment uses the photo."""
_OUTLINE_LEVELS = (55, 80, 105, 35, 45)
"""Brightness levels below which a pixel may belong to the card's dark frame. 45 parts a frame of 32-44
from a dark table of 44-66 (bench seed 30082), which both 35 and 55 merge or cut up."""
_LAYOUT_MARGIN = 0.3
"""How much of the frame around the grid the layout holds, in die edges: beyond it lies the table."""
_COARSE_PX, _FINE_PX = 10, 18
"""Pixels per die edge of the layout: coarse to find and turn the grid in the shrunk copy, fine for the
last alignment in the photo."""
MIN_LAYOUT_MATCH = 0.45
"""Correlation with the grid's layout that a window must reach."""
_MOST_FRUITLESS_ALIGNMENTS = 12
"""Most guesses aligned on the grout per photo at places where no window holds (each alignment costs a few
milliseconds). Alignments that find a window do not count: a photo of four windows must not spend the
budget on them before the smaller, less well matched windows at the back of the table are tried."""
MIN_OUTLINED_MATCH = 0.36
"""Correlation with the layout enough for a fit its card's dark outline agrees with (`_outline_agrees`):
in a full window seen at a slant the dice hide the grout, and even the true lattice may match under
`MIN_LAYOUT_MATCH` (0.39-0.41 at bench seeds 80049 and 80210)."""
_OUTLINE_AGREEMENT = 0.15
"""How near, in spaces, the aligned grid must lie to where the card's outline puts it to agree with it."""
_RIVALS = 3
"""Distinct guesses aligned at each place before the best fit there is kept."""
_MIN_GUESS_MATCH = 0.25
"""Layout match a guess must show before alignment to be aligned: below it, alignments on rendered
windows never reached `MIN_LAYOUT_MATCH` and only cost time."""
_CLEARLY_BETTER = 0.05
"""How much better a later guess's aligned match must be to replace the best guess's fit."""
_FINE_CLEARLY_BETTER = 0.02
"""How much better another fit at a place must match in the full photo (the fine layout) to replace the one
the shrunk copy preferred. Where dice hide the grout the coarse match often prefers a fit turned a quarter
or shifted a space (the card is almost square), which the fine layout tells apart."""
_ECC_CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 30, 1e-3)
MIN_GROUT_SEEN = 3
"""Fewest of a grid's 31 inner grout lines (between two neighbouring spaces) that must show darker than both
spaces beside them. A dark-ruled square on the table or a marker's white inside matches the layout well by
its edge alone, but shows no grout within; a card shows it between its dice. On 321 rendered windows with
0-20 dice (the Sagrada bench's and tests' sets, 12 MP photos, real dice pasted) every card showed at least
5, and 9 of the 11 grids fitted to drawings on those tables showed 2 or fewer (one-off counts)."""
_GROUT_CONTRAST = 6.0
"""Grey levels by which a grout line must be darker than the spaces beside it to show."""
_CARD_CORNERS = np.array([[0, 0], [CARD_WIDTH, 0], [CARD_WIDTH, CARD_HEIGHT], [0, CARD_HEIGHT]], np.float32)
_GRID_IN_CARD = np.array([[1.0, 0, FRAME], [0, 1.0, FRAME], [0, 0, 1.0]])


@dataclass(frozen=True)
class _Layout:
    """The grid and a margin of frame seen from above: 1 on the spaces, 0 on grout and frame."""

    pixels: npt.NDArray[np.float32]
    to_grid: FloatArray
    deviations: npt.NDArray[np.float32]
    """The layout less its mean, flattened."""
    spread: float
    """The layout's standard deviation."""

    @classmethod
    def at(cls, px_per_unit: float) -> _Layout:
        size = (
            round((GRID_WIDTH + 2 * _LAYOUT_MARGIN) * px_per_unit),
            round((GRID_HEIGHT + 2 * _LAYOUT_MARGIN) * px_per_unit),
        )
        pixels = np.zeros((size[1], size[0]), np.float32)
        to_grid = np.array(
            [[1 / px_per_unit, 0, -_LAYOUT_MARGIN], [0, 1 / px_per_unit, -_LAYOUT_MARGIN], [0, 0, 1.0]]
        )
        to_layout = np.linalg.inv(to_grid)
        for row in range(ROWS):
            for col in range(COLS):
                x0, y0 = GROUT + col * PITCH, GROUT + row * PITCH
                square = np.array([[x0, y0], [x0 + SPACE, y0], [x0 + SPACE, y0 + SPACE], [x0, y0 + SPACE]])
                corners = project(to_layout, square)
                cv2.fillConvexPoly(pixels, np.round(corners * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
        return cls(pixels, to_grid, (pixels - pixels.mean()).ravel(), float(pixels.std()))

    def seen(self, brightness: npt.NDArray[np.float32], grid_to_image: FloatArray) -> npt.NDArray[np.float32]:
        """The photo seen flat through `grid_to_image`, pixel for pixel with the layout."""
        height, width = self.pixels.shape
        flat = cv2.warpPerspective(
            brightness,
            grid_to_image @ self.to_grid,
            (width, height),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
        return np.asarray(flat, np.float32)

    def match(self, brightness: npt.NDArray[np.float32], grid_to_image: FloatArray) -> float:
        """Correlation between the photo seen through `grid_to_image` and the layout (-1 to 1)."""
        seen = self.seen(brightness, grid_to_image)
        spread = float(cv2.meanStdDev(seen)[1][0, 0]) * self.spread
        if spread <= 1e-6:
            return -1.0
        # The layout's deviations sum to zero, so the photo's mean need not be taken off.
        return float(np.dot(seen.ravel(), self.deviations)) / (seen.size * spread)

    def grout_seen(self, brightness: npt.NDArray[np.float32], grid_to_image: FloatArray) -> int:
        """How many inner grout lines show darker than both spaces beside them (see MIN_GROUT_SEEN), in the
        photo seen flat through `grid_to_image` and softened, so a single noisy pixel decides nothing."""
        seen = self.seen(brightness, grid_to_image)
        softened = np.asarray(cv2.blur(seen, (3, 3)), np.float32)
        to_layout = np.asarray(np.linalg.inv(self.to_grid), np.float64)
        spaces = _pixel_values(softened, project(to_layout, cell_centers_grid()))
        grout = _pixel_values(softened, project(to_layout, _INNER_GROUT))
        beside = np.minimum(spaces[_GROUT_NEIGHBOURS[:, 0]], spaces[_GROUT_NEIGHBOURS[:, 1]])
        return int(np.count_nonzero(grout < beside - _GROUT_CONTRAST))

    def align(self, brightness: npt.NDArray[np.float32], grid_to_image: FloatArray) -> FloatArray:
        """`grid_to_image` pulled onto the photo's grout (ECC), on a crop around the grid so the cost does
        not grow with the photo; unchanged where the alignment does not converge."""
        around = project(grid_to_image, _GRID_CORNERS)
        x0, y0, x1, y1 = _box_round(around, 0.2 * (around.max(axis=0) - around.min(axis=0)), brightness.shape)
        shift = np.array([[1.0, 0, -x0], [0, 1.0, -y0], [0, 0, 1.0]])
        start = (shift @ grid_to_image @ self.to_grid).astype(np.float32)
        try:
            _, warp = cv2.findTransformECC(
                self.pixels,
                brightness[y0:y1, x0:x1],
                start / start[2, 2],
                cv2.MOTION_HOMOGRAPHY,
                _ECC_CRITERIA,
            )
        except cv2.error:
            return grid_to_image
        aligned = np.linalg.inv(shift) @ warp.astype(np.float64) @ np.linalg.inv(self.to_grid)
        return cast(FloatArray, aligned / aligned[2, 2])

    def slide(self, brightness: npt.NDArray[np.float32], grid_to_image: FloatArray) -> FloatArray:
        """`grid_to_image` moved within its own plane (shifted and turned, ECC on the photo seen flat
        through it) onto the photo's grout: for a card whose plane is known and only its place on it is
        not. Unchanged where the alignment does not converge."""
        seen = self.seen(brightness, grid_to_image)
        try:
            _, warp = cv2.findTransformECC(
                self.pixels, seen, np.eye(2, 3, dtype=np.float32), cv2.MOTION_EUCLIDEAN, _ECC_CRITERIA
            )
        except cv2.error:
            return grid_to_image
        moved = np.vstack((warp.astype(np.float64), [0.0, 0.0, 1.0]))
        slid = grid_to_image @ self.to_grid @ moved @ np.linalg.inv(self.to_grid)
        return cast(FloatArray, slid / slid[2, 2])


def _box_round(
    points: FloatArray, margin: npt.ArrayLike, shape: tuple[int, ...]
) -> tuple[int, int, int, int]:
    """The pixel box (left, top, right, bottom; right and bottom exclusive) round `points` widened by
    `margin` (x and y), within an image of `shape`, and at least one pixel wide."""
    height, width = shape[:2]
    x0, y0 = np.clip(np.floor(points.min(axis=0) - margin), 0, [width - 1, height - 1]).astype(int)
    x1, y1 = np.clip(np.ceil(points.max(axis=0) + margin), [x0 + 1, y0 + 1], [width, height]).astype(int)
    return int(x0), int(y0), int(x1), int(y1)


def _pixel_values(image: npt.NDArray[np.float32], points: FloatArray) -> npt.NDArray[np.float32]:
    """The image's values at the pixels nearest `points` (N, 2), clamped to the image."""
    height, width = image.shape
    xs = np.clip(np.round(points[:, 0]).astype(int), 0, width - 1)
    ys = np.clip(np.round(points[:, 1]).astype(int), 0, height - 1)
    return np.asarray(image[ys, xs], np.float32)


_GROUT_NEIGHBOURS = np.array(
    [(row * COLS + col, row * COLS + col + 1) for row in range(ROWS) for col in range(COLS - 1)]
    + [(row * COLS + col, (row + 1) * COLS + col) for row in range(ROWS - 1) for col in range(COLS)]
)
"""Pairs of neighbouring spaces (row-major indices): the 31 inner grout lines lie between them."""
_INNER_GROUT = cell_centers_grid()[_GROUT_NEIGHBOURS].mean(axis=1)
_GRID_CORNERS = np.array([[0, 0], [GRID_WIDTH, 0], [GRID_WIDTH, GRID_HEIGHT], [0, GRID_HEIGHT]], np.float64)
_COARSE, _FINE = _Layout.at(_COARSE_PX), _Layout.at(_FINE_PX)


def _band(top: float, bottom: float) -> FloatArray:
    """Grid-coordinate sample points across the grid's width between heights `top` and `bottom`."""
    xs = np.linspace(0.2, GRID_WIDTH - 0.2, 24)
    ys = np.linspace(top, bottom, 5)
    return np.array([[x, y] for y in ys for x in xs])


_NAME_STRIP = _band(GRID_HEIGHT + 0.45, GRID_HEIGHT + FRAME + NAME_STRIP - 0.15)
_OPPOSITE_STRIP = _band(-(FRAME + NAME_STRIP - 0.15), -0.45)
_FRAME_RING = np.vstack((_band(-0.25, -0.1), _band(GRID_HEIGHT + 0.1, GRID_HEIGHT + 0.25)))
_BESIDE_CARD = np.array(
    [
        [x, y]
        for y in np.linspace(0.2, GRID_HEIGHT - 0.2, 12)
        for x in (*np.linspace(-1.0, -0.45, 4), *np.linspace(GRID_WIDTH + 0.45, GRID_WIDTH + 1.0, 4))
    ]
)
"""Table beyond columns 1 and 5, as far out as the strip bands lie beyond the rows: the card ends one
frame from the grid there."""
_QUANTILES = np.linspace(0.05, 0.95, 19)


def _sample(brightness: npt.NDArray[np.float32], grid_to_image: FloatArray, points: FloatArray) -> FloatArray:
    pixels = np.round(project(grid_to_image, points)).astype(np.int64)
    height, width = brightness.shape
    pixels[:, 0] = pixels[:, 0].clip(0, width - 1)
    pixels[:, 1] = pixels[:, 1].clip(0, height - 1)
    return cast(FloatArray, brightness[pixels[:, 1], pixels[:, 0]].astype(np.float64))


def _name_strip_margin(
    brightness: npt.NDArray[np.float32], grid_to_image: FloatArray, outline: FloatArray
) -> float:
    """How much more the card's name strip lies below row 4 than above row 1 (-1 to 1).

    The bands beyond rows 1 and 4 are compared for how much of each is as dark as the frame, and for how
    unlike the table beside the card's sides each looks (the strip is card, dark with light lettering; the
    band beyond the other frame is table, which may be as dark as the frame); and where the dark outline
    the window was found from fits the card (its sides one frame from the grid's), the outline has a say
    too: the card reaches a frame above row 1 but a frame and the strip below row 4.
    """
    below_band = _sample(brightness, grid_to_image, _NAME_STRIP)
    above_band = _sample(brightness, grid_to_image, _OPPOSITE_STRIP)
    level = float(np.median(_sample(brightness, grid_to_image, _FRAME_RING))) + 25
    darkness = float(np.mean(below_band < level)) - float(np.mean(above_band < level))
    table = np.quantile(_sample(brightness, grid_to_image, _BESIDE_CARD), _QUANTILES)
    below = float(np.mean(np.abs(np.quantile(below_band, _QUANTILES) - table)))
    above = float(np.mean(np.abs(np.quantile(above_band, _QUANTILES) - table)))
    evidence = [darkness, (below - above) / max(below + above, 1e-6)]
    in_grid = project(_inverse(grid_to_image), outline)
    left, top = -in_grid.min(axis=0)
    right, bottom = in_grid.max(axis=0) - (GRID_WIDTH, GRID_HEIGHT)
    if max(abs(left - FRAME), abs(right - FRAME)) < 0.25 and min(top, bottom) > 0:
        evidence.append(float(np.clip((bottom - top) / NAME_STRIP, -1, 1)))
    return float(np.mean(evidence))


_HALF_TURN = np.array([[-1.0, 0, GRID_WIDTH], [0, -1.0, GRID_HEIGHT], [0, 0, 1.0]])
"""The grid turned half round in its own place (grid coordinates): r1c1 and r4c5 swapped."""
_OTHER_END = np.array([[-1.0, 0, GRID_WIDTH], [0, -1.0, GRID_HEIGHT + NAME_STRIP], [0, 0, 1.0]])
"""The grid where its card, turned half round, puts it (grid coordinates): the card ends in the name strip
below row 4, so the grid lands the strip's width further down."""


def _quad(outline: npt.NDArray[np.int32]) -> FloatArray:
    """Four corners of an outline, clockwise as seen in the image: its convex hull simplified to a quad, or
    the smallest rectangle around it where dice standing over the card's edge bend the hull."""
    hull = cv2.convexHull(outline)
    perimeter = cv2.arcLength(hull, True)
    corners = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64)
    for share in (0.02, 0.03, 0.045, 0.06):
        simplified = cv2.approxPolyDP(hull, share * perimeter, True).reshape(-1, 2).astype(np.float64)
        if len(simplified) == 4:
            corners = simplified
            break
    edge_a, edge_b = corners[1] - corners[0], corners[2] - corners[1]
    if edge_a[0] * edge_b[1] - edge_a[1] * edge_b[0] < 0:
        corners = corners[::-1].copy()
    return corners


_NEXT = [1, 2, 3, 0]
"""Each corner's (or side's) successor round a quad."""


_STEEPEST_VIEW = 60.0
"""Degrees from overhead at which a window's grid may be seen, along its rows or its columns: what a grid's
sides may show (`_plausible`). Until session 66 every quad's sides were held within twice each other, which
let a grid in up to 66 degrees along its rows but only 51 along its columns (it is 1.25 times as wide as
high): a window seen more steeply along its columns (at the far side of a table photographed from a
player's seat) was never let in, however well its grid matched the layout."""
_GRID_ASPECT = GRID_WIDTH / GRID_HEIGHT
_MOST_FORESHORTENED = math.cos(math.radians(_STEEPEST_VIEW))
"""The share of a grid's width or height left seen at `_STEEPEST_VIEW`."""


def _plausible(corners: FloatArray, of_grid: bool = False) -> bool:
    """Whether a quad can be a card seen by a camera: convex, opposite sides of like length. A card's
    outline, whose turn is not known, has neither pair of sides more than twice the other; a grid (its first
    side along its rows) is no more foreshortened either way than a view `_STEEPEST_VIEW` from overhead."""
    edges = corners[_NEXT] - corners
    following = edges[_NEXT]
    turns = edges[:, 0] * following[:, 1] - edges[:, 1] * following[:, 0]
    lengths = np.linalg.norm(edges, axis=1)
    if not (np.all(turns > 0) and lengths.min() > 0):
        return False
    opposite = np.maximum(lengths[:2] / lengths[2:], lengths[2:] / lengths[:2])
    across = (lengths[0] + lengths[2]) / (lengths[1] + lengths[3])
    if of_grid:
        shown = across / _GRID_ASPECT
        return bool(opposite.max() < 1.7 and _MOST_FORESHORTENED < shown < 1 / _MOST_FORESHORTENED)
    return bool(opposite.max() < 1.7 and 0.5 < across < 2.0)


@dataclass(frozen=True)
class _Contours:
    """One dark mask's contours: `is_hole` marks those bounding a light hole in a dark region."""

    contours: Sequence[npt.NDArray[np.int32]]
    is_hole: npt.NDArray[np.bool_]


def _dark_regions(brightness: npt.NDArray[np.float32], min_grid_px: float) -> list[_Contours]:
    """The contours of the photo's dark regions (below fixed levels, or much darker than their surroundings
    where light or glare lifts the frame), each mask's outer contours and their holes together."""
    height, width = brightness.shape
    reach = max(height, width) // 8 | 1
    surroundings = cv2.blur(brightness, (reach, reach))
    masks = [brightness < level for level in _OUTLINE_LEVELS] + [brightness < 0.5 * surroundings]
    # Opened masks part a card from dark things it touches (a shadow, a dark object, a line on the table).
    opening = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * round(min_grid_px / 25) + 1,) * 2)
    masks += [cv2.morphologyEx(masks[0].astype(np.uint8), cv2.MORPH_OPEN, opening) > 0]
    regions = []
    for dark in masks:
        contours, hierarchy = cv2.findContours(dark.astype(np.uint8), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
        if hierarchy is not None:
            regions.append(
                _Contours(cast(Sequence[npt.NDArray[np.int32]], contours), hierarchy[0, :, 3] >= 0)
            )
    return regions


def _card_outlines(regions: Sequence[_Contours], image_area: int, min_grid_px: float) -> list[FloatArray]:
    """Quads that may be a card's outline: dark regions of a window's size, each simplified to four
    corners, or completed from three of them where the four cannot be a card's (`_restored`)."""
    quads: list[FloatArray] = []
    for region in regions:
        for outline, hole in zip(region.contours, region.is_hole, strict=True):
            if hole or not min_grid_px**2 <= cv2.contourArea(outline) <= image_area / 2:
                continue
            corners = _quad(outline)
            for quad in [corners] if _plausible(corners) else _restored(corners, outline):
                if not any(_alike(quad, other) for other in quads):
                    quads.append(quad)
    return quads


_SPACE_FOUND_SHARE = 0.8
"""A printed space counts from this share of the smallest space a window may show (seen at a slant)."""
_SOLID_SPACE = 0.85
"""Share of its convex hull a printed space's outline must fill (a die's top or a pip left in a space
bites into it)."""
_SQUARE_SIDES = 1.6
"""Most a space's longest side may exceed its shortest, seen at a slant."""
_SPACE_IN_GRID = np.array(
    [[GROUT, GROUT], [GROUT + SPACE, GROUT], [GROUT + SPACE, GROUT + SPACE], [GROUT, GROUT + SPACE]]
)
"""r1c1's printed space in grid coordinates."""
_SPACE_CENTRE = GROUT + SPACE / 2
_MIN_SPACES = 3
"""Fewest printed spaces in a lattice before it is worth a guess (two light squares are too often a
chequered cloth or a ruled drawing)."""
_ON_LATTICE = 0.2
"""How far (in spaces) a square's centre may lie from a lattice's space to belong to it."""


def _printed_spaces(regions: Sequence[_Contours], min_space_px: float, max_space_px: float) -> FloatArray:
    """Corners (N, 4, 2), clockwise, of light squares enclosed by dark, `min_space_px` to `max_space_px`
    a side: a card's empty printed spaces seen between its grout, wherever dice or light hide its outline.
    Each square once, however many masks show it."""
    squares: list[FloatArray] = []
    for region in regions:
        for outline, hole in zip(region.contours, region.is_hole, strict=True):
            if not hole:
                continue
            area = cv2.contourArea(outline)
            if not min_space_px**2 <= area <= max_space_px**2:
                continue
            hull = cv2.convexHull(outline)
            if area < _SOLID_SPACE * cv2.contourArea(hull):
                continue
            corners = cv2.approxPolyDP(hull, 0.06 * cv2.arcLength(hull, True), True).reshape(-1, 2)
            if len(corners) == 4:
                squares.append(corners.astype(np.float64))
    if not squares:
        return np.zeros((0, 4, 2))
    quads = np.array(squares)
    edges = quads[:, _NEXT] - quads
    turning = edges[:, 0, 0] * edges[:, 1, 1] - edges[:, 0, 1] * edges[:, 1, 0]
    quads[turning < 0] = quads[turning < 0, ::-1]
    lengths = np.linalg.norm(edges, axis=2)
    quads = quads[lengths.max(axis=1) <= _SQUARE_SIDES * lengths.min(axis=1)]
    centres, sides = quads.mean(axis=1), np.linalg.norm(quads[:, _NEXT] - quads, axis=2).mean(axis=1)
    distances = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    earlier_twin = np.tril(distances < 0.2 * sides[:, None], k=-1).any(axis=1)
    return cast(FloatArray, quads[~earlier_twin])


def _space_lattices(spaces: FloatArray) -> list[tuple[FloatArray, npt.NDArray[np.int64]]]:
    """Groups of printed spaces that lie on one lattice: for each, the homography from grid coordinates
    (with the group's largest space as r1c1) to the image, and each member's column and row offsets.

    A space's four corners already give a homography; the others it predicts within a fifth of a space
    join, and the homography is fitted again to all their corners. Spaces of another size are left to another
    group; a group spanning more than a window's spaces is no window."""
    if len(spaces) < _MIN_SPACES:
        return []
    centres = spaces.mean(axis=1)
    sides = np.linalg.norm(spaces[:, _NEXT] - spaces, axis=2).mean(axis=1)
    alike = (sides[None] > sides[:, None] / _SQUARE_SIDES) & (sides[None] < sides[:, None] * _SQUARE_SIDES)
    seeds_to_image = np.array(
        [
            cv2.getPerspectiveTransform(_SPACE_IN_GRID.astype(np.float32), space.astype(np.float32))
            for space in spaces
        ]
    )
    # Every space's lattice at once: the few seeds with enough spaces on theirs are worth refitting.
    first_members = _on_lattice(_lattice_positions(np.linalg.inv(seeds_to_image), centres)) & alike
    unclaimed = np.ones(len(spaces), bool)
    lattices: list[tuple[FloatArray, npt.NDArray[np.int64]]] = []
    for seed in np.argsort(-sides):
        if not unclaimed[seed] or np.count_nonzero(first_members[seed] & unclaimed) < _MIN_SPACES:
            continue
        grid_to_image = seeds_to_image[seed].astype(np.float64)
        members = np.zeros(0, np.int64)
        for _ in range(3):
            at = _lattice_positions(_inverse(grid_to_image)[None], centres)[0]
            joining = np.flatnonzero(_on_lattice(at) & alike[seed] & unclaimed)
            if len(joining) < _MIN_SPACES or np.array_equal(joining, members):
                break
            members = joining
            grid = (_SPACE_IN_GRID[None] + np.round(at[members, None]) * PITCH).reshape(-1, 2)
            refitted, _ = cv2.findHomography(grid, spaces[members].reshape(-1, 2))
            if refitted is None:
                break
            grid_to_image = np.asarray(refitted, np.float64)
        if len(members) < _MIN_SPACES:
            continue
        # A space joins one group: a group wider than a window (a chequered cloth) is not tried again from
        # each of its squares.
        unclaimed[members] = False
        offsets = np.round(_lattice_positions(_inverse(grid_to_image)[None], centres[members])[0]).astype(
            np.int64
        )
        span = offsets.max(axis=0) - offsets.min(axis=0)
        if min(span) < ROWS and max(span) < COLS:
            lattices.append((grid_to_image, offsets))
    return lattices


def _lattice_positions(images_to_grid: FloatArray, centres: FloatArray) -> FloatArray:
    """(S, N, 2): where each of N image points lies on each of S lattices (homographies from the image to
    grid coordinates), in spaces from r1c1's centre."""
    homogeneous = np.column_stack((centres, np.ones(len(centres))))
    mapped = np.einsum("sij,nj->sni", images_to_grid, homogeneous)
    return cast(FloatArray, (mapped[..., :2] / mapped[..., 2:] - _SPACE_CENTRE) / PITCH)


def _on_lattice(positions: FloatArray) -> npt.NDArray[np.bool_]:
    """Which positions (in spaces) lie on a space of the lattice, within a window's reach of r1c1."""
    nearest = np.round(positions)
    return cast(
        npt.NDArray[np.bool_],
        (np.abs(positions - nearest).max(axis=-1) < _ON_LATTICE) & (np.abs(nearest).max(axis=-1) < COLS),
    )


def _inverse(homography: FloatArray) -> FloatArray:
    return cast(FloatArray, np.linalg.inv(homography))


def _placements(grid_to_image: FloatArray, offsets: npt.NDArray[np.int64]) -> list[FloatArray]:
    """Every way a window's grid can hold a group of spaces at `offsets` (columns, rows): shifted so they
    fall within its 5x4 spaces, with the group's columns as the window's columns or (turned a quarter) as
    its rows."""
    (first_col, first_row), (last_col, last_row) = offsets.min(axis=0), offsets.max(axis=0)
    options = []
    for col in range(last_col - COLS + 1, first_col + 1):
        for row in range(last_row - ROWS + 1, first_row + 1):
            options.append(
                grid_to_image @ np.array([[1.0, 0, col * PITCH], [0, 1.0, row * PITCH], [0, 0, 1.0]])
            )
    # A quarter turn: the window's column c, row r is the group's column -(r + row), row c + col.
    for col in range(last_row - COLS + 1, first_row + 1):
        for row in range(-first_col - ROWS + 1, -last_col + 1):
            options.append(
                grid_to_image
                @ np.array([[0, -1.0, 2 * _SPACE_CENTRE - row * PITCH], [1.0, 0, col * PITCH], [0, 0, 1.0]])
            )
    return options


def _overlap(quad: FloatArray, other: FloatArray) -> bool:
    """Whether either quad holds the other's centre."""
    return any(
        cv2.pointPolygonTest(a.astype(np.float32), tuple(float(v) for v in b.mean(axis=0)), False) >= 0
        for a, b in ((quad, other), (other, quad))
    )


def _restored(corners: FloatArray, outline: npt.NDArray[np.int32]) -> list[FloatArray]:
    """An outline that cannot be a card as it stands, completed (`_completions`) where the new corner lies
    beyond the dark region: dice standing over a corner of a full window's frame cut that corner off the
    region and bend its quad. A completion that cuts into the region instead is no card's."""
    hull = cv2.convexHull(outline)

    def beyond_the_region(quad: FloatArray) -> bool:
        new_corner = quad[np.any(quad != corners, axis=1)][0]
        return cv2.pointPolygonTest(hull, (float(new_corner[0]), float(new_corner[1])), False) < 0

    return [quad for quad in _completions(corners) if beyond_the_region(quad)]


def _completions(corners: FloatArray) -> list[FloatArray]:
    """The quads with one corner replaced by the parallelogram of the other three: light or
    glare on one part of the frame cuts that corner off the dark outline. A corner already where the other
    three put it gives no new quad: every corner of a parallelogram (an outline `_restored` already
    completed, a dark region the photo's edge cuts square) would give the outline itself, four more times."""
    quads = []
    for index in range(4):
        completed = corners.copy()
        completed[index] = corners[index - 1] + corners[(index + 1) % 4] - corners[(index + 2) % 4]
        if _plausible(completed) and not _alike(completed, corners):
            quads.append(completed)
    return quads


def _alike(quad: FloatArray, other: FloatArray) -> bool:
    """Whether two quads' corners lie within 3 % of the first's side of each other: one outline twice."""
    return bool(np.abs(quad - other).max() <= 0.03 * float(np.linalg.norm(quad[1] - quad[0])))


def _at_edge(corners: FloatArray, shape: tuple[int, ...]) -> bool:
    """Whether a corner of the outline lies on the photo's edge, where the photo may cut the card."""
    height, width = shape[:2]
    return bool(
        (corners.min() <= 1) or (corners[:, 0].max() >= width - 2) or (corners[:, 1].max() >= height - 2)
    )


_Fit = tuple[float, FloatArray, FloatArray]
"""(layout match, grid_to_image, outline): a guess, or a guess aligned on the grout."""


def _outline_grids(corners: FloatArray) -> list[FloatArray]:
    """The grid_to_image a card outline gives by the card's geometry, in each of its four turns."""
    grids = []
    for turn in range(4):
        card_to_image = cv2.getPerspectiveTransform(
            _CARD_CORNERS, corners[[(turn + index) % 4 for index in range(4)]].astype(np.float32)
        ).astype(np.float64)
        grids.append(card_to_image @ _GRID_IN_CARD)
    return grids


def _guesses(brightness: npt.NDArray[np.float32], corners: FloatArray) -> list[_Fit]:
    """(layout match, grid_to_image, outline) for an outline in its four turns."""
    return [(_COARSE.match(brightness, grid), grid, corners) for grid in _outline_grids(corners)]


def _windows_in(brightness: npt.NDArray[np.float32], min_grid_px: float) -> list[list[_Fit]]:
    """Each window found: the fits aligned at its place, the one the coarse match prefers first.

    Every candidate outline is tried in its four turns (and with one corner completed where none matches
    the layout, or where the photo's edge cuts the outline), and every lattice of printed spaces in each
    placement a window allows (its own grid standing for the outline, which then says nothing of which end
    is row 1); the best guesses are aligned on the grout, a place at a time, until one holds there, and
    a window found from a card's outline has the outline's other end aligned beside it (`_other_end`).
    """
    regions = _dark_regions(brightness, min_grid_px)
    tried = []
    for outline in _card_outlines(regions, brightness.size, min_grid_px):
        turns = _guesses(brightness, outline)
        if max(match for match, _, _ in turns) < MIN_LAYOUT_MATCH or _at_edge(outline, brightness.shape):
            turns += [
                guess for completed in _completions(outline) for guess in _guesses(brightness, completed)
            ]
        tried += turns
    # From the smallest space a window may show to the largest: a window as wide as the photo.
    min_space_px = _SPACE_FOUND_SHARE * min_grid_px * SPACE / GRID_WIDTH
    max_space_px = max(brightness.shape) * SPACE / GRID_WIDTH
    for grid_to_image, offsets in _space_lattices(_printed_spaces(regions, min_space_px, max_space_px)):
        for placed in _placements(grid_to_image, offsets):
            grid = project(placed, _GRID_CORNERS)
            # Only a grid a window could be is worth the layout match.
            if _plausible(grid, of_grid=True) and _wide_enough(placed, min_grid_px):
                tried.append((_COARSE.match(brightness, placed), placed, grid))
    # Every guess of a window's width may stand as a rival at a place; only those matching the layout
    # fairly (`_MIN_GUESS_MATCH`) open a place of their own.
    waiting = sorted(
        (guess for guess in tried if _wide_enough(guess[1], min_grid_px)), key=lambda guess: -guess[0]
    )
    found: list[list[_Fit]] = []
    fruitless = 0
    while waiting and waiting[0][0] >= _MIN_GUESS_MATCH and fruitless < _MOST_FRUITLESS_ALIGNMENTS:
        # At the best guess's place its few best distinct guesses are aligned: a guess from the card's
        # outline may match the layout fairly yet lie turned, and its right turn match it less (the turns
        # of one outline share its corners, `_guesses`). Where dice hide the grout the match is less sure
        # than the guess's order, so another fit must match clearly better to be preferred.
        place = project(waiting[0][1], _GRID_CORNERS)
        rivals = [
            guess
            for guess in waiting
            if (guess[0] >= _MIN_GUESS_MATCH or guess[2] is waiting[0][2])
            and _overlap(place, project(guess[1], _GRID_CORNERS))
        ]
        tried = _distinct(rivals)[: min(_RIVALS, _MOST_FRUITLESS_ALIGNMENTS - fruitless)]
        fits = [
            (*_aligned(brightness, match, grid_to_image), corners) for match, grid_to_image, corners in tried
        ]
        best = fits[0]
        for fit in fits[1:]:
            if fit[0] > best[0] + _CLEARLY_BETTER:
                best = fit
        outline = project(best[1], _GRID_CORNERS)
        if (
            (best[0] >= MIN_LAYOUT_MATCH or (best[0] >= MIN_OUTLINED_MATCH and _outline_agrees(best)))
            and _plausible(outline, of_grid=True)
            and float(np.linalg.norm(outline[1] - outline[0])) >= min_grid_px
        ):
            held = next(guess for guess, fit in zip(tried, fits, strict=True) if fit is best)
            other_end = _other_end(brightness, held, tried)
            found.append([best, *(fit for fit in fits if fit is not best), *other_end])
            # Windows do not overlap: guesses on the window just found, which started too far off its
            # place to count as rivals there, would only align onto it again.
            waiting = [
                guess
                for guess in waiting
                if not any(guess is rival for rival in rivals)
                and not _overlap(outline, project(guess[1], _GRID_CORNERS))
            ]
        else:
            fruitless += len(tried)
            waiting = [guess for guess in waiting if not any(guess is one for one in tried)]
    return found


def _other_end(brightness: npt.NDArray[np.float32], guess: _Fit, tried: list[_Fit]) -> list[_Fit]:
    """The guess's card outline taken the other way up (`_OTHER_END`), aligned, where not tried already. The
    grid lies nearer the card's end away from the name strip, so the two ends put it a strip's width apart,
    and where dice hide the grout the layout may match the wrong end better (12 MP photo 71031 of
    `vision.synth.sagrada.phone_photo_config`). The strip tells the ends apart only once a fit is aligned
    (`_turned_by_name_strip`); the fine alignment then weighs both fits (`find_window_fits`)."""
    if _alike(guess[2], project(guess[1], _GRID_CORNERS)):  # placed by printed spaces: no card to turn
        return []
    other = guess[1] @ _OTHER_END
    if any(_alike(project(one[1], _GRID_CORNERS), project(other, _GRID_CORNERS)) for one in tried):
        return []
    return [(*_aligned(brightness, _COARSE.match(brightness, other), other), guess[2])]


def _outline_agrees(fit: _Fit) -> bool:
    """Whether an aligned fit lies where its card outline puts the grid (`_OUTLINE_AGREEMENT`): the dark
    card's edges and the grout seen within agree, two cues a drawing on the table seldom gives together.
    A fit placed by printed spaces carries its own grid as its outline; taken for a card's, that puts the
    grid a frame's width (a quarter of a space or more) inside, so such a fit never agrees."""
    corners = project(fit[1], _GRID_CORNERS)
    tolerance = _OUTLINE_AGREEMENT * float(np.linalg.norm(corners[1] - corners[0])) / COLS
    return any(
        np.abs(project(grid, _GRID_CORNERS) - corners).max() < tolerance for grid in _outline_grids(fit[2])
    )


def _wide_enough(grid_to_image: FloatArray, min_grid_px: float) -> bool:
    """Whether a guessed grid is as wide as a window must be: the alignment moves a grid, it hardly
    grows it, and a small dark patch (a space, a die) fits the layout well at its own small size."""
    corners = project(grid_to_image, _GRID_CORNERS)
    return float(np.linalg.norm(corners[1] - corners[0])) >= min_grid_px


def _aligned(
    brightness: npt.NDArray[np.float32], match: float, grid_to_image: FloatArray
) -> tuple[float, FloatArray]:
    """A guess aligned on the grout, with its layout match; the guess itself where the alignment slid
    onto a worse fit (dice hiding the grout)."""
    aligned = _COARSE.align(brightness, grid_to_image)
    return max(
        ((_COARSE.match(brightness, aligned), aligned), (match, grid_to_image)), key=lambda fit: fit[0]
    )


def _distinct(guesses: list[_Fit]) -> list[_Fit]:
    """The guesses less those whose grid lies within a tenth of a space of a better one's."""
    kept: list[_Fit] = []
    for guess in guesses:
        corners = project(guess[1], _GRID_CORNERS)
        tolerance = 0.1 * float(np.linalg.norm(corners[1] - corners[0])) / COLS
        if all(np.abs(corners - project(other[1], _GRID_CORNERS)).max() > tolerance for other in kept):
            kept.append(guess)
    return kept


def find_windows(image: BGRImage, min_space_px: float = 12.0) -> list[WindowLattice]:
    """Every window whose spaces show at least `min_space_px` wide, best layout match first: each window's
    first fit of `find_window_fits`."""
    return [fits[0] for fits in find_window_fits(image, min_space_px)]


def find_window_fits(image: BGRImage, min_space_px: float = 12.0) -> list[list[WindowLattice]]:
    """Every window whose spaces show at least `min_space_px` wide, best layout match first: found in a
    copy shrunk to `WORKING_LONG_SIDE`, aligned on the full image's grout (each fit the shrunk copy
    weighed at its place), turned by its name strip. Each window comes with the fits aligned at its place,
    the one the layout prefers first (of fits it matches alike, the one showing the name strip most
    clearly: `_clearest_strip_first`): where dice hide the grout the layout may prefer a fit off the grid,
    which the spaces' reading can tell (`vision.sagrada.reader`)."""
    small, to_image, brightness = _working_copies(image)
    shrink = max(image.shape[:2]) / WORKING_LONG_SIDE
    windows = []
    for fits in _windows_in(small, min_space_px * COLS / max(shrink, 1)):
        # Rivals the coarse alignment brought within a tenth of a space of a better fit would only align
        # onto it again.
        aligned = [
            (*_fine(brightness, to_image @ grid_to_image), outline)
            for _, grid_to_image, outline in _distinct(fits)
        ]
        best = aligned[0]
        for fit in aligned[1:]:
            if fit[0] > best[0] + _FINE_CLEARLY_BETTER:
                best = fit
        # A window let in on its outline's word (`_outline_agrees`) must match as well in the photo itself:
        # a square drawn on the table agrees with its own outline, and in the shrunk copy it may match too.
        if fits[0][0] < MIN_LAYOUT_MATCH and best[0] < MIN_OUTLINED_MATCH:
            continue
        # Fits the alignment brought within a tenth of a space of a better one would only read the same.
        kept = _distinct([best, *(fit for fit in aligned if fit is not best)])
        lattices = [
            _turned_by_name_strip(brightness, match, grid_to_image, project(to_image, outline))
            for match, grid_to_image, outline in kept
        ]
        if lattices[0] is not None:
            windows.append(_clearest_strip_first([lattice for lattice in lattices if lattice is not None]))
    return windows


def _clearest_strip_first(fits: list[WindowLattice]) -> list[WindowLattice]:
    """The fits at a place, the one showing the card's name strip most clearly beyond its row 4 first among
    those the fine layout cannot tell from the first (within `_FINE_CLEARLY_BETTER`): where dice hide the
    grout, fits a fifth to half a space apart match it alike, and the strip, which no die covers, shows
    best through the fit on the grid (`models/SAGRADA_CELLS.md`, session 67)."""
    alike = [fit for fit in fits if fit.layout_match >= fits[0].layout_match - _FINE_CLEARLY_BETTER]
    clearest = max(alike, key=lambda fit: fit.orientation_margin)
    return [clearest, *(fit for fit in fits if fit is not clearest)]


def _turned_by_name_strip(
    brightness: npt.NDArray[np.float32], match: float, grid_to_image: FloatArray, outline: FloatArray
) -> WindowLattice | None:
    """The fit as a lattice, row 1 at the end away from the name strip; None where it shows too little of
    its inner grout to be a card."""
    margin = _name_strip_margin(brightness, grid_to_image, outline)
    if margin < 0:
        grid_to_image, margin = grid_to_image @ _HALF_TURN, -margin
    if _FINE.grout_seen(brightness, grid_to_image) < MIN_GROUT_SEEN:
        return None
    return WindowLattice(grid_to_image / grid_to_image[2, 2], margin, match)


def slide_windows(image: BGRImage, placed: Sequence[FloatArray]) -> list[tuple[float, FloatArray]]:
    """Grids whose plane is known from outside the print (a mat's markers), and their place on that plane
    roughly, each slid onto the grout (`_Layout.slide`), with its layout match. Three degrees of freedom
    instead of eight: dice hiding the grout cannot bend or tilt the fit."""
    if not placed:
        return []
    small, to_image, brightness = _working_copies(image)
    to_small = np.linalg.inv(to_image)
    slid = []
    for grid_to_image in placed:
        coarse = to_image @ _COARSE.slide(small, to_small @ grid_to_image)
        # The coarse layout reaches a card placed further off; the fine one, started where the grid was
        # put, holds a card placed close a little more exactly. The better match of the two wins.
        fits = (_FINE.slide(brightness, start) for start in (grid_to_image, coarse / coarse[2, 2]))
        slid.append(max(((_FINE.match(brightness, fit), fit) for fit in fits), key=lambda option: option[0]))
    return slid


def _working_copies(
    image: BGRImage,
) -> tuple[npt.NDArray[np.float32], FloatArray, npt.NDArray[np.float32]]:
    """The brightness shrunk to `WORKING_LONG_SIDE` (where windows are looked for and coarsely aligned), the
    homography from its pixels to the photo's, and the photo's own brightness (for the fine alignment): both
    float32 for the warps, the photo's in whole levels."""
    height, width = image.shape[:2]
    shrink = max(height, width) / WORKING_LONG_SIDE
    largest_channel = _brightness(image)
    small, to_image = largest_channel, np.eye(3)
    if shrink > 1:
        size = (round(width / shrink), round(height / shrink))
        small = cast(npt.NDArray[np.uint8], cv2.resize(largest_channel, size, interpolation=cv2.INTER_AREA))
        # Pixel centres: a shrunk pixel x stands for (x + 0.5) * scale - 0.5 in the photo.
        scale_x, scale_y = width / size[0], height / size[1]
        to_image = np.array([[scale_x, 0, (scale_x - 1) / 2], [0, scale_y, (scale_y - 1) / 2], [0, 0, 1.0]])
    return small.astype(np.float32), to_image, largest_channel.astype(np.float32)


def _fine(brightness: npt.NDArray[np.float32], start: FloatArray) -> tuple[float, FloatArray]:
    """`start` aligned on the photo's grout with the fine layout, with its match, both on the photo round it
    with every space made as light as the next (`_spaces_alike`). As in the coarse step the alignment may
    slide off (a card cut by the photo's edge): the start stays where it matches better."""
    alike, to_crop = _spaces_alike(brightness, start)
    local = to_crop @ start
    match, fit = max(
        ((_FINE.match(alike, fit), fit) for fit in (local, _FINE.align(alike, local))),
        key=lambda option: option[0],
    )
    in_photo = np.linalg.inv(to_crop) @ fit
    return match, in_photo / in_photo[2, 2]


_LIGHTEST_WITHIN = 0.6
"""The side, in space pitches, of the square round each pixel whose lightest pixel it is divided by in
`_spaces_alike`: wide enough to reach a space's light print from the grout beside it. (A square, as OpenCV
dilates it fifteen times faster than a disc; the two fitted alike on the windows of `_spaces_alike`.)"""


def _spaces_alike(
    brightness: npt.NDArray[np.float32], grid_to_image: FloatArray
) -> tuple[npt.NDArray[np.float32], FloatArray]:
    """The photo round the grid at `grid_to_image` (and the shift from the photo's pixels to it), each pixel
    divided by the lightest near it (`_LIGHTEST_WITHIN`). The layout holds every space equally light, but a
    grey value print, a dark die or a shadow is darker than a white space: correlated with the photo as it
    is, the fit gains by pulling a corner off such spaces. Started on the true grid of rendered windows, the
    fine alignment drifted more than a fifth of a space on 9 of 300 on the photo as it is, and on 2 on this
    (a one-off count: the Sagrada bench's first 150 windows with 0-20 dice and its first 150 finished ones).
    Grout stays dark beside its spaces."""
    corners = project(grid_to_image, _GRID_CORNERS)
    sides = np.linalg.norm(corners[_NEXT] - corners, axis=1)
    pitch = PITCH * float((sides[0] + sides[2]) / GRID_WIDTH + (sides[1] + sides[3]) / GRID_HEIGHT) / 4
    reach = max(3, round(pitch * _LIGHTEST_WITHIN) | 1)
    margin = 0.3 * (corners.max(axis=0) - corners.min(axis=0)) + reach
    x0, y0, x1, y1 = _box_round(corners, margin, brightness.shape)
    crop = brightness[y0:y1, x0:x1]
    # The brightness holds whole levels (`_working_copies`): dilated as bytes, it comes out the same, twice
    # as fast (a one-off timing, session 66).
    square = cv2.getStructuringElement(cv2.MORPH_RECT, (reach, reach))
    lightest = cv2.dilate(crop.astype(np.uint8), square).astype(np.float32)
    alike = np.asarray(255.0 * crop / np.maximum(lightest, 1.0), np.float32)
    return alike, np.array([[1.0, 0, -x0], [0, 1.0, -y0], [0, 0, 1.0]])


def _brightness(image: BGRImage) -> npt.NDArray[np.uint8]:
    """Each pixel's largest channel: the frame and grout are dark in all three, any print or die is not."""
    blue, green, red = cv2.split(image)
    return cast(npt.NDArray[np.uint8], cv2.max(cv2.max(blue, green), red))
