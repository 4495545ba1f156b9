"""River Dragons' pieces, cards and moves, and their text notation; `parse_move(str(move)) == move`.

A plank piece is its colour and length (``red3``). A plank on the board is named by the two supports it
rests on, villages first then islands by number (``v1-i10``, ``i4-i9``): at most one plank lies between
two supports, so the pair identifies it. A pawn's place is a village (``v4``) or such a plank.

Decisions: ``plan jump`` (the next card of the planner's program, ``plan dragon-blue`` for a dragon),
``stone i5``, ``lay red3 v1-i10``, ``lose red3`` (the chosen plank fits nowhere and leaves the game),
``remove plank v1-i10``, ``remove stone i5``, ``move i3-i7`` or ``move i3-i7 v4`` (each place stepped to,
in order) and ``jump i3-i7 i7-i9`` (the occupied plank jumped over, then the landing place).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from engine.core import ParseError
from engine.riverdragons.board import PLANK_LENGTHS, is_village, support_order

COLOURS = ("red", "yellow", "green", "blue", "purple", "white")
ACTION_CARDS = ("stone1", "stone2", "plank1", "plank2", "remove", "move1", "move2", "jump")
DRAGON_PREFIX = "dragon-"

_SUPPORT = re.compile(r"[vi][1-9][0-9]*")
_PLANK = re.compile(rf"({'|'.join(COLOURS)})([1-9][0-9]*)")


def dragon(colour: str) -> str:
    """The card name of the dragon that cancels the `colour` player's action."""
    return f"{DRAGON_PREFIX}{colour}"


def dragon_target(card: str) -> str | None:
    """The colour a dragon card targets; None for an action card."""
    return card.removeprefix(DRAGON_PREFIX) if card.startswith(DRAGON_PREFIX) else None


def is_card(name: str) -> bool:
    return name in ACTION_CARDS or dragon_target(name) in COLOURS


@dataclass(frozen=True)
class Plank:
    """A plank piece: there is one of each length 1-6 in each colour."""

    colour: str
    length: int

    def __post_init__(self) -> None:
        if self.colour not in COLOURS or self.length not in PLANK_LENGTHS:
            raise ParseError(
                f"no plank {self.colour}{self.length}: colours are {', '.join(COLOURS)}, lengths 1-6"
            )

    def __str__(self) -> str:
        return f"{self.colour}{self.length}"


def plank_order(plank: Plank) -> tuple[int, int]:
    """Reserves list planks by length, then colour."""
    return (plank.length, COLOURS.index(plank.colour))


def parse_plank(text: str) -> Plank:
    """Read a plank piece such as ``red3``."""
    match = _PLANK.fullmatch(text)
    if match is None:
        raise ParseError(f"malformed plank {text!r}: expected a colour and a length, like 'red3'")
    return Plank(match[1], int(match[2]))


Ends = tuple[str, str]

support_key = cache(support_order)  # names recur endlessly; parsing each one once keeps sorting cheap


def ends_of(a: str, b: str) -> Ends:
    """The two supports of a plank in the notation's order (villages first, then by number)."""
    first, second = sorted((a, b), key=support_key)
    return (first, second)


def plank_place(ends: Ends) -> str:
    """The place a pawn on the plank between `ends` stands on: ``v1-i10``."""
    return f"{ends[0]}-{ends[1]}"


def is_plank_place(place: str) -> bool:
    """Whether a pawn's place is a plank (``v1-i10``) rather than a village (``v1``)."""
    return "-" in place


def place_ends(place: str) -> Ends | None:
    """The supports of a plank place, or None when the place is a village."""
    if not is_plank_place(place):
        return None
    a, _, b = place.partition("-")
    return (a, b)


def parse_support(text: str) -> str:
    if _SUPPORT.fullmatch(text) is None:
        raise ParseError(f"malformed support {text!r}: expected a village 'v1'-'v6' or an island like 'i5'")
    return text


def parse_ends(text: str) -> Ends:
    """Read a plank's supports, ``i4-v1`` or ``v1-i4``, into the notation's order."""
    a, dash, b = text.partition("-")
    if not dash:
        raise ParseError(f"malformed plank place {text!r}: expected two supports, like 'v1-i10'")
    first, second = parse_support(a), parse_support(b)
    if first == second:
        raise ParseError(f"malformed plank place {text!r}: a plank rests on two different supports")
    return ends_of(first, second)


