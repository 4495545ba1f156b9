"""River Dragons / Dragon Delta (过河拆桥): rules variants, the state of a table, and the rule engine.

Each player's pawn starts on a village and must reach the village opposite; the first to arrive wins at
once. A round is planning then resolution: every player programs 5 of their cards in order (the 8 action
cards and one dragon per opponent colour, at most one dragon a round), then position 1 to 5 is resolved in
turn, each position from the start player clockwise. A dragon cancels its colour's card at its position.
Actions place stones on islands, lay planks between supports (stones and villages), take planks or stones
back, and move the pawn over the planks. At the end of a round the start player passes to the left.

Players are numbered from 0 in seating order; "left" (clockwise) is the next number. Planning is hidden
and simultaneous at the table; the engine does not model hidden information: the players plan one after
another from the start player, one card a move (``plan move2`` five times; a whole program would be one of
up to 48,720 choices, too many to list as moves). Every decision of an action is a move of the acting
player (notation in `engine.riverdragons.moves`). An action with nothing to act on loses its effect, and a
move, two-step move or jump with no legal target drops the pawn in the river (back to its start village):
the engine does these itself, so an unfinished game always offers a move.

Readings of the text, where it leaves room (see `Rules` for those that are options):
- A player's dragons are those of the opponents at the table. Cards at a position are revealed together,
  so a dragon cancels its target's card at that position even when the target resolves before it.
- The chosen plank is laid on any legal pair of supports; only when it fits nowhere does it leave the game
  (``lose``), and the player chooses which plank that is.
- Each step of a move goes onto a free plank or a village, so move2 cannot pass through an occupied plank
  (that is what jump is for); stepping onto a village ends the move, the text's routes being plank-plank
  and plank-village. A move may turn back, even to where it started.
- A jump passes over a pawn on a neighbouring plank and lands one step beyond it, never back where it
  started.
- Who starts the first round is not said: player 0 unless the table says otherwise.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cache
from typing import Any

from engine.core import (
    JSON,
    ChanceOutcome,
    EngineError,
    IllegalMove,
    InvalidData,
    Outcome,
    Violation,
)
from engine.riverdragons.board import PLANK_LENGTHS, Board, Point, default_board, is_village
from engine.riverdragons.moves import (
    ACTION_CARDS,
    COLOURS,
    Ends,
    Jump,
    Lay,
    Lose,
    Move,
    PlaceStone,
    Plan,
    Plank,
    RemovePlank,
    RemoveStone,
    Walk,
    dragon,
    dragon_target,
    ends_of,
    is_card,
    is_plank_place,
    parse_ends,
    parse_move,
    parse_place,
    parse_plank,
    parse_support,
    place_ends,
    plank_order,
    plank_place,
    support_key,
)

STONES = 27
PROGRAM_SIZE = 5
PLAYER_COUNTS = (2, 3, 4, 5, 6)
# Villages in use by player count, in seating order: one opposite pair (2); three whose opposites are free
# (3); two opposite pairs (4); all but one, or all (5, 6).
START_VILLAGES: dict[int, tuple[str, ...]] = {
    2: ("v1", "v4"),
    3: ("v1", "v3", "v5"),
    4: ("v1", "v2", "v4", "v5"),
    5: ("v1", "v2", "v3", "v4", "v5"),
    6: ("v1", "v2", "v3", "v4", "v5", "v6"),
}
STONE_CARDS = ("stone1", "stone2")
PLANK_CARDS = ("plank1", "plank2")
MOVE_STEPS = {"move1": 1, "move2": 2}
TWO_EFFECT_CARDS = ("stone2", "plank2")
CARDS_PLAYING: dict[type[Move], tuple[str, ...]] = {
    PlaceStone: STONE_CARDS,
    Lay: PLANK_CARDS,
    Lose: PLANK_CARDS,
    RemovePlank: ("remove",),
    RemoveStone: ("remove",),
    Walk: tuple(MOVE_STEPS),
    Jump: ("jump",),
}


@dataclass(frozen=True)
class Rules:
    """A ruleset. The text's rules are the defaults; points it leaves open are fields, said so below.

    `planks_per_support` (text: 3 per stone and per village), `distinct_reserve_lengths` and
    `reserve_colours` (text: no two equal lengths, at most two colours in a reserve) are the text's; FACTS
    marks them unconfirmed beyond it. `village_to_village`: the text lists only stone-stone and
    stone-village as a plank's supports, so by default a plank may not join two villages.
    `planks_may_cross`: the text is silent on planks crossing; by default (our reading, unconfirmed) a plank
    may not cross or lie along another, as it would rest on it. `dragons_per_round`: the text's 1.
    `round_limit`: a house rule for simulations, not in the text: the game ends with no winner after that
    many rounds.
    """

    name: str
    planks_per_support: int = 3
    distinct_reserve_lengths: bool = True
    reserve_colours: int = 2
    village_to_village: bool = False
    planks_may_cross: bool = False
    dragons_per_round: int = 1
    round_limit: int | None = None


TEXT = Rules(name="text")
PRESETS: dict[str, Rules] = {r.name: r for r in (TEXT,)}


def rules_named(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise InvalidData(
            f"unknown River Dragons ruleset {name!r}; choose one of: {', '.join(PRESETS)}"
        ) from None


class Phase(Enum):
    """Players programming their cards, the programs being resolved, or the end of the game."""

    PLAN = "plan"
    RESOLVE = "resolve"
    OVER = "over"


@dataclass(frozen=True)
class LaidPlank:
    """A plank on the board and the two supports it rests on."""

    ends: Ends
    plank: Plank

    def __post_init__(self) -> None:
        object.__setattr__(self, "ends", ends_of(*self.ends))

    @property
    def place(self) -> str:
        return plank_place(self.ends)


@dataclass(frozen=True)
class State:
    """A table, with the progress of the round.

    `pawns` holds each player's place (a village or a plank's place); `stones` the supports with a stone
    (sorted; a village or a repeated island only in a position read from the table); `supply` the stones
    not on the board; `lost` the planks out of the game. `programs` are the cards planned this round, in
    position order. In the PLAN phase `to_move` is the planner; in RESOLVE it is the player whose card at
    `position` (1-5) is being resolved, with `effects_left` of its placements to make (2 for stone2 and
    plank2 until the first is made, else 1). `round` counts from 1. A finished game names its `winner`
    (None after the round limit) and `ended_by` ("arrived" or "round-limit").
    """

    pawns: tuple[str, ...]
    reserves: tuple[tuple[Plank, ...], ...]
    programs: tuple[tuple[str, ...], ...]
    phase: Phase
    start_player: int
    to_move: int | None
    stones: tuple[str, ...] = ()
    supply: int = STONES
    planks: tuple[LaidPlank, ...] = ()
    lost: tuple[Plank, ...] = ()
    position: int = 0
    effects_left: int = 0
    round: int = 1
    winner: int | None = None
    ended_by: str = ""

    def __post_init__(self) -> None:
        players = len(self.pawns)
        if players not in PLAYER_COUNTS:
            raise InvalidData(f"River Dragons seats 2 to 6 players, the state has {players} pawns")
        if len(self.reserves) != players or len(self.programs) != players:
            raise InvalidData(
                f"a state of {players} players needs {players} reserves and programs, "
                f"got {len(self.reserves)} and {len(self.programs)}"
            )
        named = [p for p in (self.start_player, self.to_move, self.winner) if p is not None]
        if any(not 0 <= p < players for p in named):
            raise InvalidData(f"a player number is outside 0-{players - 1}: {named}")
        if (self.phase is Phase.OVER) != (self.to_move is None):
            raise InvalidData(
                f"to_move must be null exactly when the game is over; it is {self.to_move} in the "
                f"{self.phase.value} phase"
            )
        if self.phase is Phase.RESOLVE and not (1 <= self.position <= PROGRAM_SIZE and self.effects_left > 0):
            raise InvalidData(
                f"resolution needs a position 1-{PROGRAM_SIZE} and an effect left, "
                f"got position {self.position}, effects_left {self.effects_left}"
            )
        if self.supply < 0 or self.round < 1:
            raise InvalidData(f"the supply ({self.supply}) and round ({self.round}) cannot be below 0 and 1")
        if any(len(p) > PROGRAM_SIZE for p in self.programs):
            raise InvalidData(f"a program holds at most {PROGRAM_SIZE} cards")
        object.__setattr__(self, "stones", tuple(sorted(self.stones, key=support_key)))
        object.__setattr__(self, "planks", tuple(sorted(self.planks, key=lambda p: _ends_key(p.ends))))
        object.__setattr__(self, "reserves", tuple(tuple(sorted(r, key=plank_order)) for r in self.reserves))
        object.__setattr__(self, "lost", tuple(sorted(self.lost, key=plank_order)))

    @property
    def players(self) -> int:
        return len(self.pawns)

    @property
    def mover(self) -> int:
        """The player to move; an error once the game is over."""
        if self.to_move is None:
            raise EngineError("nobody is to move: the game is over")
        return self.to_move

    def card(self, player: int, position: int) -> str:
        """The card `player` planned at `position` (1-5)."""
        return self.programs[player][position - 1]

    def plank_at(self, ends: Ends) -> LaidPlank | None:
        return next((p for p in self.planks if p.ends == ends), None)


@dataclass(frozen=True)
class Standing:
    """One player's progress: where the pawn is, the goal, the reserve, and the shortest way there.

    `steps_to_goal` counts single steps (onto a plank or a village) over the planks now on the board, as
    if no pawn were in the way; None when the planks make no route yet.
    """

    player: int
    colour: str
    place: str
    goal: str
    arrived: bool
    reserve: tuple[Plank, ...]
    steps_to_goal: int | None

    def to_json(self) -> JSON:
        return {
            "player": self.player,
            "colour": self.colour,
            "place": self.place,
            "goal": self.goal,
            "arrived": self.arrived,
            "reserve": [str(p) for p in self.reserve],
            "steps_to_goal": self.steps_to_goal,
        }


@dataclass(frozen=True)
class RiverDragons:
    """The River Dragons engine for 2-6 players under a ruleset, on a board (our default layout).

    `colours` are the players' colours in seating order (by default the first of `COLOURS`).
    """

    players: int = 2
    rules: Rules = TEXT
    board: Board = field(default_factory=default_board)
    colours: tuple[str, ...] = ()
    name: str = "riverdragons"

    def __post_init__(self) -> None:
        if self.players not in PLAYER_COUNTS:
            raise InvalidData(f"River Dragons seats 2 to 6 players, not {self.players}")
        colours = self.colours or COLOURS[: self.players]
        if len(colours) != self.players or len(set(colours)) != len(colours) or set(colours) - set(COLOURS):
            raise InvalidData(
                f"{self.players} players need {self.players} different colours of {', '.join(COLOURS)}, "
                f"got {list(colours)}"
            )
        object.__setattr__(self, "colours", tuple(colours))

    # --- seats and cards ----------------------------------------------------------------------------------

    def start_village(self, player: int) -> str:
        return START_VILLAGES[self.players][player]

    def goal(self, player: int) -> str:
        """The village opposite the player's start: arriving there wins."""
        return self.board.opposite(self.start_village(player))

    def hand(self, player: int) -> tuple[str, ...]:
        """The player's cards: the 8 actions and a dragon of each opponent's colour."""
        return (*ACTION_CARDS, *(dragon(c) for p, c in enumerate(self.colours) if p != player))

    def cancelled(self, state: State, player: int, position: int) -> bool:
        """Whether a dragon at `position` targets the player (it skips the card; a dragon works anyway)."""
        colour = self.colours[player]
        return any(
            len(program) >= position and dragon_target(program[position - 1]) == colour
            for program in state.programs
        )

    def initial_state(self, start_player: int = 0) -> State:
        """Pawns on their villages, no stone or plank on the board, each reserve its own colour's 6 planks.

        The text does not say who starts the first round: `start_player` (player 0 by default), as agreed.
        """
        if not 0 <= start_player < self.players:
            raise InvalidData(f"start player {start_player} is not at this table of {self.players}")
        return State(
            pawns=tuple(self.start_village(p) for p in range(self.players)),
            reserves=tuple(tuple(Plank(c, length) for length in PLANK_LENGTHS) for c in self.colours),
            programs=((),) * self.players,
            phase=Phase.PLAN,
            start_player=start_player,
            to_move=start_player,
        )

    # --- chance (none) ------------------------------------------------------------------------------------

    def is_chance_node(self, state: State) -> bool:
        return False

    def chance_outcomes(self, state: State) -> Sequence[ChanceOutcome[Move]]:
        return []

    # --- decisions ----------------------------------------------------------------------------------------

    def legal_moves(self, state: State) -> Iterator[Move]:
        """Every decision of the player to move: a card to plan, or a choice of the card being resolved."""
        if state.phase is Phase.PLAN:
            yield from self._plans(state)
        elif state.phase is Phase.RESOLVE:
            yield from self._choices(state, state.mover, state.card(state.mover, state.position))

    def _plans(self, state: State) -> Iterator[Plan]:
        program = state.programs[state.mover]
        dragons = sum(dragon_target(c) is not None for c in program)
        for card in self.hand(state.mover):
            if card in program:
                continue
            if dragon_target(card) is not None and dragons >= self.rules.dragons_per_round:
                continue
            yield Plan(card)

    def _choices(self, state: State, player: int, card: str) -> Iterator[Move]:
        """The decisions `card` offers the player now (none: it has no effect, or the pawn falls in)."""
        if card in STONE_CARDS:
            if state.supply > 0:
                stoned = set(state.stones)
                yield from (PlaceStone(i) for i in self.board.island_names if i not in stoned)
        elif card in PLANK_CARDS:
            supports = _Supports(self, state)
            for plank in dict.fromkeys(state.reserves[player]):
                sites = supports.sites(plank.length)
                yield from (Lay(plank, ends) for ends in sites) if sites else (Lose(plank),)
        elif card == "remove":
            yield from self._removals(state, player)
        elif card in MOVE_STEPS:
            yield from (Walk(path) for path in self._walks(state, player, MOVE_STEPS[card]))
        elif card == "jump":
            yield from self._jumps(state, player)

    def _removals(self, state: State, player: int) -> Iterator[RemovePlank | RemoveStone]:
        occupied = set(state.pawns)
        for laid in state.planks:
            if laid.place not in occupied and self._reserve_refusal(state, player, laid.plank) is None:
                yield RemovePlank(laid.ends)
        load = _load(state)
        for stone in dict.fromkeys(state.stones):
            if self.board.is_island(stone) and load[stone] == 0:
                yield RemoveStone(stone)

    def _walks(self, state: State, player: int, steps: int) -> Iterator[tuple[str, ...]]:
        """Routes of 1 to `steps` steps; a step onto a village ends the move (plank-plank, plank-village)."""
        start = state.pawns[player]
        for first in self._steps_from(state, player, start):
            yield (first,)
            if steps == 2 and is_plank_place(first):
                yield from ((first, second) for second in self._steps_from(state, player, first))

    def _steps_from(self, state: State, player: int, place: str) -> list[str]:
        """The places next to `place` the player's pawn may enter: villages, planks no other pawn holds."""
        others = _others(state, player)
        return [p for p in _neighbours(state, place) if not is_plank_place(p) or p not in others]

    def _jumps(self, state: State, player: int) -> Iterator[Jump]:
        start = state.pawns[player]
        others = _others(state, player)
        for over in _neighbours(state, start):
            if not is_plank_place(over) or over not in others:
                continue
            for landing in self._steps_from(state, player, over):
                if landing != start:
                    yield Jump(_plank_ends(over), landing)

    # --- applying a move ----------------------------------------------------------------------------------

    def apply(self, state: State, move: Move) -> State:
        if state.phase is Phase.OVER:
            raise IllegalMove("game-over", f"the game is over; {move} cannot be played")
        if isinstance(move, Plan):
            return self._apply_plan(state, move)
        if state.phase is not Phase.RESOLVE:
            raise IllegalMove("plan-phase", f"{move} is out of turn: player {state.mover} is planning a card")
        player = state.mover
        card = state.card(player, state.position)
        self._check_card(state, player, card, move)
        if isinstance(move, PlaceStone):
            after = self._place_stone(state, move)
        elif isinstance(move, Lay):
            after = self._lay(state, player, move)
        elif isinstance(move, Lose):
            after = self._lose(state, player, move)
        elif isinstance(move, RemovePlank):
            after = self._remove_plank(state, player, move)
        elif isinstance(move, RemoveStone):
            after = self._remove_stone(state, move)
        elif isinstance(move, Walk):
            after = self._walk(state, player, card, move)
        else:
            after = self._jump(state, player, move)
        if after.phase is Phase.OVER:
            return after
        if after.effects_left > 1:
            return self._settle(replace(after, effects_left=after.effects_left - 1))
        return self._settle(self._next_action(after))

    def _apply_plan(self, state: State, move: Plan) -> State:
        if state.phase is not Phase.PLAN:
            raise IllegalMove(
                "resolve-phase", f"{move} is out of turn: position {state.position} is being resolved"
            )
        player = state.mover
        program = state.programs[player]
        if move.card not in self.hand(player):
            raise IllegalMove(
                "card-in-hand",
                f"player {player} ({self.colours[player]}) has no card {move.card!r}; "
                f"the hand is {', '.join(self.hand(player))}",
            )
        if move.card in program:
            raise IllegalMove("card-once", f"player {player} has already planned {move.card} this round")
        dragons = sum(dragon_target(c) is not None for c in (*program, move.card))
        if dragons > self.rules.dragons_per_round:
            raise IllegalMove(
                "one-dragon", f"at most {self.rules.dragons_per_round} dragon a round; {move} is one more"
            )
        programs = _with(state.programs, player, (*program, move.card))
        if len(programs[player]) < PROGRAM_SIZE:
            return replace(state, programs=programs)
        next_player = (player + 1) % state.players
        if next_player != state.start_player:
            return replace(state, programs=programs, to_move=next_player)
        first_card = programs[state.start_player][0]
        return self._settle(
            replace(
                state,
                programs=programs,
                phase=Phase.RESOLVE,
                to_move=state.start_player,
                position=1,
                effects_left=_effects(first_card),
            )
        )

    def _check_card(self, state: State, player: int, card: str, move: Move) -> None:
        cards = CARDS_PLAYING[type(move)]
        if card not in cards:
            raise IllegalMove(
                "wrong-action",
                f"player {player}'s card at position {state.position} is {card}; {move} plays "
                f"{' or '.join(cards)}",
            )

    def _place_stone(self, state: State, move: PlaceStone) -> State:
        island = move.island
        if state.supply <= 0:
            raise IllegalMove("stone-supply", "the supply has no stone left")
        if not self.board.is_island(island):
            raise IllegalMove(
                "stone-island", f"a stone goes on an island, and {island} is not one of this board's"
            )
        if island in state.stones:
            raise IllegalMove("one-stone-per-island", f"island {island} already holds a stone")
        return replace(state, stones=(*state.stones, island), supply=state.supply - 1)

    def _lay(self, state: State, player: int, move: Lay) -> State:
        if move.plank not in state.reserves[player]:
            raise IllegalMove("plank-in-reserve", f"player {player}'s reserve holds no {move.plank}")
        refusal = _Supports(self, state).refusal(move.plank.length, move.ends)
        if refusal is not None:
            raise IllegalMove(*refusal)
        return replace(
            state,
            planks=(*state.planks, LaidPlank(move.ends, move.plank)),
            reserves=_with(state.reserves, player, _without(state.reserves[player], move.plank)),
        )

    def _lose(self, state: State, player: int, move: Lose) -> State:
        if move.plank not in state.reserves[player]:
            raise IllegalMove("plank-in-reserve", f"player {player}'s reserve holds no {move.plank}")
        sites = _Supports(self, state).sites(move.plank.length)
        if sites:
            raise IllegalMove(
                "plank-fits",
                f"{move.plank} fits between {plank_place(sites[0])}: a plank that fits must be laid",
            )
        return replace(
            state,
            reserves=_with(state.reserves, player, _without(state.reserves[player], move.plank)),
            lost=(*state.lost, move.plank),
        )

    def _remove_plank(self, state: State, player: int, move: RemovePlank) -> State:
        laid = state.plank_at(move.ends)
        place = plank_place(move.ends)
        if laid is None:
            raise IllegalMove("remove-missing", f"no plank lies between {place}")
        if place in state.pawns:
            raise IllegalMove("plank-occupied", f"a pawn stands on {place}: an occupied plank stays")
        refusal = self._reserve_refusal(state, player, laid.plank)
        if refusal is not None:
            raise IllegalMove(*refusal)
        return replace(
            state,
            planks=tuple(p for p in state.planks if p != laid),
            reserves=_with(state.reserves, player, (*state.reserves[player], laid.plank)),
        )

    def _reserve_refusal(self, state: State, player: int, plank: Plank) -> tuple[str, str] | None:
        """Why `plank` may not join the player's reserve: a length already there, or a third colour."""
        reserve = state.reserves[player]
        if self.rules.distinct_reserve_lengths and any(p.length == plank.length for p in reserve):
            return (
                "reserve-lengths",
                f"player {player}'s reserve already holds a plank of length {plank.length}, so {plank} "
                "cannot join it",
            )
        colours = {p.colour for p in reserve} | {plank.colour}
        if len(colours) > self.rules.reserve_colours:
            return (
                "reserve-colours",
                f"{plank} would give player {player}'s reserve {len(colours)} colours; "
                f"at most {self.rules.reserve_colours}",
            )
        return None

    def _remove_stone(self, state: State, move: RemoveStone) -> State:
        if not self.board.is_island(move.island) or move.island not in state.stones:
            raise IllegalMove("remove-missing", f"no stone lies on island {move.island}")
        if _load(state)[move.island]:
            raise IllegalMove("stone-holds-plank", f"the stone on {move.island} holds a plank and stays")
        stones = list(state.stones)
        stones.remove(move.island)
        return replace(state, stones=tuple(stones), supply=state.supply + 1)

    def _walk(self, state: State, player: int, card: str, move: Walk) -> State:
        steps = MOVE_STEPS[card]
        if not 1 <= len(move.path) <= steps:
            raise IllegalMove(
                "move-steps", f"{card} moves the pawn 1 to {steps} step(s), not {len(move.path)}"
            )
        here = state.pawns[player]
        for place in move.path:
            if here != state.pawns[player] and not is_plank_place(here):
                raise IllegalMove(
                    "village-ends-move",
                    f"the pawn stops on entering {here}: a move goes plank-plank or plank-village",
                )
            self._check_step(state, player, here, place)
            here = place
        return self._arrive(state, player, here)

    def _check_step(self, state: State, player: int, here: str, there: str) -> None:
        if there not in _neighbours(state, here):
            raise IllegalMove(
                "move-adjacent",
                f"{there} is not next to {here}: a pawn steps to a plank sharing a support with its place, "
                "or to a village at its plank's end",
            )
        if is_plank_place(there) and there in _others(state, player):
            raise IllegalMove("plank-occupied", f"another pawn stands on {there}; a plank holds one pawn")

    def _jump(self, state: State, player: int, move: Jump) -> State:
        start = state.pawns[player]
        over = plank_place(move.over)
        if over not in _neighbours(state, start):
            raise IllegalMove("jump-adjacent", f"{over} is not a plank next to {start}")
        if over not in _others(state, player):
            raise IllegalMove("jump-over", f"no other pawn stands on {over} to jump over")
        if move.landing == start:
            raise IllegalMove(
                "jump-back", f"a jump crosses over the pawn on {over}; it cannot land back on {start}"
            )
        self._check_step(state, player, over, move.landing)
        return self._arrive(state, player, move.landing)

    def _arrive(self, state: State, player: int, place: str) -> State:
        """The pawn ends its move on `place`; on its goal the game ends there and then."""
        moved = replace(state, pawns=_with(state.pawns, player, place))
        if place != self.goal(player):
            return moved
        return replace(moved, phase=Phase.OVER, to_move=None, winner=player, ended_by="arrived")

    def _settle(self, state: State) -> State:
        """Resolve every card that needs no decision (a dragon, a cancelled or empty action, a fall)."""
        while state.phase is Phase.RESOLVE:
            player = state.mover
            card = state.card(player, state.position)
            acts = dragon_target(card) is None and not self.cancelled(state, player, state.position)
            if acts and self._has_choice(state, player, card):
                return state
            if acts and (card in MOVE_STEPS or card == "jump"):
                state = replace(state, pawns=_with(state.pawns, player, self.start_village(player)))
            state = self._next_action(state)
        return state

    def _has_choice(self, state: State, player: int, card: str) -> bool:
        """Whether the card needs a decision: a plank card does whenever the reserve holds a plank."""
        if card in PLANK_CARDS:
            return bool(state.reserves[player])
        return next(self._choices(state, player, card), None) is not None

    def _next_action(self, state: State) -> State:
        """The next player's card at this position, the next position, or the end of the round."""
        player, position = state.mover, state.position
        next_player = (player + 1) % state.players
        if next_player == state.start_player:
            position += 1
        if position > PROGRAM_SIZE:
            return self._end_round(state)
        return replace(
            state,
            to_move=next_player,
            position=position,
            effects_left=_effects(state.card(next_player, position)),
        )

    def _end_round(self, state: State) -> State:
        """Cards go back to hand; the start player passes left; a round limit may end the game."""
        cleared = ((),) * state.players
        limit = self.rules.round_limit
        if limit is not None and state.round >= limit:
            return replace(
                state,
                programs=cleared,
                position=0,
                effects_left=0,
                phase=Phase.OVER,
                to_move=None,
                ended_by="round-limit",
            )
        start = (state.start_player + 1) % state.players
        return replace(
            state,
            programs=cleared,
            position=0,
            effects_left=0,
            phase=Phase.PLAN,
            start_player=start,
            to_move=start,
            round=state.round + 1,
        )

    # --- a position found on the table --------------------------------------------------------------------

    def violations(self, state: State) -> list[Violation]:
        """What is wrong with a table: stones, planks, supports, pawns, reserves and programs."""
        return [
            *self._stone_violations(state),
            *self._plank_violations(state),
            *self._piece_violations(state),
            *self._pawn_violations(state),
            *self._reserve_violations(state),
            *self._program_violations(state),
        ]

    def _stone_violations(self, state: State) -> Iterator[Violation]:
        counts = Counter(state.stones)
        for support, count in counts.items():
            if is_village(support):
                yield Violation(
                    "stone-island", (support,), f"a stone lies on village {support}; stones go on islands"
                )
            elif count > 1:
                yield Violation(
                    "one-stone-per-island", (support,), f"island {support} holds {count} stones, at most 1"
                )
        if len(state.stones) > STONES:
            yield Violation(
                "stone-count", ("stones",), f"{len(state.stones)} stones on the board; the game has {STONES}"
            )
        elif len(state.stones) + state.supply != STONES:
            yield Violation(
                "stone-supply",
                ("supply",),
                f"{len(state.stones)} stones on the board and {state.supply} in the supply make "
                f"{len(state.stones) + state.supply}, not the game's {STONES}",
            )

    def _plank_violations(self, state: State) -> Iterator[Violation]:
        stoned = {s for s in state.stones if not is_village(s)}
        for laid in state.planks:
            a, b = laid.ends
            bare = [s for s in laid.ends if not is_village(s) and s not in stoned]
            if bare:
                yield Violation(
                    "plank-support",
                    (laid.place, *bare),
                    f"plank {laid.plank} on {laid.place} rests on {' and '.join(bare)} with no stone; "
                    "a plank's ends need a stone or a village",
                )
            if is_village(a) and is_village(b) and not self.rules.village_to_village:
                yield Violation(
                    "plank-supports", (laid.place,), f"plank {laid.plank} joins two villages, {a} and {b}"
                )
            if not self.board.bridges(laid.plank.length, a, b):
                yield Violation(
                    "plank-length",
                    (laid.place,),
                    f"plank {laid.plank} spans {self.board.span(laid.plank.length):g} but {laid.place} "
                    f"is {self.board.distance(a, b):.1f} apart",
                )
        for ends, count in Counter(p.ends for p in state.planks).items():
            if count > 1:
                place = plank_place(ends)
                yield Violation("plank-doubled", (place,), f"{count} planks lie between {place}; at most one")
        for support, count in _load(state).items():
            if count > self.rules.planks_per_support:
                yield Violation(
                    "support-limit",
                    (support,),
                    f"{support} holds {count} planks; at most {self.rules.planks_per_support}",
                )
        if not self.rules.planks_may_cross:
            for i, first in enumerate(state.planks):
                for second in state.planks[i + 1 :]:
                    if _geometry(self.board).crosses(first.ends, second.ends):
                        yield Violation(
                            "plank-crossing",
                            (first.place, second.place),
                            f"planks on {first.place} and {second.place} cross",
                        )

    def _piece_violations(self, state: State) -> Iterator[Violation]:
        pieces = [*(p.plank for p in state.planks), *(p for r in state.reserves for p in r), *state.lost]
        for plank, count in Counter(pieces).items():
            if count > 1:
                yield Violation(
                    "plank-piece", (str(plank),), f"plank {plank} is in {count} places; there is one"
                )
            if plank.colour not in self.colours:
                yield Violation(
                    "plank-colour",
                    (str(plank),),
                    f"plank {plank} is of no player's colour ({', '.join(self.colours)})",
                )

    def _pawn_violations(self, state: State) -> Iterator[Violation]:
        laid = {p.place for p in state.planks}
        for player, place in enumerate(state.pawns):
            if is_plank_place(place) and place not in laid:
                yield Violation(
                    "pawn-place", (place,), f"player {player}'s pawn stands on {place}, where no plank lies"
                )
            if place == self.goal(player) and state.phase is not Phase.OVER:
                yield Violation(
                    "arrived", (place,), f"player {player} has reached {place} and won: the game is over"
                )
        for place, count in Counter(state.pawns).items():
            if count > 1 and is_plank_place(place):
                yield Violation(
                    "plank-occupied", (place,), f"{count} pawns stand on {place}; a plank holds one"
                )

    def _reserve_violations(self, state: State) -> Iterator[Violation]:
        for player, reserve in enumerate(state.reserves):
            cell = f"p{player}.reserve"
            lengths = Counter(p.length for p in reserve)
            if self.rules.distinct_reserve_lengths and any(c > 1 for c in lengths.values()):
                doubled = sorted(length for length, c in lengths.items() if c > 1)
                yield Violation(
                    "reserve-lengths",
                    (cell,),
                    f"player {player}'s reserve holds two planks of length {', '.join(map(str, doubled))}",
                )
            colours = {p.colour for p in reserve}
            if len(colours) > self.rules.reserve_colours:
                yield Violation(
                    "reserve-colours",
                    (cell,),
                    f"player {player}'s reserve holds {len(colours)} colours; "
                    f"at most {self.rules.reserve_colours}",
                )

    def _program_violations(self, state: State) -> Iterator[Violation]:
        for player, program in enumerate(state.programs):
            cell = f"p{player}.program"
            foreign = [c for c in program if c not in self.hand(player)]
            if foreign:
                yield Violation("card-in-hand", (cell,), f"player {player} has no card {', '.join(foreign)}")
            doubled = sorted({c for c in program if program.count(c) > 1})
            if doubled:
                yield Violation("card-once", (cell,), f"player {player} planned {', '.join(doubled)} twice")
            dragons = sum(dragon_target(c) is not None for c in program)
            if dragons > self.rules.dragons_per_round:
                yield Violation(
                    "one-dragon", (cell,), f"player {player} planned {dragons} dragons this round"
                )
            expected = self._program_size(state, player)
            if len(program) != expected:
                yield Violation(
                    "program-size",
                    (cell,),
                    f"player {player} should have {expected} cards planned in the {state.phase.value} phase, "
                    f"not {len(program)}",
                )

    def _program_size(self, state: State, player: int) -> int:
        """How many cards the player has planned by now: all 5 once the planner has passed them."""
        if state.phase is Phase.RESOLVE:
            return PROGRAM_SIZE
        if state.phase is Phase.OVER:
            return len(state.programs[player])
        done = (player - state.start_player) % state.players
        planning = (state.mover - state.start_player) % state.players
        if done < planning:
            return PROGRAM_SIZE
        return len(state.programs[player]) if done == planning else 0

    # --- results ------------------------------------------------------------------------------------------

    def score(self, state: State) -> tuple[Standing, ...]:
        """Each player's place, goal, reserve and fewest steps to the goal over the planks now laid."""
        return tuple(
            Standing(
                player=p,
                colour=self.colours[p],
                place=place,
                goal=self.goal(p),
                arrived=place == self.goal(p),
                reserve=state.reserves[p],
                steps_to_goal=_steps_between(state, place, self.goal(p)),
            )
            for p, place in enumerate(state.pawns)
        )

    def outcome(self, state: State) -> Outcome | None:
        """The first pawn on its goal wins (the rules rank nobody else); a round limit ends with no winner."""
        if state.phase is not Phase.OVER:
            return None
        steps = [s.steps_to_goal for s in self.score(state)]
        details = {"round": state.round, "steps_to_goal": steps}
        if state.winner is None:
            return Outcome(winners=(), reason=state.ended_by, details=details)
        return Outcome(
            winners=(state.winner,), ranking=(state.winner,), reason=state.ended_by, details=details
        )

    # --- notation and JSON --------------------------------------------------------------------------------

    def parse_move(self, text: str, state: State | None = None) -> Move:
        return parse_move(text)

    def state_to_json(self, state: State) -> JSON:
        return {
            "rules": self.rules.name,
            "colours": list(self.colours),
            "phase": state.phase.value,
            "round": state.round,
            "start_player": state.start_player,
            "to_move": state.to_move,
            "position": state.position,
            "effects_left": state.effects_left,
            "winner": state.winner,
            "ended_by": state.ended_by,
            "pawns": list(state.pawns),
            "stones": list(state.stones),
            "supply": state.supply,
            "planks": [{"on": p.place, "plank": str(p.plank)} for p in state.planks],
            "reserves": [[str(p) for p in r] for r in state.reserves],
            "lost": [str(p) for p in state.lost],
            "programs": [list(p) for p in state.programs],
        }

    def state_from_json(self, data: JSON) -> State:
        """Read a state written by `state_to_json`: its shape and names; `violations` checks the rules.

        A hand-made state that breaks no rule may stop at a card that needs no decision: it is played on
        as `apply` would (the engine's own states are already past such cards, so they read back
        unchanged). A state with violations is returned as written, for `violations` to report."""
        if not isinstance(data, dict):
            raise InvalidData(f"a River Dragons state is a JSON object, got {type(data).__name__}")
        if data.get("rules") != self.rules.name:
            raise InvalidData(
                f"state is for ruleset {data.get('rules')!r}, this game plays {self.rules.name!r}"
            )
        if data.get("colours") != list(self.colours):
            raise InvalidData(
                f"state is for colours {data.get('colours')!r}, this game has {list(self.colours)}"
            )
        try:
            state = State(
                pawns=tuple(self._place(p) for p in _list(data["pawns"], "pawns")),
                reserves=tuple(
                    tuple(parse_plank(_str(p, "a plank")) for p in _list(r, "a reserve"))
                    for r in _list(data["reserves"], "reserves")
                ),
                programs=tuple(
                    tuple(_card(c) for c in _list(p, "a program"))
                    for p in _list(data["programs"], "programs")
                ),
                phase=Phase(data["phase"]),
                start_player=_int(data["start_player"], "start_player"),
                to_move=_optional_int(data["to_move"], "to_move"),
                stones=tuple(self._support(_str(s, "a stone")) for s in _list(data["stones"], "stones")),
                supply=_int(data["supply"], "supply"),
                planks=tuple(self._laid(p) for p in _list(data["planks"], "planks")),
                lost=tuple(parse_plank(_str(p, "a plank")) for p in _list(data["lost"], "lost")),
                position=_int(data["position"], "position"),
                effects_left=_int(data["effects_left"], "effects_left"),
                round=_int(data["round"], "round"),
                winner=_optional_int(data["winner"], "winner"),
                ended_by=_str(data["ended_by"], "ended_by"),
            )
        except KeyError as exc:
            raise InvalidData(f"malformed River Dragons state: the key {exc.args[0]!r} is missing") from None
        except EngineError:
            raise
        except ValueError as exc:  # an unknown phase
            raise InvalidData(f"malformed River Dragons state: {exc}") from None
        if state.players != self.players:
            raise InvalidData(f"state seats {state.players} players, this game has {self.players}")
        return state if self.violations(state) else self._settle(state)

    def _support(self, name: str) -> str:
        support = parse_support(name)
        if not self.board.is_support(support):
            raise InvalidData(f"board {self.board.name!r} has no village or island {support!r}")
        return support

    def _place(self, value: Any) -> str:
        place = parse_place(_str(value, "a pawn's place"))
        for support in place_ends(place) or (place,):
            self._support(support)
        return place

    def _laid(self, value: Any) -> LaidPlank:
        if not isinstance(value, dict):
            raise InvalidData(f"a plank on the board is an object with 'on' and 'plank', got {value!r}")
        ends = parse_ends(_str(value.get("on"), "a plank's supports"))
        for support in ends:
            self._support(support)
        return LaidPlank(ends, parse_plank(_str(value.get("plank"), "a plank")))


