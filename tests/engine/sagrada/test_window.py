"""The placement rules of `engine.sagrada.window`, one rule at a time, and the window notation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from engine.core import InvalidData, ParseError
from engine.sagrada.window import (
    ALL_CELLS,
    BLANK_PATTERN,
    Cell,
    Color,
    Die,
    Pattern,
    PlacementWaivers,
    Window,
    can_place,
    find_pattern,
    legal_placements,
    official_patterns,
    placement_error,
)
from tests.engine.sagrada.window_strategies import UNTIMED, any_windows, dice

# Row 1 demands red at c1 and a 4 at c2; everything else is white.
RED_THEN_FOUR = Pattern.from_rows("Red then four", 3, ["r4...", ".....", ".....", "....."])


def cell(name: str) -> Cell:
    return Cell.parse(name)


def die(text: str) -> Die:
    return Die.parse(text)


def window(*placed: tuple[str, str]) -> Window:
    result = Window()
    for where, what in placed:
        result = result.with_die(cell(where), die(what))
    return result


def rule(w: Window, where: str, what: str, pattern: Pattern = BLANK_PATTERN, **waivers: bool) -> str | None:
    error = placement_error(w, pattern, cell(where), die(what), PlacementWaivers(**waivers))
    return error.rule if error is not None else None


class TestNotation:
    def test_window_round_trips_through_text(self) -> None:
        text = "r5 g2 b1 p3 b2/p4 b6 p4 b5 y6/y6 p3 g6 r1 p3/b1 y6 p3 g2 --"
        assert str(Window.parse(text)) == text

    def test_cells_are_named_one_based_from_the_top_left(self) -> None:
        assert str(Cell(0, 0)) == "r1c1"
        assert Cell.parse("R4C5") == Cell(3, 4)

    @pytest.mark.parametrize(
        ("text", "names"),
        [
            ("r5 g2 b1 p3 b2/p4 b6 p4 b5 y6/y6 p3 g6 r1 p3", "4 rows"),
            ("r5 g2 b1 p3/p4 b6 p4 b5 y6/y6 p3 g6 r1 p3/b1 y6 p3 g2 r4", "row 1"),
            ("r5 g2 b1 p3 b2/p4 b6 x4 b5 y6/y6 p3 g6 r1 p3/b1 y6 p3 g2 r4", "r2c3"),
            ("r5 g2 b1 p3 b2/p4 b6 p4 b5 y6/y6 p3 g7 r1 p3/b1 y6 p3 g2 r4", "r3c3"),
        ],
    )
    def test_a_malformed_window_names_where(self, text: str, names: str) -> None:
        with pytest.raises(ParseError, match=names):
            Window.parse(text)

    def test_colours_parse_by_letter_or_name(self) -> None:
        assert Color.parse("P") is Color.PURPLE
        assert Color.parse(" blue ") is Color.BLUE
        with pytest.raises(ParseError, match="pink"):
            Color.parse("pink")

    @pytest.mark.parametrize("text", ["r0", "r7", "rr", "r", "q3"])
    def test_bad_dice_are_rejected(self, text: str) -> None:
        with pytest.raises(ParseError):
            Die.parse(text)

    def test_official_patterns_are_all_present_and_found_loosely(self) -> None:
        assert len(official_patterns()) == 24
        assert find_pattern("suns glory").name == "Sun's Glory"
        with pytest.raises(InvalidData, match="Sun's Glory"):
            find_pattern("Moon's Glory")

    def test_a_pattern_with_equal_orthogonal_restrictions_is_rejected(self) -> None:
        with pytest.raises(InvalidData, match="r1c1 and r1c2"):
            Pattern.from_rows("Clash", 3, ["rr...", ".....", ".....", "....."])


class TestPlacementRules:
    def test_first_die_goes_on_an_edge_or_corner(self) -> None:
        assert rule(Window(), "r1c1", "r1") is None
        assert rule(Window(), "r3c5", "r1") is None
        assert rule(Window(), "r2c3", "r1") == "first-die-edge"

    def test_a_later_die_must_touch_one_diagonals_included(self) -> None:
        start = window(("r1c1", "r1"))
        assert rule(start, "r2c2", "g2") is None  # diagonal contact is enough
        assert rule(start, "r1c3", "g2") == "must-touch"
        assert rule(start, "r3c3", "g2") == "must-touch"

    def test_an_occupied_space_takes_no_die(self) -> None:
        assert rule(window(("r1c1", "r1")), "r1c1", "g2") == "occupied"

    def test_space_colour_and_value_restrictions(self) -> None:
        assert rule(Window(), "r1c1", "r3", RED_THEN_FOUR) is None
        assert rule(Window(), "r1c1", "b3", RED_THEN_FOUR) == "space-color"
        assert rule(Window(), "r1c2", "b4", RED_THEN_FOUR) is None
        assert rule(Window(), "r1c2", "b5", RED_THEN_FOUR) == "space-value"

    def test_orthogonal_neighbours_differ_in_colour_and_value(self) -> None:
        start = window(("r1c1", "r1"))
        assert rule(start, "r1c2", "r3") == "neighbour-color"
        assert rule(start, "r2c1", "g1") == "neighbour-value"
        assert rule(start, "r2c1", "g2") is None

    def test_diagonal_neighbours_may_match(self) -> None:
        assert rule(window(("r1c1", "r1")), "r2c2", "r1") is None

    def test_tool_waivers_lift_only_their_own_rule(self) -> None:
        assert rule(Window(), "r1c1", "b3", RED_THEN_FOUR, color=True) is None
        assert rule(Window(), "r1c2", "b5", RED_THEN_FOUR, value=True) is None
        assert rule(Window(), "r1c2", "b5", RED_THEN_FOUR, color=True) == "space-value"
        start = window(("r1c1", "r1"))
        assert rule(start, "r1c2", "r3", adjacency=True) is None
        assert rule(start, "r1c2", "r3", color=True) == "neighbour-color"

    def test_cork_backed_straightedge_must_touch_no_die(self) -> None:
        start = window(("r1c1", "r1"))
        assert rule(start, "r3c3", "g2", touching=True) is None
        assert rule(start, "r2c2", "g2", touching=True) == "not-touching"

    def test_legal_placements_lists_every_legal_space_and_no_other(self) -> None:
        start = window(("r1c1", "r1"))
        # r1c2 and r2c1 touch r1 orthogonally, r2c2 diagonally; a g1 clashes with the 1 on r1c1 except
        # diagonally, so only r2c2 takes it.
        assert set(legal_placements(start, BLANK_PATTERN, die("g1"))) == {cell("r2c2")}
        assert set(legal_placements(start, BLANK_PATTERN, die("g2"))) == {
            cell(n) for n in ("r1c2", "r2c1", "r2c2")
        }

    def test_the_first_die_may_go_on_any_of_the_fourteen_edge_spaces(self) -> None:
        assert len(list(legal_placements(Window(), BLANK_PATTERN, die("g2")))) == 14


@settings(UNTIMED, max_examples=60)
@given(any_windows(max_dice=12), dice)
def test_legal_placements_agree_with_can_place(w: Window, d: Die) -> None:
    expected = {c for c in ALL_CELLS if can_place(w, BLANK_PATTERN, c, d)}
    assert set(legal_placements(w, BLANK_PATTERN, d)) == expected
