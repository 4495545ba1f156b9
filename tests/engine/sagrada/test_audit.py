"""The audit of a finished window found on the table, with no history of the order the dice went in."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.sagrada.audit import NONE_WAIVED, Waivers, dice_groups, illegal_cells, window_violations
from engine.sagrada.window import BLANK_PATTERN, Cell, Die, Pattern, PlacementWaivers, Window, placement_error
from tests.engine.sagrada.window_strategies import (
    UNTIMED,
    any_windows,
    legal_windows,
    near_legal_windows,
    patterns,
    windows_placed_with_tools,
)

# Colour index (2r + c) mod 5 and value (r + c) mod 6 + 1: every orthogonal neighbour differs in both.
FULL_LEGAL = Window.parse("r1 y2 g3 b4 p5/g2 b3 p4 r5 y6/p3 r4 y5 g6 b1/y4 g5 b6 p1 r2")
BLUE_CORNER_SIX_NEXT = Pattern.from_rows("Blue corner, six next", 3, ["b6...", ".....", ".....", "....."])


def sparse(*placed: str) -> Window:
    """A window from `cell=die` pairs such as `r1c1=r1`."""
    w = Window()
    for item in placed:
        where, what = item.split("=")
        w = w.with_die(Cell.parse(where), Die.parse(what))
    return w


def rules_and_cells(
    w: Window, pattern: Pattern = BLANK_PATTERN, waivers: Waivers = NONE_WAIVED
) -> list[tuple[str, tuple[str, ...]]]:
    return [(v.rule, v.cells) for v in window_violations(w, pattern, waivers)]


def test_a_legal_full_window_has_no_violation() -> None:
    assert window_violations(FULL_LEGAL, BLANK_PATTERN) == []
    assert illegal_cells(FULL_LEGAL, BLANK_PATTERN) == frozenset()


def test_an_empty_window_has_no_violation() -> None:
    assert window_violations(Window(), BLANK_PATTERN) == []


def test_space_restrictions_are_checked_die_by_die() -> None:
    # r1c1 holds r1 where blue is printed; r1c2 holds y2 where a 6 is printed.
    found = window_violations(FULL_LEGAL, BLUE_CORNER_SIX_NEXT)
    assert [(v.rule, v.cells) for v in found] == [("space-color", ("r1c1",)), ("space-value", ("r1c2",))]
    assert found[0].message == "space r1c1 needs a blue die, got r1"
    assert found[1].message == "space r1c2 needs a 6, got y2"


def test_an_identical_orthogonal_pair_breaks_both_neighbour_rules() -> None:
    w = sparse("r1c1=r3", "r1c2=r3")
    assert rules_and_cells(w) == [
        ("neighbour-color", ("r1c1", "r1c2")),
        ("neighbour-value", ("r1c1", "r1c2")),
    ]


def test_each_clashing_pair_is_reported_once() -> None:
    # r2c2 shares its colour with r1c2 above and its value with r2c3 to the right; r2c2-r3c2 are fine.
    w = sparse("r1c2=g1", "r2c2=g4", "r2c3=b4", "r3c2=y5")
    assert rules_and_cells(w) == [
        ("neighbour-color", ("r1c2", "r2c2")),
        ("neighbour-value", ("r2c2", "r2c3")),
    ]


def test_diagonal_neighbours_may_share_colour_and_value() -> None:
    assert window_violations(sparse("r1c1=r3", "r2c2=r3"), BLANK_PATTERN) == []


def test_dice_with_no_edge_die_could_not_have_been_placed_first() -> None:
    assert rules_and_cells(sparse("r2c2=r3")) == [("no-edge-die", ("r2c2",))]
    # Two inner groups and still no edge die: every die is unreachable, reported once.
    assert rules_and_cells(sparse("r2c2=r3", "r3c4=g2")) == [("no-edge-die", ("r2c2", "r3c4"))]


def test_a_group_cut_off_from_the_edge_group_is_disconnected() -> None:
    found = window_violations(sparse("r1c1=r3", "r3c3=g2"), BLANK_PATTERN)
    assert [(v.rule, v.cells) for v in found] == [("disconnected", ("r3c3",))]
    assert "r1c1" in found[0].message


def test_the_largest_edge_group_is_kept_and_smaller_ones_reported() -> None:
    # {r1c1} touches the edge, but {r3c3 r3c4 r4c4} is larger and touches it too (r4c4), so it is kept.
    w = sparse("r1c1=r3", "r3c3=g2", "r3c4=b1", "r4c4=y3")
    assert rules_and_cells(w) == [("disconnected", ("r1c1",))]


def test_equal_edge_groups_keep_the_first_in_reading_order() -> None:
    assert rules_and_cells(sparse("r1c1=r3", "r4c5=g2")) == [("disconnected", ("r4c5",))]


def test_an_inner_group_beside_an_edge_group_is_reported_as_a_whole() -> None:
    # r1c1 and r2c2 touch diagonally; r2c4 and r3c4 touch each other but not r2c2 (two columns apart).
    w = sparse("r1c1=r3", "r2c2=g2", "r2c4=b1", "r3c4=y3")
    assert rules_and_cells(w) == [("disconnected", ("r2c4", "r3c4"))]


def test_dice_groups_follow_diagonal_contact() -> None:
    w = sparse("r1c1=r3", "r2c2=g2", "r3c3=b1", "r1c5=y3")
    assert dice_groups(w) == [(Cell(0, 0), Cell(1, 1), Cell(2, 2)), (Cell(0, 4),)]


def test_illegal_cells_gather_every_die_a_violation_names() -> None:
    # r1c1 breaks the blue space, r1c2 the 6 space, and r3c3 is cut off: each is illegal, the rest are not.
    w = sparse("r1c1=r1", "r1c2=y2", "r2c1=g3", "r3c3=p5")
    assert illegal_cells(w, BLUE_CORNER_SIX_NEXT) == {Cell(0, 0), Cell(0, 1), Cell(2, 2)}


def test_violations_serialise_with_rule_cells_and_message() -> None:
    (violation,) = window_violations(sparse("r2c2=r3"), BLANK_PATTERN)
    assert violation.to_json() == {
        "rule": "no-edge-die",
        "cells": ["r2c2"],
        "message": "no die lies on an edge or corner space, so no die could have been placed first",
    }


def test_a_waived_space_restriction_is_not_checked_for_that_die() -> None:
    w = sparse("r1c1=r1", "r1c2=y2")
    waivers = {
        Cell.parse("r1c1"): PlacementWaivers(color=True),
        Cell.parse("r1c2"): PlacementWaivers(color=True),
    }
    # r1c1's colour is excused; r1c2 only had its colour waived, so its value still breaks the 6.
    assert rules_and_cells(w, BLUE_CORNER_SIX_NEXT, waivers) == [("space-value", ("r1c2",))]


def test_a_die_placed_ignoring_adjacency_excuses_its_pairs() -> None:
    w = sparse("r1c1=r3", "r1c2=r3", "r1c3=g3")
    # r1c2 was placed ignoring adjacency: its clashes with r1c1 and r1c3 are excused.
    assert rules_and_cells(w, waivers={Cell.parse("r1c2"): PlacementWaivers(adjacency=True)}) == []


def test_a_die_placed_touching_nothing_may_start_a_group() -> None:
    w = sparse("r1c1=r3", "r3c3=g2", "r3c5=b1")
    straightedge = {Cell.parse("r3c3"): PlacementWaivers(touching=True)}
    # r3c3 stands apart by the tool; r3c5 has no such excuse, and the edge group r1c1 came first.
    assert rules_and_cells(w, waivers=straightedge) == [("disconnected", ("r3c5",))]
    assert rules_and_cells(w) == [("disconnected", ("r3c3",)), ("disconnected", ("r3c5",))]


def test_a_group_without_a_tool_or_an_edge_die_is_unreachable_even_beside_a_tool_group() -> None:
    w = sparse("r1c1=r3", "r3c3=g2")
    (violation,) = window_violations(w, BLANK_PATTERN, {Cell.parse("r1c1"): PlacementWaivers(touching=True)})
    assert (violation.rule, violation.cells) == ("disconnected", ("r3c3",))
    assert "no tool" in violation.message


def placeable_in_some_order(w: Window, pattern: Pattern) -> bool:
    """Search every placement order (memoised on the set still to place) against `placement_error`."""
    target = dict(w.placed())
    dead_ends: set[frozenset[Cell]] = set()

    def extend(current: Window, remaining: frozenset[Cell]) -> bool:
        if not remaining:
            return True
        if remaining in dead_ends:
            return False
        for cell in sorted(remaining):
            if placement_error(current, pattern, cell, target[cell]) is None and extend(
                current.with_die(cell, target[cell]), remaining - {cell}
            ):
                return True
        dead_ends.add(remaining)
        return False

    return extend(Window(), frozenset(target))


@settings(UNTIMED, max_examples=60)
@given(legal_windows())
def test_a_window_built_by_legal_placements_has_no_violation(case: tuple[Pattern, Window]) -> None:
    pattern, w = case
    assert window_violations(w, pattern) == []


@settings(UNTIMED, max_examples=40)
@given(windows_placed_with_tools())
def test_a_window_built_with_tools_is_clean_given_its_waivers(
    case: tuple[Pattern, Window, dict[Cell, PlacementWaivers]],
) -> None:
    pattern, w, waivers = case
    assert window_violations(w, pattern, waivers) == []


@settings(UNTIMED, max_examples=150)
@given(any_windows(max_dice=8), st.one_of(st.just(BLANK_PATTERN), patterns))
def test_the_audit_is_clean_exactly_when_some_placement_order_exists(w: Window, pattern: Pattern) -> None:
    assert (window_violations(w, pattern) == []) == placeable_in_some_order(w, pattern)


@settings(UNTIMED, max_examples=100)
@given(near_legal_windows())
def test_the_audit_agrees_with_placement_search_on_nearly_legal_windows(case: tuple[Pattern, Window]) -> None:
    pattern, w = case
    assert (window_violations(w, pattern) == []) == placeable_in_some_order(w, pattern)


@settings(UNTIMED, max_examples=100)
@given(any_windows(), patterns)
def test_illegal_cells_hold_dice_and_are_exactly_the_cells_violations_name(
    w: Window, pattern: Pattern
) -> None:
    named = {Cell.parse(name) for v in window_violations(w, pattern) for name in v.cells}
    assert illegal_cells(w, pattern) == named
    assert all(w[cell] is not None for cell in named)
