"""`tablesight runbuster read PHOTO`: the mat's zones on a photo and what the rules require now, in words."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from vision.decode import decode_image
from vision.errors import VisionError
from vision.runbuster.mat import ZONE_KEYS, Paper, zone_named
from vision.runbuster.position import TableDice, Turn, read_turn
from vision.runbuster.zones import MatReading, SharedRecognizer, read_mat_photo


@click.command("read")
@click.argument("photo", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--paper", type=click.Choice(["a3", "a4"]), default="a3", show_default=True)
@click.option("--names", default="Red,Blue", show_default=True, help="The red and the blue player's names.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def read_command(photo: Path, paper: str, names: str, as_json: bool) -> None:
    """Read the dice on a photo of the Run Buster mat and say what the roll on it means."""
    red, _, blue = names.partition(",")
    if not red.strip() or not blue.strip():
        raise click.ClickException(f"--names takes two names separated by a comma, got {names!r}")
    try:
        reading = read_mat_photo(SharedRecognizer(), decode_image(photo).pixels, Paper.named(paper))
    except VisionError as error:
        raise click.ClickException(f"{photo}: {error}") from None
    table = TableDice.from_zones({key: reading.values(key) for key in ZONE_KEYS})
    turn = read_turn(table, (red.strip(), blue.strip()))
    click.echo(json.dumps(_as_json(reading, turn)) if as_json else _as_text(reading, turn))


def _as_json(reading: MatReading, turn: Turn) -> dict[str, Any]:
    return {
        **reading.to_json(),
        "roller": turn.roller,
        "busted": list(turn.busted),
        "options": [list(option) for option in turn.options],
        "winner": turn.winner,
        "problems": list(turn.problems),
        "sentences": list(turn.sentences),
        "advice": turn.advice.to_json() if turn.advice is not None else None,
    }


def _as_text(reading: MatReading, turn: Turn) -> str:
    lines = []
    for key in ZONE_KEYS:
        zone = zone_named(key)
        values = reading.values(key)
        shown = ",".join(str(v) for v in values) or "-"
        unsure = " (check: read unsurely)" if key in reading.to_json()["unsure"] else ""
        lines.append(f"{turn.names[zone.side.value]}'s {zone.area.value}: {shown}{unsure}")
    if reading.outside:
        lines.append(f"{len(reading.outside)} dice lie outside the zones and were not counted")
    lines.extend(turn.problems)
    lines.extend(turn.sentences)
    if turn.advice is not None and turn.winner is None:
        lines.append(f"{'keep':<8} {'hand':<13} {'win':>8} {'bust risk':>10}")
        for option in turn.advice.options:
            kept = ",".join(str(v) for v in option.kept) or "-"
            hand = "-".join(str(v) for v in option.hand)
            lines.append(
                f"{kept:<8} {hand:<13} {option.win_probability:>8.2%} {float(option.bust_risk):>10.2%}"
            )
    return "\n".join(lines)
