"""Cubist: rules variants, the state of a table, and the rule engine.

Each player owns 20 dice. A turn rolls 2 of them into the storeroom (with the dice stored last turn and any
an artist brought), places storeroom dice in the two workrooms, on artist cards or, at the end, in
storage. Workrooms that match a face-up installation card are completed for its points and bonus dice;
only bonus dice may be given to the shared museum, 2 points each. The game ends at once when a player holds
5 installation cards or the museum matches its blueprint.

Players are numbered from 0 in seating order. Set-up is a run of chance moves (the museum card for the
player count, the cornerstone's roll, 3 installations and 4 artists revealed, the start player); so is
every roll and every card turned face up during play. Decks are modelled as the unseen cards (each equally
likely next) followed by the artist cards put face up under the deck, in the order they went there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from itertools import combinations
from typing import Any

from engine.core import JSON, ChanceOutcome, IllegalMove, InvalidData, Outcome, Violation
from engine.cubist.cards import ArtistCard, CardSet, Effect, InstallationCard, bundled_cards
from engine.cubist.moves import (
    MUSEUM,
    WORKROOMS,
    Abandon,
    Activate,
    BonusDie,
    Change,
    Complete,
    Cornerstone,
    EffectChoice,
    EndTurn,
    FirstPlayer,
    Gain,
    Move,
    MuseumDraw,
    Place,
    PlaceOnArtist,
    Remove,
    Reveal,
    Roll,
    Shift,
    Source,
    StoreroomDie,
    Take,
    parse_move,
)
from engine.cubist.structures import FACES, Blueprint, Position, Refusal, Structure, format_position

DICE_PER_PLAYER = 20
ROLLED_PER_TURN = 2
FACE_UP_INSTALLATIONS = 3
FACE_UP_ARTISTS = 4
PLAYER_COUNTS = (2, 3, 4)


@dataclass(frozen=True)
class Rules:
    """A ruleset. Points the text leaves open are fields, with the default stated.

    `store_at_least_one`: the text's turn summary says 1-2 dice stay in storage at the end of a turn; the
    default (unconfirmed) is the usual "up to 2", so storing none is allowed. `full_artists_to_deck_bottom`:
    when all four face-up artist cards hold dice they are "removed"; by default from the game, or (variant)
    under the artist deck. `first_player_drawn`: a draw decides who starts, or (variant) player 0, as agreed.
    `end_when_installations_run_out`: the text is silent on a game whose installation cards are all taken
    before anyone holds 5 and with the museum unfinished; by default (inferred, so the game always ends) it
    ends then, as no installation can be completed any more; the variant plays on (for the museum alone).
    `turn_limit`: a house rule for simulations, not in the text: the game ends after that many turns.
    """

    name: str
    storage_limit: int = 2
    store_at_least_one: bool = False
    full_artists_to_deck_bottom: bool = False
    first_player_drawn: bool = True
    installations_to_end: int = 5
    points_per_museum_die: int = 2
    end_when_installations_run_out: bool = True
    turn_limit: int | None = None


PUBLISHED = Rules(name="published")
TEXT = Rules(name="text", store_at_least_one=True)
PRESETS: dict[str, Rules] = {r.name: r for r in (PUBLISHED, TEXT)}


def rules_named(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise InvalidData(f"unknown Cubist ruleset {name!r}; choose one of: {', '.join(PRESETS)}") from None


class Phase(Enum):
    """Set-up chance moves, a turn before its roll, a turn's actions, or the end of the game."""

    SETUP = "setup"
    ROLL = "roll"
    ACTION = "action"
    OVER = "over"


class Step(Enum):
    """A chance move owed: set-up draws, and the card reveals that replace taken or used cards."""

    MUSEUM = "museum"
    CORNERSTONE = "cornerstone"
    INSTALLATION = "installation"
    ARTIST = "artist"
    FIRST = "first"


@dataclass(frozen=True)
class Claim:
    """A player's equal dice on an artist card; `fresh` while the turn they were placed on lasts."""

    owner: int
    value: int
    count: int
    fresh: bool = False


@dataclass(frozen=True)
class ArtistSlot:
    """A face-up artist card and the dice on it, if any."""

    card: str
    claim: Claim | None = None


@dataclass(frozen=True)
class Taken:
    """An installation card a player completed, with the bonus die on each cell (None once used)."""

    card: str
    bonus: tuple[int | None, ...]

    @property
    def face_up(self) -> bool:
        """A card is turned face down once all its bonus dice are used; it still scores."""
        return any(v is not None for v in self.bonus)


@dataclass(frozen=True)
class Board:
    """A player's studio: two workrooms, the storage space, and the installation cards taken."""

    workrooms: tuple[Structure, Structure] = (Structure(), Structure())
    storage: tuple[int, ...] = ()
    taken: tuple[Taken, ...] = ()

    def placed_dice(self) -> int:
        """Dice of this player on the board (workrooms, storage, bonus cells)."""
        bonus = sum(v is not None for t in self.taken for v in t.bonus)
        return sum(len(w) for w in self.workrooms) + len(self.storage) + bonus