class _Supports:
    """Where planks may go on a table: the stones and villages, their loads, the planks already laid."""

    def __init__(self, game: RiverDragons, state: State) -> None:
        self.board = game.board
        self.geometry = _geometry(game.board)
        self.rules = game.rules
        self.stones = set(state.stones)
        self.load = _load(state)
        self.laid = {p.ends for p in state.planks}

    def refusal(self, length: int, ends: Ends) -> tuple[str, str] | None:
        """Why a plank of `length` may not lie on `ends` (a rule id and a message), or None if it may."""
        place = plank_place(ends)
        for support in ends:
            if not self.board.is_support(support):
                return ("unknown-support", f"board {self.board.name!r} has no village or island {support!r}")
            if not is_village(support) and support not in self.stones:
                return (
                    "plank-support",
                    f"island {support} has no stone: a plank rests on stones and villages",
                )
        if all(is_village(s) for s in ends) and not self.rules.village_to_village:
            return ("plank-supports", f"a plank joins two stones or a stone and a village, not {place}")
        if ends in self.laid:
            return ("plank-doubled", f"a plank already lies between {place}")
        if not self.board.bridges(length, *ends):
            return (
                "plank-length",
                f"a plank of length {length} spans {self.board.span(length):g}, but {place} is "
                f"{self.board.distance(*ends):.1f} apart",
            )
        full = [s for s in ends if self.load[s] >= self.rules.planks_per_support]
        if full:
            return (
                "support-limit",
                f"{' and '.join(full)} already hold(s) {self.rules.planks_per_support} planks, "
                "the most a support holds",
            )
        if not self.rules.planks_may_cross:
            crossed = next((p for p in self.laid if self.geometry.crosses(ends, p)), None)
            if crossed is not None:
                return (
                    "plank-crossing",
                    f"a plank on {place} would cross the plank on {plank_place(crossed)}",
                )
        return None

    def sites(self, length: int) -> list[Ends]:
        """Every pair of supports a plank of `length` may be laid on now."""
        return [ends for ends in self.geometry.bridged[length] if self.refusal(length, ends) is None]


