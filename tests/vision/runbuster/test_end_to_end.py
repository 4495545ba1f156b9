"""The whole pipeline on rendered mats: recognizer -> mat -> zones, against the renderer's exact labels."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import pytest

from vision.read import READER_MODEL
from vision.recognizer import DiceRecognizer
from vision.runbuster.mat import ZONE_KEYS
from vision.runbuster.zones import read_mat_photo
from vision.synth.mat import DEMO_TABLES, MatScene

pytestmark = pytest.mark.skipif(not READER_MODEL.is_file(), reason="the dice reader model has not landed")

DEMO_FOLDER = Path(__file__).parents[3] / "companion_app" / "demo" / "runbuster"


def test_dice_are_found_read_and_placed_in_their_zones(
    mat_scenes: list[MatScene], recognizer: DiceRecognizer
) -> None:
    """Per zone, the values read match the values rendered for >= 99.5 % of the dice, with as few extras."""
    right = missed = extra = 0
    for scene in mat_scenes:
        reading = read_mat_photo(recognizer, scene.image)
        for key in ZONE_KEYS:
            truth, read = Counter(scene.values(key)), Counter(reading.values(key))
            right += sum((truth & read).values())
            missed += sum((truth - read).values())
            extra += sum((read - truth).values())
    total = right + missed
    assert total >= 400
    assert right / total >= 0.995, f"{missed} of {total} dice missed, misread or in the wrong zone"
    assert extra / total <= 0.005, f"{extra} dice read where none lie ({total} dice)"


def test_the_demo_photos_read_as_their_tables(recognizer: DiceRecognizer) -> None:
    for name, table in DEMO_TABLES.items():
        image = cv2.imread(str(DEMO_FOLDER / name))
        reading = read_mat_photo(recognizer, image)
        for key in ZONE_KEYS:
            assert reading.values(key) == tuple(sorted(table.get(key, ()))), f"{name}: {key}"
