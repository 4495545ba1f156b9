"""Straights, their complements ("run busters") and the exact distribution of a roll of dice.

A hand or a roll is a sorted tuple of die values (`Dice`). A hand on the table should be a straight: distinct
consecutive values, such as ``(3, 4, 5)``; the empty hand ``()`` is allowed and cannot be busted. Positions
read from a table may hold anything, so these helpers take plain tuples and `is_straight` says which are
valid. Dice are written as their digits (``345``) in move notation and with dashes (``3-4-5``) in messages;
``-`` is the empty hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from fractions import Fraction
from functools import cache
from itertools import pairwise
from math import factorial, prod

from engine.core import ParseError

FACES = tuple(range(1, 7))
DICE_PER_PLAYER = 6
FULL_STRAIGHT: tuple[int, ...] = FACES

Dice = tuple[int, ...]


def straight(low: int, high: int) -> Dice:
    """The straight from `low` to `high`, both included."""
    return tuple(range(low, high + 1))


# Every straight of 1..6: the 21 intervals, shortest first, then by their lowest value.
ALL_STRAIGHTS: tuple[Dice, ...] = tuple(
    straight(low, low + length - 1) for length in range(1, 7) for low in range(1, 8 - length)
)


def is_straight(values: Iterable[int]) -> bool:
    """Distinct consecutive face values, at least one."""
    ordered = sorted(values)
    return (
        bool(ordered) and all(v in FACES for v in ordered) and all(b == a + 1 for a, b in pairwise(ordered))
    )


def complement(hand: Dice) -> Dice:
    """The run buster of a hand: the values missing to make 1-6, e.g. 2-3-4 -> 1-5-6."""
    return tuple(v for v in FACES if v not in hand)


def busts(roll: Iterable[int], hand: Dice) -> bool:
    """Whether `roll` shows every value of the hand's complement; an empty or full hand cannot be busted."""
    if not hand or hand == FULL_STRAIGHT:
        return False
    return set(complement(hand)) <= set(roll)


def extensions(hand: Dice, roll: Iterable[int]) -> list[Dice]:
    """Every straight the hand may become using at least one rolled die, shortest first.

    With an empty hand these are the straights made of rolled values alone. The rule text says a straight
    must be "the longest possible", but its own examples keep partial straights (roll 2-2-4-5-5-6 offers 4-5
    besides 4-5-6; hand 4-5 with roll 3-4-4-6 offers 3-4-5 besides 3-4-5-6), so every extension is offered.
    """
    shown = set(roll)
    held = set(hand)
    return [
        candidate for candidate in ALL_STRAIGHTS if held < set(candidate) and set(candidate) - held <= shown
    ]


def format_dice(values: Iterable[int]) -> str:
    """Digits for move notation: ``345``, or ``-`` for no dice."""
    return "".join(str(v) for v in values) or "-"


def dashed(values: Iterable[int]) -> str:
    """Values joined by dashes for messages: ``3-4-5``, or ``-`` for no dice."""
    return "-".join(str(v) for v in values) or "-"


def parse_dice(text: str) -> Dice:
    """Read ``3446``, ``3,4,4,6``, ``3-4-4-6`` or ``3 4 4 6`` (``-`` or nothing is no dice), sorted."""
    stripped = text.strip()
    if stripped in ("", "-"):
        return ()
    separated = any(sep in stripped for sep in ",- ")
    tokens = stripped.replace(",", " ").replace("-", " ").split() if separated else list(stripped)
    values = []
    for token in tokens:
        if not token.isdigit() or not 1 <= int(token) <= 6:
            raise ParseError(f"malformed dice {text!r}: {token!r} is not a die value 1-6")
        values.append(int(token))
    return tuple(sorted(values))


def roll_probability(roll: Dice) -> Fraction:
    """The chance that len(roll) fair dice show exactly this multiset: a multinomial over 6**k sequences."""
    arrangements = factorial(len(roll)) // prod(factorial(n) for n in Counter(roll).values())
    return Fraction(arrangements, 6 ** len(roll))


def _multisets(count: int, lowest: int) -> Iterator[Dice]:
    if count == 0:
        yield ()
        return
    for value in range(lowest, 7):
        for rest in _multisets(count - 1, value):
            yield (value, *rest)


@cache
def roll_distribution(count: int) -> tuple[tuple[Dice, Fraction], ...]:
    """Every sorted roll of `count` dice with its exact probability (462 rolls for six dice)."""
    if not 0 <= count <= DICE_PER_PLAYER:
        raise ValueError(f"a player rolls 0-6 dice, not {count}")
    return tuple((roll, roll_probability(roll)) for roll in _multisets(count, 1))


def probability_roll_shows(values: Iterable[int], count: int) -> Fraction:
    """The chance that `count` dice show every one of `values` (at least once each)."""
    wanted = set(values)
    return sum((p for roll, p in roll_distribution(count) if wanted <= set(roll)), Fraction(0))
