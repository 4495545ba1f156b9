"""`tablesight mat`: print the mat a game is played on, so a photo of the table can be read."""

from __future__ import annotations

from pathlib import Path

import click

from vision.markers import PRINT_DPI, pdf_bytes, png_bytes
from vision.runbuster.mat import Paper
from vision.runbuster.printable import SCALE_BAR, mat_image
from vision.sagrada.mat import SEATS, SHEET_MM
from vision.sagrada.mat import mat_image as sagrada_mat_image

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
@click.option("--dpi", type=click.IntRange(*PRINT_DPI), default=300, show_default=True)
def runbuster_mat(out: Path | None, file_format: str | None, paper: str, dpi: int) -> None:
    """The Run Buster mat: a hand zone and a roll zone for each player, six corner markers."""
    file_format = _chosen_format(out, file_format)
    sheet = Paper.named(paper)
    path = out if out is not None else Path(f"runbuster-mat-{paper}.{file_format}")
    image = mat_image(sheet, dpi)
    _write(path, pdf_bytes(image, sheet.value) if file_format == "pdf" else png_bytes(image, dpi))
    width_mm, height_mm = sheet.value
    size = f"{paper.upper()} landscape ({width_mm:.0f} x {height_mm:.0f} mm)"
    click.echo(
        f"wrote {path}: {file_format.upper()}, {size}, {image.shape[1]} x {image.shape[0]} px at {dpi} dpi. "
        f"Print at 100 % (actual size, no fit to page): the bar in the middle then measures "
        f"{SCALE_BAR * sheet.scale:.0f} mm."
    )


@mat.command("sagrada")
@click.option("--seat", type=click.IntRange(min(SEATS), max(SEATS)), default=1, show_default=True)
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), help="File to write.")
@click.option(
    "--format", "file_format", type=click.Choice(FORMATS), help="png or pdf (default: from --out, else png)."
)
@click.option("--dpi", type=click.IntRange(*PRINT_DPI), default=300, show_default=True)
def sagrada_mat(seat: int, out: Path | None, file_format: str | None, dpi: int) -> None:
    """A Sagrada window mat: the outline a window card lies in, four markers round it. Each seat has its
    own markers, so one photo can hold every player's mat."""
    file_format = _chosen_format(out, file_format)
    path = out if out is not None else Path(f"sagrada-mat-{seat}.{file_format}")
    image = sagrada_mat_image(seat, dpi)
    _write(path, pdf_bytes(image, SHEET_MM) if file_format == "pdf" else png_bytes(image, dpi))
    click.echo(
        f"wrote {path}: {file_format.upper()}, A4 landscape (297 x 210 mm), {image.shape[1]} x "
        f"{image.shape[0]} px at {dpi} dpi, seat {seat}. Print at 100 % (actual size, no fit to page) and "
        "lay the window card in the outline, its name towards the lower edge."
    )


def _chosen_format(out: Path | None, file_format: str | None) -> str:
    """The format asked for, else the one --out's suffix names, else png."""
    if file_format is not None:
        return file_format
    suffix = out.suffix.lower().lstrip(".") if out is not None else ""
    return suffix if suffix in FORMATS else "png"


def _write(path: Path, data: bytes) -> None:
    try:
        path.write_bytes(data)
    except OSError as error:
        raise click.ClickException(f"cannot write the mat to {path}: {error.strerror}") from None
