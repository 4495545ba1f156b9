"""Dice, patterns and windows: the Sagrada placement rules, independent of turn order.

A window is written as 4 rows of 5 cells separated by `/`; a cell is a colour letter (r y g b p) and a
value, or `--` when empty: ``"r5 g2 b1 p3 b2/p4 b6 p4 b5 y6/y6 p3 g6 r1 p3/b1 y6 p3 g2 r4"``.
Cells are named ``r<row>c<col>``, 1-based, row 1 at the top of the card.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from functools import cache
from importlib import resources
from typing import Any

from engine.core import IllegalMove, InvalidData, ParseError

ROWS = 4
COLS = 5


class Color(Enum):
    """The five dice colours, in the order the rulebook lists them."""

    RED = "r"
    YELLOW = "y"
    GREEN = "g"
    BLUE = "b"
    PURPLE = "p"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Color:
        """Accept a letter (`r`) or a name (`red`), any case."""
        key = text.strip().lower()
        for color in cls:
            if key in (color.letter, color.label):
                return color
        raise ParseError(f"unknown colour {text!r}: expected r y g b p or red yellow green blue purple")


@dataclass(frozen=True, order=True)
class Die:
    """A die as it lies: its colour and the value on its top face."""

    color: Color
    value: int

    def __post_init__(self) -> None:
        if not 1 <= self.value <= 6:
            raise ParseError(f"die value must be 1-6, got {self.value}")

    def __str__(self) -> str:
        return f"{self.color.letter}{self.value}"

    @classmethod
    def parse(cls, text: str) -> Die:
        """Read `r5`-style notation."""
        t = text.strip().lower()
        if len(t) != 2 or not t[1].isdigit():
            raise ParseError(f"malformed die {text!r}: expected a colour letter and a value, like r5")
        return cls(Color.parse(t[0]), int(t[1]))


@dataclass(frozen=True, order=True)
class Cell:
    """A space of the window, 0-based internally, written `r<row>c<col>` 1-based."""

    row: int
    col: int

    def __post_init__(self) -> None:
        if not (0 <= self.row < ROWS and 0 <= self.col < COLS):
            raise ParseError(f"cell ({self.row}, {self.col}) is outside the 4x5 window")

    def __str__(self) -> str:
        return f"r{self.row + 1}c{self.col + 1}"

    @classmethod
    def parse(cls, text: str) -> Cell:
        t = text.strip().lower()
        if len(t) != 4 or t[0] != "r" or t[2] != "c" or not (t[1].isdigit() and t[3].isdigit()):
            raise ParseError(f"malformed cell {text!r}: expected r<row>c<col>, like r2c3")
        row, col = int(t[1]) - 1, int(t[3]) - 1
        if not (0 <= row < ROWS and 0 <= col < COLS):
            raise ParseError(f"cell {text!r} is outside the window (rows 1-4, columns 1-5)")
        return cls(row, col)

    @property
    def index(self) -> int:
        return self.row * COLS + self.col

    @property
    def on_edge(self) -> bool:
        return self.row in (0, ROWS - 1) or self.col in (0, COLS - 1)

    def orthogonal(self) -> Iterator[Cell]:
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            r, c = self.row + dr, self.col + dc
            if 0 <= r < ROWS and 0 <= c < COLS:
                yield Cell(r, c)

    def diagonal(self) -> Iterator[Cell]:
        for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
            r, c = self.row + dr, self.col + dc
            if 0 <= r < ROWS and 0 <= c < COLS:
                yield Cell(r, c)

    def neighbours(self) -> Iterator[Cell]:
        """The up-to-eight cells touching this one, orthogonally or diagonally."""
        yield from self.orthogonal()
        yield from self.diagonal()


ALL_CELLS: tuple[Cell, ...] = tuple(Cell(r, c) for r in range(ROWS) for c in range(COLS))


@dataclass(frozen=True)
class Restriction:
    """What a printed space demands: a colour, a value, or nothing (a white space)."""

    color: Color | None = None
    value: int | None = None

    def __str__(self) -> str:
        if self.color is not None:
            return self.color.letter
        if self.value is not None:
            return str(self.value)
        return "."

    @classmethod
    def parse(cls, char: str) -> Restriction:
        if char == ".":
            return cls()
        if char in "123456" and len(char) == 1:
            return cls(value=int(char))
        try:
            return cls(color=Color.parse(char))
        except ParseError:
            raise ParseError(f"unknown space restriction {char!r}: expected r y g b p, 1-6 or .") from None

    def allows(self, die: Die, *, ignore_color: bool = False, ignore_value: bool = False) -> bool:
        if self.color is not None and not ignore_color and die.color != self.color:
            return False
        return not (self.value is not None and not ignore_value and die.value != self.value)


@dataclass(frozen=True)
class Pattern:
    """A window pattern card: 20 printed restrictions and the difficulty (the favor tokens it gives)."""

    name: str
    difficulty: int
    grid: tuple[Restriction, ...]

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise InvalidData("a pattern needs a name")
        if not 1 <= self.difficulty <= 6:
            raise InvalidData(f"pattern {self.name!r}: difficulty must be 1-6, got {self.difficulty}")
        if len(self.grid) != ROWS * COLS:
            raise InvalidData(f"pattern {self.name!r}: needs 20 spaces, got {len(self.grid)}")

    def restriction(self, cell: Cell) -> Restriction:
        return self.grid[cell.index]

    def rows(self) -> list[str]:
        """The grid as 4 strings of 5 characters, the data file's layout."""
        text = "".join(str(r) for r in self.grid)
        return [text[i * COLS : (i + 1) * COLS] for i in range(ROWS)]

    @classmethod
    def from_rows(cls, name: str, difficulty: int, rows: Iterable[str]) -> Pattern:
        """Build and validate a pattern from 4 strings of 5 characters (r y g b p, 1-6 or .)."""
        rows = list(rows)
        if len(rows) != ROWS or any(len(r) != COLS for r in rows):
            raise InvalidData(f"pattern {name!r}: grid must be 4 rows of 5 characters")
        try:
            grid = tuple(Restriction.parse(ch) for row in rows for ch in row)
        except ParseError as exc:
            raise InvalidData(f"pattern {name!r}: {exc}") from None
        pattern = cls(name=name, difficulty=difficulty, grid=grid)
        _check_pattern_fillable(pattern)
        return pattern

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "difficulty": self.difficulty, "grid": self.rows()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pattern:
        try:
            return cls.from_rows(str(data["name"]), int(data["difficulty"]), data["grid"])
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidData(f"malformed pattern definition: {exc}") from None


