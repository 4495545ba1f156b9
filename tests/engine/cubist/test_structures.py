"""The placement rules shared by workrooms and the museum, matching up to rotation, museum completion."""

from __future__ import annotations

import pytest

from engine.core import InvalidData, ParseError
from engine.cubist.structures import Blueprint, Structure, parse_position, parse_structure


def refusal_rule(structure: Structure, position: tuple[int, int, int], value: int) -> str | None:
    refusal = structure.refusal(position, value, "w0")
    return None if refusal is None else refusal.rule


ROW = Structure({(0, 0, 0): 3, (1, 0, 0): 4})


def test_the_first_die_of_an_empty_workroom_goes_anywhere_on_the_table() -> None:
    assert refusal_rule(Structure(), (5, -2, 0), 6) is None
    assert refusal_rule(Structure(), (0, 0, 1), 6) == "stack-support"


def test_a_new_die_must_touch_edge_to_edge_not_diagonally() -> None:
    assert refusal_rule(ROW, (2, 1, 0), 5) == "touch"
    assert refusal_rule(ROW, (3, 0, 0), 5) == "touch"
    assert refusal_rule(ROW, (2, 0, 0), 5) is None


def test_side_by_side_dice_differ_by_exactly_one() -> None:
    assert refusal_rule(ROW, (2, 0, 0), 3) is None
    assert refusal_rule(ROW, (2, 0, 0), 4) == "differ-by-one"
    assert refusal_rule(ROW, (2, 0, 0), 6) == "differ-by-one"
    refusal = ROW.refusal((-1, 0, 0), 5, "w1")
    assert refusal is not None and "beside the 3 at 0,0,0" in refusal.message


def test_every_same_level_neighbour_must_differ_by_one() -> None:
    corner = Structure({(0, 0, 0): 3, (1, 0, 0): 4, (0, 1, 0): 2})
    assert refusal_rule(corner, (1, 1, 0), 3) is None
    assert refusal_rule(corner, (1, 1, 0), 5) == "differ-by-one"


def test_a_stacked_die_equals_the_die_below_and_needs_one() -> None:
    assert refusal_rule(ROW, (0, 0, 1), 3) is None
    assert refusal_rule(ROW, (0, 0, 1), 4) == "stack-equal"
    assert refusal_rule(ROW, (2, 0, 1), 5) == "stack-support"


def test_stacked_dice_side_by_side_on_a_level_differ_by_one() -> None:
    stacked = ROW.with_die((0, 0, 1), 3)
    assert refusal_rule(stacked, (1, 0, 1), 4) is None
    assert refusal_rule(Structure({(0, 0, 0): 3, (0, 0, 1): 3, (1, 0, 0): 2}), (1, 0, 1), 2) is None


def test_an_occupied_position_and_bad_values_are_refused() -> None:
    assert refusal_rule(ROW, (0, 0, 0), 2) == "occupied"
    assert refusal_rule(ROW, (2, 0, 0), 7) == "die-value"


def test_candidate_positions_are_the_free_faces_of_the_structure() -> None:
    assert list(Structure().candidate_positions()) == [(0, 0, 0)]
    assert set(Structure({(0, 0, 0): 1}).candidate_positions()) == {
        (1, 0, 0),
        (-1, 0, 0),
        (0, 1, 0),
        (0, -1, 0),
        (0, 0, 1),
    }


def test_problems_name_each_broken_rule() -> None:
    bad = Structure({(0, 0, 0): 3, (1, 0, 0): 5, (0, 0, 1): 4, (3, 3, 0): 1, (5, 5, 2): 2})
    rules = {p.rule for p in bad.problems()}
    assert rules == {"differ-by-one", "stack-equal", "stack-support", "connected"}
    assert ROW.problems() == []


