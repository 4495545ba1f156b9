"""End-of-game scoring of one window, as a breakdown that names the dice behind every point.

Illegal dice (any die the audit names) are lifted out before scoring: the rulebook removes such a die, the
rule text counts its space as empty, and both come to the same thing: the space scores as empty and the die
earns nothing. Only the penalty per empty space differs, and that comes from the ruleset (or the caller's
override, for solo play).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.core import JSON, InvalidData, Violation
from engine.sagrada.audit import NONE_WAIVED, Waivers, audit_window
from engine.sagrada.objectives import PUBLIC_OBJECTIVES, ObjectiveScore, PrivateObjective, PublicObjective
from engine.sagrada.rules import OFFICIAL, Rules, TieBreak
from engine.sagrada.window import ALL_CELLS, COLS, ROWS, Cell, Color, Pattern, Window


@dataclass(frozen=True)
class ScoreBreakdown:
    """Every part of a window's final score; `total` is their sum."""

    window: Window
    pattern: str
    rules: str
    objectives: tuple[ObjectiveScore, ...]
    privates: tuple[ObjectiveScore, ...]  # every private objective scored; the best one counts
    favor_tokens: int
    empty_spaces: int  # empty spaces plus spaces whose illegal die was lifted out
    points_per_empty_space: int
    violations: tuple[Violation, ...]
    illegal_dice: tuple[Cell, ...]

    @property
    def private(self) -> ObjectiveScore | None:
        """The private objective that counts: the best scored, the first of equals."""
        return max(self.privates, key=lambda p: p.points, default=None)

    @property
    def private_points(self) -> int:
        return self.private.points if self.private is not None else 0

    @property
    def empty_space_points(self) -> int:
        return -self.empty_spaces * self.points_per_empty_space

    @property
    def total(self) -> int:
        public = sum(o.points for o in self.objectives)
        return public + self.private_points + self.favor_tokens + self.empty_space_points

    def to_json(self) -> JSON:
        """The score object every command emits: totals by part, the dice behind them, and the violations."""
        private = self.private
        return {
            "total": self.total,
            "window": str(self.window),
            "pattern": self.pattern,
            "rules": self.rules,
            "objectives": {o.name: o.points for o in self.objectives},
            "objective_cells": {o.name: [str(c) for c in o.cells] for o in self.objectives},
            "private": self.private_points,
            "private_objective": private.name if private is not None else None,
            "private_cells": [str(c) for c in private.cells] if private is not None else [],
            "favor_tokens": self.favor_tokens,
            "empty_spaces": self.empty_spaces,
            "empty_space_points": self.empty_space_points,
            "illegal_dice": [str(c) for c in self.illegal_dice],
            "violations": [v.to_json() for v in self.violations],
        }


@dataclass(frozen=True)
class ScoringOptions:
    """How a window is scored besides its dice: the public objectives in play, the private colour, the
    favor tokens left and the ruleset (the command line and the photo reader both fill one of these)."""

    objectives: Sequence[PublicObjective] = PUBLIC_OBJECTIVES
    private: Color | None = None
    favor_tokens: int = 0
    rules: Rules = OFFICIAL

    def score(self, window: Window, pattern: Pattern) -> ScoreBreakdown:
        """The window's score breakdown under these options."""
        return score_window(
            window,
            pattern,
            objectives=self.objectives,
            private=self.private,
            favor_tokens=self.favor_tokens,
            rules=self.rules,
        )


def score_window(
    window: Window,
    pattern: Pattern,
    *,
    objectives: Sequence[PublicObjective],
    private: Color | Sequence[Color] | None = None,
    favor_tokens: int = 0,
    rules: Rules = OFFICIAL,
    empty_space_penalty: int | None = None,
    waivers: Waivers = NONE_WAIVED,
) -> ScoreBreakdown:
    """Score a finished window under `rules`.

    `private` is the player's secret colour, or several (solo play scores the better of two), and
    `empty_space_penalty` overrides the ruleset's points lost per empty space (solo play passes
    `rules.solo_empty_space_penalty` and no favor tokens). `waivers` names the dice a tool card let break a
    rule, as in `audit_window`.
    """
    if favor_tokens < 0:
        raise InvalidData(f"favor tokens cannot be negative, got {favor_tokens}")
    penalty = rules.empty_space_penalty if empty_space_penalty is None else empty_space_penalty
    if penalty < 0:
        raise InvalidData(f"the empty-space penalty is points lost, so it cannot be negative, got {penalty}")
    colors = () if private is None else (private,) if isinstance(private, Color) else tuple(private)
    audit = audit_window(window, pattern, waivers)
    illegal = audit.illegal_cells
    legal = Window(tuple(None if cell in illegal else window[cell] for cell in ALL_CELLS))
    return ScoreBreakdown(
        window=window,
        pattern=pattern.name,
        rules=rules.name,
        objectives=tuple(card.score(legal) for card in objectives),
        privates=tuple(PrivateObjective(color).score(legal) for color in colors),
        favor_tokens=favor_tokens,
        empty_spaces=ROWS * COLS - legal.count,
        points_per_empty_space=penalty,
        violations=audit.violations,
        illegal_dice=tuple(sorted(illegal)),
    )


def ranking_key(breakdown: ScoreBreakdown, final_round_position: int, rules: Rules) -> tuple[int, ...]:
    """Sort key of a player at the end, higher is better: total, then private objective points, then favor
    tokens left, then (official rules) the later seat in the final round's order; under the text's rules
    players still equal share the place.

    `final_round_position` is the player's place in the final round's first pass (0 = its start player).
    """
    key = (breakdown.total, breakdown.private_points, breakdown.favor_tokens)
    if rules.tie_break is TieBreak.REVERSE_FINAL_ORDER:
        return (*key, final_round_position)
    return key
