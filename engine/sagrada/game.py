"""The Sagrada game: set-up, ten rounds of drafting, the tool cards, solo play, scoring and the winner.

A state is an immutable value. Every random event is a chance node with exact probabilities: a pool die is
drawn from the bag and rolled one at a time (at most 30 outcomes, colour weighted by what is left in the
bag), a re-roll keeps the die's colour (6 outcomes), and Flux Remover's draw is a colour (at most 5). The
camera's reading of a whole pool goes through the same `apply` as one `roll` move naming every die.

Tool cards may let a die break a placement rule for good (Eglomise Brush leaves a die on a space of another
colour, Cork-backed Straightedge leaves one touching nothing). The state remembers those waivers per space
(`Exemption`), so `violations` and scoring judge each window by the rules its dice were actually placed under.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from functools import cache

from engine.core import JSON, ChanceOutcome, IllegalMove, InvalidData, Outcome, Violation
from engine.sagrada.audit import illegal_cells, window_violations
from engine.sagrada.moves import (
    ChoosePattern,
    ChooseValue,
    DieMove,
    Draft,
    Draw,
    Pass,
    PlaceHeld,
    Roll,
    SagradaMove,
    UseTool,
    parse_move,
)
from engine.sagrada.objectives import PUBLIC_OBJECTIVES, public_objective
from engine.sagrada.rules import OFFICIAL, Rules, UnplaceableDie, rules_named
from engine.sagrada.scoring import ScoreBreakdown, ranking_key, score_window
from engine.sagrada.tools import TOOL_SETS, Tool, tool_cost
from engine.sagrada.window import (
    NO_WAIVERS,
    Cell,
    Color,
    Die,
    Pattern,
    PlacementWaivers,
    Window,
    official_patterns,
    pattern_data,
    placement_error,
)
from engine.sagrada.window import legal_placements as window_placements

DICE_PER_COLOR = 18
SOLO_POOL_SIZE = 4
SOLO_PUBLIC_OBJECTIVES = 2
SOLO_PRIVATE_OBJECTIVES = 2
PATTERN_CARDS_DEALT = 2
MAX_PLAYERS = 4


@dataclass(frozen=True)
class Exemption:
    """A space whose die was placed under a tool's waiver, so the waived rule does not apply to it."""

    cell: Cell
    waivers: PlacementWaivers

    def to_json(self) -> JSON:
        names = [name for name in ("color", "value", "touching", "adjacency") if getattr(self.waivers, name)]
        return {"cell": str(self.cell), "waive": names}

    @classmethod
    def from_json(cls, data: JSON) -> Exemption:
        return cls(Cell.parse(data["cell"]), PlacementWaivers(**{name: True for name in data["waive"]}))


@dataclass(frozen=True)
class PlayerState:
    """One player's table: the patterns dealt, the one chosen, the window, tokens and secret objectives."""

    offers: tuple[Pattern, ...]
    private: tuple[Color, ...]
    pattern: Pattern | None = None
    window: Window = field(default_factory=Window)
    favor_tokens: int = 0
    exemptions: tuple[Exemption, ...] = ()

    def waivers(self) -> dict[Cell, PlacementWaivers]:
        """The tool waivers of this window's dice, by space, as the audit and scoring take them."""
        return {e.cell: e.waivers for e in self.exemptions}

    def chosen_pattern(self) -> Pattern:
        if self.pattern is None:
            raise IllegalMove("choose-pattern", "this player has not chosen a pattern yet")
        return self.pattern


@dataclass(frozen=True)
class ToolSlot:
    """A tool card on the table: the favor tokens on it, how often it was used, and by whom last."""

    tool: Tool
    tokens: int = 0
    uses: int = 0
    last_user: int | None = None


class HeldStage(Enum):
    """Where a die taken by Flux Brush or Flux Remover stands."""

    ROLL = "roll"  # chance: its colour is known, its value is being rolled (Flux Brush)
    DRAW = "draw"  # chance: a die is being drawn from the bag (Flux Remover)
    VALUE = "value"  # the player chooses its value (Flux Remover)
    PLACE = "place"  # the player must place it


@dataclass(frozen=True)
class Held:
    """The die in the current player's hand while a tool card's effect is under way."""

    tool: Tool
    stage: HeldStage
    color: Color | None = None
    value: int | None = None

    @property
    def die_color_label(self) -> str:
        return self.color.label if self.color is not None else "unknown"

    def die(self) -> Die:
        if self.color is None or self.value is None:
            raise IllegalMove("held-die", f"the die taken by {self.tool.card.title} is not yet known")
        return Die(self.color, self.value)


@dataclass(frozen=True)
class SagradaState:
    """A whole game. `round` is 0 while patterns are chosen and `rules.rounds + 1` once the game is over."""

    players: tuple[PlayerState, ...]
    public_objectives: tuple[str, ...]
    tools: tuple[ToolSlot, ...]
    bag: tuple[int, ...] = (DICE_PER_COLOR,) * len(Color)  # dice left per colour, in `Color` order
    round: int = 0
    start_player: int = 0
    turn: int = 0  # index into the round's snake order
    pool: tuple[Die, ...] = ()  # kept sorted, so a pool index names a die whatever order it was read in
    to_draw: int = 0  # dice still to be drawn from the bag for this round's pool
    to_roll: tuple[Color, ...] = ()  # pool dice lifted for a re-roll, waiting to land
    round_track: tuple[tuple[Die, ...], ...] = ()
    drafted: bool = False
    tool_used: bool = False
    held: Held | None = None
    skipping: tuple[int, ...] = ()  # players who used Running Pliers: no second turn this round
    set_aside: tuple[Die, ...] = ()  # dice out of the game: discarded (text rules) or paid for a solo tool

    @property
    def solo(self) -> bool:
        return len(self.players) == 1


