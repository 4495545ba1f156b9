"""A workroom from above: column values, their rules, the installation cards they fit and the heights."""

from __future__ import annotations

import random

import pytest

from engine.core import InvalidData
from engine.cubist.cards import bundled_cards
from engine.cubist.structures import FACES, Structure, parse_structure
from engine.cubist.topview import TopView, column_heights

CARDS = bundled_cards()


def turned(structure: Structure, turns: int, shift: tuple[int, int]) -> Structure:
    dice = {}
    for (x, y, level), value in structure.dice.items():
        for _ in range(turns):
            x, y = -y, x
        dice[(x + shift[0], y + shift[1], level)] = value
    return Structure(dice)


def grown(rng: random.Random, count: int) -> Structure:
    structure = Structure({(0, 0, 0): rng.choice(FACES)})
    while len(structure) < count:
        options = [
            (spot, value)
            for spot in structure.candidate_positions()
            for value in FACES
            if spot[2] < 3 and structure.refusal(spot, value, "w") is None
        ]
        spot, value = rng.choice(options)
        structure = structure.with_die(spot, value)
    return structure


def test_each_column_shows_its_top_die_and_its_height_is_its_dice() -> None:
    structure = parse_structure("0,0,0=3 0,0,1=3 1,0,0=4 1,0,1=4 1,0,2=4 1,1,0=5")
    assert TopView.of(structure).values == {(0, 0): 3, (1, 0): 4, (1, 1): 5}
    assert column_heights(structure) == {(0, 0): 2, (1, 0): 3, (1, 1): 1}


def test_a_top_view_and_the_heights_give_back_the_structure() -> None:
    rng = random.Random(7)
    for _ in range(50):
        structure = grown(rng, rng.randint(1, 8))
        assert TopView.of(structure).with_heights(column_heights(structure)) == structure


def test_heights_must_cover_exactly_the_columns_seen() -> None:
    view = TopView({(0, 0): 2, (1, 0): 3})
    with pytest.raises(InvalidData, match="missing"):
        view.with_heights({(0, 0): 1})
    with pytest.raises(InvalidData, match="not seen"):
        view.with_heights({(0, 0): 1, (1, 0): 1, (2, 0): 1})
    with pytest.raises(InvalidData, match="every column holds a die"):
        view.with_heights({(0, 0): 1, (1, 0): 0})


def test_a_legal_structure_s_top_view_has_no_problems() -> None:
    rng = random.Random(11)
    for _ in range(50):
        assert TopView.of(grown(rng, rng.randint(1, 8))).problems() == []


def test_side_by_side_columns_must_differ_by_one_and_touch_as_one() -> None:
    view = TopView({(0, 0): 3, (1, 0): 5, (3, 0): 2, (0, 1): 7})
    rules = sorted(problem.rule for problem in view.problems())
    assert rules == ["connected", "die-value", "differ-by-one", "differ-by-one"]
    (apart,) = [p for p in view.problems() if p.rule == "connected"]
    assert apart.positions == ((3, 0, 0),)


def test_diagonal_columns_do_not_touch() -> None:
    assert [p.rule for p in TopView({(0, 0): 3, (1, 1): 3}).problems()] == ["connected"]


def test_every_card_is_found_from_its_own_top_view_turned_and_moved_with_its_heights() -> None:
    for card in CARDS.installations.values():
        for turns in range(4):
            seen = turned(card.structure, turns, (turns * 3 - 2, 5 - turns))
            view = TopView.of(seen)
            (match,) = [m for m in view.matching_installations(CARDS) if m.card.id == card.id]
            assert column_heights(seen) in match.heights
            for heights in match.heights:
                assert view.with_heights(heights).matches(card.structure)


def test_cards_sharing_a_top_view_are_told_apart_by_height() -> None:
    view = TopView({(4, 4): 4, (4, 5): 3})
    found = {m.card.id: m.heights for m in view.matching_installations(CARDS)}
    assert found == {
        "installation-01": ({(4, 4): 1, (4, 5): 1},),
        "installation-20": ({(4, 4): 3, (4, 5): 3},),
    }


def test_a_symmetric_top_view_offers_each_way_the_card_fits() -> None:
    # Installation 15 is 3-2-3 from above with its stack in the middle; a 3-2-3 card with the stack at an
    # end fits this view twice, its stack at either end.
    view = TopView({(0, 0): 3, (1, 0): 2, (2, 0): 3})
    end_stacked = parse_structure("0,0,0=3 0,0,1=3 1,0,0=2 2,0,0=3")
    assert set(map(lambda h: tuple(sorted(h.items())), view.placements(end_stacked))) == {
        (((0, 0), 2), ((1, 0), 1), ((2, 0), 1)),
        (((0, 0), 1), ((1, 0), 1), ((2, 0), 2)),
    }
    (match,) = view.matching_installations(CARDS)
    assert match.card.id == "installation-15" and match.heights == ({(0, 0): 1, (1, 0): 3, (2, 0): 1},)


def test_a_top_view_fits_no_card_whose_values_or_shape_differ() -> None:
    assert TopView({(0, 0): 3, (1, 0): 4, (2, 0): 3}).matching_installations(CARDS) == []
    assert TopView({(0, 0): 3, (1, 1): 4}).matching_installations(CARDS) == []
    assert TopView().matching_installations(CARDS) == []
    mirrored = TopView({(0, 0): 4, (1, 0): 3, (0, 1): 5})  # installation 04 mirrored, not turned
    assert [m.card.id for m in mirrored.matching_installations(CARDS)] == []
