"""The face reader's training: its faces are cut where the mat reader cuts them, and a tiny run exports a
model the face reader loads. Skipped where torch (the `train` extra) is not installed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from models.train_dice import top_faces_in_view
from models.train_runbuster_faces import main, mat_config
from vision.runbuster.faces import CUT_PX, face_reader
from vision.runbuster.locate import locate_mat
from vision.runbuster.topdown import VIEW_SCALE, mat_to_view
from vision.runbuster.zones import MatViews
from vision.synth.mat import render_mat_scene


def test_training_faces_are_centred_on_the_footprints_the_mat_reader_cuts_round() -> None:
    """A rendered top face's centre in the view at the dice's tops is its die's footprint, on A3 and A4,
    so the training cuts (that centre moved by a footprint's error) are the mat reader's. (On one of these
    mats the camera found from the markers leaves every face about 0.13 edges off; the median counts.)"""
    rng = np.random.default_rng(1)
    papers, gaps = set(), []
    for _ in range(7):
        config = mat_config(rng)
        scene = render_mat_scene(config, rng)
        location = locate_mat(scene.image)
        views = MatViews.of(scene.image, location, config.paper)
        centres = top_faces_in_view([label.die for label in scene.dice], location, views.edge).mean(axis=1)
        footprints = mat_to_view(np.array([label.mat_point for label in scene.dice]))
        gaps.extend(np.hypot(*(centres - footprints).T) / (views.edge * VIEW_SCALE))
        papers.add(config.paper)
    assert len(papers) == 2
    assert np.median(gaps) < 0.03


def test_a_tiny_training_run_exports_a_model_the_face_reader_loads(tmp_path: Path) -> None:
    model = tmp_path / "faces.onnx"
    main(["--scenes=12", "--epochs=1", f"--output={model}"])
    probabilities = face_reader(model=model).value_probabilities(np.zeros((3, CUT_PX, CUT_PX, 3), np.uint8))
    assert probabilities.shape == (3, 6)
    assert np.allclose(probabilities.sum(axis=1), 1.0, atol=1e-5)