@dataclass(frozen=True)
class SagradaScore:
    """The final breakdown of every window; in solo play, also the target to beat."""

    players: tuple[ScoreBreakdown, ...]
    solo_target: int | None = None

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(b.total for b in self.players)

    def to_json(self) -> JSON:
        return {"players": [b.to_json() for b in self.players], "solo_target": self.solo_target}


def _die_key(die: Die) -> tuple[int, int]:
    return list(Color).index(die.color), die.value


def sorted_dice(dice: Iterable[Die]) -> tuple[Die, ...]:
    """Dice in a canonical order (colour as `Color` lists them, then value): how pools are kept."""
    return tuple(sorted(dice, key=_die_key))


def turn_order(players: int, start_player: int) -> tuple[int, ...]:
    """The snake order of a round: clockwise from the start player, then back; solo: two turns."""
    forward = tuple((start_player + i) % players for i in range(players))
    return forward + tuple(reversed(forward))


@cache
def window_cards() -> tuple[tuple[Pattern, Pattern], ...]:
    """The 12 double-sided window cards: each pattern with the one printed on its back."""
    patterns = official_patterns()
    cards: list[tuple[Pattern, Pattern]] = []
    for entry in pattern_data()["patterns"]:
        front, back = patterns[entry["name"]], patterns[entry["other_side"]]
        if not any(back in card for card in cards):
            cards.append((front, back))
    if len(cards) != 12:
        raise InvalidData(f"expected 12 window cards in the pattern data, found {len(cards)}")
    return tuple(cards)


