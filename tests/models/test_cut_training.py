"""The shared training loop on cuts: under bfloat16 it trains float32 weights and hands the network back
ready to score and export as before. Skipped where torch (the `train` extra) is not installed."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")

import torch

from models.cut_training import BATCH, fit_face_reader, outputs


def test_a_face_reader_trained_under_bfloat16_keeps_float32_weights_in_the_usual_layout() -> None:
    rng = np.random.default_rng(0)
    cuts = rng.integers(0, 256, (BATCH, 48, 48, 3), dtype=np.uint8)
    labels = rng.integers(0, 6, BATCH)
    network = fit_face_reader(cuts, labels, epochs=1, seed=1, width=2.0, bfloat16=True)
    weights = list(network.parameters())
    assert all(weight.dtype == torch.float32 for weight in weights)
    assert all(weight.is_contiguous() for weight in weights)
    assert weights[0].shape[0] == 48  # the first convolution, twice the dice reader's 24 channels
    scores = outputs(network, cuts[:4])
    assert scores.dtype == np.float32 and scores.shape == (4, 6) and np.isfinite(scores).all()
