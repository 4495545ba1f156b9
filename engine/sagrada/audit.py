"""The audit of a window found on the table: every rule its dice break, with no placement history.

A photo shows where the dice lie, not the order they went in. Space and neighbour rules can be checked die by
die; the placement rules (first die on an edge, every later die touching an earlier one) hold for *some*
order exactly when the dice form one 8-connected group holding at least one edge die, since a breadth-first
walk from that edge die is such an order. When they do not, the audit keeps the largest group that holds an
edge die (the first in reading order on a tie) and reports every other group as unreachable.

A game in progress knows which dice a tool card let break a rule; `waivers` names them per cell. A waived
space restriction is not checked for that die, a pair of neighbours is excused when either die was placed
ignoring adjacency, and a group holding a die placed touching nothing (Cork-backed Straightedge) may stand
apart, since that die could have started it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from engine.core import Violation
from engine.sagrada.window import ALL_CELLS, NO_WAIVERS, Cell, Pattern, PlacementWaivers, Window

Waivers = Mapping[Cell, PlacementWaivers]
NONE_WAIVED: Waivers = MappingProxyType({})

# Neighbour tables by cell index, built once: the audit runs on every photo and every score.
_LATER_ORTHOGONAL: tuple[tuple[int, ...], ...] = tuple(
    tuple(other.index for other in cell.orthogonal() if other > cell) for cell in ALL_CELLS
)
_TOUCHING: tuple[tuple[int, ...], ...] = tuple(
    tuple(other.index for other in cell.neighbours()) for cell in ALL_CELLS
)


@dataclass(frozen=True)
class WindowAudit:
    """The violations of a window and the cells whose dice break a rule."""

    violations: tuple[Violation, ...]
    illegal_cells: frozenset[Cell]


def audit_window(window: Window, pattern: Pattern, waivers: Waivers = NONE_WAIVED) -> WindowAudit:
    """Every rule the window breaks, and the dice that break them, in one pass."""
    findings = [
        *_space_findings(window, pattern, waivers),
        *_neighbour_findings(window, waivers),
        *_placement_findings(window, waivers),
    ]
    return WindowAudit(
        violations=tuple(Violation(f.rule, tuple(str(c) for c in f.cells), f.message) for f in findings),
        illegal_cells=frozenset(cell for f in findings for cell in f.cells),
    )


def window_violations(window: Window, pattern: Pattern, waivers: Waivers = NONE_WAIVED) -> list[Violation]:
    """Every rule the window breaks: space restrictions, orthogonal neighbours, then placement."""
    return list(audit_window(window, pattern, waivers).violations)


def illegal_cells(window: Window, pattern: Pattern, waivers: Waivers = NONE_WAIVED) -> frozenset[Cell]:
    """The cells whose dice break a rule: both dice of a clashing pair, as no history says which came last."""
    return audit_window(window, pattern, waivers).illegal_cells


def dice_groups(window: Window) -> list[tuple[Cell, ...]]:
    """The 8-connected groups of dice (orthogonal or diagonal contact), each sorted, in reading order."""
    dice = window.dice
    seen = [False] * len(dice)
    groups: list[tuple[Cell, ...]] = []
    for start, die in enumerate(dice):
        if die is None or seen[start]:
            continue
        seen[start] = True
        group, frontier = [start], [start]
        while frontier:
            for other in _TOUCHING[frontier.pop()]:
                if not seen[other] and dice[other] is not None:
                    seen[other] = True
                    group.append(other)
                    frontier.append(other)
        groups.append(tuple(ALL_CELLS[i] for i in sorted(group)))
    return groups


@dataclass(frozen=True)
class _Finding:
    rule: str
    cells: tuple[Cell, ...]
    message: str


def _space_findings(window: Window, pattern: Pattern, waivers: Waivers) -> Iterator[_Finding]:
    for cell, die in window.placed():
        need = pattern.restriction(cell)
        waived = waivers.get(cell, NO_WAIVERS)
        if need.color is not None and not waived.color and die.color is not need.color:
            yield _Finding("space-color", (cell,), f"space {cell} needs a {need.color.label} die, got {die}")
        if need.value is not None and not waived.value and die.value != need.value:
            yield _Finding("space-value", (cell,), f"space {cell} needs a {need.value}, got {die}")


def _neighbour_findings(window: Window, waivers: Waivers) -> Iterator[_Finding]:
    dice = window.dice
    for index, die in enumerate(dice):
        if die is None:
            continue
        for other_index in _LATER_ORTHOGONAL[index]:
            neighbour = dice[other_index]
            if neighbour is None:
                continue
            cell, other = ALL_CELLS[index], ALL_CELLS[other_index]
            if waivers and (
                waivers.get(cell, NO_WAIVERS).adjacency or waivers.get(other, NO_WAIVERS).adjacency
            ):
                continue
            pair = f"{die} on {cell} and {neighbour} on {other}"
            if neighbour.color is die.color:
                yield _Finding(
                    "neighbour-color", (cell, other), f"{pair} share an edge and are both {die.color.label}"
                )
            if neighbour.value == die.value:
                yield _Finding(
                    "neighbour-value", (cell, other), f"{pair} share an edge and the value {die.value}"
                )


def _placement_findings(window: Window, waivers: Waivers) -> Iterator[_Finding]:
    """Only the first die may start a group without a tool, and it lies on an edge."""
    groups = dice_groups(window)
    if groups and not any(cell.on_edge for group in groups for cell in group):
        yield _Finding(
            "no-edge-die",
            tuple(sorted(cell for group in groups for cell in group)),
            "no die lies on an edge or corner space, so no die could have been placed first",
        )
        return
    unaided = [g for g in groups if not any(waivers.get(cell, NO_WAIVERS).touching for cell in g)]
    rooted = [group for group in unaided if any(cell.on_edge for cell in group)]
    # max keeps the first of equal groups, and groups are in reading order
    kept = max(rooted, key=len, default=None)
    for group in unaided:
        if group is kept:
            continue
        where = " ".join(str(c) for c in group)
        subject, them = ("the die on", "it") if len(group) == 1 else ("the dice on", "them")
        reason = f"no die of the group holding {kept[0]} touches {them}" if kept else "no tool set them apart"
        yield _Finding(
            "disconnected",
            group,
            f"{subject} {where} cannot have been placed: {reason}, and every die after the first must touch "
            "one already placed",
        )