@dataclass(frozen=True)
class State:
    """A table. `storeroom` is the mover's; `pending` lists the chance moves owed before play goes on.

    `installation_deck` and `artist_deck` hold the unseen cards (sorted: each is equally likely next);
    `artist_returns` the artist cards put face up under the deck, drawn in order once the unseen run out.
    `museum_donors` names the owner of every museum die but the cornerstone.
    """

    boards: tuple[Board, ...]
    phase: Phase
    to_move: int | None = None
    pending: tuple[Step, ...] = ()
    museum_card: str | None = None
    museum: Structure = field(default_factory=Structure)
    museum_donors: tuple[tuple[Position, int], ...] = ()
    installations: tuple[str, ...] = ()
    installation_deck: tuple[str, ...] = ()
    artists: tuple[ArtistSlot, ...] = ()
    artist_deck: tuple[str, ...] = ()
    artist_returns: tuple[str, ...] = ()
    storeroom: tuple[int, ...] = ()
    turn: int = 0
    ended_by: str = ""

    def __post_init__(self) -> None:
        if self.phase in (Phase.ROLL, Phase.ACTION) and self.to_move is None:
            raise InvalidData(f"a state in the {self.phase.value} step needs a player to move")
        if self.to_move is not None and not 0 <= self.to_move < len(self.boards):
            raise InvalidData(f"player {self.to_move} is not at this table of {len(self.boards)}")
        object.__setattr__(self, "storeroom", tuple(sorted(self.storeroom)))
        object.__setattr__(self, "installation_deck", tuple(sorted(self.installation_deck)))
        object.__setattr__(self, "artist_deck", tuple(sorted(self.artist_deck)))
        object.__setattr__(self, "museum_donors", tuple(sorted(self.museum_donors)))

    @property
    def players(self) -> int:
        return len(self.boards)

    @property
    def mover(self) -> int:
        if self.to_move is None:
            raise InvalidData(f"nobody moves in the {self.phase.value} step")
        return self.to_move

    def museum_dice(self, player: int) -> int:
        return sum(owner == player for _, owner in self.museum_donors)

    def supply(self, player: int) -> int:
        """The player's dice not on the table: 20 less those on boards, artist cards and the museum."""
        out = self.boards[player].placed_dice() + self.museum_dice(player)
        out += sum(s.claim.count for s in self.artists if s.claim is not None and s.claim.owner == player)
        if player == self.to_move:
            out += len(self.storeroom)
        return DICE_PER_PLAYER - out

    def slot_of(self, card: str) -> int:
        for index, slot in enumerate(self.artists):
            if slot.card == card:
                return index
        raise IllegalMove("artist-not-face-up", f"artist card {card} is not face up")


@dataclass(frozen=True)
class PlayerScore:
    """A player's final score: the installation cards' points (face up or down) and the museum dice."""

    player: int
    installations: tuple[tuple[str, int], ...]
    museum_dice: int
    museum_points: int

    @property
    def total(self) -> int:
        return sum(points for _, points in self.installations) + self.museum_points

    def to_json(self) -> JSON:
        return {
            "player": self.player,
            "installations": [{"card": c, "points": p} for c, p in self.installations],
            "museum_dice": self.museum_dice,
            "museum_points": self.museum_points,
            "total": self.total,
        }


