"""`tablesight cubist read PHOTO`: a workroom's top view from a photo, the rules it breaks, and the
installation cards it can be with the heights each needs (a photo from above shows values, not heights)."""

from __future__ import annotations

import json
from pathlib import Path

import click
import cv2

from companion_app.commands.cubist import CARDS_HELP, _cards
from vision.cubist.workroom import WorkroomReader, WorkroomReading, annotate
from vision.decode import DecodeLimits, decode_image
from vision.errors import VisionError
from vision.read import SECOND_LOOK_BELOW


@click.command("read")
@click.argument("photo", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option(
    "--annotate",
    "annotate_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write the photo with each top face outlined and its column and value.",
)
@click.option("--cards", "cards_path", type=click.Path(dir_okay=False, path_type=Path), help=CARDS_HELP)
def read_command(photo: Path, as_json: bool, annotate_path: Path | None, cards_path: Path | None) -> None:
    """Read the workroom on PHOTO: each column's value seen from above, the rules broken, the cards."""
    cards = _cards(cards_path)
    try:
        reading = WorkroomReader(cards=cards).read(photo)
        if annotate_path is not None:
            full = decode_image(photo, DecodeLimits(target_long_side=1 << 30)).pixels
            if not cv2.imwrite(str(annotate_path), annotate(full, reading)):
                raise click.ClickException(f"{annotate_path}: cannot write the annotated image")
    except VisionError as error:
        raise click.ClickException(str(error)) from None
    click.echo(json.dumps(reading.to_json()) if as_json else as_text(reading))


def as_text(reading: WorkroomReading) -> str:
    """The columns' values as a small grid (y up, as the structure's columns count, "." where none
    stands), the columns read less surely than the reader's second-look threshold, then the problems and
    the matching cards."""
    lines = []
    columns = {c.column: c for c in reading.columns}
    if columns:
        colour = reading.color
        lines.append(f"{len(columns)} columns of {colour} dice, seen from above:")
        xs = [x for x, _ in columns]
        ys = [y for _, y in columns]
        for y in range(max(ys), min(ys) - 1, -1):
            row = " ".join(
                str(columns[(x, y)].face.value) if (x, y) in columns else "."
                for x in range(min(xs), max(xs) + 1)
            )
            lines.append(f"  {row}")
        unsure = [c for c in reading.columns if c.face.value_confidence < SECOND_LOOK_BELOW]
        for column in unsure:
            lines.append(
                f"  check column {column.column}: read {column.face.value} "
                f"(confidence {column.face.value_confidence:.2f})"
            )
    else:
        lines.append("no workroom found: no top face of a die was read")
    if reading.unplaced:
        lines.append(f"{len(reading.unplaced)} dice seen apart from the structure were left out")
    for problem in reading.problems:
        lines.append(f"! {problem.rule}: {problem.message}")
    if columns and not reading.problems:
        lines.append("every placement rule the top view shows is kept")
    for match in reading.matches:
        options = " or ".join(
            " ".join(f"{x},{y}:{height}" for (x, y), height in sorted(heights.items()))
            for heights in match.heights
        )
        lines.append(f"can be {match.card.id} ({match.card.points} points) with heights {options}")
    if columns and not reading.matches:
        lines.append("matches no installation card")
    return "\n".join(lines)