class SagradaGame:
    """Sagrada for 1-4 players under a ruleset (`OFFICIAL` by default); one player plays the solo game."""

    name = "sagrada"

    def __init__(self, players: int = 2, rules: Rules = OFFICIAL) -> None:
        if not 1 <= players <= MAX_PLAYERS:
            raise InvalidData(f"Sagrada is played by 1-4 players, got {players}")
        self.players = players
        self.rules = rules

    # ---- set-up -------------------------------------------------------------------------------------------

    @property
    def pool_size(self) -> int:
        return SOLO_POOL_SIZE if self.players == 1 else 2 * self.players + 1

    def deal(self, seed: int, *, solo_tool_cards: int = 3) -> SagradaState:
        """A seeded deal: two window cards and the private objectives per player, tools and public cards.

        Solo play takes its difficulty as the number of tool cards (1 hardest to 5 easiest).
        """
        rng = random.Random(seed)
        cards = rng.sample(window_cards(), PATTERN_CARDS_DEALT * self.players)
        offers = [
            tuple(p for card in cards[i * PATTERN_CARDS_DEALT : (i + 1) * PATTERN_CARDS_DEALT] for p in card)
            for i in range(self.players)
        ]
        privates_each = SOLO_PRIVATE_OBJECTIVES if self.players == 1 else 1
        colors = rng.sample(list(Color), privates_each * self.players)
        privates = [tuple(colors[i * privates_each : (i + 1) * privates_each]) for i in range(self.players)]
        tool_count = solo_tool_cards if self.players == 1 else self.rules.tool_cards
        deck = TOOL_SETS[self.rules.tool_set]
        tools = rng.sample(deck, min(tool_count, len(deck)))
        publics = rng.sample([card.name for card in PUBLIC_OBJECTIVES], self._public_count())
        return self.setup(offers, privates, tools, publics, start_player=rng.randrange(self.players))

    def _public_count(self) -> int:
        return SOLO_PUBLIC_OBJECTIVES if self.players == 1 else self.rules.public_objectives

    def setup(
        self,
        offers: Sequence[Sequence[Pattern]],
        privates: Sequence[Sequence[Color]],
        tools: Sequence[Tool],
        public_objectives: Sequence[str],
        *,
        start_player: int = 0,
    ) -> SagradaState:
        """A game set up from the cards on a real table; patterns may include a player's own."""
        n = self.players
        if len(offers) != n or any(not o for o in offers):
            raise InvalidData(f"need at least one pattern offered to each of {n} players")
        privates_each = SOLO_PRIVATE_OBJECTIVES if n == 1 else 1
        if len(privates) != n or any(len(p) != privates_each for p in privates):
            raise InvalidData(f"each of {n} players needs {privates_each} private objective(s)")
        all_privates = [c for p in privates for c in p]
        if len(set(all_privates)) != len(all_privates):
            raise InvalidData("private objectives are dealt from one deck: no colour may repeat")
        expected_tools = range(1, 6) if n == 1 else range(self.rules.tool_cards, self.rules.tool_cards + 1)
        if len(tools) not in expected_tools or len(set(tools)) != len(tools):
            raise InvalidData(f"need {expected_tools.start}-{expected_tools.stop - 1} different tool cards")
        for tool in tools:
            if tool not in TOOL_SETS[self.rules.tool_set]:
                raise InvalidData(f"tool {tool.card.title!r} is not in the {self.rules.name} rules' tool set")
        names = tuple(public_objective(name).name for name in public_objectives)
        if len(names) != self._public_count() or len(set(names)) != len(names):
            raise InvalidData(f"need {self._public_count()} different public objectives, got {list(names)}")
        if not 0 <= start_player < n:
            raise InvalidData(f"start player must be 0-{n - 1}, got {start_player}")
        return SagradaState(
            players=tuple(
                PlayerState(offers=tuple(o), private=tuple(p)) for o, p in zip(offers, privates, strict=True)
            ),
            public_objectives=names,
            tools=tuple(ToolSlot(t) for t in tools),
            start_player=start_player,
        )

    # ---- whose move ---------------------------------------------------------------------------------------

    def is_over(self, state: SagradaState) -> bool:
        return state.round > self.rules.rounds

    def is_chance_node(self, state: SagradaState) -> bool:
        if state.round == 0 or self.is_over(state):
            return False
        if state.held is not None:
            return state.held.stage in (HeldStage.ROLL, HeldStage.DRAW)
        return bool(state.to_roll) or state.to_draw > 0

    def current_player(self, state: SagradaState) -> int | None:
        """The player to decide now; None at a chance node or once the game is over."""
        if state.round == 0:
            return next(i for i, p in enumerate(state.players) if p.pattern is None)
        if self.is_over(state) or self.is_chance_node(state):
            return None
        return self._turn_player(state)

    def _turn_player(self, state: SagradaState) -> int:
        """Whose turn of the round it is, even while a chance event inside that turn is pending."""
        return turn_order(len(state.players), state.start_player)[state.turn]

    def _is_second_turn(self, state: SagradaState) -> bool:
        return state.turn >= len(state.players)

    # ---- chance -------------------------------------------------------------------------------------------

    def chance_outcomes(self, state: SagradaState) -> list[ChanceOutcome[SagradaMove]]:
        if not self.is_chance_node(state):
            return []
        sixth = Fraction(1, 6)
        held = state.held
        if held is not None and held.stage is HeldStage.ROLL and held.color is not None:
            return [ChanceOutcome(Roll((Die(held.color, v),)), sixth) for v in range(1, 7)]
        total = sum(state.bag)
        if held is not None and held.stage is HeldStage.DRAW:
            return [
                ChanceOutcome(Draw(c), Fraction(n, total)) for c, n in zip(Color, state.bag, strict=True) if n
            ]
        if state.to_roll:
            return [ChanceOutcome(Roll((Die(state.to_roll[0], v),)), sixth) for v in range(1, 7)]
        return [
            ChanceOutcome(Roll((Die(c, v),)), Fraction(n, total) * sixth)
            for c, n in zip(Color, state.bag, strict=True)
            if n
            for v in range(1, 7)
        ]

    # ---- legal moves --------------------------------------------------------------------------------------

    def legal_moves(self, state: SagradaState) -> Iterator[SagradaMove]:
        if self.is_over(state) or self.is_chance_node(state):
            return
        if state.round == 0:
            player = state.players[self._current(state)]
            yield from (ChoosePattern(i + 1) for i in range(len(player.offers)))
            return
        player_index = self._current(state)
        player = state.players[player_index]
        pattern = player.chosen_pattern()
        if state.held is not None:
            if state.held.stage is HeldStage.VALUE:
                yield from (ChooseValue(v) for v in range(1, 7))
            else:
                die = state.held.die()
                yield from (PlaceHeld(c) for c in window_placements(player.window, pattern, die))
            return
        yield Pass()
        if not state.drafted:
            for index, die in _distinct_pool(state.pool):
                cells = list(window_placements(player.window, pattern, die))
                yield from (Draft(index, cell) for cell in cells)
                if not cells and self.rules.unplaceable_die is UnplaceableDie.DISCARDED:
                    yield Draft(index, None)
        if not state.tool_used:
            for card in range(1, len(state.tools) + 1):
                yield from self._tool_moves(state, card)

    def _tool_moves(self, state: SagradaState, card: int) -> Iterator[UseTool]:
        """Every legal use of one card: candidates built from the card's form, kept if they apply."""
        for candidate in self._tool_candidates(state, card):
            try:
                self._use_tool(state, candidate)
            except IllegalMove:
                continue
            yield candidate

    def _tool_candidates(self, state: SagradaState, card: int) -> Iterator[UseTool]:
        slot = state.tools[card - 1]
        form = slot.tool.card.form
        if self._tool_unusable(state, slot) is not None:
            return
        player = state.players[self._current(state)]
        pattern = player.chosen_pattern()
        pays: list[int | None] = [None]
        if state.solo:
            color = slot.tool.card.color
            pays = [i for i, d in _distinct_pool(state.pool) if color is None or d.color is color]
        for pay in pays:
            if form.moves != (0, 0):
                for moves in self._move_sets(state, slot.tool, player):
                    yield UseTool(card, pay=pay, moves=moves)
                continue
            if form.reroll:
                yield from (UseTool(card, pay=pay, reroll=i) for i, _ in _distinct_pool(state.pool, pay))
                continue
            if not form.draft:
                yield UseTool(card, pay=pay)
                continue
            for index, die in _distinct_pool(state.pool, pay):
                if not form.target:
                    yield UseTool(card, pay=pay, draft=index)
                    continue
                for variant, result in self._drafted_variants(state, slot.tool, die):
                    for cell in window_placements(player.window, pattern, result, form.waivers):
                        yield replace(variant, card=card, pay=pay, draft=index, target=cell)

    def _drafted_variants(self, state: SagradaState, tool: Tool, die: Die) -> Iterator[tuple[UseTool, Die]]:
        """The ways a card can change a drafted die before it is placed, with the die that results.

        Each way is a partial move holding only the card's own arguments; the caller fills in the rest.
        """
        form = tool.card.form
        if form.delta:
            for delta in (1, -1):
                if 1 <= die.value + delta <= 6:
                    yield UseTool(0, delta=delta), Die(die.color, die.value + delta)
        elif form.recolor:
            for color in Color:
                if color is not die.color:
                    yield UseTool(0, recolor=color), Die(color, die.value)
        elif form.swap:
            for taken in sorted_dice({d for track in state.round_track for d in track}):
                yield UseTool(0, swap=taken), taken
        elif tool is Tool.GRINDING_STONE:
            yield UseTool(0), Die(die.color, 7 - die.value)
        else:
            yield UseTool(0), die

    def _move_sets(
        self, state: SagradaState, tool: Tool, player: PlayerState
    ) -> Iterator[tuple[DieMove, ...]]:
        form = tool.card.form
        low, high = form.moves
        pattern = player.chosen_pattern()
        colors = set(Color)
        if tool is Tool.TAP_WHEEL:
            colors = {d.color for dice in state.round_track for d in dice}
        for first in _die_moves(player, pattern, form.waivers, colors):
            if low == 1:
                yield (first,)
            if high == 2:
                after = _move_die(player, pattern, first, form.waivers)
                moved = {d.color for d in (player.window[first.source],) if d is not None}
                same = moved if tool is Tool.TAP_WHEEL else colors
                for second in _die_moves(after, pattern, form.waivers, same):
                    if second.source != first.target:
                        yield (first, second)

    # ---- applying moves -----------------------------------------------------------------------------------

    def apply(self, state: SagradaState, move: SagradaMove) -> SagradaState:
        if self.is_over(state):
            raise IllegalMove("game-over", f"the game is over; {move} cannot be played")
        if isinstance(move, Roll | Draw):
            if not self.is_chance_node(state):
                raise IllegalMove("not-chance", f"{move} is a chance outcome, but no die is being rolled now")
            return self._apply_roll(state, move) if isinstance(move, Roll) else self._apply_draw(state, move)
        if self.is_chance_node(state):
            raise IllegalMove("chance-pending", f"dice must be rolled before {move}: play a roll outcome")
        if state.round == 0:
            if not isinstance(move, ChoosePattern):
                raise IllegalMove("choose-pattern", f"every player chooses a pattern first, not {move}")
            return self._choose_pattern(state, move)
        if state.held is not None:
            return self._apply_held(state, move)
        if isinstance(move, Pass):
            return self._end_turn(state)
        if isinstance(move, Draft):
            return self._apply_draft(state, move)
        if isinstance(move, UseTool):
            return self._settle_turn(self._use_tool(state, move))
        raise IllegalMove("out-of-phase", f"{move} is not a move for this point of the turn")

    def _current(self, state: SagradaState) -> int:
        player = self.current_player(state)
        if player is None:
            raise IllegalMove("no-player", "no player is to move now")
        return player

    def _with_player(self, state: SagradaState, index: int, player: PlayerState) -> SagradaState:
        players = list(state.players)
        players[index] = player
        return replace(state, players=tuple(players))

    def _choose_pattern(self, state: SagradaState, move: ChoosePattern) -> SagradaState:
        index = self._current(state)
        player = state.players[index]
        if not 1 <= move.option <= len(player.offers):
            raise IllegalMove(
                "no-such-pattern",
                f"player {index + 1} was dealt {len(player.offers)} patterns, not {move.option}",
            )
        pattern = player.offers[move.option - 1]
        tokens = 0 if state.solo else self.rules.favor_tokens(pattern.difficulty, len(state.players))
        state = self._with_player(state, index, replace(player, pattern=pattern, favor_tokens=tokens))
        if all(p.pattern is not None for p in state.players):
            state = replace(state, round=1, to_draw=self.pool_size)
        return state

    def _apply_roll(self, state: SagradaState, move: Roll) -> SagradaState:
        held = state.held
        if held is not None:
            if held.stage is not HeldStage.ROLL:
                raise IllegalMove("not-rolling", f"{move}: a die is being drawn from the bag, not rolled")
            if len(move.dice) != 1 or move.dice[0].color is not held.color:
                raise IllegalMove(
                    "roll-color", f"one {held.die_color_label} die is being re-rolled, not {move}"
                )
            return self._landed_in_hand(state, replace(held, value=move.dice[0].value))
        pool = list(state.pool)
        if state.to_roll:
            waiting = list(state.to_roll)
            for die in move.dice:
                if die.color not in waiting:
                    lifted = " ".join(c.letter for c in state.to_roll)
                    raise IllegalMove(
                        "roll-color", f"{die} was not among the dice being re-rolled ({lifted})"
                    )
                waiting.remove(die.color)
                pool.append(die)
            return self._settle_turn(replace(state, pool=sorted_dice(pool), to_roll=tuple(waiting)))
        if len(move.dice) > state.to_draw:
            raise IllegalMove("roll-count", f"{len(move.dice)} dice rolled, but only {state.to_draw} are due")
        bag = list(state.bag)
        for die in move.dice:
            slot = list(Color).index(die.color)
            if bag[slot] == 0:
                raise IllegalMove(
                    "bag-empty", f"{die} cannot be drawn: no {die.color.label} die is left in the bag"
                )
            bag[slot] -= 1
            pool.append(die)
        return replace(state, pool=sorted_dice(pool), bag=tuple(bag), to_draw=state.to_draw - len(move.dice))

    def _apply_draw(self, state: SagradaState, move: Draw) -> SagradaState:
        held = state.held
        if held is None or held.stage is not HeldStage.DRAW:
            raise IllegalMove("not-drawing", f"{move}: no die is being drawn from the bag now")
        slot = list(Color).index(move.color)
        if state.bag[slot] == 0:
            raise IllegalMove("bag-empty", f"no {move.color.label} die is left in the bag")
        bag = tuple(n - 1 if i == slot else n for i, n in enumerate(state.bag))
        return replace(state, bag=bag, held=replace(held, stage=HeldStage.VALUE, color=move.color))

    def _landed_in_hand(self, state: SagradaState, held: Held) -> SagradaState:
        """A die in hand with a known face: place it if it fits anywhere, else it goes back to the pool."""
        player = state.players[self._turn_player(state)]
        die = held.die()
        if any(True for _ in window_placements(player.window, player.chosen_pattern(), die)):
            return replace(state, held=replace(held, stage=HeldStage.PLACE))
        return self._settle_turn(replace(state, held=None, pool=sorted_dice((*state.pool, die))))

    def _apply_held(self, state: SagradaState, move: SagradaMove) -> SagradaState:
        held = state.held
        assert held is not None
        if held.stage is HeldStage.VALUE:
            if not isinstance(move, ChooseValue):
                raise IllegalMove(
                    "choose-value",
                    f"choose the value of the drawn {held.die_color_label} die first, not {move}",
                )
            return self._landed_in_hand(state, replace(held, value=move.value))
        if not isinstance(move, PlaceHeld):
            raise IllegalMove(
                "place-held", f"the {held.die()} taken by {held.tool.card.title} must be placed first"
            )
        state = self._place(state, self._current(state), held.die(), move.target, NO_WAIVERS)
        return self._settle_turn(replace(state, held=None))

    def _apply_draft(self, state: SagradaState, move: Draft) -> SagradaState:
        if state.drafted:
            raise IllegalMove("one-draft-per-turn", "you already drafted a die this turn")
        index = self._current(state)
        die = _take_from_pool(state.pool, {"draft": move.pool_index})["draft"]
        state = replace(state, pool=_without(state.pool, die), drafted=True)
        if move.target is None:
            if self.rules.unplaceable_die is not UnplaceableDie.DISCARDED:
                raise IllegalMove("must-place", f"a drafted die must be placed; name a space for {die}")
            player = state.players[index]
            fits = next(window_placements(player.window, player.chosen_pattern(), die), None)
            if fits is not None:
                raise IllegalMove(
                    "die-placeable", f"{die} fits on {fits}, so it must be placed, not discarded"
                )
            return self._settle_turn(replace(state, set_aside=(*state.set_aside, die)))
        return self._settle_turn(self._place(state, index, die, move.target, NO_WAIVERS))

    def _place(
        self, state: SagradaState, index: int, die: Die, cell: Cell, waivers: PlacementWaivers
    ) -> SagradaState:
        player = state.players[index]
        error = placement_error(player.window, player.chosen_pattern(), cell, die, waivers)
        if error is not None:
            raise error
        exemptions = tuple(e for e in player.exemptions if e.cell != cell)
        if waivers != NO_WAIVERS:
            exemptions = tuple(sorted((*exemptions, Exemption(cell, waivers)), key=lambda e: e.cell))
        player = replace(player, window=player.window.with_die(cell, die), exemptions=exemptions)
        return self._with_player(state, index, player)

    def _settle_turn(self, state: SagradaState) -> SagradaState:
        """End the turn by itself once the player has drafted and used a tool, as nothing is left to do."""
        if state.drafted and state.tool_used and state.held is None and not self.is_chance_node(state):
            return self._end_turn(state)
        return state

    def _end_turn(self, state: SagradaState) -> SagradaState:
        order = turn_order(len(state.players), state.start_player)
        turn = state.turn + 1
        while turn < len(order) and turn >= len(state.players) and order[turn] in state.skipping:
            turn += 1
        state = replace(state, turn=turn, drafted=False, tool_used=False)
        if turn < len(order):
            return state
        if self.rules.leftover_to_round_track or state.solo:
            track, set_aside = (*state.round_track, state.pool), state.set_aside
        else:
            track, set_aside = state.round_track, state.set_aside + state.pool
        next_round = state.round + 1
        return replace(
            state,
            round=next_round,
            turn=0,
            pool=(),
            round_track=track,
            set_aside=set_aside,
            start_player=(state.start_player + 1) % len(state.players),
            skipping=(),
            to_draw=self.pool_size if next_round <= self.rules.rounds else 0,
        )

    # ---- tool cards ---------------------------------------------------------------------------------------

    def _tool_unusable(self, state: SagradaState, slot: ToolSlot) -> IllegalMove | None:
        """Why the current player cannot use this card at all now, whatever the arguments."""
        player = state.players[self._current(state)]
        tool = slot.tool
        if state.tool_used:
            return IllegalMove("one-tool-per-turn", "you already used a tool card this turn")
        if state.solo:
            if slot.uses:
                return IllegalMove("tool-used-up", f"in solo play {tool.card.title} is used once, and it was")
        else:
            cost = tool_cost(self.rules, slot.tokens, slot.uses)
            if player.favor_tokens < cost:
                return IllegalMove(
                    "favor-tokens",
                    f"{tool.card.title} costs {cost} favor token(s); you have {player.favor_tokens}",
                )
        form = tool.card.form
        if form.draft and not form.extra_draft and state.drafted:
            return IllegalMove(
                "one-draft-per-turn", f"{tool.card.title} drafts a die, and you already drafted"
            )
        if tool is Tool.GLAZING_HAMMER:
            if not self._is_second_turn(state):
                return IllegalMove(
                    "second-turn-only", "Glazing Hammer is used on your second turn of a round"
                )
            if state.drafted:
                return IllegalMove("before-drafting", "Glazing Hammer is used before drafting")
        if tool is Tool.RUNNING_PLIERS:
            if self._is_second_turn(state):
                return IllegalMove("first-turn-only", "Running Pliers is used on your first turn of a round")
            if not state.drafted:
                return IllegalMove("after-drafting", "Running Pliers drafts a second die, after your first")
        if tool is Tool.TAP_WHEEL and not state.round_track:
            return IllegalMove("tap-wheel-track", "Tap Wheel needs a die on the round track to name a colour")
        return None

    def _use_tool(self, state: SagradaState, move: UseTool) -> SagradaState:
        if not 1 <= move.card <= len(state.tools):
            raise IllegalMove("no-such-tool", f"there are {len(state.tools)} tool cards, not {move.card}")
        slot = state.tools[move.card - 1]
        tool = slot.tool
        unusable = self._tool_unusable(state, slot)
        if unusable is not None:
            raise unusable
        _check_form(tool, move)
        index = self._current(state)
        taken = _take_from_pool(state.pool, {"pay": move.pay, "draft": move.draft, "reroll": move.reroll})
        pool = state.pool
        for die in taken.values():
            pool = _without(pool, die)
        state = self._pay_for_tool(replace(state, pool=pool), index, move.card, taken.get("pay"))
        form = tool.card.form
        if "reroll" in taken:
            return replace(state, to_roll=(taken["reroll"].color,))
        if tool is Tool.GLAZING_HAMMER:
            return replace(state, pool=(), to_roll=tuple(d.color for d in state.pool))
        if form.moves != (0, 0):
            return self._with_player(state, index, self._tool_moves_apply(state, tool, move))
        die = taken["draft"]
        state = replace(state, drafted=state.drafted if form.extra_draft else True)
        if tool is Tool.FLUX_BRUSH:
            return replace(state, held=Held(tool, HeldStage.ROLL, die.color))
        if tool is Tool.FLUX_REMOVER:
            slot_index = list(Color).index(die.color)
            bag = tuple(n + 1 if i == slot_index else n for i, n in enumerate(state.bag))
            return replace(state, bag=bag, held=Held(tool, HeldStage.DRAW))
        if tool is Tool.RUNNING_PLIERS:
            state = replace(state, skipping=(*state.skipping, index))
        die, state = self._transform_drafted(state, tool, die, move)
        assert move.target is not None
        return self._place(state, index, die, move.target, form.waivers)

    def _pay_for_tool(self, state: SagradaState, index: int, card: int, die: Die | None) -> SagradaState:
        """Favor tokens onto the card, or (solo) a pool die of the card's colour out of the game."""
        slots = list(state.tools)
        slot = slots[card - 1]
        if state.solo:
            color = slot.tool.card.color
            if die is None:
                raise IllegalMove("solo-payment", "in solo play a tool is paid with a pool die: 'pay <i>'")
            if color is not None and die.color is not color:
                raise IllegalMove(
                    "solo-payment-color",
                    f"{slot.tool.card.title} is paid with a {color.label} die, not {die}",
                )
            slots[card - 1] = replace(slot, uses=slot.uses + 1, last_user=index)
            return replace(state, set_aside=(*state.set_aside, die), tools=tuple(slots), tool_used=True)
        if die is not None:
            raise IllegalMove("tool-arguments", "tools are paid with favor tokens; 'pay' is for solo play")
        cost = tool_cost(self.rules, slot.tokens, slot.uses)
        player = state.players[index]
        slots[card - 1] = replace(slot, tokens=slot.tokens + cost, uses=slot.uses + 1, last_user=index)
        state = replace(state, tools=tuple(slots), tool_used=True)
        return self._with_player(state, index, replace(player, favor_tokens=player.favor_tokens - cost))

    def _transform_drafted(
        self, state: SagradaState, tool: Tool, die: Die, move: UseTool
    ) -> tuple[Die, SagradaState]:
        """The die a card makes of the drafted one, and the state after any swap it involves."""
        if move.delta is not None:
            value = die.value + move.delta
            if not 1 <= value <= 6:
                raise IllegalMove(
                    "value-range", f"{die} cannot be turned to {value}: values run 1-6, no wrapping"
                )
            return Die(die.color, value), state
        if move.recolor is not None:
            if move.recolor is die.color:
                raise IllegalMove("same-color", f"{die} is already {die.color.label}; name another colour")
            return Die(move.recolor, die.value), state
        if move.swap is not None:
            track = [list(dice) for dice in state.round_track]
            for dice in track:
                if move.swap in dice:
                    dice[dice.index(move.swap)] = die
                    new_track = tuple(sorted_dice(d) for d in track)
                    return move.swap, replace(state, round_track=new_track)
            raise IllegalMove("not-on-track", f"no {move.swap} lies on the round track")
        if tool is Tool.GRINDING_STONE:
            return Die(die.color, 7 - die.value), state
        return die, state

    def _tool_moves_apply(self, state: SagradaState, tool: Tool, move: UseTool) -> PlayerState:
        player = state.players[self._current(state)]
        pattern = player.chosen_pattern()
        if tool is Tool.TAP_WHEEL:
            colors = {d.color for m in move.moves if (d := player.window[m.source]) is not None}
            on_track = {d.color for dice in state.round_track for d in dice}
            if len(colors) > 1:
                raise IllegalMove("tap-wheel-color", "Tap Wheel moves dice of one colour only")
            if colors and not colors <= on_track:
                (color,) = colors
                raise IllegalMove("tap-wheel-track", f"no {color.label} die lies on the round track")
        if len(move.moves) == 2 and move.moves[1].source == move.moves[0].target:
            raise IllegalMove("same-die", f"{tool.card.title} moves two different dice, not one die twice")
        for die_move in move.moves:
            player = _move_die(player, pattern, die_move, tool.card.form.waivers)
        return player

    def legal_placements(self, state: SagradaState, die: Die) -> list[Cell]:
        """The spaces of the current player's window where `die` may go now: the UI's hints."""
        player = state.players[self._current(state)]
        return list(window_placements(player.window, player.chosen_pattern(), die))

    # ---- violations, score, outcome -----------------------------------------------------------------------

    def violations(self, state: SagradaState) -> list[Violation]:
        """Every window rule broken (tool waivers honoured), and dice that went missing or appeared."""
        found: list[Violation] = []
        for number, player in enumerate(state.players, start=1):
            if player.pattern is None:
                continue
            for v in window_violations(player.window, player.pattern, player.waivers()):
                cells = tuple(f"p{number}:{c}" for c in v.cells)
                found.append(Violation(v.rule, cells, f"player {number}: {v.message}"))
        found.extend(_dice_count_violations(state))
        return found

    def score(self, state: SagradaState) -> SagradaScore:
        """Each window scored as it stands (final once the game is over); solo adds the target."""
        cards = tuple(public_objective(name) for name in state.public_objectives)
        breakdowns = []
        for index, player in enumerate(state.players):
            if player.pattern is None:
                raise IllegalMove("choose-pattern", f"player {index + 1} has no pattern to score yet")
            solo = state.solo
            breakdowns.append(
                score_window(
                    player.window,
                    player.pattern,
                    objectives=cards,
                    private=player.private,
                    favor_tokens=0 if solo else self._final_tokens(state, index),
                    rules=self.rules,
                    empty_space_penalty=self.rules.solo_empty_space_penalty if solo else None,
                    waivers=player.waivers(),
                )
            )
        target = sum(d.value for dice in state.round_track for d in dice) if state.solo else None
        return SagradaScore(tuple(breakdowns), target)

    def _final_tokens(self, state: SagradaState, index: int) -> int:
        """Tokens left, plus (text rules) the tokens on every card this player used last."""
        tokens = state.players[index].favor_tokens
        if self.rules.tokens_on_tool_return_to_last_user:
            tokens += sum(s.tokens for s in state.tools if s.last_user == index)
        return tokens

    def outcome(self, state: SagradaState) -> Outcome | None:
        if not self.is_over(state):
            return None
        score = self.score(state)
        totals = score.totals
        if state.solo:
            target = score.solo_target
            assert target is not None
            won = totals[0] > target
            return Outcome(
                winners=(0,) if won else (),
                ranking=(0,),
                reason=f"score {totals[0]} {'beats' if won else 'does not beat'} the target {target}",
                details={"scores": list(totals), "target": target},
            )
        final_order = turn_order(len(state.players), (state.start_player - 1) % len(state.players))
        first_pass = final_order[: len(state.players)]

        def key(i: int) -> tuple[int, ...]:
            return ranking_key(score.players[i], first_pass.index(i), self.rules)

        ranking = tuple(sorted(range(len(state.players)), key=key, reverse=True))
        best = key(ranking[0])
        winners = tuple(i for i in ranking if key(i) == best)
        return Outcome(
            winners=winners,
            ranking=ranking,
            reason="highest score" if len(winners) == 1 else "shared victory",
            details={"scores": list(totals)},
        )

    # ---- notation and JSON --------------------------------------------------------------------------------

    def parse_move(self, text: str, state: SagradaState | None = None) -> SagradaMove:
        del state  # the notation needs no position to be read
        return parse_move(text)

    def state_to_json(self, state: SagradaState) -> JSON:
        return {
            "game": self.name,
            "rules": self.rules.name,
            "players": [_player_to_json(p) for p in state.players],
            "public_objectives": list(state.public_objectives),
            "tools": [
                {"tool": s.tool.value, "tokens": s.tokens, "uses": s.uses, "last_user": s.last_user}
                for s in state.tools
            ],
            "bag": {c.letter: n for c, n in zip(Color, state.bag, strict=True)},
            "round": state.round,
            "start_player": state.start_player,
            "turn": state.turn,
            "pool": [str(d) for d in state.pool],
            "to_draw": state.to_draw,
            "to_roll": [c.letter for c in state.to_roll],
            "round_track": [[str(d) for d in dice] for dice in state.round_track],
            "drafted": state.drafted,
            "tool_used": state.tool_used,
            "held": None
            if state.held is None
            else {
                "tool": state.held.tool.value,
                "stage": state.held.stage.value,
                "color": state.held.color.letter if state.held.color else None,
                "value": state.held.value,
            },
            "skipping": list(state.skipping),
            "set_aside": [str(d) for d in state.set_aside],
        }

    def state_from_json(self, data: JSON) -> SagradaState:
        try:
            if data["game"] != self.name or rules_named(data["rules"]) != self.rules:
                raise InvalidData(
                    f"state is for {data['game']} under {data['rules']!r} rules, not {self.rules.name}"
                )
            held = data["held"]
            state = SagradaState(
                players=tuple(_player_from_json(p) for p in data["players"]),
                public_objectives=tuple(public_objective(n).name for n in data["public_objectives"]),
                tools=tuple(
                    ToolSlot(Tool(s["tool"]), int(s["tokens"]), int(s["uses"]), s["last_user"])
                    for s in data["tools"]
                ),
                bag=tuple(int(data["bag"][c.letter]) for c in Color),
                round=int(data["round"]),
                start_player=int(data["start_player"]),
                turn=int(data["turn"]),
                pool=sorted_dice(Die.parse(d) for d in data["pool"]),
                to_draw=int(data["to_draw"]),
                to_roll=tuple(Color.parse(c) for c in data["to_roll"]),
                round_track=tuple(tuple(Die.parse(d) for d in dice) for dice in data["round_track"]),
                drafted=bool(data["drafted"]),
                tool_used=bool(data["tool_used"]),
                held=None
                if held is None
                else Held(
                    Tool(held["tool"]),
                    HeldStage(held["stage"]),
                    Color.parse(held["color"]) if held["color"] else None,
                    held["value"],
                ),
                skipping=tuple(int(i) for i in data["skipping"]),
                set_aside=tuple(Die.parse(d) for d in data["set_aside"]),
            )
        except KeyError as exc:
            raise InvalidData(f"malformed Sagrada state: missing field {exc}") from None
        except (TypeError, ValueError) as exc:
            raise InvalidData(f"malformed Sagrada state: {exc}") from None
        if len(state.players) != self.players:
            raise InvalidData(f"state has {len(state.players)} players, this game {self.players}")
        return state