def standings(scores: Sequence[PlayerScore]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The players from first to last, and the winners. The highest total leads; a tie goes to the most
    museum dice; players still tied with the first share the win. Also ranks a table scored by hand."""
    if not scores:
        raise ValueError("standings need at least one player's score")
    ordered = sorted(scores, key=lambda s: (-s.total, -s.museum_dice, s.player))
    best = ordered[0]
    winners = tuple(s.player for s in ordered if (s.total, s.museum_dice) == (best.total, best.museum_dice))
    return tuple(s.player for s in ordered), tuple(sorted(winners))


@dataclass(frozen=True)
class Cubist:
    """The Cubist engine for 2-4 players under a ruleset and a card set (the illustrative one by default)."""

    players: int = 2
    rules: Rules = PUBLISHED
    cards: CardSet = field(default_factory=bundled_cards)
    name: str = "cubist"

    def __post_init__(self) -> None:
        if self.players not in PLAYER_COUNTS:
            raise InvalidData(f"Cubist seats 2 to 4 players, not {self.players}")
        if not self.cards.museums_for(self.players):
            raise InvalidData(f"the card set has no museum card for {self.players} players")

    def initial_state(self) -> State:
        """An empty table before set-up's chance moves: museum card, cornerstone, reveals, start player."""
        steps = (
            Step.MUSEUM,
            Step.CORNERSTONE,
            *(Step.INSTALLATION,) * FACE_UP_INSTALLATIONS,
            *(Step.ARTIST,) * FACE_UP_ARTISTS,
            *((Step.FIRST,) if self.rules.first_player_drawn else ()),
        )
        state = State(
            boards=(Board(),) * self.players,
            phase=Phase.SETUP,
            pending=steps,
            installation_deck=tuple(self.cards.installations),
            artist_deck=tuple(self.cards.artists),
        )
        return self._settle(state)

    def blueprint(self, state: State) -> Blueprint | None:
        if state.museum_card is None:
            return None
        return self.cards.museums[state.museum_card].blueprint

    # --- chance -------------------------------------------------------------------------------------------

    def is_chance_node(self, state: State) -> bool:
        if state.phase is Phase.OVER:
            return False
        if state.pending:
            return True
        return state.phase is Phase.ROLL and self._roll_ready(state)

    def _roll_ready(self, state: State) -> bool:
        """The roll comes once the supply holds 2 dice, or when no die can be recovered first."""
        return state.supply(state.mover) >= ROLLED_PER_TURN or not self._can_recover(state)

    def _can_recover(self, state: State) -> bool:
        """Whether the mover can bring dice back to the supply: a workroom to abandon or an artist to use."""
        player = state.mover
        return any(len(w) for w in state.boards[player].workrooms) or any(
            s.claim is not None and s.claim.owner == player and not s.claim.fresh for s in state.artists
        )

    def dice_to_roll(self, state: State) -> int:
        """2, or what the supply holds when it is short and nothing can be recovered (the text is silent)."""
        return min(ROLLED_PER_TURN, state.supply(state.mover))

    def chance_outcomes(self, state: State) -> Sequence[ChanceOutcome[Move]]:
        if not self.is_chance_node(state):
            return ()
        if not state.pending:
            return _roll_outcomes(self.dice_to_roll(state))
        step = state.pending[0]
        if step is Step.MUSEUM:
            return _uniform([MuseumDraw(c) for c in self.cards.museums_for(self.players)])
        if step is Step.CORNERSTONE:
            return _uniform([Cornerstone(v) for v in FACES])
        if step is Step.FIRST:
            return _uniform([FirstPlayer(p) for p in range(state.players)])
        if step is Step.INSTALLATION:
            return _uniform([Reveal(c) for c in state.installation_deck])
        if state.artist_deck:
            return _uniform([Reveal(c) for c in state.artist_deck])
        return (ChanceOutcome(Reveal(state.artist_returns[0]), Fraction(1)),)

    # --- decisions ----------------------------------------------------------------------------------------

    def legal_moves(self, state: State) -> Iterator[Move]:
        """Every decision open to the mover; before the roll only what can be done at any time."""
        if self.is_chance_node(state) or state.phase not in (Phase.ROLL, Phase.ACTION):
            return
        storeroom = state.storeroom if state.phase is Phase.ACTION else ()
        yield from self._placements(state, storeroom)
        yield from self._artist_placements(state, storeroom)
        yield from self._activations(state)
        yield from self._completions(state)
        yield from self._abandons(state)
        if state.phase is Phase.ACTION:
            yield from self._turn_ends(state)

    def _bonus_dice(self, state: State, player: int) -> Iterator[BonusDie]:
        """Each bonus die of `player`, once per value it may be used as."""
        for taken in state.boards[player].taken:
            printed = self.cards.installations[taken.card].bonus
            for cell, value in enumerate(taken.bonus):
                if value is not None:
                    for shown in _bonus_values(value, printed[cell]):
                        yield BonusDie(taken.card, cell, shown)

    def _placements(self, state: State, storeroom: tuple[int, ...]) -> Iterator[Place]:
        player = state.mover
        sources: list[Source] = [StoreroomDie(v) for v in sorted(set(storeroom))]
        bonus = list(self._bonus_dice(state, player))
        for source in [*sources, *bonus]:
            for name, workroom in zip(WORKROOMS, state.boards[player].workrooms, strict=True):
                for position in workroom.candidate_positions():
                    if workroom.refusal(position, source.value, name) is None:
                        yield Place(source, name, position)
        for die in bonus:
            for position in state.museum.candidate_positions():
                if self._museum_refusal(state, position, die.value) is None:
                    yield Place(die, MUSEUM, position)

    def _artist_placements(self, state: State, storeroom: tuple[int, ...]) -> Iterator[PlaceOnArtist]:
        player = state.mover
        bonus = list(self._bonus_dice(state, player))
        for slot in state.artists:
            if slot.claim is not None and slot.claim.owner == player:
                continue
            need = self.cards.artists[slot.card].dice
            lowest = slot.claim.value if slot.claim is not None else 1
            for value in range(lowest, 7):
                candidates = [d for d in bonus if d.value == value]
                for from_storeroom in range(min(storeroom.count(value), need) + 1):
                    for chosen in combinations(candidates, need - from_storeroom):
                        yield PlaceOnArtist(slot.card, (*(StoreroomDie(value),) * from_storeroom, *chosen))

    def _activations(self, state: State) -> Iterator[Activate]:
        player = state.mover
        for slot in state.artists:
            if slot.claim is not None and slot.claim.owner == player and not slot.claim.fresh:
                returned = self._return_artist(state, slot.card)
                choices = list(self._effect_choices(returned, self.cards.artists[slot.card]))
                if not choices:
                    yield Activate(slot.card)
                for choice in choices:
                    yield Activate(slot.card, choice)

    def _effect_choices(self, state: State, artist: ArtistCard) -> Iterator[EffectChoice]:
        """Every target of the effect, once the card's dice are back in the supply."""
        player = state.mover
        board = state.boards[player]
        if artist.effect is Effect.GAIN and state.supply(player) > 0:
            yield from (Gain(v) for v in artist.values)
        elif artist.effect is Effect.REMOVE:
            for name, workroom in zip(WORKROOMS, board.workrooms, strict=True):
                for position in workroom.dice:
                    if workroom.removal_refusal(position, name) is None:
                        yield Remove(name, position)
        elif artist.effect is Effect.MOVE:
            yield from self._shifts(board)
        elif artist.effect is Effect.CHANGE:
            dice: list[Source] = [StoreroomDie(v) for v in sorted(set(state.storeroom))]
            dice += self._bonus_dice(state, player)
            for die in dice:
                yield from (Change(die, c) for c in artist.changes if die.value + c in FACES)
        elif artist.effect is Effect.TAKE and state.supply(player) > 0:
            for opponent, other in enumerate(state.boards):
                if opponent != player:
                    yield from (Take(opponent, v) for v in sorted(set(other.storage)))

    @staticmethod
    def _shifts(board: Board) -> Iterator[Shift]:
        for index, (name, workroom) in enumerate(zip(WORKROOMS, board.workrooms, strict=True)):
            for position, value in workroom.dice.items():
                if workroom.removal_refusal(position, name) is not None:
                    continue
                lifted = workroom.without(position)
                for to_index, to_name in enumerate(WORKROOMS):
                    target = lifted if to_index == index else board.workrooms[to_index]
                    for spot in target.candidate_positions():
                        moved = (to_name, spot) != (name, position)
                        if moved and target.refusal(spot, value, to_name) is None:
                            yield Shift(name, position, to_name, spot)

    def _completions(self, state: State) -> Iterator[Complete]:
        for name, workroom in zip(WORKROOMS, state.boards[state.mover].workrooms, strict=True):
            for card in state.installations:
                if len(workroom) and workroom.matches(self.cards.installations[card].structure):
                    yield Complete(name, card)

    def _abandons(self, state: State) -> Iterator[Abandon]:
        player = state.mover
        open_slots = [s for s in state.artists if s.claim is None or s.claim.owner != player]
        for name, workroom in zip(WORKROOMS, state.boards[player].workrooms, strict=True):
            if len(workroom):
                counts = Counter(workroom.dice.values())
                for onto in self._claims_from(open_slots, counts):
                    yield Abandon(name, onto)

    def _claims_from(
        self, slots: list[ArtistSlot], counts: Counter[int]
    ) -> Iterator[tuple[tuple[str, int], ...]]:
        """Every way to put some of `counts`' dice on some of `slots` (each takes its count of one value)."""
        if not slots:
            yield ()
            return
        slot, rest = slots[0], slots[1:]
        yield from self._claims_from(rest, counts)
        need = self.cards.artists[slot.card].dice
        lowest = slot.claim.value if slot.claim is not None else 1
        for value in sorted(counts):
            if value >= lowest and counts[value] >= need:
                left = counts - Counter({value: need})
                for tail in self._claims_from(rest, left):
                    yield ((slot.card, value), *tail)

    def _turn_ends(self, state: State) -> Iterator[EndTurn]:
        fewest = 1 if self.rules.store_at_least_one and state.storeroom else 0
        most = min(self.rules.storage_limit, len(state.storeroom))
        for size in range(fewest, most + 1):
            for stored in sorted(set(combinations(state.storeroom, size))):
                yield EndTurn(stored)

    # --- applying moves -----------------------------------------------------------------------------------

    def apply(self, state: State, move: Move) -> State:
        if state.phase is Phase.OVER:
            raise IllegalMove("game-over", f"the game is over; {move} cannot be played")
        if isinstance(move, MuseumDraw | Cornerstone | Reveal | FirstPlayer | Roll):
            return self._settle(self._apply_chance(state, move))
        if self.is_chance_node(state):
            waiting = state.pending[0].value if state.pending else "roll"
            raise IllegalMove("chance-first", f"{move} must wait: the {waiting} comes first")
        if isinstance(move, Place):
            after = self._apply_place(state, move)
        elif isinstance(move, PlaceOnArtist):
            after = self._apply_artist(state, move)
        elif isinstance(move, Activate):
            after = self._apply_activate(state, move)
        elif isinstance(move, Complete):
            after = self._apply_complete(state, move)
        elif isinstance(move, Abandon):
            after = self._apply_abandon(state, move)
        else:
            after = self._apply_end(state, move)
        return self._settle(after)

    def _apply_chance(
        self, state: State, move: MuseumDraw | Cornerstone | Reveal | FirstPlayer | Roll
    ) -> State:
        if isinstance(move, Roll):
            return self._apply_roll(state, move)
        expected = {
            MuseumDraw: Step.MUSEUM,
            Cornerstone: Step.CORNERSTONE,
            Reveal: (Step.INSTALLATION, Step.ARTIST),
            FirstPlayer: Step.FIRST,
        }[type(move)]
        step = state.pending[0] if state.pending else None
        if step is None or (step not in expected if isinstance(expected, tuple) else step is not expected):
            now = step.value if step is not None else f"{state.phase.value} step"
            raise IllegalMove("wrong-chance", f"{move} is out of turn: the {now} comes next")
        rest = replace(state, pending=state.pending[1:])
        if isinstance(move, MuseumDraw):
            if move.card not in self.cards.museums_for(self.players):
                raise IllegalMove(
                    "museum-card", f"{move.card} is not a museum card for {self.players} players"
                )
            return replace(rest, museum_card=move.card)
        if isinstance(move, Cornerstone):
            if move.value not in FACES:
                raise IllegalMove("die-value", f"the cornerstone shows 1-6, not {move.value}")
            blueprint = self.blueprint(state)
            assert blueprint is not None, "the museum card comes before the cornerstone"
            return replace(rest, museum=Structure({blueprint.cornerstone_position: move.value}))
        if isinstance(move, FirstPlayer):
            if not 0 <= move.player < state.players:
                raise IllegalMove("first-player", f"player {move.player} is not at this table")
            return replace(rest, to_move=move.player)
        if step is Step.INSTALLATION:
            if move.card not in state.installation_deck:
                raise IllegalMove("reveal", f"{move.card} is not in the installation deck")
            deck = list(state.installation_deck)
            deck.remove(move.card)
            return replace(
                rest, installation_deck=tuple(deck), installations=(*state.installations, move.card)
            )
        if state.artist_deck:
            if move.card not in state.artist_deck:
                raise IllegalMove("reveal", f"{move.card} is not among the unseen artist cards")
            deck = list(state.artist_deck)
            deck.remove(move.card)
            return replace(rest, artist_deck=tuple(deck), artists=(*state.artists, ArtistSlot(move.card)))
        if move.card != state.artist_returns[0]:
            raise IllegalMove("reveal", f"the next artist card is {state.artist_returns[0]}, not {move.card}")
        return replace(
            rest, artist_returns=state.artist_returns[1:], artists=(*state.artists, ArtistSlot(move.card))
        )

    def _apply_roll(self, state: State, move: Roll) -> State:
        if state.phase is not Phase.ROLL or state.pending or not self._roll_ready(state):
            why = (
                "first recover dice to the supply (abandon a workroom or use an artist card)"
                if state.phase is Phase.ROLL and not state.pending
                else "it is not time to roll"
            )
            raise IllegalMove("not-rolling", f"{move}: {why}")
        expected = self.dice_to_roll(state)
        if len(move.dice) != expected or any(v not in FACES for v in move.dice):
            raise IllegalMove("roll-size", f"player {state.mover} rolls {expected} dice 1-6, got {move}")
        player = state.mover
        board = state.boards[player]
        storeroom = (*state.storeroom, *move.dice, *board.storage)
        boards = _with_board(state, player, replace(board, storage=()))
        return replace(state, boards=boards, storeroom=storeroom, phase=Phase.ACTION)

    def _take_source(self, state: State, source: Source) -> State:
        """The state with `source` lifted from the storeroom or its bonus cell, or IllegalMove."""
        player = state.mover
        if isinstance(source, StoreroomDie):
            if state.phase is not Phase.ACTION:
                raise IllegalMove("roll-first", f"storeroom dice are placed after the roll, not {source}")
            if source.value not in state.storeroom:
                raise IllegalMove(
                    "not-in-storeroom", f"the storeroom ({_dashed(state.storeroom)}) holds no {source.value}"
                )
            storeroom = list(state.storeroom)
            storeroom.remove(source.value)
            return replace(state, storeroom=tuple(storeroom))
        board = state.boards[player]
        for index, taken in enumerate(board.taken):
            if taken.card == source.card:
                printed = self.cards.installations[taken.card].bonus
                if not 0 <= source.cell < len(taken.bonus) or taken.bonus[source.cell] is None:
                    raise IllegalMove("no-bonus-die", f"{source.card} has no bonus die on cell {source.cell}")
                current = taken.bonus[source.cell]
                assert current is not None
                allowed = _bonus_values(current, printed[source.cell])
                if source.value not in allowed:
                    raise IllegalMove(
                        "bonus-value",
                        f"the bonus die on {source.card}.{source.cell} may show {_dashed(allowed)}, "
                        f"not {source.value}",
                    )
                bonus = tuple(None if c == source.cell else v for c, v in enumerate(taken.bonus))
                taken_cards = (*board.taken[:index], replace(taken, bonus=bonus), *board.taken[index + 1 :])
                return replace(state, boards=_with_board(state, player, replace(board, taken=taken_cards)))
        raise IllegalMove("no-bonus-die", f"player {player} has not taken installation {source.card}")

    def _museum_refusal(self, state: State, position: Position, value: int) -> Refusal | None:
        refusal = state.museum.refusal(position, value, MUSEUM)
        if refusal is not None:
            return refusal
        blueprint = self.blueprint(state)
        assert blueprint is not None, "the museum is built after set-up"
        where = f"museum {format_position(position)}"
        if position not in blueprint.positions():
            return Refusal("museum-blueprint", f"{where} is outside the blueprint of {state.museum_card}")
        if blueprint.completion(state.museum.with_die(position, value)) is None:
            return Refusal(
                "museum-unbuildable",
                f"a {value} at {where} leaves no way to complete the blueprint of {state.museum_card}",
            )
        return None

    def _apply_place(self, state: State, move: Place) -> State:
        player = state.mover
        lifted = self._take_source(state, move.source)
        value = move.source.value
        if move.target == MUSEUM:
            if not isinstance(move.source, BonusDie):
                raise IllegalMove("museum-bonus-only", f"only bonus dice enter the museum, not {move.source}")
            refusal = self._museum_refusal(lifted, move.position, value)
            if refusal is not None:
                raise IllegalMove(refusal.rule, refusal.message)
            return replace(
                lifted,
                museum=lifted.museum.with_die(move.position, value),
                museum_donors=(*lifted.museum_donors, (move.position, player)),
            )
        index = WORKROOMS.index(move.target)
        board = lifted.boards[player]
        refusal = board.workrooms[index].refusal(move.position, value, f"player {player}'s {move.target}")
        if refusal is not None:
            raise IllegalMove(refusal.rule, refusal.message)
        built = board.workrooms[index].with_die(move.position, value)
        return replace(lifted, boards=_with_board(lifted, player, _with_workroom(board, index, built)))

    def _check_claim(self, state: State, card: str, value: int) -> int:
        """The slot of artist `card` if the mover may put dice of `value` on it; else IllegalMove."""
        index = state.slot_of(card)
        claim = state.artists[index].claim
        if claim is not None and claim.owner == state.mover:
            raise IllegalMove("artist-own", f"artist {card} already holds player {state.mover}'s dice")
        if claim is not None and value < claim.value:
            raise IllegalMove(
                "artist-bump",
                f"player {claim.owner}'s {claim.value}s on {card} are bumped only by equal or higher dice, "
                f"not {value}s",
            )
        return index

    def _apply_artist(self, state: State, move: PlaceOnArtist) -> State:
        index = state.slot_of(move.card)
        need = self.cards.artists[move.card].dice
        if len(move.sources) != need:
            raise IllegalMove(
                "artist-dice", f"artist {move.card} takes {need} dice at once, got {len(move.sources)}"
            )
        values = sorted({s.value for s in move.sources})
        if len(values) != 1:
            raise IllegalMove("artist-equal", f"dice on artist {move.card} are equal, not {_dashed(values)}")
        index = self._check_claim(state, move.card, values[0])
        for source in move.sources:
            state = self._take_source(state, source)
        claimed = _with_claim(state, index, Claim(state.mover, values[0], need, fresh=True))
        return self._refresh_if_full(claimed)

    def _refresh_if_full(self, state: State) -> State:
        """All four face-up artists hold dice: they leave, the dice go home, four new ones are revealed."""
        if len(state.artists) < FACE_UP_ARTISTS or any(s.claim is None for s in state.artists):
            return state
        cards = tuple(s.card for s in state.artists)
        returns = (
            (*state.artist_returns, *cards)
            if self.rules.full_artists_to_deck_bottom
            else state.artist_returns
        )
        return replace(
            state,
            artists=(),
            artist_returns=returns,
            pending=(*state.pending, *(Step.ARTIST,) * FACE_UP_ARTISTS),
        )

    def _return_artist(self, state: State, card: str) -> State:
        """An activated card: its dice back to the supply, the card face up under the deck, a reveal owed."""
        index = state.slot_of(card)
        return replace(
            state,
            artists=(*state.artists[:index], *state.artists[index + 1 :]),
            artist_returns=(*state.artist_returns, card),
            pending=(*state.pending, Step.ARTIST),
        )

    def _apply_activate(self, state: State, move: Activate) -> State:
        player = state.mover
        claim = state.artists[state.slot_of(move.card)].claim
        if claim is None or claim.owner != player:
            raise IllegalMove("artist-not-yours", f"artist {move.card} holds none of player {player}'s dice")
        if claim.fresh:
            raise IllegalMove(
                "artist-same-turn", f"player {player} placed dice on {move.card} this turn; use it next turn"
            )
        artist = self.cards.artists[move.card]
        returned = self._return_artist(state, move.card)
        if move.effect is None:
            first = next(self._effect_choices(returned, artist), None)
            if first is not None:
                raise IllegalMove(
                    "artist-effect",
                    f"{move.card}'s {artist.effect.value} effect has a target, e.g. '{first}'",
                )
            return returned
        return self._apply_effect(returned, artist, move.effect)

    def _apply_effect(self, state: State, artist: ArtistCard, effect: EffectChoice) -> State:
        kinds = {
            Gain: Effect.GAIN,
            Remove: Effect.REMOVE,
            Shift: Effect.MOVE,
            Change: Effect.CHANGE,
            Take: Effect.TAKE,
        }
        if kinds[type(effect)] is not artist.effect:
            raise IllegalMove(
                "artist-effect", f"{artist.id} ({artist.artist}) has the {artist.effect.value} effect"
            )
        player = state.mover
        board = state.boards[player]
        if isinstance(effect, Gain):
            if effect.value not in artist.values:
                raise IllegalMove("artist-value", f"{artist.id} gives a die of {_dashed(artist.values)}")
            return replace(state, storeroom=(*state.storeroom, effect.value))
        if isinstance(effect, Remove):
            index = WORKROOMS.index(effect.workroom)
            workroom = board.workrooms[index]
            refusal = workroom.removal_refusal(effect.position, f"player {player}'s {effect.workroom}")
            if refusal is not None:
                raise IllegalMove(refusal.rule, refusal.message)
            smaller = _with_workroom(board, index, workroom.without(effect.position))
            return replace(state, boards=_with_board(state, player, smaller))
        if isinstance(effect, Shift):
            return replace(state, boards=_with_board(state, player, _shifted(board, player, effect)))
        if isinstance(effect, Change):
            return self._apply_change(state, artist, effect)
        if not 0 <= effect.opponent < state.players or effect.opponent == player:
            raise IllegalMove(
                "take-opponent", f"player {effect.opponent} is not an opponent of player {player}"
            )
        other = state.boards[effect.opponent]
        if effect.value not in other.storage:
            raise IllegalMove(
                "take-storage",
                f"player {effect.opponent}'s storage ({_dashed(other.storage)}) holds no {effect.value}",
            )
        storage = list(other.storage)
        storage.remove(effect.value)
        boards = _with_board(state, effect.opponent, replace(other, storage=tuple(storage)))
        return replace(state, boards=boards, storeroom=(*state.storeroom, effect.value))

    def _apply_change(self, state: State, artist: ArtistCard, effect: Change) -> State:
        if effect.amount not in artist.changes:
            raise IllegalMove(
                "artist-change",
                f"{artist.id} changes a die by {', '.join(f'{c:+d}' for c in artist.changes)}",
            )
        new_value = effect.die.value + effect.amount
        if new_value not in FACES:
            raise IllegalMove(
                "die-value", f"{effect.die} {effect.amount:+d} would show {new_value}; dice show 1-6"
            )
        if isinstance(effect.die, StoreroomDie):
            if effect.die.value not in state.storeroom:
                raise IllegalMove(
                    "not-in-storeroom",
                    f"the storeroom ({_dashed(state.storeroom)}) holds no {effect.die.value}",
                )
            storeroom = list(state.storeroom)
            storeroom.remove(effect.die.value)
            return replace(state, storeroom=(*storeroom, new_value))
        player = state.mover
        board = self._take_source(state, effect.die).boards[player]
        index = next(i for i, t in enumerate(board.taken) if t.card == effect.die.card)
        taken = board.taken[index]
        bonus = tuple(new_value if c == effect.die.cell else v for c, v in enumerate(taken.bonus))
        cards = (*board.taken[:index], replace(taken, bonus=bonus), *board.taken[index + 1 :])
        return replace(state, boards=_with_board(state, player, replace(board, taken=cards)))

    def _apply_complete(self, state: State, move: Complete) -> State:
        player = state.mover
        board = state.boards[player]
        index = WORKROOMS.index(move.workroom)
        workroom = board.workrooms[index]
        if move.card not in state.installations:
            raise IllegalMove("installation-not-face-up", f"installation {move.card} is not face up")
        card: InstallationCard = self.cards.installations[move.card]
        if not len(workroom) or not workroom.matches(card.structure):
            raise IllegalMove(
                "installation-match",
                f"player {player}'s {move.workroom} ({workroom}) does not match {move.card} "
                f"({card.structure}) in any of its four turns",
            )
        cleared = replace(state, boards=_with_board(state, player, _with_workroom(board, index, Structure())))
        available = cleared.supply(player)
        bonus: list[int | None] = []
        for cell in card.bonus:
            bonus.append(cell[0] if available > 0 else None)
            available -= 1
        taken = (*board.taken, Taken(move.card, tuple(bonus)))
        new_board = replace(_with_workroom(board, index, Structure()), taken=taken)
        return replace(
            state,
            boards=_with_board(state, player, new_board),
            installations=tuple(c for c in state.installations if c != move.card),
            pending=(*state.pending, Step.INSTALLATION),
        )

    def _apply_abandon(self, state: State, move: Abandon) -> State:
        player = state.mover
        board = state.boards[player]
        index = WORKROOMS.index(move.workroom)
        workroom = board.workrooms[index]
        if not len(workroom):
            raise IllegalMove("abandon-empty", f"player {player}'s {move.workroom} is empty")
        cards = [card for card, _ in move.onto]
        if len(set(cards)) != len(cards):
            raise IllegalMove("abandon-twice", f"{move} names an artist card twice")
        counts = Counter(workroom.dice.values())
        claims = []
        for card, value in move.onto:
            slot = self._check_claim(state, card, value)
            need = self.cards.artists[card].dice
            if counts[value] < need:
                raise IllegalMove(
                    "abandon-dice", f"{card} takes {need} {value}s; {move.workroom} has {counts[value]} left"
                )
            counts[value] -= need
            claims.append((slot, Claim(player, value, need, fresh=True)))
        state = replace(state, boards=_with_board(state, player, _with_workroom(board, index, Structure())))
        for slot, claim in claims:
            state = _with_claim(state, slot, claim)
        return self._refresh_if_full(state)

    def _apply_end(self, state: State, move: EndTurn) -> State:
        player = state.mover
        if state.phase is not Phase.ACTION:
            raise IllegalMove("roll-first", f"player {player} ends the turn after the roll")
        left = list(state.storeroom)
        for value in move.stored:
            if value not in left:
                raise IllegalMove(
                    "not-in-storeroom", f"the storeroom ({_dashed(state.storeroom)}) holds no {value}"
                )
            left.remove(value)
        if len(move.stored) > self.rules.storage_limit:
            raise IllegalMove(
                "storage-limit",
                f"storage holds at most {self.rules.storage_limit} dice, not {len(move.stored)}",
            )
        if self.rules.store_at_least_one and state.storeroom and not move.stored:
            raise IllegalMove("store-one", "under the text's rules 1 or 2 storeroom dice stay in storage")
        boards = _with_board(state, player, replace(state.boards[player], storage=move.stored))
        artists = tuple(
            replace(s, claim=replace(s.claim, fresh=False)) if s.claim is not None else s
            for s in state.artists
        )
        return replace(
            state,
            boards=boards,
            artists=artists,
            storeroom=(),
            phase=Phase.ROLL,
            to_move=(player + 1) % state.players,
            turn=state.turn + 1,
        )

    def _settle(self, state: State) -> State:
        """Drop reveals an empty deck cannot make, start play after set-up, and end the game when it ends."""
        pending = list(state.pending)
        while pending and not self._can_draw(state, pending[0]):
            pending.pop(0)
        state = replace(state, pending=tuple(pending))
        if state.phase is Phase.SETUP:
            if pending:
                return state
            state = replace(state, phase=Phase.ROLL, to_move=state.to_move or 0)
        reason = self.end_reason(state)
        if reason:
            return replace(state, phase=Phase.OVER, to_move=None, pending=(), storeroom=(), ended_by=reason)
        return state

    @staticmethod
    def _can_draw(state: State, step: Step) -> bool:
        if step is Step.INSTALLATION:
            return bool(state.installation_deck)
        if step is Step.ARTIST:
            return bool(state.artist_deck or state.artist_returns)
        return True

    def end_reason(self, state: State) -> str:
        """Why the game ends now ("" if it goes on): 5 installations, the museum built, and the variants'."""
        if any(len(b.taken) >= self.rules.installations_to_end for b in state.boards):
            return "installations"
        blueprint = self.blueprint(state)
        if blueprint is not None and blueprint.is_complete(state.museum):
            return "museum"
        no_installations = not state.installations and not state.installation_deck and not state.pending
        if self.rules.end_when_installations_run_out and no_installations:
            return "installations-run-out"
        if self.rules.turn_limit is not None and state.turn >= self.rules.turn_limit:
            return "turn-limit"
        return ""

    # --- a position found on the table --------------------------------------------------------------------

    def violations(self, state: State) -> list[Violation]:
        """What is wrong with a table: broken placement rules, museum dice off the blueprint, full storage."""
        found: list[Violation] = []
        for player, board in enumerate(state.boards):
            for name, workroom in zip(WORKROOMS, board.workrooms, strict=True):
                found.extend(
                    Violation(
                        problem.rule,
                        tuple(f"p{player}.{name}@{format_position(p)}" for p in problem.positions),
                        f"player {player}'s {name}: {problem.message}",
                    )
                    for problem in workroom.problems()
                )
            if len(board.storage) > self.rules.storage_limit:
                found.append(
                    Violation(
                        "storage-limit",
                        (f"p{player}.storage",),
                        f"player {player}'s storage holds {len(board.storage)} dice; at most "
                        f"{self.rules.storage_limit}",
                    )
                )
            loose = [*board.storage, *(v for t in board.taken for v in t.bonus if v is not None)]
            if any(v not in FACES for v in loose):
                found.append(
                    Violation("die-value", (f"p{player}",), f"player {player} has a die showing outside 1-6")
                )
            if state.supply(player) < 0:
                found.append(
                    Violation(
                        "dice-count",
                        (f"p{player}",),
                        f"player {player} has {DICE_PER_PLAYER - state.supply(player)} dice out; "
                        f"a player owns {DICE_PER_PLAYER}",
                    )
                )
        found.extend(self._museum_violations(state))
        for slot in state.artists:
            need = self.cards.artists[slot.card].dice
            if slot.claim is not None and slot.claim.count != need:
                found.append(
                    Violation(
                        "artist-dice",
                        (slot.card,),
                        f"artist {slot.card} holds {slot.claim.count} dice; it takes {need} at once",
                    )
                )
        if any(v not in FACES for v in state.storeroom) or any(
            s.claim is not None and s.claim.value not in FACES for s in state.artists
        ):
            found.append(
                Violation("die-value", ("storeroom",), "a storeroom or artist die shows outside 1-6")
            )
        if state.phase in (Phase.ROLL, Phase.ACTION) and self.end_reason(state):
            found.append(
                Violation("game-over", (), f"the game has ended ({self.end_reason(state)}) but play goes on")
            )
        return found

    def _museum_violations(self, state: State) -> list[Violation]:
        found = [
            Violation(
                p.rule,
                tuple(f"museum@{format_position(x)}" for x in p.positions),
                f"museum: {p.message}",
            )
            for p in state.museum.problems()
        ]
        blueprint = self.blueprint(state)
        if blueprint is None:
            return found
        outside = sorted(set(state.museum.dice) - blueprint.positions())
        if outside:
            found.append(
                Violation(
                    "museum-blueprint",
                    tuple(f"museum@{format_position(p)}" for p in outside),
                    f"museum dice outside the blueprint of {state.museum_card}",
                )
            )
        elif not found and blueprint.completion(state.museum) is None:
            found.append(
                Violation(
                    "museum-unbuildable",
                    tuple(f"museum@{format_position(p)}" for p in state.museum.dice),
                    f"no way to complete the blueprint of {state.museum_card} from these dice",
                )
            )
        if Step.CORNERSTONE not in state.pending and blueprint.cornerstone_position not in state.museum.dice:
            found.append(
                Violation(
                    "cornerstone",
                    (f"museum@{format_position(blueprint.cornerstone_position)}",),
                    "the red cornerstone die is missing",
                )
            )
        return found

    # --- results ------------------------------------------------------------------------------------------

    def score(self, state: State) -> tuple[PlayerScore, ...]:
        """Each player's installation points (face up and face down) and 2 per own museum die."""
        return tuple(
            PlayerScore(
                player=player,
                installations=tuple((t.card, self.cards.installations[t.card].points) for t in board.taken),
                museum_dice=state.museum_dice(player),
                museum_points=self.rules.points_per_museum_die * state.museum_dice(player),
            )
            for player, board in enumerate(state.boards)
        )

    def outcome(self, state: State) -> Outcome | None:
        """Highest total wins; a tie goes to the most museum dice; still tied, the win is shared."""
        if state.phase is not Phase.OVER:
            return None
        scores = self.score(state)
        ranking, winners = standings(scores)
        return Outcome(
            winners=winners,
            ranking=ranking,
            reason=state.ended_by,
            details={"totals": [s.total for s in scores], "museum_dice": [s.museum_dice for s in scores]},
        )

    # --- notation and JSON --------------------------------------------------------------------------------

    def parse_move(self, text: str, state: State | None = None) -> Move:
        return parse_move(text)

    def state_to_json(self, state: State) -> JSON:
        return {
            "rules": self.rules.name,
            "phase": state.phase.value,
            "to_move": state.to_move,
            "pending": [s.value for s in state.pending],
            "museum_card": state.museum_card,
            "museum": _structure_json(state.museum),
            "museum_donors": [[*p, owner] for p, owner in state.museum_donors],
            "installations": list(state.installations),
            "installation_deck": list(state.installation_deck),
            "artists": [
                {"card": s.card, "claim": None if s.claim is None else _claim_json(s.claim)}
                for s in state.artists
            ],
            "artist_deck": list(state.artist_deck),
            "artist_returns": list(state.artist_returns),
            "storeroom": list(state.storeroom),
            "turn": state.turn,
            "ended_by": state.ended_by,
            "boards": [
                {
                    "workrooms": [_structure_json(w) for w in b.workrooms],
                    "storage": list(b.storage),
                    "taken": [{"card": t.card, "bonus": list(t.bonus)} for t in b.taken],
                }
                for b in state.boards
            ],
        }

    def state_from_json(self, data: JSON) -> State:
        """Read a state written by `state_to_json`: its shape and card ids; `violations` checks the rules."""
        if data.get("rules") != self.rules.name:
            raise InvalidData(
                f"state is for ruleset {data.get('rules')!r}, this game plays {self.rules.name!r}"
            )
        try:
            boards = tuple(
                Board(
                    workrooms=(_structure(b["workrooms"][0]), _structure(b["workrooms"][1])),
                    storage=tuple(sorted(_ints(b["storage"]))),
                    taken=tuple(
                        Taken(str(t["card"]), tuple(None if v is None else int(v) for v in t["bonus"]))
                        for t in b["taken"]
                    ),
                )
                for b in data["boards"]
            )
            state = State(
                boards=boards,
                phase=Phase(data["phase"]),
                to_move=data["to_move"],
                pending=tuple(Step(s) for s in data["pending"]),
                museum_card=data["museum_card"],
                museum=_structure(data["museum"]),
                museum_donors=tuple(
                    ((int(x), int(y), int(z)), int(o)) for x, y, z, o in data["museum_donors"]
                ),
                installations=tuple(str(c) for c in data["installations"]),
                installation_deck=tuple(str(c) for c in data["installation_deck"]),
                artists=tuple(
                    ArtistSlot(str(a["card"]), None if a["claim"] is None else _claim(a["claim"]))
                    for a in data["artists"]
                ),
                artist_deck=tuple(str(c) for c in data["artist_deck"]),
                artist_returns=tuple(str(c) for c in data["artist_returns"]),
                storeroom=_ints(data["storeroom"]),
                turn=int(data["turn"]),
                ended_by=str(data["ended_by"]),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise InvalidData(f"malformed Cubist state: {exc!r}") from None
        self._check_card_ids(state)
        return state

    def _check_card_ids(self, state: State) -> None:
        if len(state.boards) != self.players:
            raise InvalidData(f"state seats {len(state.boards)} players, this game has {self.players}")
        if state.museum_card is not None and state.museum_card not in self.cards.museums:
            raise InvalidData(f"unknown museum card {state.museum_card!r}")
        installations = [*state.installations, *state.installation_deck]
        artists = [*(s.card for s in state.artists), *state.artist_deck, *state.artist_returns]
        for board in state.boards:
            installations += [t.card for t in board.taken]
            for taken in board.taken:
                card = self.cards.installations.get(taken.card)
                if card is not None and len(taken.bonus) != len(card.bonus):
                    raise InvalidData(
                        f"{taken.card} has {len(card.bonus)} bonus cells, not {len(taken.bonus)}"
                    )
        for ids, known, kind in (
            (installations, self.cards.installations, "installation"),
            (artists, self.cards.artists, "artist"),
        ):
            unknown = sorted(set(ids) - set(known))
            if unknown:
                raise InvalidData(f"unknown {kind} cards: {', '.join(unknown)}")
            doubled = sorted({c for c in ids if ids.count(c) > 1})
            if doubled:
                raise InvalidData(f"{kind} cards in two places at once: {', '.join(doubled)}")
        for _, owner in state.museum_donors:
            if not 0 <= owner < self.players:
                raise InvalidData(f"museum die of player {owner}, who is not at this table")


def _bonus_values(current: int, printed: tuple[int, ...]) -> tuple[int, ...]:
    """A bonus die shows its value; one printed with several values may be turned to any of them."""
    return tuple(sorted({current, *printed})) if len(printed) > 1 else (current,)


def _with_board(state: State, player: int, board: Board) -> tuple[Board, ...]:
    return tuple(board if p == player else b for p, b in enumerate(state.boards))


def _with_workroom(board: Board, index: int, workroom: Structure) -> Board:
    rooms = (workroom, board.workrooms[1]) if index == 0 else (board.workrooms[0], workroom)
    return replace(board, workrooms=rooms)


def _with_claim(state: State, index: int, claim: Claim) -> State:
    slots = tuple(replace(s, claim=claim) if i == index else s for i, s in enumerate(state.artists))
    return replace(state, artists=slots)


def _shifted(board: Board, player: int, shift: Shift) -> Board:
    """Jules Pascin's move applied to the board, or IllegalMove if it splits a workroom or breaks a rule."""
    index = WORKROOMS.index(shift.workroom)
    source = board.workrooms[index]
    refusal = source.removal_refusal(shift.position, f"player {player}'s {shift.workroom}")
    if refusal is not None:
        raise IllegalMove(refusal.rule, refusal.message)
    if (shift.workroom, shift.position) == (shift.to_workroom, shift.to_position):
        raise IllegalMove(
            "artist-move", f"the die at {shift.workroom} {format_position(shift.position)} stays put"
        )
    value = source.dice[shift.position]
    lifted = _with_workroom(board, index, source.without(shift.position))
    to_index = WORKROOMS.index(shift.to_workroom)
    target = lifted.workrooms[to_index]
    refusal = target.refusal(shift.to_position, value, f"player {player}'s {shift.to_workroom}")
    if refusal is not None:
        raise IllegalMove(refusal.rule, refusal.message)
    return _with_workroom(lifted, to_index, target.with_die(shift.to_position, value))


def _dashed(values: Sequence[int]) -> str:
    return "-".join(str(v) for v in values) or "nothing"


def _uniform(moves: Sequence[Move]) -> tuple[ChanceOutcome[Move], ...]:
    share = Fraction(1, len(moves))
    return tuple(ChanceOutcome(m, share) for m in moves)


def _roll_outcomes(count: int) -> tuple[ChanceOutcome[Move], ...]:
    """Every sorted roll of `count` dice (0-2) with its exact probability."""
    if count == 0:
        return (ChanceOutcome(Roll(()), Fraction(1)),)
    if count == 1:
        return _uniform([Roll((v,)) for v in FACES])
    return tuple(
        ChanceOutcome(Roll((a, b)), Fraction(1 if a == b else 2, 36)) for a in FACES for b in FACES if a <= b
    )


def _structure_json(structure: Structure) -> list[list[int]]:
    return [[*p, v] for p, v in structure.dice.items()]


def _structure(data: Any) -> Structure:
    return Structure({(int(x), int(y), int(z)): int(v) for x, y, z, v in data})


def _claim_json(claim: Claim) -> JSON:
    return {"owner": claim.owner, "value": claim.value, "count": claim.count, "fresh": claim.fresh}


def _claim(data: Any) -> Claim:
    return Claim(int(data["owner"]), int(data["value"]), int(data["count"]), bool(data["fresh"]))


def _ints(values: Any) -> tuple[int, ...]:
    if not isinstance(values, list):
        raise TypeError(f"expected a list of integers, got {values!r}")
    return tuple(int(v) for v in values)
