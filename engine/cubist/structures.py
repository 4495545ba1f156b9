"""Dice structures in three dimensions: the placement rules, matching up to rotation, museum blueprints.

A die sits at a `Position` (x, y, level); level 0 is the table. The same rules hold in a workroom and in
the museum: a new die touches the structure edge to edge (side by side on its level, or on top of the die
below); side by side on one level, neighbours differ by exactly 1; a stacked die equals the die under it.
Because stacked dice are equal, a column of dice has one value, which makes museum completion a small
colouring problem over the blueprint's footprint.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from engine.core import InvalidData, ParseError

Position = tuple[int, int, int]
Column = tuple[int, int]
FACES = range(1, 7)
SIDEWAYS: tuple[Column, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))


def format_position(position: Position) -> str:
    return ",".join(str(c) for c in position)


def parse_position(text: str) -> Position:
    """Read ``x,y,level`` (three integers, level 0 on the table)."""
    parts = text.split(",")
    try:
        x, y, level = (int(p) for p in parts)
    except ValueError:
        raise ParseError(f"malformed position {text!r}: expected x,y,level like 1,0,0") from None
    return (x, y, level)


def parse_structure(text: str) -> Structure:
    """Read what `str(Structure)` writes: ``x,y,level=value`` per die, spaces between; ``-`` for none."""
    if text.strip() == "-":
        return Structure()
    dice: dict[Position, int] = {}
    for item in text.split():
        spot, equals, value = item.partition("=")
        if not equals or not value.isdigit():
            raise ParseError(f"malformed die {item!r}: expected x,y,level=value like 1,0,0=4")
        position = parse_position(spot)
        if position in dice:
            raise ParseError(f"two dice at {spot} in {text!r}")
        dice[position] = int(value)
    return Structure(dice)


def beside(position: Position) -> Iterator[Position]:
    """The four positions sharing a side with `position` on its level."""
    x, y, level = position
    for dx, dy in SIDEWAYS:
        yield (x + dx, y + dy, level)


def touching(position: Position) -> Iterator[Position]:
    """The six positions sharing a face with `position`."""
    yield from beside(position)
    x, y, level = position
    yield (x, y, level + 1)
    yield (x, y, level - 1)


@dataclass(frozen=True)
class Refusal:
    """Why a die may not go somewhere: the rule's identifier and a message naming the positions."""

    rule: str
    message: str


@dataclass(frozen=True)
class Problem:
    """A rule a finished structure breaks (a position found on the table), and the positions involved."""

    rule: str
    positions: tuple[Position, ...]
    message: str


