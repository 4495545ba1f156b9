"""Training code: its targets decode back through the run-time detector, and a tiny run trains and exports
models the recognizer loads. Skipped where torch (the `train` extra) is not installed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from models.train_dice import detector_targets, main
from vision.detect import DETECTOR_STRIDE, DetectorSettings, heatmap_peaks
from vision.recognizer import DiceRecognizer


def test_detector_targets_decode_to_the_same_boxes_at_run_time() -> None:
    boxes = np.array(
        [[10.0, 12.0, 40.0, 44.0], [100.0, 50.0, 130.5, 79.0], [60.0, 150.0, 70.0, 161.0]], np.float32
    )
    heat, regression = detector_targets(boxes, 192 // DETECTOR_STRIDE)
    prediction = np.concatenate([heat[None], regression[1:]]).astype(np.float32)
    found = heatmap_peaks(prediction, DetectorSettings(min_score=0.99))
    decoded = sorted(candidate.box for candidate in found)
    assert np.allclose(decoded, sorted(map(tuple, boxes.tolist())), atol=1e-3)


def test_a_tiny_training_run_exports_models_the_recognizer_loads(tmp_path: Path) -> None:
    detector, reader = tmp_path / "detector.onnx", tmp_path / "reader.onnx"
    main(
        [
            "--synthetic-scenes=2",
            "--detector-steps=2",
            "--reader-steps=2",
            f"--detector={detector}",
            f"--reader={reader}",
            "--skip-validation",
        ]
    )
    recognizer = DiceRecognizer(detector_model=detector, reader_model=reader)
    observation = recognizer.recognize_pixels(np.full((64, 96, 3), 200, np.uint8))
    assert observation.width == 96 and observation.height == 64
