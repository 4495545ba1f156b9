"""Accuracy floors on the fixed validation split of the real photos (never trained on).

Measured with the shipped models (models/MODEL_CARD.md): recall 100%, precision 100%, value accuracy 99.44%
(the red 5 with gold pips of IMG_20191208_111751 read 6), photos read exactly 96.67% (29 of 30). The die
held in the fingers in IMG_20191208_112623, which the labels leave out, is found and neither counted for
nor against (`unlabelled.csv`; counted as extra, precision 99.45% and 28 of 30). These are issue 3's
floors; one more die missed, misread or invented fails the exact-photos floor.

The same photos' dice are also cut out and laid on the renderer's tables (wood, felt, cloth, boards) under
its light, blur, noise and JPEG: real dice on tables no photo shows. Measured on the 600 scenes here (2686
dice) with the shipped models: recall 99.40%, precision 95.91%, value accuracy 94.12%, colour accuracy
98.42% (session 30). Until session 30 the module laid the first 150 of these scenes (675 dice), whose
figures (98.96%, 95.57%, 94.61%, 98.89%, the same on session 27's machine and session 30's; with the reader
before, session 15's, 98.67%, 95.28%, 93.54%, 93.47%) stood about half a point above the 600's, and its
floors just under them: the colour floor (98.5%) was above what the 600 scenes read, held only by the first
150 reading well. Renders move with the processor (`tests/vision/test_synthetic_roundtrip.py`), so the
floors now sit about two and a half standard errors of a 2686-dice sample under the 600's figures.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.colors import COLOR_SETS
from vision.evaluation import (
    AccuracyReport,
    load_labelled_photos,
    read_rendered_scenes,
    read_split,
    summarise,
)
from vision.read import COLOR_CLASSES
from vision.recognizer import DiceRecognizer
from vision.synth.real_dice import load_real_dice, render_real_dice_scene
from vision.synth.scene import SceneConfig

REPOSITORY = Path(__file__).resolve().parents[2]
REAL_PHOTOS = REPOSITORY / "tests" / "data" / "dice_real"
VALIDATION_SPLIT = REPOSITORY / "models" / "validation_split.txt"
ON_TABLES = SceneConfig(width=400, height=400, dice_count=(1, 8), die_size_px=(20.0, 80.0))


@pytest.fixture(scope="module")
def report(recognizer: DiceRecognizer) -> AccuracyReport:
    photos = load_labelled_photos(REAL_PHOTOS, read_split(VALIDATION_SPLIT))
    return summarise([photo.score(recognizer.recognize(photo.path).dice) for photo in photos])


def test_the_validation_split_is_thirty_photos_and_excluded_from_training() -> None:
    names = read_split(VALIDATION_SPLIT)
    assert len(names) == len(set(names)) == 30
    assert all((REAL_PHOTOS / "images" / name).is_file() for name in names)


def test_detection_recall(report: AccuracyReport) -> None:
    assert report.recall >= 0.99, str(report)


def test_detection_precision(report: AccuracyReport) -> None:
    assert report.precision >= 0.99, str(report)


def test_value_accuracy(report: AccuracyReport) -> None:
    assert report.value_accuracy >= 0.99, str(report)


def test_photos_read_exactly(report: AccuracyReport) -> None:
    assert report.exact_photos >= 0.95, str(report)


@pytest.fixture(scope="module")
def on_tables(recognizer: DiceRecognizer) -> AccuracyReport:
    crops = load_real_dice(REAL_PHOTOS, COLOR_CLASSES, images=set(read_split(VALIDATION_SPLIT)))
    readings = read_rendered_scenes(
        lambda image: recognizer.recognize_pixels(image, COLOR_SETS["all"]).dice,
        ON_TABLES,
        seed=90211,
        scenes=600,
        render=lambda config, rng: render_real_dice_scene(config, crops, rng),
    )
    return summarise([reading.score() for reading in readings])


def test_real_dice_on_other_tables_are_found(on_tables: AccuracyReport) -> None:
    assert on_tables.recall >= 0.985, str(on_tables)
    assert on_tables.precision >= 0.95, str(on_tables)


def test_real_dice_on_other_tables_are_read(on_tables: AccuracyReport) -> None:
    assert on_tables.value_accuracy >= 0.93, str(on_tables)
    assert on_tables.color_accuracy >= 0.978, str(on_tables)