@dataclass(frozen=True)
class Structure:
    """Dice by position; immutable. Dice are compared by position and value only (not by owner)."""

    dice: Mapping[Position, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", dict(sorted(self.dice.items())))

    def __hash__(self) -> int:
        return hash(tuple(self.dice.items()))

    def __len__(self) -> int:
        return len(self.dice)

    def __str__(self) -> str:
        return " ".join(f"{format_position(p)}={v}" for p, v in self.dice.items()) or "-"

    @classmethod
    def of(cls, dice: Iterable[tuple[Position, int]]) -> Structure:
        return cls(dict(dice))

    def with_die(self, position: Position, value: int) -> Structure:
        return Structure({**self.dice, position: value})

    def without(self, position: Position) -> Structure:
        return Structure({p: v for p, v in self.dice.items() if p != position})

    # --- the placement rules ------------------------------------------------------------------------------

    def refusal(self, position: Position, value: int, where: str) -> Refusal | None:
        """Why `value` may not be placed at `position` (None when it may); `where` names the structure."""
        spot = f"{where} {format_position(position)}"
        if value not in FACES:
            return Refusal("die-value", f"a die shows 1-6, not {value}")
        if position in self.dice:
            return Refusal("occupied", f"{spot} already holds a {self.dice[position]}")
        x, y, level = position
        if level < 0:
            return Refusal("below-table", f"{spot} is below the table")
        if level > 0:
            below = self.dice.get((x, y, level - 1))
            if below is None:
                return Refusal("stack-support", f"{spot} has no die under it")
            if below != value:
                return Refusal("stack-equal", f"a {value} stacked at {spot} must equal the {below} under it")
        elif self.dice and not any(p in self.dice for p in beside(position)):
            return Refusal("touch", f"{spot} does not touch a die edge to edge")
        for neighbour in beside(position):
            other = self.dice.get(neighbour)
            if other is not None and abs(other - value) != 1:
                return Refusal(
                    "differ-by-one",
                    f"a {value} at {spot} sits beside the {other} at {format_position(neighbour)}; "
                    "side by side, dice differ by exactly 1",
                )
        return None

    def candidate_positions(self) -> Iterator[Position]:
        """Every free position a new die could touch: (0,0,0) for an empty structure."""
        if not self.dice:
            yield (0, 0, 0)
            return
        seen: set[Position] = set()
        for position in self.dice:
            for spot in touching(position):
                if spot not in self.dice and spot not in seen and spot[2] >= 0:
                    seen.add(spot)
                    yield spot

    def problems(self) -> list[Problem]:
        """Every rule the structure breaks: bad values, floating or unequal stacks, neighbours, splits."""
        found: list[Problem] = []
        for position, value in self.dice.items():
            x, y, level = position
            if value not in FACES:
                found.append(Problem("die-value", (position,), f"a die shows 1-6, not {value}"))
            if level < 0:
                found.append(Problem("below-table", (position,), "a die is below the table"))
            elif level > 0:
                below = self.dice.get((x, y, level - 1))
                if below is None:
                    found.append(Problem("stack-support", (position,), "a die floats with nothing under it"))
                elif below != value:
                    found.append(
                        Problem(
                            "stack-equal",
                            (position, (x, y, level - 1)),
                            f"a {value} is stacked on a {below}; stacked dice are equal",
                        )
                    )
            for neighbour in beside(position):
                other = self.dice.get(neighbour)
                if neighbour > position and other is not None and abs(other - value) != 1:
                    found.append(
                        Problem(
                            "differ-by-one",
                            (position, neighbour),
                            f"a {value} and a {other} side by side; they must differ by exactly 1",
                        )
                    )
        groups = self.groups()
        if len(groups) > 1:
            found.append(
                Problem(
                    "connected",
                    tuple(sorted(p for group in groups[1:] for p in group)),
                    f"the dice form {len(groups)} separate groups; they must touch as one",
                )
            )
        return found

    def groups(self) -> list[list[Position]]:
        """The face-connected groups of dice, largest first."""
        unseen = set(self.dice)
        groups: list[list[Position]] = []
        while unseen:
            start = min(unseen)
            unseen.discard(start)
            group, frontier = [start], [start]
            while frontier:
                for spot in touching(frontier.pop()):
                    if spot in unseen:
                        unseen.discard(spot)
                        group.append(spot)
                        frontier.append(spot)
            groups.append(sorted(group))
        return sorted(groups, key=lambda g: (-len(g), g))

    def removal_refusal(self, position: Position, where: str) -> Refusal | None:
        """Why the die at `position` may not be taken away: none there, or the rest would float or split."""
        spot = f"{where} {format_position(position)}"
        if position not in self.dice:
            return Refusal("no-die", f"{spot} holds no die")
        x, y, level = position
        if (x, y, level + 1) in self.dice:
            return Refusal("stack-support", f"the die at {spot} holds up the die above it")
        if len(self.without(position).groups()) > 1:
            return Refusal("connected", f"taking the die at {spot} would split the structure in two")
        return None

    # --- comparison with a card ---------------------------------------------------------------------------

    def canonical(self) -> tuple[tuple[Position, int], ...]:
        """The structure up to translation and the four turns about the vertical axis: equal iff matching."""
        forms = []
        dice = list(self.dice.items())
        for _ in range(4):
            dice = [((-y, x, level), v) for (x, y, level), v in dice]
            if dice:
                low_x = min(p[0] for p, _ in dice)
                low_y = min(p[1] for p, _ in dice)
                forms.append(tuple(sorted(((x - low_x, y - low_y, z), v) for (x, y, z), v in dice)))
            else:
                forms.append(())
        return min(forms)

    def matches(self, other: Structure) -> bool:
        return len(self) == len(other) and self.canonical() == other.canonical()


@dataclass(frozen=True)
class Blueprint:
    """A museum's shape: the height of each column of its footprint, and the cornerstone's column."""

    heights: Mapping[Column, int]
    cornerstone: Column

    def __post_init__(self) -> None:
        object.__setattr__(self, "heights", dict(sorted(self.heights.items())))
        if not self.heights:
            raise InvalidData("a museum blueprint needs at least one column")
        bad = [c for c, h in self.heights.items() if h < 1]
        if bad:
            raise InvalidData(f"blueprint column {bad[0]} has height {self.heights[bad[0]]}; at least 1")
        if self.cornerstone not in self.heights:
            raise InvalidData(f"the cornerstone column {self.cornerstone} is outside the blueprint")
        footprint = Structure({(x, y, 0): 1 for x, y in self.heights})
        if len(footprint.groups()) > 1:
            raise InvalidData("the blueprint's footprint is not one connected shape")

    def __hash__(self) -> int:
        return hash((tuple(self.heights.items()), self.cornerstone))

    @property
    def cornerstone_position(self) -> Position:
        return (*self.cornerstone, 0)

    def positions(self) -> frozenset[Position]:
        return frozenset((x, y, z) for (x, y), h in self.heights.items() for z in range(h))

    def __len__(self) -> int:
        return sum(self.heights.values())

    def is_complete(self, museum: Structure) -> bool:
        return set(museum.dice) == self.positions()

    def completion(self, museum: Structure) -> dict[Column, int] | None:
        """A value for every column that finishes the blueprint from `museum`, or None if none exists.

        Every column is one value (stacked dice are equal) and columns side by side differ by 1 (they share
        level 0), so this is a colouring of the footprint with the started columns fixed. A connected
        footprint can then be built in order, each die touching the ones before it.
        """
        if not set(museum.dice) <= self.positions():
            return None
        domains: dict[Column, frozenset[int]] = {c: frozenset(FACES) for c in self.heights}
        for (x, y, _), value in museum.dice.items():
            if value not in domains[(x, y)]:
                return None
            domains[(x, y)] = frozenset({value})
        return _colour(domains)


def _colour(domains: dict[Column, frozenset[int]]) -> dict[Column, int] | None:
    """Search column values where footprint neighbours differ by exactly 1 (arc consistency, fewest first)."""
    narrowed = _narrow(domains)
    if narrowed is None:
        return None
    domains = narrowed
    open_columns = [c for c, d in domains.items() if len(d) > 1]
    if not open_columns:
        return {c: next(iter(d)) for c, d in domains.items()}
    column = min(open_columns, key=lambda c: (len(domains[c]), c))
    for value in sorted(domains[column]):
        found = _colour({**domains, column: frozenset({value})})
        if found is not None:
            return found
    return None


def _narrow(domains: dict[Column, frozenset[int]]) -> dict[Column, frozenset[int]] | None:
    """Keep only values that have a neighbour value 1 apart in every neighbouring column (arc consistency)."""
    domains = dict(domains)
    changed = True
    while changed:
        changed = False
        for (x, y), values in domains.items():
            kept = values
            for dx, dy in SIDEWAYS:
                other = domains.get((x + dx, y + dy))
                if other is not None:
                    kept = frozenset(v for v in kept if v - 1 in other or v + 1 in other)
            if not kept:
                return None
            if kept != values:
                domains[(x, y)] = kept
                changed = True
    return domains
