"""The dice face locator's training: its targets point at the dice's top faces, and a tiny run exports a
model the recognizer's locator loads. Skipped where torch (the `train` extra) is not installed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from models.train_dice_locator import main, photo_samples
from vision.face_locator import CUT_PX
from vision.relocate import BoxLocator


def test_each_target_points_at_a_top_face_within_the_cut() -> None:
    """Every cut is centred near a die's box centre or its top face, so each target lies inside the cut and
    most lie near its middle (where the locator puts faces is measured by `tests/vision/test_relocate.py`)."""
    cuts, offsets = photo_samples(20, 5)
    assert cuts.shape[1:] == (CUT_PX, CUT_PX, 3) and len(cuts) == len(offsets) > 20
    assert np.all(np.abs(offsets) < 0.5)
    assert np.median(np.hypot(*offsets.T)) < 0.15


def test_a_tiny_training_run_exports_a_model_the_locator_loads(tmp_path: Path) -> None:
    model = tmp_path / "dice_locator.onnx"
    main(["--scenes=60", "--epochs=1", f"--output={model}"])
    boxes = BoxLocator(model=model).on_faces(
        np.zeros((100, 100, 3), np.uint8), [(40.0, 40.0, 60.0, 60.0)], np.ones(3, np.float32)
    )
    assert len(boxes) == 1 and np.allclose(np.subtract(boxes[0][2:], boxes[0][:2]), 20.0)
