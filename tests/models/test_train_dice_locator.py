"""The dice face locator's training: its targets point at the dice's top faces, and a tiny run exports a
model the recognizer's locator loads. Skipped where torch (the `train` extra) is not installed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from models.train_dice_locator import augment, main, photo_samples
from vision.face_locator import CUT_PX, LOCATOR_CUT
from vision.relocate import BoxLocator


def test_each_target_points_at_a_top_face_within_the_cut() -> None:
    """Every cut is centred near a die's box centre or its top face, so each target lies inside the cut and
    most lie near its middle (where the locator puts faces is measured by `tests/vision/test_relocate.py`);
    the face's side is about the cut's share of it, and the photos' slant squashes it a little."""
    cuts, targets = photo_samples(20, 5)
    assert cuts.shape[1:] == (CUT_PX, CUT_PX, 3) and targets.shape == (len(cuts), 5) and len(cuts) > 20
    assert np.all(np.abs(targets[:, :2]) < 0.5)
    assert np.median(np.hypot(*targets[:, :2].T)) < 0.15
    assert 0.6 < np.median(np.exp(targets[:, 2])) * LOCATOR_CUT < 1.4
    assert np.all(np.abs(targets[:, 3:]) < 1.0) and np.abs(targets[:, 3:]).max() > 0.01


def test_a_quarter_turn_turns_the_offset_and_negates_the_squash() -> None:
    """A cut whose left half is bright, turned as `augment` turns it, has the offset and the squash turned
    with it: the size stays, the squash flips sign on odd turns."""
    cuts = np.zeros((64, CUT_PX, CUT_PX, 3), np.uint8)
    cuts[:, :, : CUT_PX // 2] = 200
    targets = np.tile(np.array([0.1, 0.0, -1.0, 0.2, -0.1], np.float32), (64, 1))
    turned, turned_targets = augment(cuts, targets, np.random.default_rng(1))
    for cut, target in zip(turned, turned_targets, strict=True):
        bright_left = cut[:, : CUT_PX // 2].mean() > cut[:, CUT_PX // 2 :].mean() + 50
        assert target[2] == -1.0
        if bright_left:
            assert np.allclose(target, [0.1, 0.0, -1.0, 0.2, -0.1])
        elif np.isclose(target[0], -0.1):
            assert np.allclose(target[3:], [0.2, -0.1])
        else:
            assert np.allclose(target[3:], [-0.2, 0.1])


def test_a_tiny_training_run_exports_a_model_the_locator_loads(tmp_path: Path) -> None:
    model = tmp_path / "dice_locator.onnx"
    main(["--scenes=60", "--epochs=1", f"--output={model}"])
    faces = BoxLocator(model=model).faces(
        np.zeros((100, 100, 3), np.uint8), [(40.0, 40.0, 60.0, 60.0)], np.ones(3, np.float32)
    )
    assert faces.centres.shape == (1, 2) and faces.matrices.shape == (1, 2, 2)
    assert np.all(np.isfinite(faces.matrices))
