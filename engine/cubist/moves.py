"""Cubist's moves and their text notation; `parse_move(str(move)) == move` for every move.

Cards are named by their ids, dice by where they come from: ``s3`` is a 3 in the storeroom,
``installation-04.1=5`` the bonus die on cell 1 of the taken card installation-04, used as a 5. Positions
are ``x,y,level``; workrooms are ``w0`` and ``w1``.

Chance moves: ``museum museum-2a`` (the museum card drawn), ``cornerstone 4``, ``reveal marc-1`` (the next
installation or artist card turned face up), ``first 2`` (the start player), ``roll 35`` (``roll -`` when
no die can be rolled). Decisions: ``place s3 w0 1,0,0``, ``place installation-04.1=5 museum 2,1,0``,
``artist malevich-3 s4 s4``, ``activate marc-1 gain 5`` (the effect's choice follows the card; a bare
``activate marc-1`` when the effect has nothing to act on), ``complete w1 installation-07``,
``abandon w0`` (``abandon w0 gris-1=4``: the 4s onto gris-1, the rest to the supply), ``end 3 5`` (the
storeroom dice kept in storage).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import ParseError
from engine.cubist.structures import FACES, Position, format_position, parse_position

WORKROOMS = ("w0", "w1")
MUSEUM = "museum"


@dataclass(frozen=True, order=True)
class StoreroomDie:
    """A die in the mover's storeroom, named by its value."""

    value: int

    def __str__(self) -> str:
        return f"s{self.value}"


@dataclass(frozen=True, order=True)
class BonusDie:
    """The bonus die on a cell of an installation card the mover has taken, and the value it is used as."""

    card: str
    cell: int
    value: int

    def __str__(self) -> str:
        return f"{self.card}.{self.cell}={self.value}"


Source = StoreroomDie | BonusDie


@dataclass(frozen=True)
class MuseumDraw:
    card: str

    def __str__(self) -> str:
        return f"museum {self.card}"


@dataclass(frozen=True)
class Cornerstone:
    value: int

    def __str__(self) -> str:
        return f"cornerstone {self.value}"


@dataclass(frozen=True)
class Reveal:
    """The next installation or artist card turned face up (the deck's kind follows from the card)."""

    card: str

    def __str__(self) -> str:
        return f"reveal {self.card}"


@dataclass(frozen=True)
class FirstPlayer:
    player: int

    def __str__(self) -> str:
        return f"first {self.player}"


@dataclass(frozen=True)
class Roll:
    """The dice rolled from the supply at the start of a turn, sorted."""

    dice: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", tuple(sorted(self.dice)))

    def __str__(self) -> str:
        return f"roll {''.join(str(v) for v in self.dice) or '-'}"


@dataclass(frozen=True)
class Place:
    """A die placed in a workroom (``w0``, ``w1``) or, a bonus die only, in the museum."""

    source: Source
    target: str
    position: Position

    def __str__(self) -> str:
        return f"place {self.source} {self.target} {format_position(self.position)}"


@dataclass(frozen=True)
class PlaceOnArtist:
    """Equal dice put on an artist card at once, as many as the card shows."""

    card: str
    sources: tuple[Source, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "sources", tuple(sorted(self.sources, key=str)))

    def __str__(self) -> str:
        return f"artist {self.card} {' '.join(str(s) for s in self.sources)}"


@dataclass(frozen=True)
class Gain:
    """Franz Marc, Umberto Boccioni, Kazimir Malevich: a die of this value from supply to storeroom."""

    value: int

    def __str__(self) -> str:
        return f"gain {self.value}"


@dataclass(frozen=True)
class Remove:
    """Juan Gris: this die of a workroom back to the supply."""

    workroom: str
    position: Position

    def __str__(self) -> str:
        return f"remove {self.workroom} {format_position(self.position)}"


@dataclass(frozen=True)
class Shift:
    """Jules Pascin: a die moved within a workroom or to the other one."""

    workroom: str
    position: Position
    to_workroom: str
    to_position: Position

    def __str__(self) -> str:
        return (
            f"move {self.workroom} {format_position(self.position)} "
            f"{self.to_workroom} {format_position(self.to_position)}"
        )


@dataclass(frozen=True)
class Change:
    """Roger de La Fresnaye, Lyubov Popova: a storeroom or bonus die's value changed by `amount`."""

    die: Source
    amount: int

    def __str__(self) -> str:
        return f"change {self.die} {self.amount:+d}"


@dataclass(frozen=True)
class Take:
    """Olga Rozanova: a die of this value from an opponent's storage; the same value from the supply."""

    opponent: int
    value: int

    def __str__(self) -> str:
        return f"take p{self.opponent} {self.value}"


EffectChoice = Gain | Remove | Shift | Change | Take


