"""`tablesight mat runbuster` and `tablesight mat sagrada`: the printable mats as PNG or PDF, and their size
in words."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from click.testing import CliRunner

from companion_app.cli import main
from vision.markers import find_markers
from vision.runbuster.locate import find_mat_markers
from vision.sagrada.mat import mat_markers


def test_the_png_mat_is_written_with_its_size(tmp_path: Path) -> None:
    out = tmp_path / "mat.png"
    result = CliRunner().invoke(main, ["mat", "runbuster", "--out", str(out), "--dpi", "60", "--paper", "a4"])
    assert result.exit_code == 0, result.output
    assert "PNG, A4 landscape (297 x 210 mm), 702 x 496 px at 60 dpi" in result.output
    assert "the bar in the middle then measures 35 mm" in result.output
    image = cv2.imdecode(np.frombuffer(out.read_bytes(), np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (496, 702, 3) and len(find_mat_markers(image)) == 6


def test_the_format_follows_the_file_name_or_the_option(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["mat", "runbuster", "--out", str(tmp_path / "mat.pdf"), "--dpi", "40"])
    assert result.exit_code == 0 and "PDF, A3 landscape" in result.output
    assert (tmp_path / "mat.pdf").read_bytes().startswith(b"%PDF-1.4")
    with runner.isolated_filesystem(temp_dir=tmp_path):
        result = runner.invoke(main, ["mat", "runbuster", "--format", "pdf", "--dpi", "40"])
        assert result.exit_code == 0 and Path("runbuster-mat-a3.pdf").exists()


def test_bad_options_are_one_line_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["mat", "runbuster", "--dpi", "5"])
    assert result.exit_code == 2 and "--dpi" in result.output
    result = runner.invoke(main, ["mat", "runbuster", "--out", str(tmp_path / "missing" / "mat.png")])
    assert result.exit_code == 1 and "cannot write the mat to" in result.output


def test_a_sagrada_mat_is_written_for_its_seat(tmp_path: Path) -> None:
    out = tmp_path / "seat3.png"
    result = CliRunner().invoke(main, ["mat", "sagrada", "--seat", "3", "--out", str(out), "--dpi", "60"])
    assert result.exit_code == 0, result.output
    assert "PNG, A4 landscape (297 x 210 mm), 702 x 496 px at 60 dpi, seat 3" in result.output
    image = cv2.imdecode(np.frombuffer(out.read_bytes(), np.uint8), cv2.IMREAD_COLOR)
    ids = {marker.id for marker in mat_markers(3)}
    assert image.shape == (496, 702, 3) and set(find_markers(image, set(range(50)), 2400)) == ids
    with CliRunner().isolated_filesystem(temp_dir=tmp_path):
        result = CliRunner().invoke(main, ["mat", "sagrada", "--format", "pdf", "--dpi", "40"])
        assert result.exit_code == 0 and Path("sagrada-mat-1.pdf").read_bytes().startswith(b"%PDF-1.4")


def test_a_seat_beyond_four_is_a_one_line_error() -> None:
    result = CliRunner().invoke(main, ["mat", "sagrada", "--seat", "5"])
    assert result.exit_code == 2 and "--seat" in result.output
