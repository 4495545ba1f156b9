"""Sagrada's tool cards as data: who they are, what they cost, and which arguments their use takes.

The official deck has twelve cards with printed effects; the rule text knows five generic effects instead.
Each card's `ToolForm` says which parts of the `tool` move it needs (a drafted die, a +1/-1, moves within
the window, a target space...), so the game validates and enumerates every card the same way and only the
effect itself is card-specific (in `game.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.core import InvalidData
from engine.sagrada.rules import Rules, ToolCost, ToolSet
from engine.sagrada.window import NO_WAIVERS, Color, PlacementWaivers


class Tool(Enum):
    """Every tool card, official and generic; the value is its short identifier in JSON and errors."""

    GROZING_PLIERS = "grozing-pliers"
    EGLOMISE_BRUSH = "eglomise-brush"
    COPPER_FOIL_BURNISHER = "copper-foil-burnisher"
    LATHEKIN = "lathekin"
    LENS_CUTTER = "lens-cutter"
    FLUX_BRUSH = "flux-brush"
    GLAZING_HAMMER = "glazing-hammer"
    RUNNING_PLIERS = "running-pliers"
    CORK_BACKED_STRAIGHTEDGE = "cork-backed-straightedge"
    GRINDING_STONE = "grinding-stone"
    FLUX_REMOVER = "flux-remover"
    TAP_WHEEL = "tap-wheel"
    ADJUST_VALUE = "adjust-value"
    CHANGE_COLOR = "change-color"
    IGNORE_ADJACENCY = "ignore-adjacency"
    REROLL_DIE = "reroll-die"
    EXTRA_DRAFT = "extra-draft"

    @property
    def card(self) -> ToolCard:
        return TOOL_CARDS[self]

    @classmethod
    def parse(cls, text: str) -> Tool:
        """A tool by identifier or printed name, ignoring case, spaces and punctuation."""
        key = "".join(ch for ch in text.lower() if ch.isalnum())
        for tool in cls:
            if key in ("".join(ch for ch in tool.value if ch.isalnum()), _squash(tool.card.title)):
                return tool
        raise InvalidData(f"unknown tool card {text!r}; known: {', '.join(t.card.title for t in cls)}")


def _squash(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


@dataclass(frozen=True)
class ToolForm:
    """The arguments a card's `tool` move takes; anything not listed must be absent.

    `draft`: the card drafts a pool die (the turn's draft, unless `extra_draft`); `target`: the resulting die
    is placed at once on a named space; `moves`: how many dice of the window it moves (min, max).
    """

    draft: bool = False
    extra_draft: bool = False
    delta: bool = False
    recolor: bool = False
    swap: bool = False
    reroll: bool = False
    target: bool = False
    moves: tuple[int, int] = (0, 0)
    waivers: PlacementWaivers = NO_WAIVERS


@dataclass(frozen=True)
class ToolCard:
    """A card's printed facts: title, number in the deck, the colour that pays for it solo, its effect."""

    title: str
    number: int
    color: Color | None
    form: ToolForm
    usage: str
    effect: str


_DRAFT_PLACE = ToolForm(draft=True, target=True)

TOOL_CARDS: dict[Tool, ToolCard] = {
    Tool.GROZING_PLIERS: ToolCard(
        "Grozing Pliers",
        1,
        Color.PURPLE,
        ToolForm(draft=True, delta=True, target=True),
        "tool <k> draft <i> +1|-1 <cell>",
        "after drafting, raise or lower the die by 1 (a 6 stays below 7, a 1 above 0), then place it",
    ),
    Tool.EGLOMISE_BRUSH: ToolCard(
        "Eglomise Brush",
        2,
        Color.BLUE,
        ToolForm(moves=(1, 1), waivers=PlacementWaivers(color=True)),
        "tool <k> move <from> <to>",
        "move one die in your window ignoring colour restrictions",
    ),
    Tool.COPPER_FOIL_BURNISHER: ToolCard(
        "Copper Foil Burnisher",
        3,
        Color.RED,
        ToolForm(moves=(1, 1), waivers=PlacementWaivers(value=True)),
        "tool <k> move <from> <to>",
        "move one die in your window ignoring value restrictions",
    ),
    Tool.LATHEKIN: ToolCard(
        "Lathekin",
        4,
        Color.YELLOW,
        ToolForm(moves=(2, 2)),
        "tool <k> move <from> <to> move <from> <to>",
        "move exactly two dice in your window, obeying all placement rules",
    ),
    Tool.LENS_CUTTER: ToolCard(
        "Lens Cutter",
        5,
        Color.GREEN,
        ToolForm(draft=True, swap=True, target=True),
        "tool <k> draft <i> swap <die> <cell>",
        "after drafting, swap the die with a die on the round track, then place the die taken",
    ),
    Tool.FLUX_BRUSH: ToolCard(
        "Flux Brush",
        6,
        Color.PURPLE,
        ToolForm(draft=True),
        "tool <k> draft <i>",
        "after drafting, re-roll the die; place it, or return it to the pool if it cannot be placed",
    ),
    Tool.GLAZING_HAMMER: ToolCard(
        "Glazing Hammer",
        7,
        Color.BLUE,
        ToolForm(),
        "tool <k>",
        "re-roll every die of the pool; only on your second turn of the round, before drafting",
    ),
    Tool.RUNNING_PLIERS: ToolCard(
        "Running Pliers",
        8,
        Color.RED,
        ToolForm(draft=True, extra_draft=True, target=True),
        "tool <k> draft <i> <cell>",
        "on your first turn, after placing a die, draft and place a second one; skip your second turn",
    ),
    Tool.CORK_BACKED_STRAIGHTEDGE: ToolCard(
        "Cork-backed Straightedge",
        9,
        Color.YELLOW,
        ToolForm(draft=True, target=True, waivers=PlacementWaivers(touching=True)),
        "tool <k> draft <i> <cell>",
        "after drafting, place the die on a space touching no other die",
    ),
    Tool.GRINDING_STONE: ToolCard(
        "Grinding Stone",
        10,
        Color.GREEN,
        _DRAFT_PLACE,
        "tool <k> draft <i> <cell>",
        "after drafting, turn the die to its opposite face (7 minus its value), then place it",
    ),
    Tool.FLUX_REMOVER: ToolCard(
        "Flux Remover",
        11,
        Color.PURPLE,
        ToolForm(draft=True),
        "tool <k> draft <i>",
        "after drafting, return the die to the bag and draw one; choose its value, then place it or return "
        "it to the pool",
    ),
    Tool.TAP_WHEEL: ToolCard(
        "Tap Wheel",
        12,
        Color.BLUE,
        ToolForm(moves=(1, 2)),
        "tool <k> move <from> <to> [move <from> <to>]",
        "move up to two dice of one colour that is on the round track, obeying all placement rules",
    ),
    Tool.ADJUST_VALUE: ToolCard(
        "Adjust Value",
        1,
        None,
        ToolForm(draft=True, delta=True, target=True),
        "tool <k> draft <i> +1|-1 <cell>",
        "raise or lower the drafted die by 1 (no 6 to 7, no 1 to 0), then place it",
    ),
    Tool.CHANGE_COLOR: ToolCard(
        "Change Colour",
        2,
        None,
        ToolForm(draft=True, recolor=True, target=True),
        "tool <k> draft <i> as <colour> <cell>",
        "the drafted die counts as another colour from now on; place it",
    ),
    Tool.IGNORE_ADJACENCY: ToolCard(
        "Ignore Adjacency",
        3,
        None,
        ToolForm(draft=True, target=True, waivers=PlacementWaivers(adjacency=True)),
        "tool <k> draft <i> <cell>",
        "place the drafted die ignoring the same-colour and same-value neighbour rules",
    ),
    Tool.REROLL_DIE: ToolCard(
        "Re-roll",
        4,
        None,
        ToolForm(reroll=True),
        "tool <k> reroll <i>",
        "re-roll one die of the pool",
    ),
    Tool.EXTRA_DRAFT: ToolCard(
        "Extra Draft",
        5,
        None,
        ToolForm(draft=True, extra_draft=True, target=True),
        "tool <k> draft <i> <cell>",
        "draft and place one extra die this round, if you have a space for it",
    ),
}

TOOL_SETS: dict[ToolSet, tuple[Tool, ...]] = {
    ToolSet.OFFICIAL: tuple(t for t in Tool if t.card.color is not None),
    ToolSet.GENERIC: tuple(t for t in Tool if t.card.color is None),
}


def tool_cost(rules: Rules, tokens_on_card: int, earlier_uses: int) -> int:
    """Favor tokens the next use of a card costs: 1 then 2 (official), or 1 more per earlier use (text)."""
    if rules.tool_cost is ToolCost.ONE_THEN_TWO:
        return 1 if tokens_on_card == 0 else 2
    return 1 + earlier_uses
