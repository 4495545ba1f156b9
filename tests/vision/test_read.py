"""Reader stage: white balance, crops, the colour restriction, and the shipped model on real dice."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.colors import COLOR_SETS
from vision.evaluation import load_labelled_photos, read_split
from vision.read import (
    COLOR_CLASSES,
    READER_INPUT_SIZE,
    DiceReader,
    crop_die,
    restrict_colors,
    white_balance_gains,
)

REPOSITORY = Path(__file__).resolve().parents[2]
REAL_PHOTOS = REPOSITORY / "tests" / "data" / "dice_real"


def scene_under_cast(cast_bgr: tuple[float, float, float]) -> np.ndarray:
    """A white tray with a red and a blue patch, lit by a coloured light."""
    scene = np.full((200, 200, 3), 230, np.float32)
    scene[20:60, 20:60] = (40, 40, 200)
    scene[100:140, 100:140] = (200, 60, 30)
    return np.clip(scene * np.array(cast_bgr, np.float32), 0, 255).astype(np.uint8)


def test_white_balance_makes_the_bright_tray_grey_again() -> None:
    warm = scene_under_cast((0.7, 0.95, 1.15))
    balanced = np.clip(warm.astype(np.float32) * white_balance_gains(warm), 0, 255)
    tray = balanced[180, 180]
    assert tray.max() - tray.min() < 6


def test_white_balance_of_a_neutral_scene_changes_nothing() -> None:
    assert white_balance_gains(scene_under_cast((1.0, 1.0, 1.0))) == pytest.approx(np.ones(3), abs=0.02)


def test_crop_is_square_at_the_reader_input_size_even_past_the_image_edge() -> None:
    image = np.full((100, 100, 3), 128, np.uint8)
    for box in [(40.0, 40.0, 60.0, 60.0), (-10.0, -5.0, 15.0, 20.0), (90.0, 80.0, 130.0, 120.0)]:
        crop = crop_die(image, box, np.ones(3, np.float32))
        assert crop.shape == (READER_INPUT_SIZE, READER_INPUT_SIZE, 3)
        assert int(crop.mean()) == 128


def test_restricting_colours_keeps_other_and_renormalises() -> None:
    probabilities = np.zeros((1, len(COLOR_CLASSES)), np.float32)
    probabilities[0, COLOR_CLASSES.index("white")] = 0.6
    probabilities[0, COLOR_CLASSES.index("yellow")] = 0.3
    probabilities[0, COLOR_CLASSES.index("other")] = 0.1
    restricted = restrict_colors(probabilities, COLOR_SETS["sagrada"])
    assert restricted[0, COLOR_CLASSES.index("white")] == 0.0
    assert restricted[0, COLOR_CLASSES.index("yellow")] == pytest.approx(0.75)
    assert restricted[0, COLOR_CLASSES.index("other")] == pytest.approx(0.25)


def test_shipped_reader_reads_real_validation_dice_from_their_true_boxes() -> None:
    reader = DiceReader()
    photos = load_labelled_photos(REAL_PHOTOS, read_split(REPOSITORY / "models" / "validation_split.txt"))
    correct = total = 0
    for photo in photos[:10]:
        image = cv2.imread(str(photo.path))
        readings = reader.read(image, [die.box for die in photo.dice], COLOR_SETS["all"])
        correct += sum(r.value == d.value for r, d in zip(readings, photo.dice, strict=True))
        total += len(readings)
    assert correct / total >= 0.94  # measured 71/74 (96%) with the shipped reader


def test_the_shipped_reader_takes_crops_of_the_size_it_is_trained_on_by_default() -> None:
    assert DiceReader().input_size == READER_INPUT_SIZE


def test_reader_returns_nothing_for_no_boxes() -> None:
    assert DiceReader().read(np.zeros((10, 10, 3), np.uint8), [], COLOR_SETS["all"]) == []
