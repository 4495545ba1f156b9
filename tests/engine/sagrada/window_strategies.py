"""Hypothesis strategies for Sagrada windows, shared by the window, audit, objective and scoring tests."""

from __future__ import annotations

from hypothesis import strategies as st

from engine.sagrada.window import (
    ALL_CELLS,
    BLANK_PATTERN,
    Color,
    Die,
    Pattern,
    Window,
    legal_placements,
    official_patterns,
)

ALL_DICE: tuple[Die, ...] = tuple(Die(color, value) for color in Color for value in range(1, 7))

dice = st.sampled_from(ALL_DICE)
patterns = st.sampled_from([BLANK_PATTERN, *official_patterns().values()])


@st.composite
def any_windows(draw: st.DrawFn, max_dice: int = 20) -> Window:
    """Windows with dice anywhere, legal or not."""
    placed = draw(st.dictionaries(st.sampled_from(ALL_CELLS), dice, max_size=max_dice))
    return Window(tuple(placed.get(cell) for cell in ALL_CELLS))


@st.composite
def legal_windows(draw: st.DrawFn, max_dice: int = 20) -> tuple[Pattern, Window]:
    """A pattern and a window built one legal placement at a time, as in play (no tool cards)."""
    pattern = draw(patterns)
    window = Window()
    for _ in range(draw(st.integers(0, max_dice))):
        options = [(cell, die) for die in ALL_DICE for cell in legal_placements(window, pattern, die)]
        if not options:
            break
        cell, die = draw(st.sampled_from(options))
        window = window.with_die(cell, die)
    return pattern, window


@st.composite
def near_legal_windows(draw: st.DrawFn, max_dice: int = 8) -> tuple[Pattern, Window]:
    """A legal window with one die taken away or swapped for another: often illegal, but only just."""
    pattern, window = draw(legal_windows(max_dice=max_dice))
    placed = [cell for cell, _ in window.placed()]
    if placed:
        cell = draw(st.sampled_from(placed))
        window = window.with_die(cell, draw(st.one_of(st.none(), dice)))
    return pattern, window
