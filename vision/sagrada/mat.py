"""The Sagrada window mat: a printed A4 sheet with four markers round the outline a window card lies in, for
fixed overhead cameras and for anyone who wants every window found for certain.

Without a mat (`vision.sagrada.lattice`) each card's outline must be found among the dice that overhang it.
On a mat the markers place the sheet, the card's place on it is known to a few millimetres, and the lattice
only has to be aligned on the grout from there. The sheet also says which way up the card lies (its name
strip towards the sheet's bottom edge, as printed) and whose it is: each seat (1-4) prints its own four
marker ids, after Run Buster's.

Mat coordinates are millimetres on the sheet (A4 landscape, 297 x 210), x right and y down as printed.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import cv2
import numpy as np

from vision.markers import (
    MIN_MARKERS,
    BGRImage,
    FloatArray,
    Marker,
    MatLocation,
    MatNotFound,
    draw_markers,
    find_markers,
    locate,
    print_scale,
)
from vision.sagrada.lattice import (
    CARD_HEIGHT,
    CARD_THICKNESS,
    CARD_WIDTH,
    FRAME,
    MIN_OUTLINED_MATCH,
    WORKING_LONG_SIDE,
    WindowLattice,
    slide_windows,
)

SHEET_MM = (297.0, 210.0)
"""A4 landscape."""
DIE_EDGE_MM = 16.0
"""A Sagrada die's edge: the card's measures (`vision.sagrada.lattice`) are in die edges."""
MARKER_SIDE = 40.0
MARKER_MARGIN = 10.0
"""From the sheet's edge to a marker, in millimetres: printers leave a few millimetres blank."""
SEATS = (1, 2, 3, 4)
FIRST_MARKER_ID = 10
"""Seat 1's first id; Run Buster's mat uses 0-5."""
CARD_LEFT = (SHEET_MM[0] - CARD_WIDTH * DIE_EDGE_MM) / 2
CARD_TOP = (SHEET_MM[1] - CARD_HEIGHT * DIE_EDGE_MM) / 2
"""Where the card's top-left corner lies on the sheet: the outline is centred."""
OUTLINE_GAP = 1.5
"""Millimetres between the card's edge and the printed outline, so the card drops in without covering it."""
MARKER_SEARCH_LONG_SIDE = WORKING_LONG_SIDE
"""Markers are looked for once, in a copy at most this long, so a photo without a mat pays little: the size
where windows without markers are looked for, and a marker is over twice a space's width."""
SMALLEST_MARKER = 12.0
"""Pixels a side, in that copy, of the smallest marker looked for. A marker is 2.2 spaces wide, so mats are
looked for only where their card's spaces show 5.5 px or more in the copy: 9 px in a 1280x720 photo, 28 px
in a 12 MP one (a grid about 150 px wide). Smaller cards are left to the search without markers."""


def mat_markers(seat: int) -> tuple[Marker, ...]:
    """The four markers of a seat's mat: top-left, top-right, bottom-right, bottom-left."""
    if seat not in SEATS:
        raise ValueError(f"a Sagrada mat is for seat 1-4, got {seat}")
    right = SHEET_MM[0] - MARKER_MARGIN - MARKER_SIDE
    bottom = SHEET_MM[1] - MARKER_MARGIN - MARKER_SIDE
    corners = (
        (MARKER_MARGIN, MARKER_MARGIN),
        (right, MARKER_MARGIN),
        (right, bottom),
        (MARKER_MARGIN, bottom),
    )
    first = FIRST_MARKER_ID + 4 * (seat - 1)
    return tuple(Marker(first + index, left, top, MARKER_SIDE) for index, (left, top) in enumerate(corners))


def _seat_of(marker_id: int) -> int:
    return (marker_id - FIRST_MARKER_ID) // 4 + 1


GRID_TO_MAT = np.array(
    [
        [DIE_EDGE_MM, 0, CARD_LEFT + FRAME * DIE_EDGE_MM],
        [0, DIE_EDGE_MM, CARD_TOP + FRAME * DIE_EDGE_MM],
        [0, 0, 1.0],
    ]
)
"""Grid coordinates (die edges from r1c1's outer corner) of a card lying in the outline -> mat millimetres."""


@dataclass(frozen=True)
class MatWindow:
    """A window found on a mat: the seat, where the mat lies, and the card's lattice aligned on its grout."""

    seat: int
    location: MatLocation
    lattice: WindowLattice


@dataclass(frozen=True)
class MatsSeen:
    """What the mats in a photo show: the window on each mat holding a card, and the markers (their four
    corners in pixels) of every mat placed, whether or not it holds a card. A lone marker, which may be a
    pattern on the table misread, places no mat and is left out."""

    windows: list[MatWindow]
    markers: list[FloatArray]

    def marker_within(self, corners: FloatArray) -> bool:
        """Whether a marker shows inside the quad `corners`: then no card lies there, or it would hide the
        marker. An empty mat's light sheet, framed by a dark table and dotted with its markers, can pass
        for a card to the search without markers."""
        quad = corners.astype(np.float32)
        return any(
            cv2.pointPolygonTest(quad, tuple(float(v) for v in marker.mean(axis=0)), False) >= 0
            for marker in self.markers
        )


