"""The dice face locator: its model file, and how near the rendered dice's top faces it moves boxes placed
off them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.errors import ModelUnavailable
from vision.read import white_balance_gains
from vision.relocate import LOCATOR_MODEL, MOST_MOVED, BoxLocator
from vision.synth.scene import SceneConfig, render_scene

needs_model = pytest.mark.skipif(not LOCATOR_MODEL.is_file(), reason="models/dice_locator.onnx missing")


def test_a_missing_model_names_the_command_that_rebuilds_it(tmp_path: Path) -> None:
    with pytest.raises(ModelUnavailable, match="train_dice_locator"):
        BoxLocator(model=tmp_path / "missing.onnx")


@needs_model
def test_boxes_placed_off_their_faces_are_moved_onto_them() -> None:
    """Each die's box of 60 rendered photos (seeds the training never draws), centred a fifth of its side
    off its top face any way round, is moved back: measured, 271 dice a median 0.010 box sides off, 1.5 %
    over 0.1. The floors leave room."""
    locator = BoxLocator()
    rng = np.random.default_rng(5)
    config = SceneConfig(width=400, height=400, dice_count=(1, 8), die_size_px=(20.0, 80.0))
    shifted, located = [], []
    for seed in range(60):
        scene = render_scene(config, np.random.default_rng(70_000 + seed))
        dice = [die for die in scene.dice if die.visible_fraction >= 0.5]
        if not dice:
            continue
        faces = np.array([die.top_face.mean(axis=0) for die in dice], np.float64)
        boxes = np.array([die.box for die in dice], np.float64)
        sides = np.max(boxes[:, 2:] - boxes[:, :2], axis=1)
        angles = rng.uniform(0, 2 * np.pi, len(dice))
        moves = 0.2 * sides[:, None] * np.column_stack((np.cos(angles), np.sin(angles)))
        off = faces - (boxes[:, :2] + boxes[:, 2:]) / 2 + moves
        placed = boxes + np.hstack((off, off))
        found = np.array(
            locator.on_faces(scene.image, [tuple(box) for box in placed], white_balance_gains(scene.image))
        )
        for boxes_now, kept in ((placed, shifted), (found, located)):
            kept.extend(np.hypot(*((boxes_now[:, :2] + boxes_now[:, 2:]) / 2 - faces).T) / sides)
    located_array = np.array(located)
    print(
        f"{len(located)} dice: shifted {np.median(shifted):.3f}, located {np.median(located_array):.3f}, "
        f"over 0.1 {np.mean(located_array > 0.1):.3f}"
    )
    assert len(located) >= 200
    assert MOST_MOVED > 0.2
    assert np.median(located_array) < 0.06
    assert np.mean(located_array > 0.1) < 0.1
