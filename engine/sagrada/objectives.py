"""Sagrada's objective cards as data: each card scores a window and names the dice that earned its points.

The ten public cards are instances of three shapes (complete lines of all-different dice, sets of listed
colours or values, same-coloured diagonal chains), so a card is a row of data rather than a function. A
private objective, "Shades of <colour>", adds up the values of one colour's dice.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from engine.core import InvalidData, ParseError
from engine.sagrada.window import COLS, ROWS, Cell, Color, Die, Window


@dataclass(frozen=True)
class ObjectiveScore:
    """What one objective card gave a window: its points and the cells whose dice earned them."""

    name: str
    points: int
    cells: tuple[Cell, ...]


class Feature(Enum):
    """The side of a die a card looks at: its colour or its value (the rulebook's "shade")."""

    COLOR = "color"
    VALUE = "value"

    def of(self, die: Die) -> Color | int:
        return die.color if self is Feature.COLOR else die.value


class Line(Enum):
    """Rows (5 spaces each) or columns (4 spaces each) of the window."""

    ROW = "row"
    COLUMN = "column"

    def lines(self) -> tuple[tuple[Cell, ...], ...]:
        return _ROWS if self is Line.ROW else _COLUMNS


_ROWS = tuple(tuple(Cell(r, c) for c in range(COLS)) for r in range(ROWS))
_COLUMNS = tuple(tuple(Cell(r, c) for r in range(ROWS)) for c in range(COLS))


@dataclass(frozen=True)
class LineVariety:
    """Points for every complete row (or column) whose dice all differ in colour (or in value)."""

    name: str
    line: Line
    feature: Feature
    points_per_line: int

    def score(self, window: Window) -> ObjectiveScore:
        earned: list[Cell] = []
        lines = 0
        for cells in self.line.lines():
            dice = [window[c] for c in cells]
            features = {self.feature.of(d) for d in dice if d is not None}
            if None not in dice and len(features) == len(cells):
                earned.extend(cells)
                lines += 1
        return ObjectiveScore(self.name, lines * self.points_per_line, tuple(sorted(earned)))


@dataclass(frozen=True)
class SetCollection:
    """Points for every complete set holding one die of each listed colour (or value).

    A die belongs to at most one set; the dice credited are the first of each kind in reading order.
    """

    name: str
    feature: Feature
    members: tuple[Color | int, ...]
    points_per_set: int

    def score(self, window: Window) -> ObjectiveScore:
        by_member: dict[Color | int, list[Cell]] = {m: [] for m in self.members}
        for cell, die in window.placed():
            kind = self.feature.of(die)
            if kind in by_member:
                by_member[kind].append(cell)
        sets = min(len(cells) for cells in by_member.values())
        earned = sorted(cell for cells in by_member.values() for cell in cells[:sets])
        return ObjectiveScore(self.name, sets * self.points_per_set, tuple(earned))


@dataclass(frozen=True)
class ColorDiagonals:
    """Points for every die that touches a die of its own colour diagonally (a chain of k dice scores k)."""

    name: str
    points_per_die: int

    def score(self, window: Window) -> ObjectiveScore:
        earned = tuple(
            cell
            for cell, die in window.placed()
            if any((other := window[n]) is not None and other.color == die.color for n in cell.diagonal())
        )
        return ObjectiveScore(self.name, len(earned) * self.points_per_die, earned)


PublicObjective = LineVariety | SetCollection | ColorDiagonals

PUBLIC_OBJECTIVES: tuple[PublicObjective, ...] = (
    LineVariety("Row Color Variety", Line.ROW, Feature.COLOR, 6),
    LineVariety("Column Color Variety", Line.COLUMN, Feature.COLOR, 5),
    LineVariety("Row Shade Variety", Line.ROW, Feature.VALUE, 5),
    LineVariety("Column Shade Variety", Line.COLUMN, Feature.VALUE, 4),
    SetCollection("Light Shades", Feature.VALUE, (1, 2), 2),
    SetCollection("Medium Shades", Feature.VALUE, (3, 4), 2),
    SetCollection("Deep Shades", Feature.VALUE, (5, 6), 2),
    SetCollection("Shade Variety", Feature.VALUE, (1, 2, 3, 4, 5, 6), 5),
    SetCollection("Color Variety", Feature.COLOR, tuple(Color), 4),
    ColorDiagonals("Color Diagonals", 1),
)


def _card_key(name: str) -> str:
    """Compare card names ignoring case, spacing, punctuation and the British spelling of colour."""
    return "".join(ch for ch in name.lower().replace("colour", "color") if ch.isalnum())


_PUBLIC_BY_KEY: dict[str, PublicObjective] = {_card_key(card.name): card for card in PUBLIC_OBJECTIVES}


def public_objective(name: str) -> PublicObjective:
    """A public objective card by name, ignoring case; an unknown name lists the ten known ones."""
    try:
        return _PUBLIC_BY_KEY[_card_key(name)]
    except KeyError:
        known = ", ".join(card.name for card in PUBLIC_OBJECTIVES)
        raise InvalidData(f"unknown public objective {name!r}; known objectives: {known}") from None


def public_objectives(names: Iterable[str]) -> tuple[PublicObjective, ...]:
    """The named cards in the order given; a card named twice is an error, since each is in play once."""
    cards: list[PublicObjective] = []
    for name in names:
        card = public_objective(name)
        if card in cards:
            raise InvalidData(f"public objective {card.name!r} is named twice")
        cards.append(card)
    return tuple(cards)


def parse_public_objectives(text: str) -> tuple[PublicObjective, ...]:
    """Read a comma-separated list of card names, as typed on the command line."""
    names = [part.strip() for part in text.split(",")]
    if not any(names):
        raise InvalidData("no public objective named: expected card names separated by commas")
    if not all(names):
        raise InvalidData(f"empty public objective name in {text!r}: expected names separated by commas")
    return public_objectives(names)


@dataclass(frozen=True)
class PrivateObjective:
    """The private card "Shades of <colour>": the sum of the values of that colour's dice."""

    color: Color

    @property
    def name(self) -> str:
        return f"Shades of {self.color.label.capitalize()}"

    def score(self, window: Window) -> ObjectiveScore:
        placed = [(cell, die) for cell, die in window.placed() if die.color is self.color]
        points = sum(die.value for _, die in placed)
        return ObjectiveScore(self.name, points, tuple(cell for cell, _ in placed))

    @classmethod
    def parse(cls, text: str) -> PrivateObjective:
        """Accept a colour (`red`, `r`) or the card's name (`Shades of Red`), any case."""
        key = text.strip()
        if key.lower().startswith("shades of "):
            key = key[len("shades of ") :]
        try:
            return cls(Color.parse(key))
        except ParseError:
            raise InvalidData(
                f"unknown private objective {text!r}: expected a colour (red yellow green blue purple) "
                "or 'Shades of <colour>'"
            ) from None