# ---- moving dice within a window ------------------------------------------------------------------------


def _die_moves(
    player: PlayerState, pattern: Pattern, waivers: PlacementWaivers, colors: set[Color]
) -> Iterator[DieMove]:
    """Every legal single move of a die of one of `colors` within the window under these waivers."""
    for source, die in player.window.placed():
        if die.color not in colors:
            continue
        lifted = player.window.with_die(source, None)
        for target in window_placements(lifted, pattern, die, waivers):
            if target == source:
                continue
            move = DieMove(source, target)
            try:
                _move_die(player, pattern, move, waivers)
            except IllegalMove:
                continue
            yield move


def _move_die(player: PlayerState, pattern: Pattern, move: DieMove, waivers: PlacementWaivers) -> PlayerState:
    """The player after one die moves: placed by the rules (less the waivers), leaving a legal window."""
    die = player.window[move.source]
    if die is None:
        raise IllegalMove("no-die", f"there is no die on {move.source} to move")
    if move.target == move.source:
        raise IllegalMove("move-nowhere", f"the die on {move.source} must move to another space")
    lifted = player.window.with_die(move.source, None)
    error = placement_error(lifted, pattern, move.target, die, waivers)
    if error is not None:
        raise error
    exemptions = [e for e in player.exemptions if e.cell not in (move.source, move.target)]
    if waivers != NO_WAIVERS:
        exemptions.append(Exemption(move.target, waivers))
    moved = replace(
        player,
        window=lifted.with_die(move.target, die),
        exemptions=tuple(sorted(exemptions, key=lambda e: e.cell)),
    )
    if illegal_cells(moved.window, pattern, moved.waivers()):
        raise IllegalMove(
            "move-breaks-window",
            f"moving {die} from {move.source} would leave dice touching no group rooted on an edge",
        )
    return moved