def find_mats(pixels: BGRImage) -> MatsSeen:
    """The window on every mat with at least two of its markers in view and a card in its outline, by seat,
    and the markers of every mat placed."""
    ids = {marker.id for seat in SEATS for marker in mat_markers(seat)}
    found = find_markers(pixels, ids, MARKER_SEARCH_LONG_SIDE, min_side=SMALLEST_MARKER)
    by_seat: defaultdict[int, dict[int, FloatArray]] = defaultdict(dict)
    for marker_id, corners in found.items():
        by_seat[_seat_of(marker_id)][marker_id] = corners
    height, width = pixels.shape[:2]
    located: list[tuple[int, MatLocation]] = []
    for seat in sorted(seat for seat, markers in by_seat.items() if len(markers) >= MIN_MARKERS):
        try:
            location = locate(
                by_seat[seat], mat_markers(seat), SHEET_MM, (width, height), f"window mat {seat}"
            )
        except MatNotFound:  # markers that fit no sheet (misread, or from two prints): search without them
            continue
        located.append((seat, location))
    lifted = [
        location.plane_homography(CARD_THICKNESS * DIE_EDGE_MM) @ GRID_TO_MAT for _, location in located
    ]
    slid = slide_windows(pixels, [placed / placed[2, 2] for placed in lifted])
    windows = [
        MatWindow(seat, location, WindowLattice(grid_to_image, 1.0, match, seat))
        for (seat, location), (match, grid_to_image) in zip(located, slid, strict=True)
        # The markers give the card's outline, as a dark outline does for the search without them: a full
        # window whose dice hide the grout may match the layout under `MIN_LAYOUT_MATCH` and is let in from
        # `MIN_OUTLINED_MATCH`; under that no card lies in the outline. (The reader asks a window matched
        # that weakly to show a card, as it asks of any window found without markers.)
        if match >= MIN_OUTLINED_MATCH
    ]
    return MatsSeen(windows, [corners for seat, _ in located for corners in by_seat[seat].values()])


def without_mats(pixels: BGRImage, windows: list[MatWindow]) -> BGRImage:
    """The photo with each mat's sheet painted white, for the search without markers: it neither finds
    these cards again nor takes the sheet's print for a card (a marker's white inside, framed in black,
    looks like a small one). White, because that search starts from dark outlines."""
    if not windows:
        return pixels
    painted = pixels.copy()
    for window in windows:
        sheet = np.round(window.location.outline).astype(np.int32)
        cv2.fillConvexPoly(painted, sheet, (255, 255, 255))
    return painted


def draw_mat(seat: int, px_per_mm: float) -> BGRImage:
    """The mat as printed, `px_per_mm` pixels per millimetre, white paper: the markers, the card's outline
    and the seat's number, with a note of which way the card lies."""
    width, height = round(SHEET_MM[0] * px_per_mm), round(SHEET_MM[1] * px_per_mm)
    image = np.full((height, width, 3), 255, np.uint8)
    draw_markers(image, mat_markers(seat), px_per_mm)
    ink = (90, 90, 90)
    left, top = CARD_LEFT - OUTLINE_GAP, CARD_TOP - OUTLINE_GAP
    right = CARD_LEFT + CARD_WIDTH * DIE_EDGE_MM + OUTLINE_GAP
    bottom = CARD_TOP + CARD_HEIGHT * DIE_EDGE_MM + OUTLINE_GAP
    line = max(1, round(0.6 * px_per_mm))
    cv2.rectangle(image, _at(left, top, px_per_mm), _at(right, bottom, px_per_mm), ink, line, cv2.LINE_AA)
    thickness = max(1, round(0.5 * px_per_mm))
    for text, y, size in (
        (f"SAGRADA  WINDOW MAT  {seat}", top - 8.0, 6.0),
        ("the window card here, its name at this end", bottom + 9.0, 4.0),
    ):
        scale = size * px_per_mm / 22.0
        (text_width, _), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, thickness)
        origin = (round((width - text_width) / 2), round(y * px_per_mm))
        cv2.putText(image, text, origin, cv2.FONT_HERSHEY_DUPLEX, scale, ink, thickness, cv2.LINE_AA)
    return image


def _at(x: float, y: float, px_per_mm: float) -> tuple[int, int]:
    return round(x * px_per_mm), round(y * px_per_mm)


def mat_image(seat: int, dpi: float) -> BGRImage:
    """Seat `seat`'s mat drawn at `dpi` dots per inch."""
    return draw_mat(seat, print_scale(dpi))
