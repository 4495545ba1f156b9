"""Rendered Sagrada windows shared by the tests: seeded, so every run sees the same photos."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.sagrada.cells import CELL_MODEL, CellReader
from vision.sagrada.lattice import WindowLattice
from vision.synth.sagrada import RenderedWindow, SagradaConfig, WindowScene, render_window_scene

SCENES = 40

needs_cell_model = pytest.mark.skipif(
    not CELL_MODEL.is_file(), reason="models/sagrada_cells.onnx missing: python -m models.train_sagrada_cells"
)


def window_config(fill: tuple[float, float]) -> SagradaConfig:
    base = SagradaConfig(fill=fill, window_px=(220.0, 340.0))
    return replace(base, scene=replace(base.scene, width=960, height=540))


@pytest.fixture(scope="session")
def scenes() -> list[WindowScene]:
    """Windows holding any number of dice, legal and illegal, under random poses and light."""
    config = window_config((0.0, 1.0))
    return [render_window_scene(config, np.random.default_rng(7000 + seed)) for seed in range(SCENES)]


@pytest.fixture(scope="session")
def sparse_scenes() -> list[WindowScene]:
    """Windows with at most half their spaces filled (at most 10 dice): the pattern must show."""
    config = window_config((0.0, 0.5))
    return [render_window_scene(config, np.random.default_rng(8000 + seed)) for seed in range(SCENES)]


@pytest.fixture(scope="session")
def full_scenes() -> list[WindowScene]:
    """Windows with 85-100 % of their spaces filled, as at the end of a game: the dice hide the grout."""
    config = window_config((0.85, 1.0))
    return [render_window_scene(config, np.random.default_rng(9000 + seed)) for seed in range(SCENES)]


@pytest.fixture(scope="session")
def cell_reader() -> CellReader:
    return CellReader()


def true_lattice(window: RenderedWindow) -> WindowLattice:
    """The lattice the renderer's label gives, for testing later stages apart from the lattice fit."""
    return WindowLattice.through(window.corners)


def pitch_px(window: RenderedWindow) -> float:
    """The space pitch in the image, near the grid's top edge."""
    return float(np.linalg.norm(window.corners[1] - window.corners[0])) / 5


def jpeg_bytes(scene: WindowScene) -> bytes:
    """A rendered photo's bytes as `bench/bench_sagrada_read.py` stores 12 MP photos (JPEG, quality 90)."""
    ok, encoded = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return encoded.tobytes()