def _check_form(tool: Tool, move: UseTool) -> None:
    """The move gives exactly the arguments this card takes."""
    form = tool.card.form
    low, high = form.moves
    given = {
        "draft": move.draft is not None,
        "reroll": move.reroll is not None,
        "delta": move.delta is not None,
        "recolor": move.recolor is not None,
        "swap": move.swap is not None,
        "target": move.target is not None,
    }
    wanted = {
        "draft": form.draft,
        "reroll": form.reroll,
        "delta": form.delta,
        "recolor": form.recolor,
        "swap": form.swap,
        "target": form.target,
    }
    if given != wanted or not low <= len(move.moves) <= high:
        raise IllegalMove("tool-arguments", f"{tool.card.title} is used as '{tool.card.usage}', got '{move}'")


def _distinct_pool(pool: tuple[Die, ...], skip: int | None = None) -> Iterator[tuple[int, Die]]:
    """Pool dice by 1-based index, each face once (equal dice are interchangeable), less index `skip`."""
    seen: set[Die] = set()
    for i, die in enumerate(pool, start=1):
        if die not in seen and i != skip:
            seen.add(die)
            yield i, die


def _take_from_pool(pool: tuple[Die, ...], indices: dict[str, int | None]) -> dict[str, Die]:
    """The dice at the named 1-based pool indices (a solo payment, a draft, a re-roll), all different."""
    given = {role: i for role, i in indices.items() if i is not None}
    if len(set(given.values())) < len(given):
        raise IllegalMove("same-die", f"one pool die cannot serve twice ({', '.join(given)})")
    for role, i in given.items():
        if not 1 <= i <= len(pool):
            raise IllegalMove(
                "no-such-die", f"the pool holds {len(pool)} dice, so there is no die {i} to {role}"
            )
    return {role: pool[i - 1] for role, i in given.items()}


