"""A structure seen from straight above: each column's value, which is what a photo of a workroom shows.

A stacked die equals the die below, so every column of a structure shows one value, and the top view plus
each column's height fixes the structure. A camera above the table sees the values but not reliably the
heights, so the top view is the part of a workroom a photo can be trusted for: it can be checked on its
own (columns side by side share level 0, where their dice must differ by exactly 1, and a structure is one
piece exactly when its footprint is), and it narrows the installation cards down to those whose own top
view it is, each with the heights the player then confirms by eye.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engine.core import InvalidData
from engine.cubist.cards import CardSet, InstallationCard
from engine.cubist.structures import Column, Problem, Structure

Heights = Mapping[Column, int]


def column_heights(structure: Structure) -> dict[Column, int]:
    """How many dice stand in each column of `structure`."""
    heights: dict[Column, int] = {}
    for x, y, _ in structure.dice:
        heights[(x, y)] = heights.get((x, y), 0) + 1
    return dict(sorted(heights.items()))


@dataclass(frozen=True)
class InstallationMatch:
    """An installation card whose top view is the one seen, and the heights its structure needs, by
    column of the view seen: one mapping per distinct way the card fits (a card whose top view is
    symmetric may fit turned, with its heights elsewhere)."""

    card: InstallationCard
    heights: tuple[dict[Column, int], ...]


@dataclass(frozen=True)
class TopView:
    """The value each column shows from above, by column (x, y); immutable."""

    values: Mapping[Column, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", dict(sorted(self.values.items())))

    def __hash__(self) -> int:
        return hash(tuple(self.values.items()))

    def __len__(self) -> int:
        return len(self.values)

    @classmethod
    def of(cls, structure: Structure) -> TopView:
        """What `structure` shows from above: each column's uppermost die."""
        tops: dict[Column, tuple[int, int]] = {}
        for (x, y, level), value in structure.dice.items():
            if (x, y) not in tops or level > tops[(x, y)][0]:
                tops[(x, y)] = (level, value)
        return cls({column: value for column, (_, value) in tops.items()})

    def problems(self) -> list[Problem]:
        """Every rule the columns break, as the dice at level 0 (where each column has its value) break it:
        values outside 1-6, side-by-side columns not differing by exactly 1, columns in separate groups.
        A structure with this top view breaks these whatever its heights."""
        return self.with_heights(dict.fromkeys(self.values, 1)).problems()

    def with_heights(self, heights: Heights) -> Structure:
        """The structure this top view makes with `heights` (at least 1) for exactly its columns."""
        if set(heights) != set(self.values):
            missing = sorted(set(self.values) - set(heights))
            extra = sorted(set(heights) - set(self.values))
            raise InvalidData(f"heights must cover the columns exactly; missing {missing}, not seen {extra}")
        low = [column for column, height in heights.items() if height < 1]
        if low:
            raise InvalidData(f"column {low[0]} has height {heights[low[0]]}; every column holds a die")
        return Structure(
            {
                (x, y, level): value
                for (x, y), value in self.values.items()
                for level in range(heights[(x, y)])
            }
        )

    def matching_installations(self, cards: CardSet | Iterable[InstallationCard]) -> list[InstallationMatch]:
        """The installation cards whose top view equals this one up to translation and the four quarter
        turns, in the cards' order, each with the heights its structure needs here."""
        installations = cards.installations.values() if isinstance(cards, CardSet) else cards
        found = []
        for card in installations:
            options = self.placements(card.structure)
            if options:
                found.append(InstallationMatch(card, options))
        return found

    def placements(self, structure: Structure) -> tuple[dict[Column, int], ...]:
        """Each distinct height map, by this view's columns, under which `structure` stands on this top
        view turned and moved (empty when its top view is not this one in any turn)."""
        card_values = TopView.of(structure).values
        if len(card_values) != len(self.values) or not self.values:
            return ()
        own_low = _low_corner(self.values)
        card_heights = column_heights(structure)
        options: list[dict[Column, int]] = []
        for turns in range(4):
            turned = {_turn(column, turns): column for column in card_values}
            low = _low_corner(turned)
            shift = (own_low[0] - low[0], own_low[1] - low[1])
            placed = {(x + shift[0], y + shift[1]): original for (x, y), original in turned.items()}
            if placed.keys() != self.values.keys():
                continue
            if any(card_values[original] != self.values[column] for column, original in placed.items()):
                continue
            heights = {column: card_heights[original] for column, original in sorted(placed.items())}
            if heights not in options:
                options.append(heights)
        return tuple(options)


def _turn(column: Column, turns: int) -> Column:
    """`column` turned a quarter counterclockwise `turns` times about the origin."""
    x, y = column
    for _ in range(turns):
        x, y = -y, x
    return (x, y)


def _low_corner(columns: Iterable[Column]) -> Column:
    listed = list(columns)
    return (min(x for x, _ in listed), min(y for _, y in listed))