def test_removal_may_not_split_a_structure_or_leave_a_die_floating() -> None:
    line = Structure({(0, 0, 0): 2, (1, 0, 0): 3, (2, 0, 0): 4, (0, 0, 1): 2})
    removal = line.removal_refusal((1, 0, 0), "w0")
    assert removal is not None and removal.rule == "connected"
    removal = line.removal_refusal((0, 0, 0), "w0")
    assert removal is not None and removal.rule == "stack-support"
    assert line.removal_refusal((2, 0, 0), "w0") is None
    assert line.removal_refusal((0, 0, 1), "w0") is None


def test_a_structure_matches_its_four_turns_and_any_translation() -> None:
    l_shape = Structure({(0, 0, 0): 4, (1, 0, 0): 5, (0, 1, 0): 3, (0, 1, 1): 3})
    turned = Structure({(-y + 7, x - 2, z): v for (x, y, z), v in l_shape.dice.items()})
    assert l_shape.matches(turned)
    half_turn = Structure({(-x, -y, z): v for (x, y, z), v in l_shape.dice.items()})
    assert l_shape.matches(half_turn)


def test_a_mirror_image_or_other_values_do_not_match() -> None:
    chiral = Structure({(0, 0, 0): 1, (1, 0, 0): 2, (1, 1, 0): 3, (2, 1, 0): 4})
    mirrored = Structure({(-x, y, z): v for (x, y, z), v in chiral.dice.items()})
    assert not chiral.matches(mirrored)
    assert not ROW.matches(Structure({(0, 0, 0): 4, (1, 0, 0): 5}))
    assert not ROW.matches(Structure({(0, 0, 0): 3, (0, 0, 1): 3}))


BLUEPRINT = Blueprint({(0, 0): 1, (1, 0): 2, (2, 0): 1}, (0, 0))


def test_a_blueprint_is_complete_when_every_position_is_filled() -> None:
    done = Structure({(0, 0, 0): 3, (1, 0, 0): 4, (1, 0, 1): 4, (2, 0, 0): 5})
    assert BLUEPRINT.is_complete(done)
    assert not BLUEPRINT.is_complete(done.without((1, 0, 1)))
    assert len(BLUEPRINT) == 4


def test_museum_completion_respects_the_dice_already_there() -> None:
    assert BLUEPRINT.completion(Structure({(0, 0, 0): 3, (1, 0, 0): 4})) is not None
    # 1 beside the middle column forces it to 2, so the far end must be 1 or 3: a 5 there is a dead end
    assert BLUEPRINT.completion(Structure({(0, 0, 0): 1, (2, 0, 0): 5})) is None
    assert BLUEPRINT.completion(Structure({(0, 0, 0): 1, (3, 0, 0): 2})) is None
    assert BLUEPRINT.completion(Structure({(0, 0, 0): 1, (0, 0, 1): 1})) is None


def test_a_blueprint_must_be_connected_and_hold_its_cornerstone() -> None:
    with pytest.raises(InvalidData, match="connected"):
        Blueprint({(0, 0): 1, (2, 0): 1}, (0, 0))
    with pytest.raises(InvalidData, match="cornerstone"):
        Blueprint({(0, 0): 1}, (1, 0))


def test_positions_parse_as_three_integers() -> None:
    assert parse_position("1,-2,0") == (1, -2, 0)
    with pytest.raises(ParseError, match="x,y,level"):
        parse_position("1,2")


def test_the_structure_notation_round_trips_and_names_what_is_malformed() -> None:
    tower = Structure({(0, 0, 0): 3, (1, 0, 0): 4, (1, 0, 1): 4})
    assert str(tower) == "0,0,0=3 1,0,0=4 1,0,1=4"
    assert parse_structure(str(tower)) == tower
    assert parse_structure("-") == Structure()
    for text, named in (("0,0,0", "0,0,0"), ("0,0=3", "0,0"), ("0,0,0=3 0,0,0=4", "two dice at 0,0,0")):
        with pytest.raises(ParseError, match=named):
            parse_structure(text)
