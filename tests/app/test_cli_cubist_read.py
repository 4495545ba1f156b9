"""`tablesight cubist read PHOTO`: a rendered workroom's top view, problems and cards, in words and JSON,
an annotated copy, and one-line errors for what is not a usable photo."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from companion_app.cli import main
from engine.cubist.cards import bundled_cards
from engine.cubist.topview import TopView
from tests.app.conftest import huge_png
from vision.cubist.evaluation import same_view
from vision.synth.cubist import CubistSceneConfig, WorkroomScene, render_workroom

CARD = "installation-19"
"""Four columns, two of them two dice high."""


@pytest.fixture(scope="module")
def scene() -> WorkroomScene:
    """An installation card's structure, photographed from near overhead (seed outside the trainer's)."""
    card = bundled_cards().installations[CARD]
    base = CubistSceneConfig()
    config = replace(base, scene=replace(base.scene, max_tilt_deg=10.0))
    return render_workroom(config, np.random.default_rng(200_900), structure=card.structure)


@pytest.fixture
def photo(scene: WorkroomScene, tmp_path: Path) -> Path:
    path = tmp_path / "workroom.png"
    cv2.imwrite(str(path), scene.image)
    return path


def test_the_top_view_the_rules_and_the_card_in_words(scene: WorkroomScene, photo: Path) -> None:
    result = CliRunner().invoke(main, ["cubist", "read", str(photo)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"{len(scene.columns)} columns of {scene.color} dice, seen from above:"
    assert "every placement rule the top view shows is kept" in lines
    cards = TopView.of(scene.structure).matching_installations(bundled_cards())
    assert [line.split(" (")[0] for line in lines if line.startswith("can be ")] == [
        f"can be {match.card.id}" for match in cards
    ]


def test_json_carries_columns_matches_and_timings(scene: WorkroomScene, photo: Path, tmp_path: Path) -> None:
    annotated = tmp_path / "seen.png"
    result = CliRunner().invoke(main, ["cubist", "read", str(photo), "--json", "--annotate", str(annotated)])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    seen = TopView({(c["x"], c["y"]): c["value"] for c in answer["columns"]})
    assert same_view(seen, TopView.of(scene.structure))
    column = answer["columns"][0]
    assert set(column) == {"x", "y", "value", "color", "value_confidence", "color_confidence", "center"}
    assert answer["problems"] == [] and answer["unplaced"] == []
    matches = {match["card"]: match for match in answer["matches"]}
    heights = matches[CARD]["heights"][0]
    assert sorted(h["height"] for h in heights) == sorted(c.height for c in scene.columns)
    assert set(answer["timings_ms"]) == {"decode", "find", "read", "place", "rules", "total"}
    assert cv2.imread(str(annotated)).shape == scene.image.shape


def test_bad_input_is_a_one_line_error(tmp_path: Path) -> None:
    runner = CliRunner()
    notes = tmp_path / "notes.jpg"
    notes.write_text("not a photo")
    result = runner.invoke(main, ["cubist", "read", str(notes)])
    assert result.exit_code == 1 and "notes.jpg" in result.output and len(result.output.splitlines()) == 1
    huge = tmp_path / "huge.png"
    huge.write_bytes(huge_png())
    result = runner.invoke(main, ["cubist", "read", str(huge)])
    assert result.exit_code == 1 and "over the 50 MP limit" in result.output
    assert len(result.output.splitlines()) == 1
    result = runner.invoke(main, ["cubist", "read", str(tmp_path / "missing.png")])
    assert result.exit_code == 1 and "missing.png" in result.output


def test_a_photo_without_dice_says_so(tmp_path: Path) -> None:
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((300, 400, 3), 128, np.uint8))
    result = CliRunner().invoke(main, ["cubist", "read", str(blank)])
    assert result.exit_code == 0 and result.output.splitlines() == [
        "no workroom found: no top face of a die was read"
    ]
