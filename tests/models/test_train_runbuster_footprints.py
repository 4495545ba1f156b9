"""The face locator's training: an offset turns with its cut, and a tiny run exports a model the face
locator loads. Skipped where torch (the `train` extra) is not installed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from models.train_runbuster_footprints import augment, main
from vision.face_locator import CUT_PX
from vision.runbuster.footprints import FootprintLocator


def test_an_offset_turns_with_its_cut() -> None:
    """A cut with one bright pixel and the offset to it: after the augmentation's quarter turns, each
    offset still points at its pixel."""
    rng = np.random.default_rng(3)
    spots = rng.integers(4, CUT_PX - 4, (64, 2))
    cuts = np.zeros((64, CUT_PX, CUT_PX, 3), np.uint8)
    cuts[np.arange(64), spots[:, 1], spots[:, 0]] = 255
    middle = (CUT_PX - 1) / 2
    offsets = ((spots - middle) / CUT_PX).astype(np.float32)
    turned, turned_offsets = augment(cuts, offsets, rng)
    brightest = turned[:, :, :, 0].reshape(64, -1).argmax(axis=1)
    found = np.column_stack((brightest % CUT_PX, brightest // CUT_PX))
    assert np.allclose(turned_offsets * CUT_PX + middle, found)


def test_a_tiny_training_run_exports_a_model_the_face_locator_loads(tmp_path: Path) -> None:
    model = tmp_path / "footprints.onnx"
    main(["--scenes=12", "--epochs=1", f"--output={model}"])
    offsets = FootprintLocator(model=model).offsets(np.zeros((3, CUT_PX, CUT_PX, 3), np.uint8))
    assert offsets.shape == (3, 2)
    assert np.all(np.abs(offsets) <= 0.5)
