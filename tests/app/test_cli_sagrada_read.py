"""`tablesight sagrada read`: a rendered photo read to JSON and marked up; bad input stops with one line
naming it and a non-zero exit."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from companion_app.cli import main
from vision.sagrada.cells import CELL_MODEL
from vision.synth.sagrada import SagradaConfig, render_window_scene


def test_an_unreadable_file_is_one_line_and_fails(tmp_path: Path) -> None:
    photo = tmp_path / "table.jpg"
    photo.write_bytes(b"not a photo at all")
    result = CliRunner().invoke(main, ["sagrada", "read", str(photo)])
    assert result.exit_code != 0
    assert result.output.strip().count("\n") == 0 and result.output.startswith("Error:")
    assert "table.jpg" in result.output and "model" not in result.output


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["sagrada", "read", str(tmp_path / "nowhere.png")])
    assert result.exit_code != 0 and "nowhere.png" in result.output


def test_an_unknown_pattern_is_named_in_the_error(tmp_path: Path) -> None:
    photo = tmp_path / "table.png"
    photo.write_bytes(b"")
    result = CliRunner().invoke(main, ["sagrada", "read", str(photo), "--pattern", "Nonesuch"])
    assert result.exit_code != 0
    assert "--pattern" in result.output and "Nonesuch" in result.output


def test_negative_tokens_are_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["sagrada", "read", str(tmp_path / "x.png"), "--tokens", "-1"])
    assert result.exit_code != 0 and "--tokens" in result.output


@pytest.mark.skipif(not CELL_MODEL.is_file(), reason="models/sagrada_cells.onnx missing")
def test_a_rendered_window_is_read_to_json_and_annotated(tmp_path: Path) -> None:
    config = SagradaConfig(fill=(0.2, 0.4), window_px=(300.0, 340.0))
    config = replace(config, scene=replace(config.scene, width=960, height=540))
    scene = render_window_scene(config, np.random.default_rng(8003))
    photo, marked = tmp_path / "table.png", tmp_path / "marked.png"
    cv2.imwrite(str(photo), scene.image)
    result = CliRunner().invoke(main, ["sagrada", "read", str(photo), "--json", "--annotate", str(marked)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    (window,) = data["windows"]
    assert window["grid"] == str(scene.windows[0].window)
    assert window["pattern"] == scene.windows[0].pattern
    assert isinstance(window["score"]["total"], int) and len(window["corners"]) == 4
    assert window["mat"] is None
    annotated = cv2.imread(str(marked))
    assert annotated is not None and annotated.shape == scene.image.shape
    assert np.abs(annotated.astype(int) - scene.image.astype(int)).sum() > 0


@pytest.mark.skipif(not CELL_MODEL.is_file(), reason="models/sagrada_cells.onnx missing")
def test_a_window_on_a_mat_names_its_seat(tmp_path: Path) -> None:
    config = SagradaConfig(fill=(0.2, 0.4), window_px=(200.0, 240.0), mat_probability=1.0)
    config = replace(config, scene=replace(config.scene, width=1280, height=960, motion_blur_probability=0.0))
    scene = render_window_scene(config, np.random.default_rng(8004))
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), scene.image)
    result = CliRunner().invoke(main, ["sagrada", "read", str(photo)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Window 1 (mat 1): pattern ")
    data = json.loads(CliRunner().invoke(main, ["sagrada", "read", str(photo), "--json"]).output)
    assert [window["mat"] for window in data["windows"]] == [1]
