"""`tablesight mat runbuster`: the printable mat as PNG or PDF, and its size in words."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from click.testing import CliRunner

from companion_app.cli import main
from vision.runbuster.locate import find_mat_markers


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
