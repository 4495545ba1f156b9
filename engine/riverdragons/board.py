"""The River Dragons board as data: where the villages and islands lie and how far each plank reaches.

The published board's geometry is not available in text form, so the engine ships its own default layout
(``engine/data/riverdragons_board.json``, labelled as ours) and accepts a layout calibrated to a real copy.
Supports are named ``v1``-``v6`` (the six villages, clockwise round the edge, so ``v1`` faces ``v4``) and
``i1``-``iN`` (the islands, in the data file's order). A plank of length L bridges two supports at most
``spans[L - 1]`` apart, centre to centre; a longer plank than needed is fine.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from typing import Any

from engine.core import JSON, InvalidData

Point = tuple[float, float]

VILLAGE_COUNT = 6
PLANK_LENGTHS = (1, 2, 3, 4, 5, 6)


def village_name(index: int) -> str:
    return f"v{index + 1}"


def island_name(index: int) -> str:
    return f"i{index + 1}"


def is_village(support: str) -> bool:
    return support.startswith("v")


@dataclass(frozen=True)
class Board:
    """A layout: village and island centres (board units), the island and stone radii, the plank spans."""

    name: str
    villages: tuple[Point, ...]
    islands: tuple[Point, ...]
    island_radius: float
    stone_radius: float
    spans: tuple[float, ...]

    def __post_init__(self) -> None:
        where = f"board {self.name!r}"
        if len(self.villages) != VILLAGE_COUNT:
            raise InvalidData(f"{where}: needs {VILLAGE_COUNT} villages, got {len(self.villages)}")
        if not self.islands:
            raise InvalidData(f"{where}: needs at least one island")
        if len(self.spans) != len(PLANK_LENGTHS):
            raise InvalidData(f"{where}: needs a span for each plank length 1-6, got {len(self.spans)}")
        numbers = [self.island_radius, self.stone_radius, *self.spans]
        numbers += [c for p in (*self.villages, *self.islands) for c in p]
        if not all(math.isfinite(n) for n in numbers):
            raise InvalidData(f"{where}: every coordinate, radius and span must be a finite number")
        if not 0 < self.stone_radius <= self.island_radius:
            raise InvalidData(
                f"{where}: a stone (radius {self.stone_radius}) must be positive and fit on an island "
                f"(radius {self.island_radius})"
            )
        if any(s <= 0 for s in self.spans) or any(
            a >= b for a, b in zip(self.spans, self.spans[1:], strict=False)
        ):
            raise InvalidData(
                f"{where}: plank spans must be positive and grow with the length, got {list(self.spans)}"
            )
        for i, here in enumerate(self.islands):
            for j, there in enumerate(self.islands[i + 1 :], start=i + 1):
                if math.dist(here, there) < 2 * self.island_radius:
                    raise InvalidData(f"{where}: islands {island_name(i)} and {island_name(j)} overlap")
            for v, village in enumerate(self.villages):
                if math.dist(here, village) <= self.island_radius:
                    raise InvalidData(f"{where}: island {island_name(i)} covers village {village_name(v)}")
        for v, village in enumerate(self.villages):
            for w in range(v + 1, VILLAGE_COUNT):
                if self.villages[w] == village:
                    raise InvalidData(f"{where}: villages {village_name(v)} and {village_name(w)} coincide")

    # --- names and geometry -------------------------------------------------------------------------------

    @cached_property
    def village_names(self) -> tuple[str, ...]:
        return tuple(village_name(i) for i in range(VILLAGE_COUNT))

    @cached_property
    def island_names(self) -> tuple[str, ...]:
        return tuple(island_name(i) for i in range(len(self.islands)))

    @cached_property
    def _points(self) -> dict[str, Point]:
        return dict(
            zip((*self.village_names, *self.island_names), (*self.villages, *self.islands), strict=True)
        )

    def is_support(self, name: str) -> bool:
        """Whether `name` is a village or an island of this board."""
        return name in self._points

    def is_island(self, name: str) -> bool:
        return self.is_support(name) and not is_village(name)

    def point(self, support: str) -> Point:
        try:
            return self._points[support]
        except KeyError:
            raise InvalidData(f"board {self.name!r} has no village or island {support!r}") from None

    def distance(self, a: str, b: str) -> float:
        return math.dist(self.point(a), self.point(b))

    def span(self, length: int) -> float:
        return self.spans[length - 1]

    def bridges(self, length: int, a: str, b: str) -> bool:
        """Whether a plank of `length` is long enough to rest on both `a` and `b`."""
        return self.distance(a, b) <= self.span(length)

    def opposite(self, village: str) -> str:
        """The village directly across the delta: a pawn starting at `village` must reach it."""
        index = self.village_names.index(village)
        return village_name((index + VILLAGE_COUNT // 2) % VILLAGE_COUNT)

    @cached_property
    def reachable_pairs(self) -> tuple[tuple[str, str], ...]:
        """Every pair of distinct supports the longest plank bridges, each pair ordered by `support_order`."""
        names = sorted(self._points, key=support_order)
        longest = self.spans[-1]
        return tuple(
            (a, b) for i, a in enumerate(names) for b in names[i + 1 :] if self.distance(a, b) <= longest
        )

    def island_under(self, point: Point) -> str | None:
        """The island a stone centred at `point` lies on wholly, if any (a stone may not overhang)."""
        for name, centre in zip(self.island_names, self.islands, strict=True):
            if math.dist(point, centre) + self.stone_radius <= self.island_radius:
                return name
        return None

    # --- data ---------------------------------------------------------------------------------------------

    def to_json(self) -> JSON:
        return {
            "name": self.name,
            "villages": [list(p) for p in self.villages],
            "islands": [list(p) for p in self.islands],
            "island_radius": self.island_radius,
            "stone_radius": self.stone_radius,
            "plank_spans": list(self.spans),
        }


def support_order(name: str) -> tuple[int, int]:
    """Villages first, then islands, each by number: ``v2 < v10 < i1``."""
    return (0 if is_village(name) else 1, int(name[1:]))


def load_board(data: JSON) -> Board:
    """Build and validate a board from its JSON form (the bundled file's keys); extra keys are notes."""
    try:
        name = data["name"]
        if not isinstance(name, str) or not name.strip():
            raise InvalidData(f"a board needs a name, got {name!r}")
        return Board(
            name=name,
            villages=_points(data["villages"], "villages"),
            islands=_points(data["islands"], "islands"),
            island_radius=_number(data["island_radius"], "island_radius"),
            stone_radius=_number(data["stone_radius"], "stone_radius"),
            spans=tuple(_number(s, "plank_spans") for s in _list(data["plank_spans"], "plank_spans")),
        )
    except KeyError as exc:
        raise InvalidData(f"board definition lacks the key {exc.args[0]!r}") from None


@cache
def default_board() -> Board:
    """Our default layout: 6 villages round the edge, 27 islands in rings; not the published geometry."""
    data: JSON = json.loads(
        resources.files("engine").joinpath("data/riverdragons_board.json").read_text("utf-8")
    )
    return load_board(data)


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidData(f"board {what} must be a list, got {value!r}")
    return value


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidData(f"board {what} must be numbers, got {value!r}")
    return float(value)


def _points(value: Any, what: str) -> tuple[Point, ...]:
    points = []
    for i, item in enumerate(_list(value, what)):
        if not isinstance(item, list) or len(item) != 2:
            raise InvalidData(f"board {what}[{i}] must be an [x, y] pair, got {item!r}")
        points.append((_number(item[0], what), _number(item[1], what)))
    return tuple(points)
