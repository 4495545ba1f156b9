"""The protocol every game engine implements, and the value types they share.

Modelled on OpenSpiel's split between a *game* (static facts and the ruleset) and a *state* (an immutable
value), and on python-chess's small move types with a text notation. Randomness is explicit: when
`game.is_chance_node(state)` is true, `game.chance_outcomes(state)` lists every outcome with its exact
probability, and a simulated roll and a roll read by the camera go through the same `apply`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, Protocol, TypeVar

JSON = dict[str, Any]
S = TypeVar("S")
M = TypeVar("M")


class EngineError(ValueError):
    """Base of every error an engine raises on bad input; the message names what was wrong and where."""


class ParseError(EngineError):
    """A text notation (move, die, window, hand) could not be read."""


class IllegalMove(EngineError):
    """A move that breaks a rule: `rule` is the rule's short identifier, the message what was expected."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message


class InvalidData(EngineError):
    """A data file or user-supplied definition (pattern, board, card) failed validation."""


@dataclass(frozen=True)
class Violation:
    """A rule broken by a position found on the table; `cells` name where, in the game's own notation."""

    rule: str
    cells: tuple[str, ...]
    message: str

    def to_json(self) -> JSON:
        return {"rule": self.rule, "cells": list(self.cells), "message": self.message}


@dataclass(frozen=True)
class ChanceOutcome(Generic[M]):
    """One outcome of a chance node (a roll, a draw) and its exact probability."""

    move: M
    probability: Fraction


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winning players (several on a shared win) and the final order."""

    winners: tuple[int, ...]
    ranking: tuple[int, ...] = ()
    reason: str = ""
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {
            "winners": list(self.winners),
            "ranking": list(self.ranking),
            "reason": self.reason,
            "details": dict(self.details),
        }


class Game(Protocol[S, M]):
    """What the app, the vision layer and the tests may rely on for any of the four games."""

    @property
    def name(self) -> str:
        """The game's short name; read-only, so frozen engine dataclasses satisfy the protocol."""
        ...

    def legal_moves(self, state: S) -> Iterator[M]:
        """Every legal decision of the player to move (empty at a chance node or a finished game)."""
        ...

    def is_chance_node(self, state: S) -> bool: ...

    def chance_outcomes(self, state: S) -> Sequence[ChanceOutcome[M]]: ...

    def apply(self, state: S, move: M) -> S:
        """The state after `move`; raises `IllegalMove` naming the rule broken. Never mutates `state`."""
        ...

    def violations(self, state: S) -> list[Violation]: ...

    def score(self, state: S) -> Any: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def parse_move(self, text: str, state: S | None = None) -> M: ...

    def state_to_json(self, state: S) -> JSON: ...

    def state_from_json(self, data: JSON) -> S: ...


def sample_chance(outcomes: Sequence[ChanceOutcome[M]], rng: random.Random) -> M:
    """Draw one chance outcome with its exact weight."""
    if not outcomes:
        raise EngineError("no chance outcomes to sample from")
    weights = [float(o.probability) for o in outcomes]
    return rng.choices([o.move for o in outcomes], weights=weights, k=1)[0]


def random_playout(game: Game[S, M], state: S, rng: random.Random, max_steps: int = 100_000) -> S:
    """Play uniformly random legal moves (and weighted chance outcomes) until the game ends."""
    for _ in range(max_steps):
        if game.outcome(state) is not None:
            return state
        if game.is_chance_node(state):
            move = sample_chance(game.chance_outcomes(state), rng)
        else:
            moves = list(game.legal_moves(state))
            if not moves:
                raise EngineError("no legal move in an unfinished game")
            move = rng.choice(moves)
        state = game.apply(state, move)
    raise EngineError(f"game did not finish within {max_steps} steps")
