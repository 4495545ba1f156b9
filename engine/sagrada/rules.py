"""Sagrada rules variants as data: the official rulebook (default) and the rule text's reading.

Every point where the Chinese rule text (`sagrada.zh.txt`) differs from the published game is a field here,
so a table can play either and the engine never branches on a preset's name.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.core import InvalidData


class UnplaceableDie(Enum):
    """What happens to a die that cannot be placed legally."""

    NOT_DRAFTED = "not-drafted"  # official: you may not draft a die you cannot place
    DISCARDED = "discarded"  # text: drafted anyway, then set aside and scores nothing


class ToolCost(Enum):
    """How many favor tokens a tool card costs."""

    ONE_THEN_TWO = "one-then-two"  # official: 1 while the card holds no token, else 2
    ESCALATING = "escalating"  # text: the base cost plus 1 for every earlier use of that card


class ToolSet(Enum):
    OFFICIAL = "official"  # the 12 tool cards with their printed effects
    GENERIC = "generic"  # the text's five generic effects


class TieBreak(Enum):
    REVERSE_FINAL_ORDER = "reverse-final-order"  # official: private points, tokens, then later in last round
    SHARED = "shared"  # text: private points, tokens, then a shared victory


@dataclass(frozen=True)
class Rules:
    """One complete ruleset. `official` is the default; `text` is the rule text's reading."""

    name: str
    public_objectives: int = 3
    favor_tokens_from_pattern: bool = True  # official: the pattern's difficulty; else the fixed numbers below
    favor_tokens_fixed: int = 5
    favor_tokens_fixed_two_players: int = 7
    empty_space_penalty: int = 1
    unplaceable_die: UnplaceableDie = UnplaceableDie.NOT_DRAFTED
    tool_cost: ToolCost = ToolCost.ONE_THEN_TWO
    tool_set: ToolSet = ToolSet.OFFICIAL
    tokens_on_tool_return_to_last_user: bool = False  # text: a card's tokens go to its holder at the end
    tie_break: TieBreak = TieBreak.REVERSE_FINAL_ORDER
    leftover_to_round_track: bool = True  # text: the round's leftover die is discarded (solo keeps its track)
    rounds: int = 10
    tool_cards: int = 3
    solo_empty_space_penalty: int = 3

    def favor_tokens(self, pattern_difficulty: int, players: int) -> int:
        if self.favor_tokens_from_pattern:
            return pattern_difficulty
        return self.favor_tokens_fixed_two_players if players == 2 else self.favor_tokens_fixed

    def to_json(self) -> str:
        return self.name


OFFICIAL = Rules(name="official")

TEXT = Rules(
    name="text",
    public_objectives=2,
    favor_tokens_from_pattern=False,
    empty_space_penalty=5,
    unplaceable_die=UnplaceableDie.DISCARDED,
    tool_cost=ToolCost.ESCALATING,
    tool_set=ToolSet.GENERIC,
    tokens_on_tool_return_to_last_user=True,
    tie_break=TieBreak.SHARED,
    leftover_to_round_track=False,
)

PRESETS: dict[str, Rules] = {r.name: r for r in (OFFICIAL, TEXT)}


def rules_named(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise InvalidData(f"unknown Sagrada ruleset {name!r}; choose one of: {', '.join(PRESETS)}") from None
