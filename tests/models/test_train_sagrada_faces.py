"""The Sagrada face reader's training: one cut a die, labelled with its value, and a tiny run exports a
model the space reader loads. Skipped where torch (the `train` extra) is not installed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from engine.sagrada.window import ALL_CELLS
from models.train_sagrada_faces import main, window_faces
from vision.sagrada.cells import FACE_CUT_PX, CellReader
from vision.sagrada.lattice import WindowLattice
from vision.synth.sagrada import SagradaConfig, render_window_scene


def test_every_die_of_a_window_gives_one_cut_labelled_with_its_value() -> None:
    scene = render_window_scene(SagradaConfig(fill=(0.3, 0.6)), np.random.default_rng(3))
    cuts, labels = window_faces(scene, np.random.default_rng(4))
    dice = [die for die in (scene.windows[0].window[cell] for cell in ALL_CELLS) if die is not None]
    assert cuts.shape == (len(dice), FACE_CUT_PX, FACE_CUT_PX, 3)
    assert labels.tolist() == [die.value - 1 for die in dice]


def test_a_tiny_training_run_exports_a_model_the_space_reader_loads(tmp_path: Path) -> None:
    model = tmp_path / "faces.onnx"
    main(["--scenes=30", "--epochs=1", f"--output={model}"])
    scene = render_window_scene(SagradaConfig(fill=(0.5, 0.5)), np.random.default_rng(5))
    (spaces,) = CellReader(face_reader=model).read(
        scene.image, [WindowLattice.through(scene.windows[0].corners)]
    )
    assert len(spaces) == len(ALL_CELLS)
    assert all(np.isclose(space.probabilities.sum(), 1.0, atol=1e-4) for space in spaces)
