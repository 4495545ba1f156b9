"""Hypothesis strategies for Sagrada windows, shared by the window, audit, objective and scoring tests."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from engine.sagrada.window import (
    ALL_CELLS,
    BLANK_PATTERN,
    NO_WAIVERS,
    Cell,
    Color,
    Die,
    Pattern,
    PlacementWaivers,
    Window,
    legal_placements,
    official_patterns,
)

# Building windows placement by placement is slow on a busy machine; time is never what these tests check.
UNTIMED = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])

ALL_DICE: tuple[Die, ...] = tuple(Die(color, value) for color in Color for value in range(1, 7))

dice = st.sampled_from(ALL_DICE)
patterns = st.sampled_from([BLANK_PATTERN, *official_patterns().values()])
draft_pools = st.lists(dice, min_size=5, max_size=5)  # the dice rolled for a two-player round


@st.composite
def any_windows(draw: st.DrawFn, max_dice: int = 20) -> Window:
    """Windows with dice anywhere, legal or not."""
    placed = draw(st.dictionaries(st.sampled_from(ALL_CELLS), dice, max_size=max_dice))
    return Window(tuple(placed.get(cell) for cell in ALL_CELLS))


@st.composite
def legal_windows(draw: st.DrawFn, max_dice: int = 20) -> tuple[Pattern, Window]:
    """A pattern and a window built one legal placement at a time from a pool of dice, as in play."""
    pattern = draw(patterns)
    window = Window()
    for _ in range(draw(st.integers(0, max_dice))):
        pool = draw(draft_pools)
        options = [(cell, die) for die in pool for cell in legal_placements(window, pattern, die)]
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


TOOL_WAIVERS = (
    PlacementWaivers(color=True),
    PlacementWaivers(value=True),
    PlacementWaivers(touching=True),
    PlacementWaivers(adjacency=True),
)


@st.composite
def windows_placed_with_tools(
    draw: st.DrawFn, max_dice: int = 20
) -> tuple[Pattern, Window, dict[Cell, PlacementWaivers]]:
    """A window built by legal placements, some made under a tool's waiver, and the waivers by cell."""
    pattern = draw(patterns)
    window = Window()
    waived: dict[Cell, PlacementWaivers] = {}
    for _ in range(draw(st.integers(0, max_dice))):
        waivers = draw(st.one_of(st.just(NO_WAIVERS), st.sampled_from(TOOL_WAIVERS)))
        options = [
            (cell, die) for die in ALL_DICE for cell in legal_placements(window, pattern, die, waivers)
        ]
        if not options:
            continue
        cell, die = draw(st.sampled_from(options))
        window = window.with_die(cell, die)
        if waivers != NO_WAIVERS:
            waived[cell] = waivers
    return pattern, window, waived
