"""`tablesight sagrada read IMAGE`: find the windows in a photo, read their dice and pattern, score them."""

from __future__ import annotations

import json
import time
from pathlib import Path

import click
import cv2

from companion_app.commands.sagrada import _parse_option, format_score, scoring_options
from engine.sagrada.window import find_pattern
from vision.decode import decode_image
from vision.errors import VisionError
from vision.sagrada.reader import SagradaReader, SagradaReading, annotate


def format_reading(reading: SagradaReading) -> str:
    """Each window's pattern call, the spaces to confirm, then its score breakdown."""
    if not reading.windows:
        return "No Sagrada window found."
    blocks = []
    for number, window in enumerate(reading.windows, start=1):
        match = window.pattern_match
        if window.pattern is not None:
            pattern = f"{window.pattern.name} (confidence {match.confidence:.2f})"
        else:
            pattern = (
                f"not identified ({match.visible} spaces visible; best guess {match.best_guess} at "
                f"{match.confidence:.2f}); pass --pattern"
            )
        on_mat = f" (mat {window.lattice.mat_seat})" if window.lattice.mat_seat is not None else ""
        lines = [f"Window {number}{on_mat}: pattern {pattern}"]
        for space in window.uncertain:
            others = ", ".join(space.alternatives) or "none listed"
            lines.append(f"  confirm {space.cell}: read {space.reading}, could be {others}")
        lines.append(format_score(window.score))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


@click.command()
@click.argument("image", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--pattern", "pattern_name", help="Official pattern name, when the card cannot be identified.")
@click.option("--objectives", "objectives_text", help="Public objectives, comma-separated; all ten if none.")
@click.option("--private", "private_text", help="Private objective colour: red, yellow, green, blue, purple.")
@click.option("--tokens", default=0, show_default=True, help="Unused favor tokens.")
@click.option("--rules", "rules_name", default="official", show_default=True, help="official or text.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.option(
    "--annotate",
    "annotate_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write a copy of the photo marked with the windows, dice and violations.",
)
def read(
    image: Path,
    pattern_name: str | None,
    objectives_text: str | None,
    private_text: str | None,
    tokens: int,
    rules_name: str,
    as_json: bool,
    annotate_path: Path | None,
) -> None:
    """Read every Sagrada window in a photo: dice, pattern, score and rule violations."""
    pattern = None if pattern_name is None else _parse_option("--pattern", find_pattern, pattern_name)
    scoring = scoring_options(objectives_text, private_text, tokens, rules_name)
    try:
        # The photo is checked before the model is loaded, so a bad photo is reported as such.
        started = time.perf_counter()
        decoded = decode_image(image)
        decode_ms = (time.perf_counter() - started) * 1000
        reading = SagradaReader().read_decoded(decoded, pattern, scoring, decode_ms)
    except VisionError as exc:
        raise click.ClickException(str(exc)) from None
    if annotate_path is not None and not cv2.imwrite(str(annotate_path), annotate(reading)):
        raise click.ClickException(f"--annotate: cannot write {annotate_path}")
    click.echo(json.dumps(reading.to_json()) if as_json else format_reading(reading))