class _Geometry:
    """What a board fixes for good: the pairs each plank length bridges, and which plank places cross."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.bridged = {
            length: [ends for ends in board.reachable_pairs if board.bridges(length, *ends)]
            for length in PLANK_LENGTHS
        }
        self._crossings: dict[tuple[Ends, Ends], bool] = {}

    def crosses(self, first: Ends, second: Ends) -> bool:
        """Whether planks on `first` and `second` would cross or lie along each other (memoised)."""
        key = (first, second)
        if key not in self._crossings:
            self._crossings[key] = first != second and _crosses(self.board, first, second)
        return self._crossings[key]


@cache
def _geometry(board: Board) -> _Geometry:
    return _Geometry(board)


def _effects(card: str) -> int:
    return 2 if card in TWO_EFFECT_CARDS else 1


def _load(state: State) -> Counter[str]:
    """How many planks rest on each support."""
    return Counter(s for p in state.planks for s in p.ends)


def _others(state: State, player: int) -> set[str]:
    """The places the other players' pawns stand on."""
    return {place for p, place in enumerate(state.pawns) if p != player}


def _neighbours(state: State, place: str) -> list[str]:
    """The places one step from `place`: from a village its planks; from a plank the planks sharing a
    support with it and the villages at its ends."""
    ends = place_ends(place)
    if ends is None:
        return [p.place for p in state.planks if place in p.ends]
    planks = [p.place for p in state.planks if p.ends != ends and set(p.ends) & set(ends)]
    return [*dict.fromkeys(planks), *(s for s in ends if is_village(s))]


