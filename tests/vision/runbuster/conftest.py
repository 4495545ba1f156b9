"""Rendered mat photos shared by the Run Buster vision tests (rendering is the slow part), and a stand-in
for the dice models that reports a rendered mat's dice exactly."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np
import pytest

from vision.detect import DieCandidate
from vision.observation import Box, DetectedDie, box_centre
from vision.read import DieReading
from vision.runbuster.mat import DIE_EDGE
from vision.runbuster.topdown import VIEW_SCALE, VIEW_SIZE, mat_to_view, view_to_mat
from vision.synth.mat import MatDie, MatScene, MatSceneConfig, render_mat_scene

SCENES = 28
DENSE = MatSceneConfig(dice_per_zone=(3, 6))
VIEW_SHAPE = (VIEW_SIZE[1], VIEW_SIZE[0])
"""Rows and columns of the top-down views a recognizer is shown."""


@pytest.fixture(scope="package")
def mat_scenes() -> list[MatScene]:
    """Mats photographed from either side at random angles, 3-6 dice at random places in every zone."""
    rng = np.random.default_rng(20261129)
    return [render_mat_scene(DENSE, rng) for _ in range(SCENES)]


def as_detected(label: MatDie) -> DetectedDie:
    """A rendered die as the recognizer would report it: its box and its centre, read with certainty."""
    box = label.die.box
    return DetectedDie(box_centre(box), box, label.die.value, label.die.color, 1.0, 1.0, 1.0)


class ExactRecognizer:
    """Stands in for the dice models on one rendered mat: finds its dice where they stand in the mat's
    top-down views, locates each face at the footprint nearest the point given, and reads each box or
    face as the die standing nearest its centre, unsurely in `unsure_zones`.

    `shown` records the size of every image it was given.
    """

    def __init__(self, scene: MatScene, unsure_zones: Collection[str] = ()) -> None:
        self.scene = scene
        self.unsure_zones = unsure_zones
        self.shown: list[tuple[int, int]] = []
        self._footprints = np.array([label.mat_point for label in scene.dice]).reshape(-1, 2)
        self._views: list[np.ndarray] = []

    def find_candidates(self, pixels: np.ndarray) -> list[DieCandidate]:
        self.shown.append(pixels.shape[:2])
        half = 0.75 * DIE_EDGE * VIEW_SCALE  # a die's box in the view is about 1.5 edges across
        return [
            DieCandidate((x - half, y - half, x + half, y + half), 1.0)
            for x, y in mat_to_view(self._footprints)
        ]

    def read_boxes(self, pixels: np.ndarray, boxes: Sequence[Box], gains: np.ndarray) -> list[DieReading]:
        """Reads a view as first shown, or turned by quarters (found by comparing)."""
        self.shown.append(pixels.shape[:2])
        turned = [
            (k, view) for view in self._views for k in range(4) if np.array_equal(np.rot90(view, k), pixels)
        ]
        if not turned:
            self._views.append(pixels)
        quarters, view = turned[0] if turned else (0, pixels)
        readings = []
        for x0, y0, x1, y1 in boxes:
            x, y = (x0 + x1) / 2, (y0 + y1) / 2
            for turn in range(quarters):  # undo np.rot90's quarter turns, the last one first
                height = view.shape[1] if (quarters - turn) % 2 else view.shape[0]
                x, y = height - 1 - y, x
            label = self._nearest(np.array([[x, y]]))[0]
            confidence = 0.5 if label.zone in self.unsure_zones else 1.0
            readings.append(DieReading(1.0, label.die.value, confidence, label.die.color, 1.0))
        return readings

    def locate_faces(
        self, tops: np.ndarray, points: np.ndarray, face_side: float, gains: np.ndarray
    ) -> np.ndarray:
        self.shown.append(tops.shape[:2])
        return mat_to_view(np.array([label.mat_point for label in self._nearest(points)]).reshape(-1, 2))

    def _nearest(self, view_points: np.ndarray) -> list[MatDie]:
        """The rendered die standing nearest each point of the top-down views."""
        points = view_to_mat(np.asarray(view_points, np.float64).reshape(-1, 2))
        return [self.scene.dice[int(np.argmin(np.hypot(*(self._footprints - p).T)))] for p in points]

    def read_face_values(
        self, tops: np.ndarray, centres: np.ndarray, face_side: float, gains: np.ndarray
    ) -> np.ndarray:
        """The value of the die standing nearest each centre, with the confidence `read_boxes` gives it
        and the rest spread over the other values."""
        rows = []
        for label in self._nearest(centres):
            confidence = 0.5 if label.zone in self.unsure_zones else 1.0
            row = np.full(6, (1.0 - confidence) / 5)
            row[label.die.value - 1] = confidence
            rows.append(row)
        return np.array(rows).reshape(-1, 6)
