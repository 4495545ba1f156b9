"""Run Buster: rules variants, the state of a table, moves and the rule engine.

Each player owns six dice, a cup and a hand. On a turn the player rolls the dice in the cup (six minus the
hand), busts every opponent whose hand's complement the roll shows (their hand goes back to their cup), then
moves rolled dice to the hand: at least one die that extends the straight when any can (a player with an
empty hand keeps any straight of the roll); the rest return to the cup. A full straight 1-6 wins.

Players are numbered from 0 in seating order; "left" (clockwise) is the next number. A turn is two steps: a
chance move `Roll` (``roll 3446``) and the player's `Keep` (``keep 36``: the rolled dice moved to the hand,
``keep -`` for none). The first player is a chance move too (``first 1``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from functools import cache
from typing import Any

from engine.core import (
    JSON,
    ChanceOutcome,
    EngineError,
    IllegalMove,
    InvalidData,
    Outcome,
    ParseError,
    Violation,
)
from engine.runbuster.straights import (
    DICE_PER_PLAYER,
    FACES,
    FULL_STRAIGHT,
    Dice,
    busts,
    complement,
    dashed,
    extensions,
    format_dice,
    is_straight,
    parse_dice,
    roll_distribution,
)


@dataclass(frozen=True)
class Rules:
    """A ruleset: how many players may sit down, and whether the first player is drawn at random.

    With more than two players (the text's extension) a roll busts every opponent it can, the winner of a
    round drops out, and the next round starts from empty hands with its first player the next one still in
    the game to the left of the previous round's first player; the last player left loses. Who starts is
    not published (FACTS: unconfirmed): by default a draw decides; the two-player text has red (player 0)
    start.
    """

    name: str
    min_players: int = 2
    max_players: int | None = 2
    first_player_drawn: bool = True

    def check_players(self, players: int) -> None:
        if players < self.min_players or (self.max_players is not None and players > self.max_players):
            most = "any number" if self.max_players is None else str(self.max_players)
            raise InvalidData(
                f"Run Buster ruleset {self.name!r} seats {self.min_players} to {most} players, not {players}"
            )


PUBLISHED = Rules(name="published")  # Board Game Arena's two-player game
TEXT = Rules(name="text", first_player_drawn=False)  # the rule text's two-player game: red starts
MULTIPLAYER = Rules(name="multiplayer", max_players=None)  # the rule text's extension

PRESETS: dict[str, Rules] = {r.name: r for r in (PUBLISHED, TEXT, MULTIPLAYER)}


def rules_named(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise InvalidData(
            f"unknown Run Buster ruleset {name!r}; choose one of: {', '.join(PRESETS)}"
        ) from None


@dataclass(frozen=True)
class FirstPlayer:
    """The chance move that seats the first player of the game."""

    player: int

    def __str__(self) -> str:
        return f"first {self.player}"


@dataclass(frozen=True)
class Roll:
    """The dice rolled from the cup, as a sorted multiset."""

    dice: Dice

    def __post_init__(self) -> None:
        if any(v not in FACES for v in self.dice):
            raise ParseError(f"roll {dashed(self.dice)} has a value outside 1-6")
        object.__setattr__(self, "dice", tuple(sorted(self.dice)))

    def __str__(self) -> str:
        return f"roll {format_dice(self.dice)}"


@dataclass(frozen=True)
class Keep:
    """The rolled dice the player moves to the hand (none: ``keep -``); the rest go back to the cup."""

    dice: Dice

    def __post_init__(self) -> None:
        if any(v not in FACES for v in self.dice):
            raise ParseError(f"kept dice {dashed(self.dice)} have a value outside 1-6")
        object.__setattr__(self, "dice", tuple(sorted(self.dice)))

    def __str__(self) -> str:
        return f"keep {format_dice(self.dice)}"


Move = FirstPlayer | Roll | Keep


class Phase(Enum):
    """What happens next: who starts, a roll, the roller's keep, or nothing (the game is over)."""

    FIRST_PLAYER = "first-player"
    ROLL = "roll"
    KEEP = "keep"
    OVER = "over"


@dataclass(frozen=True)
class State:
    """A table: every player's hand, whose turn it is, the roll waiting to be kept, the finishers so far.

    `to_move` is None before the first player is chosen and once the game is over. `roll` is non-empty only
    in the KEEP phase. `finished` lists the players who completed 1-6, in order.
    """

    hands: tuple[Dice, ...]
    phase: Phase
    to_move: int | None = None
    roll: Dice = ()
    round_starter: int | None = None
    finished: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        playing = self.phase in (Phase.ROLL, Phase.KEEP)
        if playing and (self.to_move is None or self.round_starter is None):
            raise InvalidData(
                f"a state in the {self.phase.value} step needs a player to move and a round starter"
            )
        if not playing and self.to_move is not None:
            raise InvalidData(f"nobody moves in the {self.phase.value} step, but to_move is {self.to_move}")
        if len(set(self.finished)) != len(self.finished):
            raise InvalidData(f"a player finishes once, but finished lists {list(self.finished)}")
        named = [*self.finished, *(p for p in (self.to_move, self.round_starter) if p is not None)]
        if any(not 0 <= p < len(self.hands) for p in named):
            raise InvalidData(f"a player number is outside 0-{len(self.hands) - 1}: {named}")

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def mover(self) -> int:
        """The player to move; an error before the first player is chosen or after the game."""
        if self.to_move is None:
            raise EngineError(f"nobody is to move in the {self.phase.value} step")
        return self.to_move

    @property
    def starter(self) -> int:
        """The first player of the current round."""
        if self.round_starter is None:
            raise EngineError(f"no round has started in the {self.phase.value} step")
        return self.round_starter

    def in_game(self) -> tuple[int, ...]:
        """The players who have not finished, in seating order."""
        return tuple(p for p in range(self.players) if p not in self.finished)


@dataclass(frozen=True)
class Standing:
    """One player's position: the hand, what busts it, and the place if the player has finished."""

    player: int
    hand: Dice
    complement: Dice
    place: int | None

    def to_json(self) -> JSON:
        return {
            "player": self.player,
            "hand": list(self.hand),
            "complement": list(self.complement),
            "place": self.place,
        }


@dataclass(frozen=True)
class RunBuster:
    """The Run Buster engine for a number of players under a ruleset (the published two-player game)."""

    players: int = 2
    rules: Rules = PUBLISHED
    name: str = "runbuster"

    def __post_init__(self) -> None:
        self.rules.check_players(self.players)

    def initial_state(self) -> State:
        """An empty table: before the draw for the first player, or with player 0 to roll if there is none."""
        empty = State(hands=((),) * self.players, phase=Phase.FIRST_PLAYER)
        return empty if self.rules.first_player_drawn else self.apply(empty, FirstPlayer(0))

    def start(self, first_player: int) -> State:
        """An empty table with `first_player` to roll, as if the draw had chosen them."""
        return self.apply(self.initial_state(), FirstPlayer(first_player))

    # --- chance -------------------------------------------------------------------------------------------

    def is_chance_node(self, state: State) -> bool:
        return state.phase in (Phase.FIRST_PLAYER, Phase.ROLL)

    def chance_outcomes(self, state: State) -> Sequence[ChanceOutcome[Move]]:
        if state.phase is Phase.FIRST_PLAYER:
            share = Fraction(1, state.players)
            return [ChanceOutcome(FirstPlayer(p), share) for p in range(state.players)]
        if state.phase is Phase.ROLL:
            return _roll_outcomes(self.dice_to_roll(state))
        return ()

    def dice_to_roll(self, state: State) -> int:
        """How many dice the player to move rolls: those not in the hand."""
        return DICE_PER_PLAYER - len(state.hands[state.mover])

    def busted_by(self, state: State, roll: Dice) -> tuple[int, ...]:
        """The opponents of the player to move whose hands `roll` busts."""
        roller = state.to_move
        return tuple(p for p in state.in_game() if p != roller and busts(roll, state.hands[p]))

    # --- decisions ----------------------------------------------------------------------------------------

    def legal_moves(self, state: State) -> Iterator[Move]:
        """The keeps open to the roller: one per reachable straight, or ``keep -`` when none is."""
        if state.phase is not Phase.KEEP:
            return
        hand = state.hands[state.mover]
        options = extensions(hand, state.roll)
        if not options:
            yield Keep(())
        for option in options:
            yield Keep(tuple(v for v in option if v not in hand))

    def apply(self, state: State, move: Move) -> State:
        if state.phase is Phase.OVER:
            raise IllegalMove("game-over", f"the game is over; {move} cannot be played")
        if isinstance(move, FirstPlayer):
            return self._apply_first_player(state, move)
        if isinstance(move, Roll):
            return self._apply_roll(state, move)
        return self._apply_keep(state, move)

    def _apply_first_player(self, state: State, move: FirstPlayer) -> State:
        if state.phase is not Phase.FIRST_PLAYER:
            raise IllegalMove("first-player", "the first player has already been chosen")
        if not 0 <= move.player < state.players:
            raise IllegalMove("first-player", f"player {move.player} is not at this table of {state.players}")
        return replace(state, phase=Phase.ROLL, to_move=move.player, round_starter=move.player)

    def _apply_roll(self, state: State, move: Roll) -> State:
        if state.phase is not Phase.ROLL:
            raise IllegalMove(
                "not-rolling", f"{move} is out of turn: the {state.phase.value} step comes next"
            )
        roller = state.mover
        expected = self.dice_to_roll(state)
        if len(move.dice) != expected:
            raise IllegalMove(
                "roll-size",
                f"player {roller} rolls {expected} dice (hand {dashed(state.hands[roller])}), "
                f"got {len(move.dice)}: {dashed(move.dice)}",
            )
        busted = set(self.busted_by(state, move.dice))
        hands = tuple(() if p in busted else hand for p, hand in enumerate(state.hands))
        return replace(state, hands=hands, phase=Phase.KEEP, roll=move.dice)

    def _apply_keep(self, state: State, move: Keep) -> State:
        if state.phase is not Phase.KEEP:
            raise IllegalMove(
                "not-keeping", f"{move} is out of turn: the {state.phase.value} step comes next"
            )
        roller = state.mover
        hand = state.hands[roller]
        self._check_keep(hand, state.roll, move.dice)
        new_hand = tuple(sorted(hand + move.dice))
        hands = tuple(new_hand if p == roller else h for p, h in enumerate(state.hands))
        if new_hand == FULL_STRAIGHT:
            return self._finish(replace(state, hands=hands, roll=()), roller)
        return replace(state, hands=hands, phase=Phase.ROLL, roll=(), to_move=_next_player(state, roller))

    @staticmethod
    def _check_keep(hand: Dice, roll: Dice, kept: Dice) -> None:
        options = extensions(hand, roll)
        if not kept:
            if options:
                rule = "must-extend" if hand else "must-keep"
                what = "extend with at least one rolled die" if hand else "keep a straight from the roll"
                raise IllegalMove(rule, f"must {what}: {dashed(options[0])} is possible")
            return
        unrolled = [v for v in set(kept) if kept.count(v) > roll.count(v)]
        if unrolled:
            raise IllegalMove(
                "not-rolled",
                f"kept {dashed(kept)}, but the roll {dashed(roll)} has not enough {dashed(sorted(unrolled))}",
            )
        new_hand = tuple(sorted(hand + kept))
        if not is_straight(new_hand):
            raise IllegalMove("straight", f"hand {dashed(new_hand)} is not a straight")

    def _finish(self, state: State, winner: int) -> State:
        """The roller completed 1-6: they leave the game; a new round starts if two or more remain."""
        finished = (*state.finished, winner)
        remaining = [p for p in range(state.players) if p not in finished]
        if len(remaining) == 1:
            return replace(state, phase=Phase.OVER, to_move=None, finished=(*finished, remaining[0]))
        ended = replace(state, finished=finished)
        starter = _next_player(ended, state.starter)
        return State(
            hands=((),) * state.players,
            phase=Phase.ROLL,
            to_move=starter,
            round_starter=starter,
            finished=finished,
        )

    # --- a position found on the table --------------------------------------------------------------------

    def violations(self, state: State) -> list[Violation]:
        """What is wrong with a table: bad values, non-straight hands, too many dice, missed busts."""
        found: list[Violation] = []
        for player, hand in enumerate(state.hands):
            cell = f"p{player}.hand"
            if any(v not in FACES for v in hand):
                found.append(
                    Violation(
                        "die-value", (cell,), f"player {player}'s hand {dashed(hand)} has a value outside 1-6"
                    )
                )
            elif hand and not is_straight(hand):
                found.append(
                    Violation("straight", (cell,), f"player {player}'s hand {dashed(hand)} is not a straight")
                )
            elif hand == FULL_STRAIGHT and state.phase is not Phase.OVER:
                found.append(
                    Violation("full-straight", (cell,), f"player {player} holds 1-6 and has already won")
                )
            if player in state.finished and hand and state.phase is not Phase.OVER:
                found.append(
                    Violation("finished", (cell,), f"player {player} has finished but holds {dashed(hand)}")
                )
        if state.phase is Phase.KEEP:
            found.extend(self._roll_violations(state, state.mover))
        elif state.roll:
            found.append(
                Violation(
                    "roll-out-of-turn",
                    ("roll",),
                    f"a roll {dashed(state.roll)} lies on the table in the {state.phase.value} step",
                )
            )
        return found

    def _roll_violations(self, state: State, roller: int) -> list[Violation]:
        found: list[Violation] = []
        hand = state.hands[roller]
        if any(v not in FACES for v in state.roll):
            found.append(
                Violation("die-value", ("roll",), f"roll {dashed(state.roll)} has a value outside 1-6")
            )
        dice = len(hand) + len(state.roll)
        if dice > DICE_PER_PLAYER:
            found.append(
                Violation(
                    "too-many-dice",
                    (f"p{roller}.hand", "roll"),
                    f"player {roller} shows {dice} dice (hand {dashed(hand)}, roll {dashed(state.roll)}); "
                    f"a player has {DICE_PER_PLAYER}",
                )
            )
        elif dice < DICE_PER_PLAYER:
            found.append(
                Violation(
                    "roll-size",
                    ("roll",),
                    f"player {roller} should roll {DICE_PER_PLAYER - len(hand)} dice, "
                    f"the roll shows {len(state.roll)}",
                )
            )
        for player in self.busted_by(state, state.roll):
            found.append(
                Violation(
                    "bust-not-applied",
                    (f"p{player}.hand",),
                    f"roll {dashed(state.roll)} busts player {player}'s hand {dashed(state.hands[player])}: "
                    "it goes back to the cup",
                )
            )
        return found

    # --- results ------------------------------------------------------------------------------------------

    def score(self, state: State) -> tuple[Standing, ...]:
        """Every player's hand and what busts it, with the places of those who finished."""
        return tuple(
            Standing(
                player=p,
                hand=hand,
                complement=complement(hand) if hand else (),
                place=state.finished.index(p) + 1 if p in state.finished else None,
            )
            for p, hand in enumerate(state.hands)
        )

    def outcome(self, state: State) -> Outcome | None:
        """The first to make 1-6 wins; the ranking is the order players finished in, the loser last."""
        if state.phase is not Phase.OVER:
            return None
        return Outcome(
            winners=(state.finished[0],),
            ranking=state.finished,
            reason="full straight 1-6",
            details={"loser": state.finished[-1]},
        )

    # --- notation and JSON --------------------------------------------------------------------------------

    def parse_move(self, text: str, state: State | None = None) -> Move:
        """Read ``first 1``, ``roll 3446`` or ``keep 36`` / ``keep -`` (the dice moved from the roll)."""
        verb, _, rest = text.strip().partition(" ")
        if verb == "first":
            if not rest.strip().isdigit():
                raise ParseError(f"malformed move {text!r}: expected a player number, like 'first 1'")
            return FirstPlayer(int(rest))
        if verb in ("roll", "keep") and rest.strip():
            dice = parse_dice(rest)
            return Roll(dice) if verb == "roll" else Keep(dice)
        raise ParseError(
            f"malformed move {text!r}: expected 'first <player>', 'roll <dice>' or 'keep <dice>|-'"
        )

    def state_to_json(self, state: State) -> JSON:
        return {
            "rules": self.rules.name,
            "hands": [list(h) for h in state.hands],
            "phase": state.phase.value,
            "to_move": state.to_move,
            "roll": list(state.roll),
            "round_starter": state.round_starter,
            "finished": list(state.finished),
        }

    def state_from_json(self, data: JSON) -> State:
        """Read a state written by `state_to_json`; this checks structure, `violations` checks the rules."""
        if data.get("rules") != self.rules.name:
            raise InvalidData(
                f"state is for ruleset {data.get('rules')!r}, this game plays {self.rules.name!r}"
            )
        try:
            hands = tuple(tuple(sorted(_ints(h, "a hand"))) for h in data["hands"])
            phase = Phase(data["phase"])
            to_move, round_starter = data["to_move"], data["round_starter"]
            roll = tuple(sorted(_ints(data["roll"], "roll")))
            finished = _ints(data["finished"], "finished")
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidData(f"malformed Run Buster state: {exc!r}") from None
        if len(hands) != self.players:
            raise InvalidData(f"state seats {len(hands)} players, this game has {self.players}")
        for what, value in (("to_move", to_move), ("round_starter", round_starter)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise InvalidData(
                    f"malformed Run Buster state: {what} must be a player number, got {value!r}"
                )
        return State(hands, phase, to_move, roll, round_starter, finished)


@cache
def _roll_outcomes(count: int) -> tuple[ChanceOutcome[Move], ...]:
    return tuple(ChanceOutcome(Roll(dice), p) for dice, p in roll_distribution(count))


def _next_player(state: State, after: int) -> int:
    """The next player to the left of `after` who is still in the game."""
    for step in range(1, state.players + 1):
        candidate = (after + step) % state.players
        if candidate not in state.finished:
            return candidate
    raise EngineError("no player is left in the game")


def _ints(values: Any, what: str) -> tuple[int, ...]:
    if not isinstance(values, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in values
    ):
        raise InvalidData(f"malformed Run Buster state: {what} must be a list of integers, got {values!r}")
    return tuple(values)