BLANK_PATTERN = Pattern("Blank", 1, tuple(Restriction() for _ in ALL_CELLS))


def _check_pattern_fillable(pattern: Pattern) -> None:
    """Reject a user pattern no legal window can complete: equal orthogonal restrictions clash."""
    for cell in ALL_CELLS:
        here = pattern.restriction(cell)
        for other in cell.orthogonal():
            there = pattern.restriction(other)
            if other > cell and (
                (here.color is not None and here.color == there.color)
                or (here.value is not None and here.value == there.value)
            ):
                raise InvalidData(
                    f"pattern {pattern.name!r}: {cell} and {other} both demand {here}, "
                    "but orthogonal neighbours may not share a colour or value"
                )


@cache
def pattern_data() -> dict[str, Any]:
    """The bundled pattern file as read: the patterns and which one is printed on the back of which."""
    data: dict[str, Any] = json.loads(
        resources.files("engine").joinpath("data/sagrada_patterns.json").read_text("utf-8")
    )
    return data


@cache
def official_patterns() -> dict[str, Pattern]:
    """The 24 patterns of the base game, by name, from the bundled data file."""
    patterns = [Pattern.from_json(p) for p in pattern_data()["patterns"]]
    if len(patterns) != 24:
        raise InvalidData(f"expected 24 official patterns, found {len(patterns)}")
    return {p.name: p for p in patterns}


def find_pattern(name: str) -> Pattern:
    """An official pattern by name, ignoring case, spaces and apostrophes."""

    def key(s: str) -> str:
        return "".join(ch for ch in s.lower() if ch.isalnum())

    wanted = key(name)
    for pattern in official_patterns().values():
        if key(pattern.name) == wanted:
            return pattern
    known = ", ".join(sorted(official_patterns()))
    raise InvalidData(f"unknown pattern {name!r}; known patterns: {known}")


