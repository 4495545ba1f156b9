"""Real dice cut from the labelled photos and laid into rendered tables."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from vision.read import COLOR_CLASSES
from vision.synth.real_dice import RealDieCrop, load_real_dice, no_larger, render_real_dice_scene
from vision.synth.scene import SceneConfig

REAL_DICE = Path(__file__).resolve().parents[2] / "data" / "dice_real"


@pytest.fixture(scope="module")
def all_crops() -> list[RealDieCrop]:
    return load_real_dice(REAL_DICE, COLOR_CLASSES)


def test_every_colour_asked_for_is_cut_and_only_those(all_crops: list[RealDieCrop]) -> None:
    with (REAL_DICE / "colors.csv").open(newline="") as handle:
        labelled = {row["color"] for row in csv.DictReader(handle)} & set(COLOR_CLASSES)
    assert len(all_crops) >= 400
    assert {crop.color for crop in all_crops} <= labelled
    assert {"red", "black", "white", "other"} <= {crop.color for crop in all_crops}
    reds = load_real_dice(REAL_DICE, ("red",))
    assert reds and all(crop.color == "red" for crop in reds)
    photo = all_crops[0].source.split("#")[0]
    assert {c.source.split("#")[0] for c in load_real_dice(REAL_DICE, COLOR_CLASSES, images={photo})} == {
        photo
    }


def test_a_large_crop_is_shrunk_by_averaging_and_a_small_one_kept(all_crops: list[RealDieCrop]) -> None:
    crop = max(all_crops, key=lambda c: c.pixels.shape[0])
    side = crop.pixels.shape[0]
    small = no_larger(crop, side / 2)
    assert abs(small.pixels.shape[0] - side / 2) <= 1 and small.mask.shape == small.pixels.shape[:2]
    assert abs(float(small.pixels.mean()) - float(crop.pixels.mean())) < 3  # averaged, not sampled
    assert no_larger(crop, side + 5) is crop


def test_each_die_laid_on_the_table_is_labelled_with_its_crop_and_shows_there() -> None:
    reds = load_real_dice(REAL_DICE, ("red",))
    config = SceneConfig(
        width=320,
        height=320,
        dice_count=(3, 3),
        die_size_px=(40.0, 60.0),
        max_tilt_deg=15.0,
        backgrounds=("paper",),
        distractor_count=(0, 0),
        motion_blur_probability=0.0,
    )
    scene = render_real_dice_scene(config, reds, np.random.default_rng(7))
    again = render_real_dice_scene(config, reds, np.random.default_rng(7))
    assert np.array_equal(scene.image, again.image)  # seeded
    assert len(scene.dice) == 3
    values = {crop.value for crop in reds}
    pixels = scene.image.astype(float)
    outside = np.ones(pixels.shape[:2], bool)
    for die in scene.dice:
        left, top, right, bottom = (round(v) for v in die.box)
        outside[max(top - 10, 0) : bottom + 10, max(left - 10, 0) : right + 10] = False
    table = np.median(pixels[outside], axis=0)
    for die in scene.dice:
        assert die.color == "red" and die.value in values and die.visible_fraction == 1.0
        left, top, right, bottom = (round(v) for v in die.box)
        assert 0 <= left < right <= config.width and 0 <= top < bottom <= config.height
        assert 30 <= right - left <= 90
        quarter = (right - left) // 4
        inner = pixels[top + quarter : bottom - quarter, left + quarter : right - quarter]
        assert np.abs(inner - table).max(axis=2).mean() > 40  # the die, not the paper
        assert (inner[..., 2] > inner[..., 1]).mean() > 0.5  # a red one


def test_no_crops_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="at least one crop"):
        render_real_dice_scene(SceneConfig(), [], np.random.default_rng(0))