def parse_place(text: str) -> str:
    """Read a pawn's place: a village (``v4``) or a plank (``i3-i7``)."""
    if "-" in text:
        return plank_place(parse_ends(text))
    support = parse_support(text)
    if not is_village(support):
        raise ParseError(f"a pawn stands on a village or a plank, not on island {support!r}")
    return support


@dataclass(frozen=True)
class Plan:
    """The planner's next card, put in the next free position of the program (1 to 5)."""

    card: str

    def __str__(self) -> str:
        return f"plan {self.card}"


@dataclass(frozen=True)
class PlaceStone:
    """A stone from the supply onto an island (stone1, and each of stone2's two stones)."""

    island: str

    def __str__(self) -> str:
        return f"stone {self.island}"


@dataclass(frozen=True)
class Lay:
    """A plank from the player's reserve laid between two supports (plank1, each plank of plank2)."""

    plank: Plank
    ends: Ends

    def __post_init__(self) -> None:
        object.__setattr__(self, "ends", ends_of(*self.ends))

    def __str__(self) -> str:
        return f"lay {self.plank} {plank_place(self.ends)}"


@dataclass(frozen=True)
class Lose:
    """The chosen plank fits nowhere on the board: it leaves the game."""

    plank: Plank

    def __str__(self) -> str:
        return f"lose {self.plank}"


@dataclass(frozen=True)
class RemovePlank:
    """A plank taken from the board into the player's reserve."""

    ends: Ends

    def __post_init__(self) -> None:
        object.__setattr__(self, "ends", ends_of(*self.ends))

    def __str__(self) -> str:
        return f"remove plank {plank_place(self.ends)}"


@dataclass(frozen=True)
class RemoveStone:
    """A stone holding no plank taken back to the supply."""

    island: str

    def __str__(self) -> str:
        return f"remove stone {self.island}"


@dataclass(frozen=True)
class Walk:
    """move1 (one place) or move2 (one or two places): each place the pawn steps to, in order."""

    path: tuple[str, ...]

    def __str__(self) -> str:
        return " ".join(["move", *self.path])


@dataclass(frozen=True)
class Jump:
    """The pawn jumps over another pawn on the plank `over` and lands on `landing`."""

    over: Ends
    landing: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "over", ends_of(*self.over))

    def __str__(self) -> str:
        return f"jump {plank_place(self.over)} {self.landing}"


Move = Plan | PlaceStone | Lay | Lose | RemovePlank | RemoveStone | Walk | Jump


def parse_move(text: str) -> Move:
    """Read a move in the notation of this module's docstring."""
    words = text.split()
    if not words:
        raise ParseError(
            "empty move: expected e.g. 'plan jump', 'stone i5', 'lay red3 v1-i10', 'move v1-i10'"
        )
    verb, args = words[0], words[1:]
    try:
        return _parse(verb, args)
    except ParseError as exc:
        raise ParseError(f"malformed move {text!r}: {exc}") from None


def _parse(verb: str, args: list[str]) -> Move:
    if verb == "plan" and len(args) == 1:
        if not is_card(args[0]):
            cards = ", ".join([*ACTION_CARDS, *(dragon(c) for c in COLOURS)])
            raise ParseError(f"unknown card {args[0]!r}; cards are {cards}")
        return Plan(args[0])
    if verb == "stone" and len(args) == 1:
        return PlaceStone(parse_support(args[0]))
    if verb == "lay" and len(args) == 2:
        return Lay(parse_plank(args[0]), parse_ends(args[1]))
    if verb == "lose" and len(args) == 1:
        return Lose(parse_plank(args[0]))
    if verb == "remove" and len(args) == 2 and args[0] == "plank":
        return RemovePlank(parse_ends(args[1]))
    if verb == "remove" and len(args) == 2 and args[0] == "stone":
        return RemoveStone(parse_support(args[1]))
    if verb == "move" and len(args) in (1, 2):
        return Walk(tuple(parse_place(a) for a in args))
    if verb == "jump" and len(args) == 2:
        return Jump(parse_ends(args[0]), parse_place(args[1]))
    raise ParseError(
        "expected 'plan <card>', 'stone <island>', 'lay <plank> <a-b>', 'lose <plank>', "
        "'remove plank <a-b>', 'remove stone <island>', 'move <place> [<place>]' or 'jump <a-b> <place>'"
    )
