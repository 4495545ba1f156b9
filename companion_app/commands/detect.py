"""`tablesight detect IMAGE...`: find every die in photos and print its place, value and colour."""

from __future__ import annotations

import json
from pathlib import Path

import click
import cv2

from vision.colors import COLOR_SETS
from vision.decode import BGRImage, DecodeLimits, decode_image
from vision.errors import VisionError
from vision.observation import DiceObservation
from vision.recognizer import DiceRecognizer


def annotation_path(out: Path, image: Path, position: int, count: int) -> Path:
    """`out` itself for a single image; with several, `OUT-<n>-<image stem>.png` beside `out` (n from 1)."""
    if count == 1:
        return out
    return out.with_name(f"{out.stem}-{position}-{image.stem}{out.suffix or '.png'}")


def draw_dice(pixels: BGRImage, observation: DiceObservation) -> BGRImage:
    """The photo with each die's box drawn and labelled `value colour`, sized to stay legible."""
    canvas = pixels.copy()
    thickness = max(1, round(max(canvas.shape[:2]) / 600))
    for die in observation.dice:
        x0, y0, x1, y1 = (round(v) for v in die.box)
        cv2.rectangle(canvas, (x0, y0), (x1, y1), (0, 255, 0), thickness)
        label = f"{die.value} {die.color}"
        scale = max(0.4, (x1 - x0) / 60)
        origin = (x0, max(0, y0 - 4 * thickness))
        cv2.putText(canvas, label, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thickness + 2)
        cv2.putText(canvas, label, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), thickness)
    return canvas


def describe(image: Path, observation: DiceObservation) -> str:
    lines = [f"{image}: {observation.width}x{observation.height}, {len(observation.dice)} dice"]
    for die in observation.dice:
        lines.append(
            f"  ({die.center[0]:.0f}, {die.center[1]:.0f}) {die.value} {die.color} "
            f"(value {die.value_confidence:.2f}, colour {die.color_confidence:.2f})"
        )
    return "\n".join(lines)


@click.command()
@click.argument("images", nargs=-1, required=True, type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--colors",
    type=click.Choice(sorted(COLOR_SETS)),
    default="all",
    show_default=True,
    help="The die colours the game uses; others are not reported.",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object a line per image.")
@click.option(
    "--annotate",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write the photo with the dice outlined; with several images, OUT-<n>-<image stem>.png.",
)
def detect(images: tuple[Path, ...], colors: str, as_json: bool, annotate: Path | None) -> None:
    """Find the dice in each IMAGE: centre, box, value and colour, in the pixels of the file as stored
    (before EXIF rotation). An unreadable file gets a one-line error; the others are still read."""
    try:
        recognizer = DiceRecognizer()
    except VisionError as error:
        raise click.ClickException(str(error)) from None
    failures = 0
    for position, image in enumerate(images, start=1):
        try:
            observation = recognizer.recognize(image, COLOR_SETS[colors])
            if annotate is not None:
                out = annotation_path(annotate, image, position, len(images))
                full = decode_image(image, DecodeLimits(target_long_side=1 << 30)).pixels
                if not cv2.imwrite(str(out), draw_dice(full, observation)):
                    raise click.ClickException(f"{out}: cannot write the annotated image")
        except VisionError as error:
            failures += 1
            click.echo(f"error: {error}", err=True)
            continue
        if as_json:
            click.echo(json.dumps({"image": str(image), **observation.to_json()}))
        else:
            click.echo(describe(image, observation))
    if failures:
        raise SystemExit(1)
