"""`tablesight sagrada ...`: score a finished Sagrada window typed as text, and show every rule it breaks."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TypeVar

import click

from engine.core import EngineError
from engine.sagrada.objectives import PUBLIC_OBJECTIVES, PrivateObjective, parse_public_objectives
from engine.sagrada.rules import rules_named
from engine.sagrada.scoring import ScoreBreakdown, ScoringOptions
from engine.sagrada.window import BLANK_PATTERN, COLS, ROWS, Cell, Window, find_pattern

T = TypeVar("T")


def _parse_option(option: str, parse: Callable[[str], T], text: str) -> T:
    """Parse one option's text; a bad value stops the command with a one-line error naming the option."""
    try:
        return parse(text)
    except EngineError as exc:
        raise click.ClickException(f"{option}: {exc}") from None


def scoring_options(
    objectives_text: str | None, private_text: str | None, tokens: int, rules_name: str
) -> ScoringOptions:
    """The --objectives, --private, --tokens and --rules options, checked; shared by `score` and `read`."""
    objectives = PUBLIC_OBJECTIVES
    if objectives_text is not None:
        objectives = _parse_option("--objectives", parse_public_objectives, objectives_text)
    private = None
    if private_text is not None:
        private = _parse_option("--private", PrivateObjective.parse, private_text).color
    rules = _parse_option("--rules", rules_named, rules_name)
    if tokens < 0:
        raise click.ClickException(f"--tokens: unused favor tokens cannot be negative, got {tokens}")
    return ScoringOptions(objectives=objectives, private=private, favor_tokens=tokens, rules=rules)


def format_score(breakdown: ScoreBreakdown) -> str:
    """The breakdown for a terminal: the window, each part of the score with its dice, then the violations."""
    lines = [f"Sagrada window on {breakdown.pattern} ({breakdown.rules} rules)"]
    for row in range(ROWS):
        marks = []
        for col in range(COLS):
            cell = Cell(row, col)
            die = breakdown.window[cell]
            marks.append(f"{die or '--'}{'!' if cell in breakdown.illegal_dice else ' '}")
        lines.append("  " + " ".join(marks).rstrip())
    if breakdown.illegal_dice:
        lines.append("  ! an illegal die: it scores nothing and its space counts as empty")
    lines.append("")
    parts = [*breakdown.objectives, *breakdown.privates]
    width = max(len(name) for name in [*(p.name for p in parts), "Empty spaces"])
    for part in parts:
        unused = part in breakdown.privates and part is not breakdown.private
        where = " ".join(str(c) for c in part.cells) + ("  (a better private counts)" if unused else "")
        lines.append(f"  {part.name:<{width}} {part.points:>4}  {where}".rstrip())
    per_space = f"{breakdown.empty_spaces} x -{breakdown.points_per_empty_space}"
    lines.append(f"  {'Favor tokens':<{width}} {breakdown.favor_tokens:>4}")
    lines.append(f"  {'Empty spaces':<{width}} {breakdown.empty_space_points:>4}  {per_space}")
    lines.append(f"  {'Total':<{width}} {breakdown.total:>4}")
    lines.append("")
    if breakdown.violations:
        lines.append(f"Violations ({len(breakdown.violations)})")
        lines.extend(f"  {v.rule} [{' '.join(v.cells)}]: {v.message}" for v in breakdown.violations)
    else:
        lines.append("No violations.")
    return "\n".join(lines)


@click.group()
def sagrada() -> None:
    """Sagrada: score windows and check them against the rules."""


@sagrada.command()
@click.option("--window", "window_text", required=True, help='4 rows of 5 cells split by "/", like r5 or --.')
@click.option("--pattern", "pattern_name", help="Official pattern name; a blank pattern when left out.")
@click.option("--objectives", "objectives_text", help="Public objectives, comma-separated; all ten if none.")
@click.option("--private", "private_text", help="Private objective colour: red, yellow, green, blue, purple.")
@click.option("--tokens", default=0, show_default=True, help="Unused favor tokens.")
@click.option("--rules", "rules_name", default="official", show_default=True, help="official or text.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def score(
    window_text: str,
    pattern_name: str | None,
    objectives_text: str | None,
    private_text: str | None,
    tokens: int,
    rules_name: str,
    as_json: bool,
) -> None:
    """Score a finished window and list every rule it breaks."""
    window = _parse_option("--window", Window.parse, window_text)
    pattern = (
        BLANK_PATTERN if pattern_name is None else _parse_option("--pattern", find_pattern, pattern_name)
    )
    breakdown = scoring_options(objectives_text, private_text, tokens, rules_name).score(window, pattern)
    click.echo(json.dumps(breakdown.to_json()) if as_json else format_score(breakdown))


# Registered last: `read` reuses this module's option parsing and score formatting.
from companion_app.commands.sagrada_read import read  # noqa: E402

sagrada.add_command(read)
