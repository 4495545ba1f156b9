"""Tell which of the 24 pattern cards a window is from the print still visible in its empty spaces.

Every space comes with the space classifier's belief about its print (how likely the space is empty and
showing each of the 12 prints; what is left is the chance a die hides it) and is compared with each
official pattern, both ways up: a pattern is as likely as the prints it has where the spaces show them,
with a floor for the classifier's confident mistakes, so a space that may be empty counts as much as it
may be. The posterior over (pattern, turn) gives the confidence; the frame's evidence about which way up
the card lies enters as a prior on the turn.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.sagrada.window import ALL_CELLS, COLS, ROWS, Cell, Pattern, official_patterns
from vision.sagrada.cells import PrintedSpace

MIN_VISIBLE = 4
"""Fewest empty spaces the identification needs before it names a pattern."""
MIN_CONFIDENCE = 0.6
_TURN_EVIDENCE = 6.0
"""Log-odds per unit of the frame's orientation margin (0-1) in favour of the frame's reading: as much
as two colour spaces, so the print decides wherever enough of it shows."""


@dataclass(frozen=True)
class PatternMatch:
    """The identified pattern (None when too little print is visible or no pattern stands out), its
    posterior probability, whether the card lies turned from the lattice's first guess, and the number of
    empty spaces the call rests on."""

    pattern: Pattern | None
    confidence: float
    turned: bool
    visible: int
    best_guess: str
    """The most likely pattern's name, even when too uncertain to be named."""


def half_turn(cell: Cell) -> Cell:
    return Cell(ROWS - 1 - cell.row, COLS - 1 - cell.col)


PrintBelief = Mapping[PrintedSpace, float]
"""How likely the space is empty and showing each print (the missing ones at 0); their sum is how likely
the space is empty."""
_MISREAD = 0.03
"""Likelihood kept for a print the classifier all but ruled out."""


@functools.cache
def _prints(pattern: Pattern) -> tuple[PrintedSpace, ...]:
    """The pattern's print on each space, row-major."""
    return tuple(PrintedSpace.of(pattern.restriction(cell)) for cell in ALL_CELLS)


@dataclass(frozen=True)
class _Evidence:
    """One space's reading as log-likelihoods: for each print it may show, and for any other print."""

    index: int
    turned_index: int
    by_print: dict[PrintedSpace, float]
    otherwise: float

    @classmethod
    def of(cls, cell: Cell, belief: PrintBelief) -> _Evidence:
        empty = min(sum(belief.values()), 1.0)
        floor = 1 - empty + _MISREAD * empty
        by_print = {kind: math.log(floor + (1 - _MISREAD) * p) for kind, p in belief.items()}
        return cls(cell.index, half_turn(cell).index, by_print, math.log(floor))


def _log_likelihood(pattern: Pattern, evidence: Sequence[_Evidence], turned: bool) -> float:
    prints = _prints(pattern)
    return sum(
        space.by_print.get(prints[space.turned_index if turned else space.index], space.otherwise)
        for space in evidence
    )


def identify_pattern(
    seen: Mapping[Cell, PrintBelief],
    orientation_margin: float,
    candidates: Sequence[Pattern] | None = None,
) -> PatternMatch:
    """The best (pattern, turn) for the print seen on the spaces (cells as the lattice numbers them).

    `candidates` defaults to the 24 official patterns; pass one pattern to only decide the turn.
    """
    patterns = list(candidates) if candidates is not None else list(official_patterns().values())
    turn_prior = _TURN_EVIDENCE * orientation_margin
    evidence = [_Evidence.of(cell, belief) for cell, belief in seen.items()]
    scored = []
    for pattern in patterns:
        for turned in (False, True):
            prior = -turn_prior / 2 if turned else turn_prior / 2
            scored.append((_log_likelihood(pattern, evidence, turned) + prior, pattern, turned))
    top = max(score for score, _, _ in scored)
    weights = [(math.exp(score - top), pattern, turned) for score, pattern, turned in scored]
    total = sum(weight for weight, _, _ in weights)
    by_pattern: dict[str, float] = {}
    for weight, pattern, _ in weights:
        by_pattern[pattern.name] = by_pattern.get(pattern.name, 0.0) + weight / total
    _, best, turned = max(scored, key=lambda item: item[0])
    confidence = by_pattern[best.name]
    visible = sum(sum(belief.values()) > 0.5 for belief in seen.values())
    named = best if (visible >= MIN_VISIBLE and confidence >= MIN_CONFIDENCE) or len(patterns) == 1 else None
    return PatternMatch(named, confidence, turned, visible, best.name)
