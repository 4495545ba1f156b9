"""A face reader reads a cut as it lies, and the cuts it is unsure of at their four quarter turns."""

from __future__ import annotations

import numpy as np
import pytest

from vision.face_reader import FaceReader
from vision.sagrada.cells import FACE_MODEL

pytestmark = pytest.mark.skipif(not FACE_MODEL.is_file(), reason="models/sagrada_faces.onnx missing")


def reader(second_look_below: float = np.inf) -> FaceReader:
    return FaceReader(FACE_MODEL, "python -m models.train_sagrada_faces", second_look_below=second_look_below)


def test_unsure_cuts_alone_are_read_again_at_their_other_quarter_turns() -> None:
    cuts = np.random.default_rng(2).integers(0, 256, (12, 48, 48, 3), dtype=np.uint8)
    each_turn = np.stack([reader(0.0).value_probabilities(np.rot90(cuts, k, axes=(1, 2))) for k in range(4)])
    once, always = each_turn[0], reader().value_probabilities(cuts)
    assert np.allclose(always, each_turn.mean(axis=0), atol=1e-6)
    threshold = float(np.median(once.max(axis=1)))
    unsure = once.max(axis=1) < threshold
    assert 0 < unsure.sum() < len(cuts)
    some = reader(threshold).value_probabilities(cuts)
    assert np.allclose(some[unsure], always[unsure], atol=1e-6)
    assert np.allclose(some[~unsure], once[~unsure], atol=1e-6)
    assert np.allclose(some.sum(axis=1), 1.0, atol=1e-5)


def test_no_cuts_read_as_no_rows() -> None:
    assert reader().value_probabilities(np.zeros((0, 48, 48, 3), np.uint8)).shape == (0, 6)