@dataclass(frozen=True)
class Window:
    """The dice in a player's window: 20 spaces, row-major, each a `Die` or None."""

    dice: tuple[Die | None, ...] = (None,) * (ROWS * COLS)

    def __post_init__(self) -> None:
        if len(self.dice) != ROWS * COLS:
            raise ParseError(f"a window has 20 spaces, got {len(self.dice)}")

    def __getitem__(self, cell: Cell) -> Die | None:
        return self.dice[cell.index]

    def __str__(self) -> str:
        rows = []
        for r in range(ROWS):
            cells = [self.dice[r * COLS + c] for c in range(COLS)]
            rows.append(" ".join(str(d) if d else "--" for d in cells))
        return "/".join(rows)

    @classmethod
    def parse(cls, text: str) -> Window:
        """Read the `/`-separated notation; the error names the row and cell that is wrong."""
        rows = [r.split() for r in text.strip().split("/")]
        if len(rows) != ROWS:
            raise ParseError(f"malformed window: expected 4 rows separated by '/', got {len(rows)}")
        dice: list[Die | None] = []
        for r, row in enumerate(rows):
            if len(row) != COLS:
                raise ParseError(f"malformed window: row {r + 1} has {len(row)} cells, expected 5")
            for c, token in enumerate(row):
                if token in ("--", "-", "."):
                    dice.append(None)
                    continue
                try:
                    dice.append(Die.parse(token))
                except ParseError as exc:
                    raise ParseError(f"malformed window at r{r + 1}c{c + 1}: {exc}") from None
        return cls(tuple(dice))

    def placed(self) -> Iterator[tuple[Cell, Die]]:
        for cell in ALL_CELLS:
            die = self.dice[cell.index]
            if die is not None:
                yield cell, die

    def empty_cells(self) -> Iterator[Cell]:
        return (cell for cell in ALL_CELLS if self.dice[cell.index] is None)

    @property
    def count(self) -> int:
        return sum(1 for d in self.dice if d is not None)

    def with_die(self, cell: Cell, die: Die | None) -> Window:
        dice = list(self.dice)
        dice[cell.index] = die
        return Window(tuple(dice))


@dataclass(frozen=True)
class PlacementWaivers:
    """Rules a tool card lets a placement ignore; everything else still holds."""

    color: bool = False  # Eglomise Brush: the space's colour restriction
    value: bool = False  # Copper Foil Burnisher: the space's value restriction
    touching: bool = False  # Cork-backed Straightedge: must touch no die instead of touching one
    adjacency: bool = False  # the rule text's generic "ignore adjacency" tool effect


NO_WAIVERS = PlacementWaivers()


def placement_error(
    window: Window, pattern: Pattern, cell: Cell, die: Die, waivers: PlacementWaivers = NO_WAIVERS
) -> IllegalMove | None:
    """Why `die` may not go on `cell` now, or None when it may."""
    if window[cell] is not None:
        return IllegalMove("occupied", f"space {cell} already holds {window[cell]}")
    need = pattern.restriction(cell)
    if need.color is not None and not waivers.color and die.color != need.color:
        return IllegalMove("space-color", f"space {cell} needs a {need.color.label} die, got {die}")
    if need.value is not None and not waivers.value and die.value != need.value:
        return IllegalMove("space-value", f"space {cell} needs a {need.value}, got {die}")
    if not waivers.adjacency:
        for other in cell.orthogonal():
            neighbour = window[other]
            if neighbour is None:
                continue
            if neighbour.color == die.color:
                return IllegalMove(
                    "neighbour-color", f"{die} on {cell} would share its colour with {neighbour} on {other}"
                )
            if neighbour.value == die.value:
                return IllegalMove(
                    "neighbour-value", f"{die} on {cell} would share its value with {neighbour} on {other}"
                )
    touches = any(window[n] is not None for n in cell.neighbours())
    if window.count == 0:
        if not cell.on_edge:
            return IllegalMove("first-die-edge", f"the first die must go on an edge or corner, not {cell}")
    elif waivers.touching:
        if touches:
            return IllegalMove("not-touching", f"with Cork-backed Straightedge, {cell} must touch no die")
    elif not touches:
        return IllegalMove("must-touch", f"{cell} touches no die; a later die must touch a die")
    return None


def can_place(
    window: Window, pattern: Pattern, cell: Cell, die: Die, waivers: PlacementWaivers = NO_WAIVERS
) -> bool:
    return placement_error(window, pattern, cell, die, waivers) is None


def legal_placements(
    window: Window, pattern: Pattern, die: Die, waivers: PlacementWaivers = NO_WAIVERS
) -> Iterator[Cell]:
    """Every empty space where `die` may be placed now: the UI's hints."""
    for cell in window.empty_cells():
        if placement_error(window, pattern, cell, die, waivers) is None:
            yield cell
