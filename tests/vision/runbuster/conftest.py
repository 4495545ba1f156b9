"""Rendered mat photos shared by the Run Buster vision tests (rendering is the slow part)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.observation import DetectedDie
from vision.synth.mat import MatDie, MatScene, MatSceneConfig, render_mat_scene

SCENES = 28
DENSE = MatSceneConfig(dice_per_zone=(3, 6))


@pytest.fixture(scope="package")
def mat_scenes() -> list[MatScene]:
    """Mats photographed from either side at random angles, 3-6 dice at random places in every zone."""
    rng = np.random.default_rng(20261129)
    return [render_mat_scene(DENSE, rng) for _ in range(SCENES)]


def as_detected(label: MatDie) -> DetectedDie:
    """A rendered die as the recognizer would report it: its box and its centre, read with certainty."""
    box = label.die.box
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    return DetectedDie(centre, box, label.die.value, label.die.color, 1.0, 1.0, 1.0)


def crop_offset(photo: np.ndarray, part: np.ndarray) -> tuple[int, int]:
    """Where `part`, cut from `photo`, lies in it: found by matching the part's (busy) middle."""
    height, width = part.shape[:2]
    middle = part[height // 2 - 48 : height // 2 + 48, width // 2 - 48 : width // 2 + 48]
    x, y = cv2.minMaxLoc(cv2.matchTemplate(photo, middle, cv2.TM_SQDIFF))[2]
    return x - (width // 2 - 48), y - (height // 2 - 48)