def _without(dice: tuple[Die, ...], die: Die) -> tuple[Die, ...]:
    at = dice.index(die)
    return dice[:at] + dice[at + 1 :]


def _dice_count_violations(state: SagradaState) -> Iterator[Violation]:
    """All 90 dice must be somewhere: bag, pool, hand, round track, windows or set aside.

    Only the total is checked, since the rule text's colour-change tool lets a die count as another colour.
    """
    in_play = [*state.pool, *state.set_aside, *(d for dice in state.round_track for d in dice)]
    in_play.extend(d for p in state.players for _, d in p.window.placed())
    held = 1 if state.held is not None and state.held.color is not None else 0
    count = sum(state.bag) + len(in_play) + len(state.to_roll) + held
    expected = DICE_PER_COLOR * len(Color)
    if count != expected:
        yield Violation("dice-count", (), f"{count} dice are accounted for, but the game has {expected}")


def _player_to_json(player: PlayerState) -> JSON:
    return {
        "offers": [p.to_json() for p in player.offers],
        "private": [c.letter for c in player.private],
        "pattern": player.pattern.to_json() if player.pattern is not None else None,
        "window": str(player.window),
        "favor_tokens": player.favor_tokens,
        "exemptions": [e.to_json() for e in player.exemptions],
    }


def _player_from_json(data: JSON) -> PlayerState:
    pattern = data["pattern"]
    return PlayerState(
        offers=tuple(Pattern.from_json(p) for p in data["offers"]),
        private=tuple(Color.parse(c) for c in data["private"]),
        pattern=Pattern.from_json(pattern) if pattern is not None else None,
        window=Window.parse(data["window"]),
        favor_tokens=int(data["favor_tokens"]),
        exemptions=tuple(Exemption.from_json(e) for e in data["exemptions"]),
    )