def _steps_between(state: State, start: str, goal: str) -> int | None:
    """Fewest single steps from `start` to `goal` over the laid planks, ignoring pawns; None if no way."""
    distance = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            return distance[here]
        for there in _neighbours(state, here):
            if there not in distance:
                distance[there] = distance[here] + 1
                queue.append(there)
    return None


def _crosses(board: Board, first: Ends, second: Ends) -> bool:
    """Whether two planks cross or lie along each other (they may share a support end to end)."""
    shared = set(first) & set(second)
    if shared:
        (hub,) = shared
        (a,) = set(first) - shared
        (b,) = set(second) - shared
        centre, p, q = board.point(hub), board.point(a), board.point(b)
        return abs(_turn(centre, p, q)) <= _EPSILON and _dot(centre, p, q) > 0
    p1, p2 = board.point(first[0]), board.point(first[1])
    q1, q2 = board.point(second[0]), board.point(second[1])
    return _segments_meet(p1, p2, q1, q2)


_EPSILON = 1e-6


def _turn(origin: Point, p: Point, q: Point) -> float:
    """The cross product of origin->p and origin->q: its sign says which side of the line q lies."""
    return (p[0] - origin[0]) * (q[1] - origin[1]) - (p[1] - origin[1]) * (q[0] - origin[0])


