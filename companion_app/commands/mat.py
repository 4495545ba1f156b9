"""`tablesight mat`: print the mat a game is played on, so a photo of the table can be read."""

from __future__ import annotations

from pathlib import Path

import click

from vision.markers import pdf_bytes, png_bytes
from vision.runbuster.mat import Paper
from vision.runbuster.printable import SCALE_BAR, mat_image

FORMATS = ("png", "pdf")


@click.group()
def mat() -> None:
    """Printable mats with the markers TableSight finds in photos."""


@mat.command("runbuster")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), help="File to write.")
@click.option(
    "--format", "file_format", type=click.Choice(FORMATS), help="png or pdf (default: from --out, else png)."
)
@click.option("--paper", type=click.Choice(["a3", "a4"]), default="a3", show_default=True)
@click.option("--dpi", type=click.IntRange(30, 1200), default=300, show_default=True)
def runbuster_mat(out: Path | None, file_format: str | None, paper: str, dpi: int) -> None:
    """The Run Buster mat: a hand zone and a roll zone for each player, six corner markers."""
    if file_format is None:
        suffix = out.suffix.lower().lstrip(".") if out is not None else ""
        file_format = suffix if suffix in FORMATS else "png"
    sheet = Paper.named(paper)
    path = out if out is not None else Path(f"runbuster-mat-{paper}.{file_format}")
    image = mat_image(sheet, dpi)
    data = pdf_bytes(image, sheet.value) if file_format == "pdf" else png_bytes(image, dpi)
    try:
        path.write_bytes(data)
    except OSError as error:
        raise click.ClickException(f"cannot write the mat to {path}: {error.strerror}") from None
    width_mm, height_mm = sheet.value
    size = f"{paper.upper()} landscape ({width_mm:.0f} x {height_mm:.0f} mm)"
    click.echo(
        f"wrote {path}: {file_format.upper()}, {size}, {image.shape[1]} x {image.shape[0]} px at {dpi} dpi. "
        f"Print at 100 % (actual size, no fit to page): the bar in the middle then measures "
        f"{SCALE_BAR * sheet.scale:.0f} mm."
    )
