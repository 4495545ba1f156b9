"""Final scores under both rulesets: objectives, private, favor tokens, empty spaces and illegal dice."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import InvalidData
from engine.sagrada.objectives import PUBLIC_OBJECTIVES, parse_public_objectives
from engine.sagrada.rules import OFFICIAL, TEXT, Rules
from engine.sagrada.scoring import ranking_key, score_window
from engine.sagrada.window import (
    ALL_CELLS,
    BLANK_PATTERN,
    Cell,
    Color,
    Die,
    Pattern,
    PlacementWaivers,
    Window,
    legal_placements,
)
from tests.engine.sagrada.window_strategies import ALL_DICE, UNTIMED, any_windows, legal_windows, patterns

# Colour index (2r + c) mod 5 and value (r + c) mod 6 + 1: a legal full window on a blank pattern in which
# every row and column is all-different. Reds: r1c1 1, r2c4 5, r3c2 4, r4c5 2 (12); blues: r1c4 4,
# r2c2 3, r3c5 1, r4c3 6 (14). No two same-coloured dice touch diagonally.
LATIN = Window.parse("r1 y2 g3 b4 p5/g2 b3 p4 r5 y6/p3 r4 y5 g6 b1/y4 g5 b6 p1 r2")
ROWS_AND_DIAGONALS = parse_public_objectives("Row Color Variety, Color Diagonals")
ROWS_AND_COLUMNS = parse_public_objectives("Row Color Variety, Column Color Variety")
SIX_IN_THE_CORNER = Pattern.from_rows("Six in the corner", 3, ["6....", ".....", ".....", "....."])


@pytest.mark.parametrize("rules", [OFFICIAL, TEXT])
def test_a_legal_full_window_scores_the_same_under_both_rulesets(rules: Rules) -> None:
    # Four rows of five colours (4 x 6 = 24), no colour diagonal, Shades of Red 12, 3 tokens, no empty space.
    result = score_window(
        LATIN, BLANK_PATTERN, objectives=ROWS_AND_DIAGONALS, private=Color.RED, favor_tokens=3, rules=rules
    )
    assert [o.points for o in result.objectives] == [24, 0]
    assert (result.private_points, result.favor_tokens, result.empty_spaces) == (12, 3, 0)
    assert (result.violations, result.illegal_dice) == ((), ())
    assert result.total == 39


@pytest.mark.parametrize(("rules", "total"), [(OFFICIAL, 30), (TEXT, 26)])
def test_a_die_on_the_wrong_space_scores_as_an_empty_space(rules: Rules, total: int) -> None:
    # r1 lies where a 6 is printed: lifted out, row 1 is incomplete (3 rows x 6 = 18), red loses its 1
    # (11), 2 tokens, and one empty space costs 1 (official) or 5 (text): 30 or 26.
    result = score_window(
        LATIN,
        SIX_IN_THE_CORNER,
        objectives=ROWS_AND_DIAGONALS,
        private=Color.RED,
        favor_tokens=2,
        rules=rules,
    )
    assert result.illegal_dice == (Cell(0, 0),)
    assert [v.rule for v in result.violations] == ["space-value"]
    assert (result.objectives[0].points, result.private_points, result.empty_spaces) == (18, 11, 1)
    assert result.total == total


@pytest.mark.parametrize(("rules", "total"), [(OFFICIAL, 42), (TEXT, 34)])
def test_both_dice_of_a_clashing_pair_score_as_empty(rules: Rules, total: int) -> None:
    # r1c2 becomes r2 beside r1: both red dice are lifted. Rows 2-4 score colour variety (18), columns
    # 3-5 do (15), red keeps 5 + 4 + 2 (11), two empty spaces cost 2 (official) or 10 (text).
    w = LATIN.with_die(Cell.parse("r1c2"), Die(Color.RED, 2))
    result = score_window(w, BLANK_PATTERN, objectives=ROWS_AND_COLUMNS, private=Color.RED, rules=rules)
    assert [(v.rule, v.cells) for v in result.violations] == [("neighbour-color", ("r1c1", "r1c2"))]
    assert result.illegal_dice == (Cell(0, 0), Cell(0, 1))
    assert [o.points for o in result.objectives] == [18, 15]
    assert (result.private_points, result.empty_spaces) == (11, 2)
    assert result.total == total


# LATIN without row 4: still legal, five empty spaces; red keeps 1 + 5 + 4 (10), blue 4 + 3 + 1 (8).
THREE_ROWS = Window(tuple(None if cell.row == 3 else LATIN[cell] for cell in ALL_CELLS))


@pytest.mark.parametrize(("rules", "total"), [(OFFICIAL, 23), (TEXT, 3)])
def test_empty_spaces_cost_the_rulesets_penalty(rules: Rules, total: int) -> None:
    # Rows 1-3 score 18, no column is complete, red 10, five empty spaces: -5 (official) or -25 (text).
    result = score_window(
        THREE_ROWS, BLANK_PATTERN, objectives=ROWS_AND_COLUMNS, private=Color.RED, rules=rules
    )
    assert [o.points for o in result.objectives] == [18, 0]
    assert result.empty_spaces == 5
    assert result.total == total


def test_solo_scoring_takes_the_better_private_and_its_own_penalty() -> None:
    # Solo: red 10 beats blue 8, no tokens, five empty spaces at 3 each: 18 + 10 - 15 = 13.
    result = score_window(
        THREE_ROWS,
        BLANK_PATTERN,
        objectives=ROWS_AND_COLUMNS,
        private=(Color.BLUE, Color.RED),
        empty_space_penalty=OFFICIAL.solo_empty_space_penalty,
    )
    assert [p.points for p in result.privates] == [8, 10]
    assert result.private is not None and result.private.name == "Shades of Red"
    assert result.total == 13
    # On the full window blue (14) beats red (12).
    full = score_window(LATIN, BLANK_PATTERN, objectives=(), private=(Color.RED, Color.BLUE))
    assert (full.private_points, full.total) == (14, 14)


def test_a_die_a_tool_let_break_a_rule_still_scores() -> None:
    # The r1 on SIX_IN_THE_CORNER's 6 was placed with its value waived: nothing is lifted, 24 + 12 = 36.
    waived = {Cell(0, 0): PlacementWaivers(value=True)}
    result = score_window(
        LATIN, SIX_IN_THE_CORNER, objectives=ROWS_AND_DIAGONALS, private=Color.RED, waivers=waived
    )
    assert (result.violations, result.illegal_dice, result.total) == ((), (), 36)


def test_without_a_private_objective_it_scores_nothing() -> None:
    result = score_window(LATIN, BLANK_PATTERN, objectives=ROWS_AND_DIAGONALS)
    assert (result.private, result.private_points, result.total) == (None, 0, 24)
    assert result.to_json()["private_objective"] is None


@pytest.mark.parametrize(("tokens", "penalty", "complaint"), [(-1, None, "favor tokens"), (0, -3, "penalty")])
def test_negative_tokens_or_penalties_are_rejected(tokens: int, penalty: int | None, complaint: str) -> None:
    with pytest.raises(InvalidData, match=complaint):
        score_window(LATIN, BLANK_PATTERN, objectives=(), favor_tokens=tokens, empty_space_penalty=penalty)


def test_the_json_score_object_names_every_part() -> None:
    w = LATIN.with_die(Cell.parse("r1c2"), Die(Color.RED, 2))
    result = score_window(w, BLANK_PATTERN, objectives=ROWS_AND_COLUMNS, private=Color.RED, favor_tokens=4)
    data = json.loads(json.dumps(result.to_json()))
    assert data["total"] == 18 + 15 + 11 + 4 - 2
    assert data["objectives"] == {"Row Color Variety": 18, "Column Color Variety": 15}
    assert data["objective_cells"]["Row Color Variety"][:5] == ["r2c1", "r2c2", "r2c3", "r2c4", "r2c5"]
    assert (data["private"], data["private_objective"]) == (11, "Shades of Red")
    assert data["private_cells"] == ["r2c4", "r3c2", "r4c5"]
    assert (data["favor_tokens"], data["empty_spaces"], data["empty_space_points"]) == (4, 2, -2)
    assert data["illegal_dice"] == ["r1c1", "r1c2"]
    assert data["violations"] == [
        {
            "rule": "neighbour-color",
            "cells": ["r1c1", "r1c2"],
            "message": "r1 on r1c1 and r2 on r1c2 share an edge and are both red",
        }
    ]
    assert (data["window"], data["pattern"], data["rules"]) == (str(w), "Blank", "official")


@settings(UNTIMED, max_examples=80)
@given(any_windows(), patterns, st.integers(0, 6), st.sampled_from([OFFICIAL, TEXT]))
def test_the_total_is_the_sum_of_its_parts_and_illegal_dice_earn_nothing(
    w: Window, pattern: Pattern, tokens: int, rules: Rules
) -> None:
    result = score_window(
        w, pattern, objectives=PUBLIC_OBJECTIVES, private=tuple(Color), favor_tokens=tokens, rules=rules
    )
    parts = [o.points for o in result.objectives] + [result.private_points, tokens]
    assert result.total == sum(parts) - result.empty_spaces * rules.empty_space_penalty
    assert result.empty_spaces == sum(1 for d in w.dice if d is None) + len(result.illegal_dice)
    credited = {cell for part in (*result.objectives, *result.privates) for cell in part.cells}
    assert credited.isdisjoint(result.illegal_dice)


def every_card(w: Window, pattern: Pattern, color: Color) -> int:
    return score_window(w, pattern, objectives=PUBLIC_OBJECTIVES, private=color).total


@settings(UNTIMED, max_examples=40)
@given(legal_windows(max_dice=19), st.sampled_from(ALL_DICE), st.sampled_from(list(Color)), st.data())
def test_a_legal_placement_always_raises_the_score(
    case: tuple[Pattern, Window], die: Die, color: Color, data: st.DataObject
) -> None:
    pattern, w = case
    cells = list(legal_placements(w, pattern, die))
    if cells:
        after = w.with_die(data.draw(st.sampled_from(cells)), die)
        assert every_card(after, pattern, color) > every_card(w, pattern, color)


def test_ties_go_to_private_points_then_tokens_then_the_later_seat_or_a_shared_place() -> None:
    # Windows on a blank pattern with no public objectives, so each tie-breaker is seen on its own.
    six = Window.parse("r6 -- -- -- --/-- -- -- -- --/-- -- -- -- --/-- -- -- -- --")

    def key(window: Window, private: Color, tokens: int, seat: int, rules: Rules) -> tuple[int, ...]:
        breakdown = score_window(window, BLANK_PATTERN, objectives=(), private=private, favor_tokens=tokens)
        return ranking_key(breakdown, seat, rules)

    # equal totals (-19 + 6 + 0 = -13 and -19 + 0 + 6 = -13): the private objective decides
    assert key(six, Color.RED, 0, 0, OFFICIAL) > key(six, Color.BLUE, 6, 1, OFFICIAL)
    # equal totals (6 + 2 - 19 = -11 and 6 + 1 - 18 = -11) and private points: the favor tokens left decide
    six_one = Window.parse("r6 y1 -- -- --/-- -- -- -- --/-- -- -- -- --/-- -- -- -- --")
    assert key(six, Color.RED, 2, 0, OFFICIAL) > key(six_one, Color.RED, 1, 1, OFFICIAL)
    # all equal: the official rules favour the later seat of the final round, the text's share the place
    assert key(six, Color.RED, 0, 1, OFFICIAL) > key(six, Color.RED, 0, 0, OFFICIAL)
    assert key(six, Color.RED, 0, 1, TEXT) == key(six, Color.RED, 0, 0, TEXT)
