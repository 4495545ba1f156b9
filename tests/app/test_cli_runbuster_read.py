"""`tablesight runbuster read PHOTO`: zones and the rules' verdict from a photo of the mat."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from companion_app.cli import main
from companion_app.commands import runbuster_photo
from tests.vision.runbuster.conftest import ExactRecognizer
from vision.read import READER_MODEL
from vision.synth.mat import MatScene, MatSceneConfig, render_mat_scene
from vision.synth.scene import SceneConfig

TABLE = {"red.hand": (4, 5), "blue.hand": (2, 3), "red.roll": (3, 4, 4, 6)}


@pytest.fixture(scope="module")
def scene() -> MatScene:
    config = MatSceneConfig(scene=SceneConfig(width=960, height=720, motion_blur_probability=0.0))
    return render_mat_scene(config, np.random.default_rng(8), TABLE)


@pytest.fixture
def photo(scene: MatScene, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "mat.png"
    cv2.imwrite(str(path), scene.image)
    monkeypatch.setattr(runbuster_photo, "SharedRecognizer", lambda: ExactRecognizer(scene, {"blue.hand"}))
    return path


def test_the_zones_and_the_verdict_in_words(photo: Path) -> None:
    result = CliRunner().invoke(main, ["runbuster", "read", str(photo), "--names", "Ann,Bo"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[:4] == [
        "Ann's hand: 4,5",
        "Ann's roll: 3,4,4,6",
        "Bo's hand: 2,3 (check: read unsurely)",
        "Bo's roll: -",
    ]
    assert lines[4] == "Ann must extend: 3-4-5 or 3-4-5-6 or 4-5-6"
    assert lines[6].startswith("3,6      3-4-5-6")


def test_json_carries_the_reading_and_the_advice(photo: Path) -> None:
    result = CliRunner().invoke(main, ["runbuster", "read", str(photo), "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["zones"] == {
        "red.hand": [4, 5],
        "red.roll": [3, 4, 4, 6],
        "blue.hand": [2, 3],
        "blue.roll": [],
    }
    assert answer["roller"] == 0 and answer["busted"] == [] and answer["winner"] is None
    assert answer["options"] == [[3, 4, 5], [3, 4, 5, 6], [4, 5, 6]]
    assert answer["sentences"] == ["Red must extend: 3-4-5 or 3-4-5-6 or 4-5-6"]
    assert answer["advice"]["options"][0]["hand"] == [3, 4, 5, 6]


def test_bad_input_is_a_one_line_error(tmp_path: Path) -> None:
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((300, 400, 3), 128, np.uint8))
    runner = CliRunner()
    result = runner.invoke(main, ["runbuster", "read", str(blank)])
    assert result.exit_code == 1 and "the Run Buster mat needs 2 of its 6 corner markers" in result.output
    result = runner.invoke(main, ["runbuster", "read", str(blank), "--names", "Ann"])
    assert result.exit_code == 1 and "two names separated by a comma" in result.output
    (tmp_path / "notes.jpg").write_text("not a photo")
    result = runner.invoke(main, ["runbuster", "read", str(tmp_path / "notes.jpg")])
    assert result.exit_code == 1 and "notes.jpg" in result.output and len(result.output.splitlines()) == 1


@pytest.mark.skipif(READER_MODEL.is_file(), reason="the dice reader model is installed")
def test_without_the_models_a_mat_photo_says_what_is_missing(scene: MatScene, tmp_path: Path) -> None:
    path = tmp_path / "mat.png"
    cv2.imwrite(str(path), scene.image)
    result = CliRunner().invoke(main, ["runbuster", "read", str(path)])
    assert result.exit_code == 1 and "model file not found" in result.output