@dataclass(frozen=True)
class Activate:
    """An artist card holding the mover's dice from an earlier turn used (`effect` None: no target)."""

    card: str
    effect: EffectChoice | None = None

    def __str__(self) -> str:
        return f"activate {self.card}" + (f" {self.effect}" if self.effect is not None else "")


@dataclass(frozen=True)
class Complete:
    """A workroom matching a face-up installation card: the card is taken."""

    workroom: str
    card: str

    def __str__(self) -> str:
        return f"complete {self.workroom} {self.card}"


@dataclass(frozen=True)
class Abandon:
    """All of a workroom's dice taken down: `onto` puts dice of a value on artist cards, the rest go home."""

    workroom: str
    onto: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "onto", tuple(sorted(self.onto)))

    def __str__(self) -> str:
        return " ".join(["abandon", self.workroom, *(f"{card}={value}" for card, value in self.onto)])


@dataclass(frozen=True)
class EndTurn:
    """The turn ends: these storeroom dice go to storage, the rest back to the supply."""

    stored: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "stored", tuple(sorted(self.stored)))

    def __str__(self) -> str:
        return " ".join(["end", *(str(v) for v in self.stored)])


ChanceMove = MuseumDraw | Cornerstone | Reveal | FirstPlayer | Roll
Decision = Place | PlaceOnArtist | Activate | Complete | Abandon | EndTurn
Move = ChanceMove | Decision


def parse_move(text: str) -> Move:
    """Read a move in the notation of this module's docstring."""
    words = text.split()
    if not words:
        raise ParseError("empty move")
    verb, args = words[0], words[1:]
    try:
        return _parse(verb, args)
    except (ValueError, IndexError):
        raise ParseError(f"malformed move {text!r}: see engine.cubist.moves for the notation") from None


def _parse(verb: str, args: list[str]) -> Move:
    if verb == "place" and len(args) == 3:
        return Place(parse_source(args[0]), _target(args[1]), parse_position(args[2]))
    if verb == "artist" and len(args) >= 2:
        return PlaceOnArtist(args[0], tuple(parse_source(a) for a in args[1:]))
    if verb == "activate" and args:
        return Activate(args[0], _effect(args[1:]) if len(args) > 1 else None)
    if verb == "complete" and len(args) == 2:
        return Complete(_workroom(args[0]), args[1])
    if verb == "abandon" and args:
        onto = []
        for claim in args[1:]:
            card, _, value = claim.partition("=")
            onto.append((card, _value(value)))
        return Abandon(_workroom(args[0]), tuple(onto))
    if verb == "end":
        return EndTurn(tuple(_value(a) for a in args))
    if verb == "roll" and len(args) == 1:
        return Roll(() if args[0] == "-" else tuple(_value(ch) for ch in args[0]))
    if len(args) == 1:
        if verb == "museum":
            return MuseumDraw(args[0])
        if verb == "cornerstone":
            return Cornerstone(_value(args[0]))
        if verb == "reveal":
            return Reveal(args[0])
        if verb == "first":
            return FirstPlayer(int(args[0]))
    raise ValueError(verb)


def _effect(args: list[str]) -> EffectChoice:
    kind, rest = args[0], args[1:]
    if kind == "gain" and len(rest) == 1:
        return Gain(_value(rest[0]))
    if kind == "remove" and len(rest) == 2:
        return Remove(_workroom(rest[0]), parse_position(rest[1]))
    if kind == "move" and len(rest) == 4:
        return Shift(_workroom(rest[0]), parse_position(rest[1]), _workroom(rest[2]), parse_position(rest[3]))
    if kind == "change" and len(rest) == 2 and rest[1][:1] in "+-":
        return Change(parse_source(rest[0]), int(rest[1]))
    if kind == "take" and len(rest) == 2 and rest[0].startswith("p"):
        return Take(int(rest[0][1:]), _value(rest[1]))
    raise ValueError(kind)


def parse_source(text: str) -> Source:
    """Read ``s3`` (a storeroom 3) or ``<card>.<cell>=<value>`` (a bonus die used as that value)."""
    if "." not in text:
        if not text.startswith("s"):
            raise ValueError(text)
        return StoreroomDie(_value(text[1:]))
    card, _, rest = text.rpartition(".")
    cell, _, value = rest.partition("=")
    if not card or not cell.isdigit():
        raise ValueError(text)
    return BonusDie(card, int(cell), _value(value))


def _value(text: str) -> int:
    if not text.isdigit() or int(text) not in FACES:
        raise ValueError(text)
    return int(text)


def _workroom(text: str) -> str:
    if text not in WORKROOMS:
        raise ValueError(text)
    return text


def _target(text: str) -> str:
    if text != MUSEUM:
        return _workroom(text)
    return text
