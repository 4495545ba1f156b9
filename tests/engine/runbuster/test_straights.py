"""Straights, complements, extensions and the exact roll distribution."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from engine.core import ParseError
from engine.runbuster.straights import (
    ALL_STRAIGHTS,
    FACES,
    busts,
    complement,
    dashed,
    extensions,
    format_dice,
    is_straight,
    parse_dice,
    probability_roll_shows,
    roll_distribution,
    roll_probability,
)


def test_there_are_21_straights_all_consecutive() -> None:
    assert len(ALL_STRAIGHTS) == 21
    assert len(set(ALL_STRAIGHTS)) == 21
    assert all(is_straight(s) for s in ALL_STRAIGHTS)


@pytest.mark.parametrize("values", [(2, 3, 4), (3, 4, 5, 6), (1,), (1, 2, 3, 4, 5, 6), (4, 3, 5)])
def test_the_texts_straights_are_straights(values: tuple[int, ...]) -> None:
    assert is_straight(values)


@pytest.mark.parametrize("values", [(), (3, 4, 6), (4, 4, 5), (0, 1), (6, 7), (1, 3)])
def test_gaps_repeats_and_bad_values_are_not_straights(values: tuple[int, ...]) -> None:
    assert not is_straight(values)


def test_the_complement_of_2_3_4_is_1_5_6() -> None:
    assert complement((2, 3, 4)) == (1, 5, 6)
    assert complement((1, 2, 3, 4, 5)) == (6,)
    assert complement(()) == FACES


def test_a_roll_busts_a_hand_when_it_shows_the_whole_complement() -> None:
    assert busts((1, 5, 6, 6), (2, 3, 4))
    assert busts((6, 5, 1, 1, 2, 3), (2, 3, 4))
    assert not busts((1, 5, 5, 2), (2, 3, 4))


def test_empty_and_full_hands_cannot_be_busted() -> None:
    assert not busts((1, 2, 3, 4, 5, 6), ())
    assert not busts((1, 2, 3, 4, 5, 6), FACES)


def test_hand_4_5_with_roll_3_4_4_6_extends_three_ways() -> None:
    assert set(extensions((4, 5), (3, 4, 4, 6))) == {(3, 4, 5), (3, 4, 5, 6), (4, 5, 6)}


def test_hand_4_5_with_roll_1_2_4_5_cannot_extend() -> None:
    assert extensions((4, 5), (1, 2, 4, 5)) == []


def test_an_empty_hand_keeps_any_straight_of_the_roll() -> None:
    found = set(extensions((), (2, 2, 4, 5, 5, 6)))
    assert found == {(2,), (4,), (4, 5), (4, 5, 6), (5,), (5, 6), (6,)}


def test_extensions_are_listed_shortest_first() -> None:
    lengths = [len(s) for s in extensions((), (1, 2, 3, 4, 5, 6))]
    assert lengths == sorted(lengths)
    assert len(lengths) == 21


def test_notation_round_trips_and_reads_separators() -> None:
    assert format_dice((3, 4, 4, 6)) == "3446"
    assert format_dice(()) == "-"
    assert dashed((3, 4, 5)) == "3-4-5"
    for text in ("3446", "3,4,4,6", "6-4-3-4", " 3 4 4 6 "):
        assert parse_dice(text) == (3, 4, 4, 6)
    assert parse_dice("-") == ()


@pytest.mark.parametrize("text", ["7", "3,x", "0,1", "34 56", "1.5"])
def test_malformed_dice_name_the_bad_token(text: str) -> None:
    with pytest.raises(ParseError, match="not a die value"):
        parse_dice(text)


@pytest.mark.parametrize(("count", "rolls"), [(1, 6), (2, 21), (4, 126), (5, 252), (6, 462)])
def test_rolls_are_sorted_multisets_whose_probabilities_sum_to_one(count: int, rolls: int) -> None:
    distribution = roll_distribution(count)
    assert len(distribution) == rolls
    assert all(list(roll) == sorted(roll) for roll, _ in distribution)
    assert sum(p for _, p in distribution) == 1


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_multinomial_probabilities_match_counting_every_sequence(count: int) -> None:
    sequences = Counter(tuple(sorted(seq)) for seq in product(FACES, repeat=count))
    for roll, p in roll_distribution(count):
        assert p == Fraction(sequences[roll], 6**count)


def test_probability_of_roll_3_4_4_6_is_12_in_1296() -> None:
    assert roll_probability((3, 4, 4, 6)) == Fraction(12, 1296)


def test_six_dice_show_1_to_6_with_probability_5_in_324() -> None:
    assert probability_roll_shows(FACES, 6) == Fraction(5, 324)
    assert round(1 / float(Fraction(5, 324))) == 65  # the text's "about 1/65"


def test_probability_that_six_dice_show_1_5_and_6_by_inclusion_exclusion() -> None:
    expected = 1 - 3 * Fraction(5, 6) ** 6 + 3 * Fraction(4, 6) ** 6 - Fraction(3, 6) ** 6
    assert probability_roll_shows((1, 5, 6), 6) == expected
