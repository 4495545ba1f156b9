"""Accuracy floors on the fixed validation split of the real photos (never trained on).

Measured with the shipped models (models/MODEL_CARD.md): recall 100%, precision 100%, value accuracy 99.44%
(the red 5 with gold pips of IMG_20191208_111751 read 6), photos read exactly 96.67% (29 of 30). The die
held in the fingers in IMG_20191208_112623, which the labels leave out, is found and neither counted for
nor against (`unlabelled.csv`; counted as extra, precision 99.45% and 28 of 30). These are issue 3's
floors; one more die missed, misread or invented fails the exact-photos floor.

The same photos' dice are also cut out and laid on the renderer's tables (wood, felt, cloth, boards) under its
light, blur, noise and JPEG: real dice on tables no photo shows. Measured on the 600 scenes here with the
shipped models: recall 99.59%, precision 96.42%, value accuracy 94.96%, colour accuracy 98.29% (session 41's
reader, on session 27's machine kind: 2652 dice); with session 27's reader on session 30's machine (2686 dice)
99.40%, 95.91%, 94.12%, 98.42%. Until session 30 the module laid the first 150 of these scenes (675 dice),
whose figures (98.96%, 95.57%, 94.61%, 98.89%, the same on session 27's machine and session 30's; with the
reader before, session 15's, 98.67%, 95.28%, 93.54%, 93.47%) stood about half a point above the 600's, and its
floors just under them: the colour floor (98.5%) was above what the 600 scenes read, held only by the first
150 reading well. Renders move with the processor (`tests/vision/test_synthetic_roundtrip.py`), so the floors
now sit about two and a half standard errors of a 2686-dice sample under the 600's figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from vision.colors import COLOR_SETS
from vision.evaluation import (
    CLOSE_UP_MARGINS,
    PERTURBATIONS,
    AccuracyReport,
    load_labelled_photos,
    perturbation_named,
    read_close_ups,
    read_perturbed,
    read_rendered_scenes,
    read_split,
    summarise,
)
from vision.observation import DetectedDie
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


# The validation photos changed as another camera, table or light could change them, read from JPEG
# bytes (`python3 bench/bench_vision.py --skip-latency --scenes 0` prints the figures). Measured with the
# shipped models (session 41's reader, and since session 56 the face reader of square cuts): (recall, value
# accuracy, colour accuracy), the floors about two dice under. Heavy blur and shake are the weak points: out
# of focus by 0.4% of the long side 79.4 / 91.6 / 97.0%, shaken over 1.1% of it 95.0 / 87.1 / 100%; their
# floors only catch a further fall. The face reader gained dice under most changes (out of focus 85.3% to
# 91.6%, tilted to 0.4 96.1% to 97.8%) and lost two shaken over 1.1%, one shaken over 0.8%, one under
# sensor noise and one hazy; those floors moved to two dice under the new figures. Session 59's wider face
# reader moved them a die or two either way, as a rebuild does (`models/MODEL_CARD.md`, session 59): the
# values below are its, and the floors it came within two dice of moved to two dice under. Session 64's face
# reader (its cuts varied afresh each batch) moved them again: out of focus 89.51% to 95.10%, a die or two
# either way elsewhere; the values below are its, and the two floors it came within two dice of (half size,
# shaken over 1.1%) moved to two dice under.
CHANGED_FLOORS = {
    "half size": (0.988, 0.955, 0.988),  # measured 100 / 96.67 / 100
    "1.8x size": (0.988, 0.983, 0.988),  # 100 / 99.44 / 100
    "quarter turn": (0.988, 0.977, 0.988),  # 100 / 99.44 / 100
    "turned 30 degrees": (0.988, 0.972, 0.988),  # 100 / 99.44 / 100
    "tilted (far edge 0.6 wide)": (0.988, 0.972, 0.988),  # 100 / 98.89 / 100
    "tilted (far edge 0.4 wide)": (0.977, 0.949, 0.988),  # 98.89 / 97.75 / 100
    "brighter (gamma 0.6)": (0.988, 0.977, 0.988),  # 100 / 99.44 / 100
    "darker (gamma 1.7)": (0.988, 0.972, 0.970),  # 100 / 99.44 / 98.18
    "uneven light": (0.988, 0.972, 0.988),  # 100 / 99.44 / 100
    "warm light": (0.988, 0.983, 0.982),  # 100 / 100 / 99.39
    "cool light": (0.988, 0.977, 0.982),  # 100 / 99.44 / 99.39
    "green cast": (0.988, 0.983, 0.988),  # 100 / 99.44 / 100
    "hazy (a quarter of white over it)": (0.988, 0.966, 0.855),  # 100 / 98.89 / 86.67
    "flat (contrast 0.7)": (0.988, 0.983, 0.916),  # 100 / 99.44 / 92.73
    "soft focus (0.23%)": (0.988, 0.977, 0.988),  # 100 / 98.89 / 100
    "out of focus (0.4%)": (0.783, 0.841, 0.958),  # 79.44 / 95.10 / 96.97
    "shaken (0.8%)": (0.983, 0.972, 0.988),  # 99.44 / 98.32 / 100
    "shaken (1.1%)": (0.938, 0.853, 0.988),  # 95.00 / 86.55 / 100
    "sensor noise (sigma 10)": (0.988, 0.966, 0.988),  # 100 / 98.89 / 100
    # No colour to read: every die's colour comes with confidence 0 (`vision.read.holds_colour`), so the
    # colours named are no reading and have no floor. Values measured in session 42.
    "greyscale": (0.988, 0.916, 0.0),  # 100 / 95.00 / (29.09)
}


def test_every_change_the_bench_reads_has_a_floor() -> None:
    assert set(CHANGED_FLOORS) == {perturbation.name for perturbation in PERTURBATIONS}


@pytest.mark.parametrize("name", list(CHANGED_FLOORS))
def test_the_validation_photos_read_well_when_changed(recognizer: DiceRecognizer, name: str) -> None:
    photos = load_labelled_photos(REAL_PHOTOS, read_split(VALIDATION_SPLIT))

    def read_jpeg(data: bytes) -> Sequence[DetectedDie]:
        return recognizer.recognize(data).dice

    report = read_perturbed(photos, perturbation_named(name), read_jpeg)
    recall, value, colour = CHANGED_FLOORS[name]
    assert report.recall >= recall and report.precision >= 0.98, str(report)
    assert report.value_accuracy >= value and report.color_accuracy >= colour, str(report)


# The validation photos cut round each die, as a phone or webcam held close over it frames it, the die 1/m of
# a 640-px frame (`python3 bench/bench_vision.py --skip-latency --scenes 0` prints the figures; the cuts hold
# 180 to 352 dice, the neighbours they take in whole among them). Measured with the shipped models: (recall,
# precision, value accuracy), the floors about two dice under. Before session 48 the detector looked at the
# working scale alone (`vision.detect`), where these dice are too big for it, and found 1.1%, 0.6%, 22.8%
# and 80.1% of them; before session 49 its coarser looks did not offer a whole die whose pips the look at
# half scale boxes, and it found 81.1% and 88.0% of the two closest.
CLOSE_UP_FLOORS = {
    1.5: (0.985, 0.985, 0.985),  # measured 100 / 99.45 / 99.44
    2.0: (0.985, 0.99, 0.985),  # 100 / 100 / 99.45
    3.0: (0.99, 0.99, 0.98),  # 100 / 100 / 98.82
    4.0: (0.985, 0.99, 0.99),  # 99.43 / 100 / 99.71
}


def test_every_close_up_the_bench_reads_has_a_floor() -> None:
    assert set(CLOSE_UP_FLOORS) == set(CLOSE_UP_MARGINS)


@pytest.mark.parametrize("margin", list(CLOSE_UP_FLOORS))
def test_the_validation_photos_read_well_close_up(recognizer: DiceRecognizer, margin: float) -> None:
    photos = load_labelled_photos(REAL_PHOTOS, read_split(VALIDATION_SPLIT))

    def read_jpeg(data: bytes) -> Sequence[DetectedDie]:
        return recognizer.recognize(data).dice

    report = read_close_ups(photos, margin, read_jpeg)
    recall, precision, value = CLOSE_UP_FLOORS[margin]
    assert report.recall >= recall and report.precision >= precision, str(report)
    assert report.value_accuracy >= value, str(report)
