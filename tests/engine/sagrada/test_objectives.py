"""The ten public objective cards and the private "Shades of <colour>", checked against hand counts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import InvalidData
from engine.sagrada.objectives import (
    PUBLIC_OBJECTIVES,
    Line,
    LineVariety,
    PrivateObjective,
    PublicObjective,
    SetCollection,
    parse_public_objectives,
    public_objective,
    public_objectives,
)
from engine.sagrada.window import ALL_CELLS, COLS, ROWS, Cell, Color, Die, Window
from tests.engine.sagrada.window_strategies import ALL_DICE, UNTIMED, any_windows

CARD_NAMES = [card.name for card in PUBLIC_OBJECTIVES]

# Colour index (r + c) mod 5, so every anti-diagonal is one colour; values run 1-5, 3-6 1, 5 6 1-3, 1-5.
CYCLIC = Window.parse("r1 y2 g3 b4 p5/y3 g4 b5 p6 r1/g5 b6 p1 r2 y3/b1 p2 r3 y4 g5")
# Colour index (2r + c) mod 5 and value (r + c) mod 6 + 1: every row and column all-different in both.
LATIN = Window.parse("r1 y2 g3 b4 p5/g2 b3 p4 r5 y6/p3 r4 y5 g6 b1/y4 g5 b6 p1 r2")
README = Window.parse("r5 g2 b1 p3 b2/p4 b6 p4 b5 y6/y6 p3 g6 r1 p3/b1 y6 p3 g2 r4")

HAND_COUNTS = {
    # CYCLIC: every row holds all five colours (4 x 6) and five different values (4 x 5); every column
    # holds four colours (5 x 5) but rows 1 and 4 carry the same values, so no column scores shades.
    # Values: 1 x4, 2 x3, 3 x4, 4 x3, 5 x4, 6 x2, so light 2 x min(4, 3), medium 2 x min(4, 3),
    # deep 2 x min(4, 2), shade sets 5 x 2; each colour 4 times, colour sets 4 x 4. Same-coloured dice lie on
    # anti-diagonals; only the corners r1c1 and r4c5 are alone on theirs, so 18 dice score a diagonal.
    "CYCLIC": (CYCLIC, [24, 25, 20, 0, 6, 6, 4, 10, 16, 18]),
    # LATIN: rows and columns all-different in colour and value: 4 x 6, 5 x 5, 4 x 5, 5 x 4. Values:
    # 1 x3, 2 x3, 3 x3, 4 x4, 5 x4, 6 x3: light 2 x 3, medium 2 x 3, deep 2 x 3, shade sets 5 x 3; colour
    # sets 4 x 4. A diagonal step changes the colour index by 1 or 3 (mod 5), so no diagonal matches.
    "LATIN": (LATIN, [24, 25, 20, 20, 6, 6, 6, 15, 16, 0]),
    # README: only row 4 (b y p g r) has five colours; columns 1, 2, 4, 5 have four colours (column 3 has
    # two purples); only row 4 (1 6 3 2 4) has five values; columns 1, 3, 4, 5 have four values (column 2
    # has two 6s). Values: 1 x3, 2 x3, 3 x4, 4 x3, 5 x2, 6 x5. Colours: red 3, green 3, blue 5, purple 6,
    # yellow 3. Diagonals: every die but r1c1 (r5), r1c2 (g2), r3c5 (p3), r4c1 (b1) and r2c5 (y6) has a
    # same-coloured diagonal neighbour: 15.
    "README": (README, [6, 20, 5, 16, 6, 6, 4, 10, 12, 15]),
}


def sparse(*placed: str) -> Window:
    """A window from `cell=die` pairs such as `r1c1=r1`."""
    w = Window()
    for item in placed:
        where, what = item.split("=")
        w = w.with_die(Cell.parse(where), Die.parse(what))
    return w


def cells(*names: str) -> tuple[Cell, ...]:
    return tuple(Cell.parse(n) for n in names)


@pytest.mark.parametrize("case", list(HAND_COUNTS))
def test_every_card_on_hand_counted_full_windows(case: str) -> None:
    window, expected = HAND_COUNTS[case]
    assert [card.score(window).points for card in PUBLIC_OBJECTIVES] == expected


def test_the_ten_cards_are_the_published_ones_in_order() -> None:
    assert CARD_NAMES == [
        "Row Color Variety",
        "Column Color Variety",
        "Row Shade Variety",
        "Column Shade Variety",
        "Light Shades",
        "Medium Shades",
        "Deep Shades",
        "Shade Variety",
        "Color Variety",
        "Color Diagonals",
    ]


def test_line_cards_credit_the_dice_of_each_qualifying_line() -> None:
    # README: only row 4 has five colours.
    result = public_objective("Row Color Variety").score(README)
    assert (result.points, result.cells) == (6, cells("r4c1", "r4c2", "r4c3", "r4c4", "r4c5"))


def test_an_incomplete_row_or_column_never_scores() -> None:
    # Take r1c1 out of LATIN: row 1 and column 1 are no longer complete, every other line still scores.
    w = LATIN.with_die(Cell(0, 0), None)
    scores = [public_objective(name).score(w).points for name in CARD_NAMES[:4]]
    assert scores == [3 * 6, 4 * 5, 3 * 5, 4 * 4]


def test_a_lone_complete_column_scores_even_in_an_empty_window() -> None:
    w = sparse("r1c3=r1", "r2c3=y2", "r3c3=g3", "r4c3=b4")
    assert public_objective("Column Color Variety").score(w).points == 5
    assert public_objective("Column Shade Variety").score(w).points == 4
    assert public_objective("Row Color Variety").score(w).points == 0


def test_a_column_with_a_repeated_colour_does_not_score() -> None:
    w = sparse("r1c3=r1", "r2c3=y2", "r3c3=r3", "r4c3=b4")
    assert public_objective("Column Color Variety").score(w).points == 0
    assert public_objective("Column Shade Variety").score(w).points == 4


def test_set_cards_count_whole_sets_and_credit_the_first_dice_of_each_kind() -> None:
    # Three 1s (r1c1, r2c1, r3c1) and two 2s (r1c2, r4c5): two light sets = 4 points; the third 1 is left.
    w = sparse("r1c1=r1", "r2c1=y1", "r3c1=g1", "r1c2=b2", "r4c5=p2")
    result = public_objective("Light Shades").score(w)
    assert (result.points, result.cells) == (4, cells("r1c1", "r1c2", "r2c1", "r4c5"))


def test_a_set_card_with_a_missing_kind_scores_nothing() -> None:
    w = sparse("r1c1=r5", "r2c1=y5", "r3c1=g5")
    result = public_objective("Deep Shades").score(w)
    assert (result.points, result.cells) == (0, ())


def test_shade_and_colour_variety_need_every_kind() -> None:
    # One of each value but no purple: one shade set (5), no colour set.
    w = sparse("r1c1=r1", "r1c2=y2", "r1c3=g3", "r1c4=b4", "r1c5=r5", "r2c1=y6")
    assert public_objective("Shade Variety").score(w).points == 5
    assert public_objective("Color Variety").score(w).points == 0
    assert public_objective("Color Variety").score(w.with_die(Cell(2, 2), Die(Color.PURPLE, 3))).points == 4


def test_color_diagonals_score_each_die_in_a_chain_once() -> None:
    # A red chain r1c1-r2c2-r3c3 plus r1c3, which touches r2c2 diagonally: four red dice, 4 points. r4c3 is
    # red too but touches r3c3 only orthogonally, and the blue r2c1 has no blue diagonal neighbour.
    w = sparse("r1c1=r1", "r2c2=r2", "r3c3=r3", "r1c3=r4", "r4c3=r5", "r2c1=b6")
    result = public_objective("Color Diagonals").score(w)
    assert (result.points, result.cells) == (4, cells("r1c1", "r1c3", "r2c2", "r3c3"))


def test_color_diagonals_ignore_different_colours_on_a_diagonal() -> None:
    w = sparse("r1c1=r1", "r2c2=g1", "r3c3=r1")
    assert public_objective("Color Diagonals").score(w).points == 0


def test_private_objective_sums_its_colours_values() -> None:
    # LATIN's reds: r1 (r1c1), r5 (r2c4), r4 (r3c2), r2 (r4c5): 1 + 5 + 4 + 2 = 12.
    result = PrivateObjective(Color.RED).score(LATIN)
    assert result.name == "Shades of Red"
    assert (result.points, result.cells) == (12, cells("r1c1", "r2c4", "r3c2", "r4c5"))
    assert PrivateObjective(Color.PURPLE).score(Window()).points == 0


@pytest.mark.parametrize("text", ["red", "R", " Red ", "shades of red", "Shades of Red"])
def test_private_objective_is_named_by_colour_or_card(text: str) -> None:
    assert PrivateObjective.parse(text) == PrivateObjective(Color.RED)


def test_an_unknown_private_objective_says_what_is_expected() -> None:
    with pytest.raises(InvalidData, match=r"'pink'.*red yellow green blue purple"):
        PrivateObjective.parse("pink")


@pytest.mark.parametrize(
    "text", ["row color variety", "ROW COLOR VARIETY", "Row Colour Variety", "rowcolorvariety"]
)
def test_cards_are_found_ignoring_case_spacing_and_spelling(text: str) -> None:
    assert public_objective(text).name == "Row Color Variety"


def test_an_unknown_card_lists_every_known_card() -> None:
    with pytest.raises(InvalidData, match="'Diagonal Shades'") as error:
        public_objective("Diagonal Shades")
    assert all(name in str(error.value) for name in CARD_NAMES)


def test_a_comma_separated_list_is_read_in_order() -> None:
    cards = parse_public_objectives("color diagonals, Light Shades,row shade variety")
    assert [c.name for c in cards] == ["Color Diagonals", "Light Shades", "Row Shade Variety"]


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("", "no public objective"),
        ("Light Shades,,Deep Shades", "empty"),
        ("Light Shades,light shades", "twice"),
    ],
)
def test_a_bad_card_list_is_rejected(text: str, complaint: str) -> None:
    with pytest.raises(InvalidData, match=complaint):
        parse_public_objectives(text)


def test_cards_named_twice_are_rejected_from_any_list() -> None:
    with pytest.raises(InvalidData, match="Deep Shades"):
        public_objectives(["Deep Shades", "deep shades"])


def mirrored(w: Window, *, rows: bool, cols: bool) -> Window:
    def source(cell: Cell) -> Cell:
        return Cell(ROWS - 1 - cell.row if rows else cell.row, COLS - 1 - cell.col if cols else cell.col)

    return Window(tuple(w[source(cell)] for cell in ALL_CELLS))


def recoloured(w: Window, mapping: dict[Color, Color]) -> Window:
    return Window(tuple(None if d is None else Die(mapping[d.color], d.value) for d in w.dice))


def revalued(w: Window, mapping: dict[int, int]) -> Window:
    return Window(tuple(None if d is None else Die(d.color, mapping[d.value]) for d in w.dice))


def points(w: Window, cards: tuple[PublicObjective, ...] = PUBLIC_OBJECTIVES) -> list[int]:
    return [card.score(w).points for card in cards]


COLOR_CARDS = public_objectives(
    ["Row Color Variety", "Column Color Variety", "Color Variety", "Color Diagonals"]
)


@settings(UNTIMED, max_examples=80)
@given(any_windows(), st.booleans(), st.booleans())
def test_every_card_ignores_mirroring(w: Window, rows: bool, cols: bool) -> None:
    assert points(mirrored(w, rows=rows, cols=cols)) == points(w)


@settings(UNTIMED, max_examples=80)
@given(any_windows(), st.permutations(list(Color)))
def test_every_card_ignores_which_colour_is_which(w: Window, order: list[Color]) -> None:
    assert points(recoloured(w, dict(zip(Color, order, strict=True)))) == points(w)


@settings(UNTIMED, max_examples=80)
@given(any_windows(), st.permutations(range(1, 7)))
def test_colour_cards_ignore_values(w: Window, order: list[int]) -> None:
    assert points(revalued(w, dict(zip(range(1, 7), order, strict=True))), COLOR_CARDS) == points(
        w, COLOR_CARDS
    )


@settings(UNTIMED, max_examples=80)
@given(any_windows(max_dice=19), st.sampled_from(ALL_CELLS), st.sampled_from(ALL_DICE))
def test_adding_a_die_never_lowers_a_card(w: Window, cell: Cell, die: Die) -> None:
    if w[cell] is None:
        after = points(w.with_die(cell, die))
        assert all(a >= b for a, b in zip(after, points(w), strict=True))


@settings(UNTIMED, max_examples=80)
@given(any_windows())
def test_points_follow_from_the_credited_dice(w: Window) -> None:
    for card in PUBLIC_OBJECTIVES:
        result = card.score(w)
        assert all(w[cell] is not None for cell in result.cells)
        assert len(set(result.cells)) == len(result.cells)
        if isinstance(card, LineVariety):
            line_length = COLS if card.line is Line.ROW else ROWS
            assert result.points == len(result.cells) // line_length * card.points_per_line
        elif isinstance(card, SetCollection):
            assert result.points == len(result.cells) // len(card.members) * card.points_per_set
        else:
            assert result.points == len(result.cells) * card.points_per_die