def _dot(origin: Point, p: Point, q: Point) -> float:
    return (p[0] - origin[0]) * (q[0] - origin[0]) + (p[1] - origin[1]) * (q[1] - origin[1])


def _segments_meet(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    d1, d2 = _turn(q1, q2, p1), _turn(q1, q2, p2)
    d3, d4 = _turn(p1, p2, q1), _turn(p1, p2, q2)
    if _opposite_sides(d1, d2) and _opposite_sides(d3, d4):
        return True
    touching = ((d1, q1, q2, p1), (d2, q1, q2, p2), (d3, p1, p2, q1), (d4, p1, p2, q2))
    return any(abs(d) <= _EPSILON and _within(point, a, b) for d, a, b, point in touching)


def _opposite_sides(d1: float, d2: float) -> bool:
    return (d1 > _EPSILON and d2 < -_EPSILON) or (d1 < -_EPSILON and d2 > _EPSILON)


def _within(point: Point, a: Point, b: Point) -> bool:
    """Whether `point`, on the line through a and b, lies between them."""
    return (
        min(a[0], b[0]) - _EPSILON <= point[0] <= max(a[0], b[0]) + _EPSILON
        and min(a[1], b[1]) - _EPSILON <= point[1] <= max(a[1], b[1]) + _EPSILON
    )


def _with(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return tuple(value if i == index else v for i, v in enumerate(values))


def _without(reserve: tuple[Plank, ...], plank: Plank) -> tuple[Plank, ...]:
    items = list(reserve)
    items.remove(plank)
    return tuple(items)


def _ends_key(ends: Ends) -> tuple[tuple[int, int], tuple[int, int]]:
    return (support_key(ends[0]), support_key(ends[1]))


def _plank_ends(place: str) -> Ends:
    ends = place_ends(place)
    if ends is None:
        raise EngineError(f"{place} is a village, not a plank")
    return ends


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidData(f"malformed River Dragons state: {what} must be a list, got {value!r}")
    return value


def _str(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidData(f"malformed River Dragons state: {what} must be text, got {value!r}")
    return value


def _int(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidData(f"malformed River Dragons state: {what} must be an integer, got {value!r}")
    return value


def _optional_int(value: Any, what: str) -> int | None:
    return None if value is None else _int(value, what)


def _card(value: Any) -> str:
    card = _str(value, "a card")
    if not is_card(card):
        raise InvalidData(f"malformed River Dragons state: unknown card {card!r}")
    return card
