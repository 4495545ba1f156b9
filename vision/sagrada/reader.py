"""Photo to scored Sagrada windows: decode -> find windows -> look at spaces -> identify the pattern -> read
the dice -> score, each stage timed.

The reader reports what it saw, not what the rules would like: a die that breaks a rule stays in the window
and the engine names the violation; a space whose die-or-empty call is close, or a die read with low
confidence, is listed as uncertain with the alternatives so the player can confirm it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from engine.sagrada.objectives import PUBLIC_OBJECTIVES, PublicObjective
from engine.sagrada.rules import OFFICIAL, Rules
from engine.sagrada.scoring import ScoreBreakdown, score_window
from engine.sagrada.window import BLANK_PATTERN, Cell, Color, Die, Pattern, Window
from vision.colors import COLOR_SETS
from vision.decode import BGRImage, decode_image
from vision.read import Box, DieReading
from vision.recognizer import DiceRecognizer
from vision.sagrada.cells import SpaceLook, flatten, look_at_spaces, nearest_printed_color, read_print
from vision.sagrada.lattice import WindowLattice, find_windows
from vision.sagrada.pattern_id import PatternMatch, all_cells_seen, identify_pattern

UNSURE_DIE_SCORE = 0.25
"""A die-or-empty call closer than this to the boundary is reported as uncertain."""
UNSURE_READING = 0.8
"""A die whose value or colour confidence is below this is reported as uncertain."""
_DIE_BOX_SCALE = 1.35
"""The box handed to the dice reader: the space's bounding box grown by this, since a die stands up from
its space towards the camera's side."""


@dataclass(frozen=True)
class ScoringOptions:
    """How the windows read are scored: the game's public objectives, a private colour, favor tokens left."""

    objectives: Sequence[PublicObjective] = PUBLIC_OBJECTIVES
    private: Color | None = None
    favor_tokens: int = 0
    rules: Rules = OFFICIAL


@dataclass(frozen=True)
class UncertainSpace:
    """A space the player should confirm: what was read and what else it may be, in window notation
    (`--` for empty)."""

    cell: Cell
    reading: str
    alternatives: tuple[str, ...]
    confidence: float

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

    def to_json(self) -> dict[str, Any]:
        return {
            "grid": str(self.window),
            "pattern": self.pattern.name if self.pattern is not None else None,
            "pattern_confidence": round(self.pattern_match.confidence, 4),
            "pattern_spaces_seen": self.pattern_match.visible,
            "uncertain": [space.to_json() for space in self.uncertain],
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
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
    """Finds, reads and scores windows; dice values and colours come from the recognizer's reader."""

    def __init__(self, recognizer: DiceRecognizer | None = None):
        self.recognizer = recognizer or DiceRecognizer()

    def read(
        self,
        source: str | Path | bytes,
        pattern: Pattern | None = None,
        scoring: ScoringOptions | None = None,
    ) -> SagradaReading:
        """Read every window in the photo at `source`; `pattern` fixes the card when it is known.

        Raises UnreadableImage or ImageTooLarge (VisionError) for input that is not a usable image.
        """
        started = time.perf_counter()
        decoded = decode_image(source, self.recognizer.settings.decode)
        decoded_at = time.perf_counter()
        reading = self.read_pixels(decoded.pixels, pattern, scoring, 1.0 / decoded.scale)
        timings = {"decode": (decoded_at - started) * 1000, **reading.timings_ms}
        timings["total"] = (time.perf_counter() - started) * 1000
        return SagradaReading(reading.windows, reading.pixels, timings)

    def read_pixels(
        self,
        pixels: BGRImage,
        pattern: Pattern | None = None,
        scoring: ScoringOptions | None = None,
        to_stored: float = 1.0,
    ) -> SagradaReading:
        """Read windows in decoded BGR pixels; `to_stored` scales their coordinates to the stored image's."""
        scoring = scoring or ScoringOptions()
        clock = _Clock()
        lattices = find_windows(pixels)
        clock.lap("find_windows")
        placed: list[tuple[WindowLattice, tuple[SpaceLook, ...], PatternMatch]] = []
        for lattice in lattices:
            flat = flatten(pixels, lattice)
            looks = look_at_spaces(flat)
            prints = [None if look.has_die else read_print(flat, look) for look in looks]
            match = identify_pattern(
                all_cells_seen(prints), lattice.orientation_margin, [pattern] if pattern else None
            )
            if match.turned:
                lattice = lattice.turned()
                looks = look_at_spaces(flatten(pixels, lattice))
            placed.append((lattice, looks, match))
        clock.lap("spaces_and_pattern")
        boxes = [
            _die_box(lattice, look.cell) for lattice, looks, _ in placed for look in looks if look.has_die
        ]
        readings = iter(self.recognizer.reader.read(pixels, boxes, COLOR_SETS["sagrada"]))
        clock.lap("read_dice")
        windows = []
        for lattice, looks, match in placed:
            dice: list[Die | None] = []
            uncertain: list[UncertainSpace] = []
            for look in looks:
                die, unsure = _die_in_space(look, next(readings) if look.has_die else None)
                dice.append(die)
                if unsure is not None:
                    uncertain.append(unsure)
            window = Window(tuple(dice))
            breakdown = score_window(
                window,
                match.pattern or BLANK_PATTERN,
                objectives=scoring.objectives,
                private=scoring.private,
                favor_tokens=scoring.favor_tokens,
                rules=scoring.rules,
            )
            windows.append(
                WindowReading(
                    window,
                    match.pattern,
                    match,
                    tuple(uncertain),
                    lattice.corners * to_stored,
                    lattice,
                    breakdown,
                )
            )
        clock.lap("score")
        return SagradaReading(tuple(windows), pixels, clock.laps)


class _Clock:
    def __init__(self) -> None:
        self.laps: dict[str, float] = {}
        self._last = time.perf_counter()

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        self.laps[stage] = (now - self._last) * 1000
        self._last = now


def _die_box(lattice: WindowLattice, cell: Cell) -> Box:
    quad = lattice.cell_quad(cell.row, cell.col)
    center = quad.mean(axis=0)
    half = (quad.max(axis=0) - quad.min(axis=0)) / 2 * _DIE_BOX_SCALE
    return (
        float(center[0] - half[0]),
        float(center[1] - half[1]),
        float(center[0] + half[0]),
        float(center[1] + half[1]),
    )


def _die_in_space(look: SpaceLook, reading: DieReading | None) -> tuple[Die | None, UncertainSpace | None]:
    """The die read in a space (None when empty) and, when the call is unsure, what to ask the player."""
    if reading is None:
        if look.die_score > -UNSURE_DIE_SCORE:
            return None, UncertainSpace(look.cell, "--", ("a die",), 0.5 - look.die_score)
        return None, None
    hue_color = nearest_printed_color(look.hue)
    color = Color.parse(reading.color) if reading.color in COLOR_SETS["sagrada"] else hue_color
    die = Die(color, reading.value)
    alternatives = []
    if look.die_score < UNSURE_DIE_SCORE:
        alternatives.append("--")
    if reading.color_confidence < UNSURE_READING or color != hue_color:
        alternatives += [str(Die(c, reading.value)) for c in (hue_color,) if c != color]
    if reading.value_confidence < UNSURE_READING:
        alternatives += [
            f"{color.letter}{value}" for value in (reading.value - 1, reading.value + 1) if 1 <= value <= 6
        ]
    confidence = min(reading.value_confidence, reading.color_confidence)
    if alternatives or confidence < UNSURE_READING:
        return die, UncertainSpace(look.cell, str(die), tuple(alternatives), confidence)
    return die, None


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
