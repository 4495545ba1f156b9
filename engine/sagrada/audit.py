"""The audit of a window found on the table: every rule its dice break, with no placement history.

A photo shows where the dice lie, not the order they went in. Space and neighbour rules can be checked die by
die; the placement rules (first die on an edge, every later die touching an earlier one) hold for *some*
order exactly when the dice form one 8-connected group holding at least one edge die, since a breadth-first
walk from that edge die is such an order. When they do not, the audit keeps the largest group that holds an
edge die (the first in reading order on a tie) and reports every other group as unreachable.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.core import Violation
from engine.sagrada.window import ALL_CELLS, Cell, Pattern, Window

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


def audit_window(window: Window, pattern: Pattern) -> WindowAudit:
    """Every rule the window breaks, and the dice that break them, in one pass."""
    findings = list(_findings(window, pattern))
    return WindowAudit(
        violations=tuple(Violation(f.rule, tuple(str(c) for c in f.cells), f.message) for f in findings),
        illegal_cells=frozenset(cell for f in findings for cell in f.cells),
    )


def window_violations(window: Window, pattern: Pattern) -> list[Violation]:
    """Every rule the window breaks: space restrictions, orthogonal neighbours, then placement."""
    return list(audit_window(window, pattern).violations)


def illegal_cells(window: Window, pattern: Pattern) -> frozenset[Cell]:
    """The cells whose dice break a rule: both dice of a clashing pair, as no history says which came last."""
    return audit_window(window, pattern).illegal_cells


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


def _findings(window: Window, pattern: Pattern) -> Iterator[_Finding]:
    yield from _space_findings(window, pattern)
    yield from _neighbour_findings(window)
    yield from _placement_findings(window)


def _space_findings(window: Window, pattern: Pattern) -> Iterator[_Finding]:
    for cell, die in window.placed():
        need = pattern.restriction(cell)
        if need.color is not None and die.color is not need.color:
            yield _Finding("space-color", (cell,), f"space {cell} needs a {need.color.label} die, got {die}")
        if need.value is not None and die.value != need.value:
            yield _Finding("space-value", (cell,), f"space {cell} needs a {need.value}, got {die}")


def _neighbour_findings(window: Window) -> Iterator[_Finding]:
    dice = window.dice
    for index, die in enumerate(dice):
        if die is None:
            continue
        for other_index in _LATER_ORTHOGONAL[index]:
            neighbour = dice[other_index]
            if neighbour is None:
                continue
            cell, other = ALL_CELLS[index], ALL_CELLS[other_index]
            pair = f"{die} on {cell} and {neighbour} on {other}"
            if neighbour.color is die.color:
                yield _Finding(
                    "neighbour-color", (cell, other), f"{pair} share an edge and are both {die.color.label}"
                )
            if neighbour.value == die.value:
                yield _Finding(
                    "neighbour-value", (cell, other), f"{pair} share an edge and the value {die.value}"
                )


def _placement_findings(window: Window) -> Iterator[_Finding]:
    groups = dice_groups(window)
    rooted = [group for group in groups if any(cell.on_edge for cell in group)]
    if groups and not rooted:
        cells = tuple(cell for group in groups for cell in group)
        yield _Finding(
            "no-edge-die",
            tuple(sorted(cells)),
            "no die lies on an edge or corner space, so no die could have been placed first",
        )
        return
    if len(groups) < 2:
        return
    kept = max(rooted, key=len)  # max keeps the first of equal groups, and groups are in reading order
    for group in groups:
        if group is not kept:
            where = " ".join(str(c) for c in group)
            subject, them = ("the die on", "it") if len(group) == 1 else ("the dice on", "them")
            yield _Finding(
                "disconnected",
                group,
                f"{subject} {where} cannot have been placed: no die of the group holding {kept[0]} "
                f"touches {them}, and every die after the first must touch one already placed",
            )
