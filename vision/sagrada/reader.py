"""Photo to scored Sagrada windows: decode -> find the windows on printed mats, then the others -> read the
spaces -> identify the pattern -> score, each stage timed.

The reader reports what it saw, not what the rules would like: a die that breaks a rule stays in the window
and the engine names the violation; a space whose reading is unsure is listed as uncertain with the other
readings the space classifier found likely, so the player can confirm it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from engine.sagrada.scoring import ScoreBreakdown, ScoringOptions
from engine.sagrada.window import BLANK_PATTERN, Cell, Pattern, Window
from vision.decode import BGRImage, DecodedImage, DecodeLimits, decode_image
from vision.errors import ColourlessImage
from vision.read import holds_colour
from vision.sagrada.cells import UNSURE, CellReader, SpaceReading, sureness
from vision.sagrada.lattice import MIN_LAYOUT_MATCH, WindowLattice, find_window_fits
from vision.sagrada.mat import MatsSeen, find_mats, without_mats
from vision.sagrada.pattern_id import PatternMatch, half_turn, identify_pattern

SURE_FIT = -0.05
"""A window whose spaces read less surely than this (`sureness`) has its other fits read too."""
SURER_FIT = 0.1
"""How much surer (mean log probability of the spaces' likeliest readings) another fit of a window must read
than the fit it would replace."""
ALTERNATIVE = 0.03
"""Other readings at least this likely are offered as alternatives."""
EMPTY_CARD_CONFIDENCE = 0.95
"""How surely the print of a window found without markers and holding no die must name its card. An empty
card shows all of its print, which names it all but surely; a drawing on the table or a mat's marker read as
empty spaces fits some pattern less well. Over the bench's sets every dice-less window found on a
card named its pattern at 1.0, and the dice-less windows reported where no card lies at 0.81-0.88
(`_shows_a_card` gives the counts)."""


@dataclass(frozen=True)
class UncertainSpace:
    """A space the player should confirm: what was read and what else it may be, in window notation
    (`--` for empty)."""

    cell: Cell
    reading: str
    alternatives: tuple[str, ...]
    confidence: float

    @classmethod
    def of(cls, space: SpaceReading) -> UncertainSpace | None:
        """The question to ask about a space, or None when its reading is sure."""
        (reading, confidence), *others = space.readings()
        if confidence >= UNSURE:
            return None
        alternatives = tuple(text for text, probability in others if probability >= ALTERNATIVE)
        return cls(space.cell, reading, alternatives, confidence)

    def to_json(self) -> dict[str, Any]:
        return {
            "cell": str(self.cell),
            "reading": self.reading,
            "alternatives": list(self.alternatives),
            "confidence": round(self.confidence, 3),
        }


@dataclass(frozen=True)
class WindowReading:
    """One window read from the photo; `corners` are the grid's outer corners in stored-image pixels
    (r1c1, r1c5, r4c5, r4c1), `lattice` its fit in the working pixels."""

    window: Window
    pattern: Pattern | None
    pattern_match: PatternMatch
    uncertain: tuple[UncertainSpace, ...]
    corners: npt.NDArray[np.float64]
    lattice: WindowLattice
    score: ScoreBreakdown
    spaces: tuple[SpaceReading, ...]
    """What the space classifier saw on each space, named as `window` names them."""

    def read_as(self, pattern: Pattern, scoring: ScoringOptions | None = None) -> WindowReading:
        """This window read as `pattern`'s card, as `read_pixels` would read it knowing the pattern, but from
        the spaces already classified: the print only decides which way up the card lies."""
        match = _identified(self.spaces, self.lattice, pattern)
        lattice, spaces, corners = self.lattice, self.spaces, self.corners
        if match.turned:  # the corners start at r1c1: turned, r4c5's corner comes first
            lattice, spaces, corners = lattice.turned(), _turned(spaces), np.roll(corners, 2, axis=0)
        return _window_reading(lattice, spaces, match, corners, scoring or ScoringOptions())

    def to_json(self) -> dict[str, Any]:
        return {
            "grid": str(self.window),
            "pattern": self.pattern.name if self.pattern is not None else None,
            "pattern_confidence": round(self.pattern_match.confidence, 4),
            "pattern_spaces_seen": self.pattern_match.visible,
            "uncertain": [space.to_json() for space in self.uncertain],
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
            "mat": self.lattice.mat_seat,
            "score": self.score.to_json(),
        }


@dataclass(frozen=True)
class SagradaReading:
    """Every window found in one photo, the working pixels they were found in, and the stage timings."""

    windows: tuple[WindowReading, ...]
    pixels: BGRImage
    timings_ms: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "windows": [window.to_json() for window in self.windows],
            "timings_ms": {stage: round(ms, 2) for stage, ms in self.timings_ms.items()},
        }


class SagradaReader:
    """Finds, reads and scores windows; the space classifier is loaded once. With `mats` False the photo is
    not searched for printed window mats (`vision.sagrada.mat`): every window is found without markers.

    Raises ModelUnavailable (a VisionError) when the classifier's model file is missing or unreadable.
    """

    def __init__(
        self, cells: CellReader | None = None, limits: DecodeLimits | None = None, *, mats: bool = True
    ):
        self.cells = cells or CellReader()
        self.limits = limits or DecodeLimits()
        self.mats = mats

    def read(
        self,
        source: str | Path | bytes,
        pattern: Pattern | None = None,
        scoring: ScoringOptions | None = None,
    ) -> SagradaReading:
        """Read every window in the photo at `source`; `pattern` fixes the card when it is known.

        Raises UnreadableImage or ImageTooLarge (VisionError) for input that is not a usable image, and
        ColourlessImage for a greyscale one that shows a window.
        """
        started = time.perf_counter()
        decoded = decode_image(source, self.limits)
        return self.read_decoded(decoded, pattern, scoring, (time.perf_counter() - started) * 1000)

    def read_decoded(
        self,
        decoded: DecodedImage,
        pattern: Pattern | None = None,
        scoring: ScoringOptions | None = None,
        decode_ms: float = 0.0,
    ) -> SagradaReading:
        """Read the windows of an image already decoded (in `decode_ms`)."""
        started = time.perf_counter()
        reading = self.read_pixels(decoded.pixels, pattern, scoring, 1.0 / decoded.scale)
        timings = {"decode": decode_ms, **reading.timings_ms}
        timings["total"] = decode_ms + (time.perf_counter() - started) * 1000
        return SagradaReading(reading.windows, reading.pixels, timings)

    def read_pixels(
        self,
        pixels: BGRImage,
        pattern: Pattern | None = None,
        scoring: ScoringOptions | None = None,
        to_stored: float = 1.0,
    ) -> SagradaReading:
        """Read windows in decoded BGR pixels; `to_stored` scales their coordinates to the stored image's.

        Raises ColourlessImage (a VisionError) for a greyscale photo that shows a window: its dice and
        printed spaces differ by colour, which such a photo does not show. (One that shows none reads as
        no window, as any other photo does.)"""
        scoring = scoring or ScoringOptions()
        clock = _Clock()
        mats = find_mats(pixels) if self.mats else MatsSeen([], [])
        on_mats = mats.windows
        clock.lap("find_mats")
        # Each window's fits, the one to read first first: a window on a mat has only the one.
        fits = [[window.lattice] for window in on_mats] + [
            window
            for window in find_window_fits(without_mats(pixels, on_mats))
            if not mats.marker_within(window[0].corners)
        ]
        clock.lap("find_windows")
        if fits and not holds_colour(pixels):
            raise ColourlessImage(
                "the photo is greyscale: a Sagrada window is read by the colours of its dice and spaces, "
                "so take the photo in colour"
            )
        spaces = self.cells.read(pixels, [window[0] for window in fits])
        clock.lap("read_spaces")
        lattices, spaces = self._surest_fits(pixels, fits, spaces)
        clock.lap("other_fits")
        placed = []
        for lattice, seen in zip(lattices, spaces, strict=True):
            match = _identified(seen, lattice, pattern)
            vouched_for = lattice.mat_seat is not None and lattice.layout_match >= MIN_LAYOUT_MATCH
            if not vouched_for and not _shows_a_card(seen, lattice, match, pattern):
                continue
            if match.turned:
                lattice, seen = lattice.turned(), _turned(seen)
            placed.append((lattice, seen, match))
        clock.lap("pattern")
        windows = tuple(
            _window_reading(lattice, seen, match, lattice.corners * to_stored, scoring)
            for lattice, seen, match in placed
        )
        clock.lap("score")
        return SagradaReading(windows, pixels, clock.laps)

    def _surest_fits(
        self, pixels: BGRImage, fits: list[list[WindowLattice]], spaces: list[tuple[SpaceReading, ...]]
    ) -> tuple[list[WindowLattice], list[tuple[SpaceReading, ...]]]:
        """Each window's lattice and spaces: its first fit's (as read in `spaces`), or another fit's where the
        first reads unsure (under `SURE_FIT`) and the other surer by `SURER_FIT`, showing the card's name
        strip beyond its row 4 at least as clearly (`WindowLattice.orientation_margin`). Where dice hide
        the grout the layout's best fit can lie off the grid, cutting the dice across; but a fit turned a
        quarter or half off the card can read its dice as surely, and the strip, which the dice never
        cover, tells it from the true one (`models/SAGRADA_CELLS.md`, session 67)."""
        doubtful = [i for i, window in enumerate(fits) if len(window) > 1 and sureness(spaces[i]) < SURE_FIT]
        rivals = [rival for i in doubtful for rival in fits[i][1:]]
        readings = iter(zip(rivals, self.cells.read(pixels, rivals), strict=True))
        lattices, spaces = [window[0] for window in fits], list(spaces)
        for i in doubtful:
            for rival, seen in (next(readings) for _ in fits[i][1:]):
                surer = sureness(seen) > sureness(spaces[i]) + SURER_FIT
                if surer and rival.orientation_margin >= lattices[i].orientation_margin:
                    lattices[i], spaces[i] = rival, seen
        return lattices, spaces


def _identified(
    spaces: tuple[SpaceReading, ...], lattice: WindowLattice, pattern: Pattern | None
) -> PatternMatch:
    """The card the spaces' print shows (or which way up `pattern`'s card lies, when it is known)."""
    prints = {space.cell: space.print_belief() for space in spaces}
    return identify_pattern(prints, lattice.orientation_margin, [pattern] if pattern else None)


def _shows_a_card(
    spaces: tuple[SpaceReading, ...], lattice: WindowLattice, match: PatternMatch, pattern: Pattern | None
) -> bool:
    """Whether a window found without markers (or on a mat, matching the layout weakly) holds a die or shows
    a card's print. An empty card shows all of its print, so a lattice with no die on it whose print does
    not name a card surely (`EMPTY_CARD_CONFIDENCE`, whichever card the player said it is) is a drawing on
    the table (or an empty mat's outline). Over the five sets of `python3 bench/bench_sagrada_read.py
    --accuracy 100` this dropped 1 of the 2 windows reported where no card lies, and none of the 488 windows
    found on cards (a one-off count, session 18); asking for the confidence too dropped 4 of the 7 left over
    three samples (`--seeds-after` 0, 100 and 200), and none of the 1,784 found on cards (session 50)."""
    if any(space.die is not None for space in spaces):
        return True
    seen = match if pattern is None else _identified(spaces, lattice, None)
    return seen.pattern is not None and seen.confidence >= EMPTY_CARD_CONFIDENCE


def _window_reading(
    lattice: WindowLattice,
    spaces: tuple[SpaceReading, ...],
    match: PatternMatch,
    corners: npt.NDArray[np.float64],
    scoring: ScoringOptions,
) -> WindowReading:
    """The window the spaces show, its uncertain spaces, and its score as the card identified."""
    window = Window(tuple(space.die for space in spaces))
    breakdown = scoring.score(window, match.pattern or BLANK_PATTERN)
    uncertain = tuple(question for question in map(UncertainSpace.of, spaces) if question is not None)
    return WindowReading(window, match.pattern, match, uncertain, corners, lattice, breakdown, spaces)


def _turned(spaces: tuple[SpaceReading, ...]) -> tuple[SpaceReading, ...]:
    """The spaces renamed for the card read the other way up: what was seen at r1c1 is r4c5."""
    by_cell = {space.cell: space for space in spaces}
    return tuple(SpaceReading(space.cell, by_cell[half_turn(space.cell)].probabilities) for space in spaces)


class _Clock:
    def __init__(self) -> None:
        self.laps: dict[str, float] = {}
        self._last = time.perf_counter()

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        self.laps[stage] = (now - self._last) * 1000
        self._last = now


def annotate(reading: SagradaReading) -> BGRImage:
    """The working pixels with each window outlined, each die's reading written on it, and every violation
    drawn in red: its spaces outlined and its rule named."""
    canvas = reading.pixels.copy()
    scale = max(canvas.shape[:2]) / 1000
    for window in reading.windows:
        lattice = window.lattice
        outline = np.round(lattice.corners).astype(np.int32)
        cv2.polylines(canvas, [outline], True, (255, 200, 0), max(2, round(2 * scale)), cv2.LINE_AA)
        name = window.pattern.name if window.pattern else "pattern unknown"
        corner = tuple(int(v) for v in outline[0])
        _label(canvas, f"{name}  {window.score.total} pts", corner, (255, 200, 0), scale)
        for cell, die in window.window.placed():
            center = lattice.cell_centers()[cell.index]
            _label(canvas, str(die), (int(center[0]) - 8, int(center[1]) + 5), (255, 255, 255), scale * 0.8)
        for violation in window.score.violations:
            for name_of_cell in violation.cells:
                cell = Cell.parse(name_of_cell)
                quad = np.round(lattice.cell_quad(cell.row, cell.col)).astype(np.int32)
                cv2.polylines(canvas, [quad], True, (0, 0, 255), max(2, round(2 * scale)), cv2.LINE_AA)
            first = Cell.parse(violation.cells[0])
            anchor = lattice.cell_quad(first.row, first.col)[3]
            _label(canvas, violation.rule, (int(anchor[0]), int(anchor[1]) + 12), (0, 0, 255), scale * 0.7)
    return canvas


def _label(
    canvas: BGRImage, text: str, at: tuple[int, ...], colour: tuple[int, int, int], scale: float
) -> None:
    """Text with a dark halo so it reads on any background."""
    font_scale = max(0.4, 0.5 * scale)
    position = (at[0], at[1])
    cv2.putText(canvas, text, position, cv2.FONT_HERSHEY_SIMPLEX, font_scale, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(canvas, text, position, cv2.FONT_HERSHEY_SIMPLEX, font_scale, colour, 1, cv2.LINE_AA)
