"""Detector stage: input preparation, heatmap decoding, and the shipped model on rendered scenes."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detect import DETECTOR_STRIDE, DetectorSettings, DiceDetector, detector_input, heatmap_peaks
from vision.evaluation import match_boxes
from vision.synth.scene import SceneConfig, render_scene


def test_input_is_shrunk_to_the_working_scale_and_padded_to_the_alignment() -> None:
    tensor, scale = detector_input(np.zeros((720, 1280, 3), np.uint8), working_long_side=640)
    assert scale == 0.5
    assert tensor.shape == (1, 3, 368, 640)
    assert tensor.dtype == np.float32


def test_small_input_is_never_enlarged() -> None:
    tensor, scale = detector_input(np.zeros((100, 50, 3), np.uint8), working_long_side=640)
    assert scale == 1.0
    assert tensor.shape == (1, 3, 112, 64)


def prediction_with_peaks(
    peaks: list[tuple[int, int, float]], box_cells: tuple[float, float] = (2.0, 3.0), cells: int = 32
) -> np.ndarray:
    """A fake 5-channel network output with the given (row, col, score) peaks, boxes of `box_cells`
    (width, height), centre offset 0.5."""
    maps = np.zeros((5, cells, cells), np.float32)
    maps[1] = np.log(box_cells[0])
    maps[2] = np.log(box_cells[1])
    maps[3:5] = 0.5
    for row, col, score in peaks:
        maps[0, row, col] = score
    return maps


def test_peaks_above_the_floor_become_boxes_in_image_pixels() -> None:
    settings = DetectorSettings(min_score=0.3)
    found = heatmap_peaks(prediction_with_peaks([(10, 20, 0.9), (5, 5, 0.2)]), settings, pixels_per_cell=8.0)
    assert len(found) == 1
    cx, cy = 20.5 * 8, 10.5 * 8
    assert found[0].box == pytest.approx((cx - 8, cy - 12, cx + 8, cy + 12))
    assert found[0].score == pytest.approx(0.9)


def test_overlapping_peaks_keep_only_the_strongest() -> None:
    """Peaks two cells apart on 8-cell boxes overlap by IoU 0.6: one die, reported once."""
    prediction = prediction_with_peaks([(10, 10, 0.8), (10, 12, 0.9), (20, 20, 0.7)], box_cells=(8.0, 8.0))
    found = heatmap_peaks(prediction, DetectorSettings())
    assert [round(c.score, 2) for c in found] == [0.9, 0.7]


def test_shipped_detector_finds_rendered_dice() -> None:
    """Recall only: the detector proposes generously, and the reader rejects what is not a die."""
    detector = DiceDetector()
    rng = np.random.default_rng(11)
    config = SceneConfig(
        width=480, height=480, dice_count=(3, 8), die_size_px=(24.0, 70.0), max_tilt_deg=20.0
    )
    truth_count = matched = 0
    for _ in range(8):
        scene = render_scene(config, rng)
        truth = [d.box for d in scene.dice if d.visible_fraction >= 0.8]
        found = [c.box for c in detector.find(scene.image)]
        truth_count += len(truth)
        matched += len(match_boxes(truth, found))
    assert matched / truth_count >= 0.95


def test_stride_matches_the_network_output() -> None:
    detector = DiceDetector()
    tensor, _ = detector_input(np.zeros((256, 320, 3), np.uint8), 640)
    (maps,) = detector._session.run(None, {detector._input_name: tensor})
    assert maps.shape == (1, 5, 256 // DETECTOR_STRIDE, 320 // DETECTOR_STRIDE)
