"""`tablesight runbuster`: exact advice after a roll, the headline odds, and the solver's table."""

from __future__ import annotations

import json
import time

import click

from engine.core import EngineError
from engine.runbuster.solver import (
    HANDS,
    Advice,
    ValueTable,
    advise,
    bust_probability,
    completion_probability,
    extension_probability,
    opening_full_straight_probability,
    solve,
    value_table,
)
from engine.runbuster.straights import Dice, complement, dashed, format_dice, parse_dice


def _dice(text: str) -> Dice:
    try:
        return parse_dice(text)
    except EngineError as exc:
        raise click.ClickException(str(exc)) from None


@click.group()
def runbuster() -> None:
    """Run Buster: exact advice for a roll, and the odds people ask about."""


@runbuster.command("advise")
@click.option("--hand", default="", help="Your hand before the roll, e.g. 4,5 (omit for an empty hand).")
@click.option("--opponent", default="", help="The opponent's hand, e.g. 2,3 (omit for an empty hand).")
@click.option("--roll", required=True, help="The dice you rolled, e.g. 3,4,4,6 (six minus your hand).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def advise_command(hand: str, opponent: str, roll: str, as_json: bool) -> None:
    """Every keep after a roll, best first, with the chance of winning under best play and the bust risk."""
    try:
        advice = advise(_dice(hand), _dice(opponent), _dice(roll))
    except EngineError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(json.dumps(advice.to_json()))
    else:
        click.echo(_advice_table(advice))


def _advice_table(advice: Advice) -> str:
    lines = [f"hand {dashed(advice.hand)}, opponent {dashed(advice.opponent)}, roll {dashed(advice.roll)}"]
    if advice.bust:
        lines.append(f"The roll busts the opponent: {dashed(advice.opponent)} goes back to their cup.")
    if advice.forced:
        lines.append("Only one choice.")
    lines.append(f"{'move':<10} {'new hand':<13} {'win':>8} {'bust risk':>10}")
    for option in advice.options:
        lines.append(
            f"{'keep ' + format_dice(option.kept):<10} {dashed(option.hand):<13} "
            f"{option.win_probability:>8.2%} {float(option.bust_risk):>10.2%}"
        )
    return "\n".join(lines)


@runbuster.command("odds")
def odds_command() -> None:
    """The headline probabilities, from the engine: opening 1-6, first-player edge, risks of each hand."""
    opening = opening_full_straight_probability()
    first = value_table().win_probability((), ())
    click.echo(f"Six dice show 1-6 on the opening roll: {opening} = {float(opening):.3%}")
    click.echo(f"The first player wins, both playing their best: {first:.3%}")
    click.echo("")
    click.echo(f"{'hand':<12} {'busted by':<12} {'bust risk*':>10} {'completes':>10} {'extends':>10}")
    for hand in HANDS[1:]:
        click.echo(
            f"{dashed(hand):<12} {dashed(complement(hand)):<12} {float(bust_probability(hand)):>10.2%} "
            f"{float(completion_probability(hand)):>10.2%} {float(extension_probability(hand)):>10.2%}"
        )
    click.echo("* by an opponent rolling six dice; 'completes' and 'extends' are for the holder's next roll.")


@runbuster.command("solve")
@click.option("--output", type=click.Path(dir_okay=False, writable=True), help="Write the table here.")
def solve_command(output: str | None) -> None:
    """Solve the two-player game exactly and print (or write) the table that ships in engine/data/."""
    started = time.perf_counter()
    table = ValueTable.from_exact(solve())
    text = json.dumps(table.to_json(), indent=1) + "\n"
    if output is None:
        click.echo(text, nl=False)
    else:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(text)
        seconds = time.perf_counter() - started
        click.echo(f"solved {len(table.values)} positions in {seconds:.1f} s; wrote {output}", err=True)
