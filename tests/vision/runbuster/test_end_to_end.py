"""The whole pipeline on rendered mats: recognizer -> mat -> zones, against the renderer's exact labels."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.read import READER_MODEL
from vision.runbuster.mat import ZONE_KEYS, Paper
from vision.runbuster.zones import SharedRecognizer, read_mat_photo
from vision.synth.mat import DEMO_TABLES, MatScene, MatSceneConfig, render_mat_scene

pytestmark = pytest.mark.skipif(not READER_MODEL.is_file(), reason="the dice reader model has not landed")

DEMO_FOLDER = Path(__file__).parents[3] / "companion_app" / "demo" / "runbuster"


def test_dice_are_found_read_and_placed_in_their_zones(mat_scenes: list[MatScene]) -> None:
    """Per zone, the values read match the values rendered.

    Issue 6 asks for >= 99.5 % of the dice with as few extras. Found on the mat's top-down views, each
    find moved onto its top face by the face locator, and read there, the shipped models get 509 of the 510
    right (a 2 read 4) with 4 extras (505 with 6 extras before the locator; session 39's face reader and
    locator, retrained on translucent dice that keep their hue, lifted 507 to 509;
    `python -m bench.bench_runbuster_camera --scenes 28 --seed 20261129 --dice-per-zone 3 6` sorts them by
    kind), so the floors hold the target.
    """
    recognizer = SharedRecognizer()
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
    assert extra / total <= 0.01, f"{extra} dice read where none lie ({total} dice)"


def test_a_mat_printed_on_a4_is_read_as_well() -> None:
    """On the smaller print a die is larger in mat units; the views and the reading follow the paper.

    12 mats (2-6 dice a zone): 192 of the 193 dice right with the shipped models, face reader and face
    locator, and no extra; with session 5's detector all 193 right. On 40 other mats
    (seed 6, a one-off run of this loop) the shipped models read 662 of 665 and session 5's detector 659,
    so the floor allows a few misreads: a paper the views did not follow would misread most dice.
    """
    config = MatSceneConfig(paper=Paper.A4, dice_per_zone=(2, 6))
    rng = np.random.default_rng(5)
    recognizer = SharedRecognizer()
    right = total = extra = 0
    for _ in range(12):
        scene = render_mat_scene(config, rng)
        reading = read_mat_photo(recognizer, scene.image, Paper.A4)
        for key in ZONE_KEYS:
            truth, read = Counter(scene.values(key)), Counter(reading.values(key))
            right += sum((truth & read).values())
            extra += sum((read - truth).values())
        total += len(scene.dice)
    assert right / total >= 0.98, f"{total - right} of {total} dice missed, misread or in the wrong zone"
    assert extra / total <= 0.01, f"{extra} dice read where none lie ({total} dice)"


def test_the_demo_photos_read_as_their_tables() -> None:
    """Every demo die found in its zone; the shipped readers read the values of 29 of the 31 right (two 4s
    whose glint reads as a fifth pip, with the face reader as without).

    The floor guards that level; the target is every zone of every demo photo read exactly.
    """
    recognizer = SharedRecognizer()
    right = total = 0
    for name, table in DEMO_TABLES.items():
        image = cv2.imread(str(DEMO_FOLDER / name))
        reading = read_mat_photo(recognizer, image)
        for key in ZONE_KEYS:
            truth, read = Counter(table.get(key, ())), Counter(reading.values(key))
            right += sum((truth & read).values())
            total += sum(truth.values())
            assert len(reading.values(key)) == len(table.get(key, ())), f"{name}: {key} has the wrong count"
    assert right >= 29, f"{total - right} of {total} demo dice misread"
