"""The Run Buster face reader: its cuts, its model file, and how it reads the rendered mats' faces."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.errors import ModelUnavailable
from vision.read import CROP_MARGIN
from vision.runbuster.faces import CUT_PX, FACE_CUT, FACE_MODEL, face_cuts, face_reader
from vision.runbuster.locate import locate_mat
from vision.runbuster.mat import Paper
from vision.runbuster.topdown import VIEW_SCALE, mat_to_view
from vision.runbuster.zones import MatViews
from vision.synth.mat import MatScene

needs_model = pytest.mark.skipif(not FACE_MODEL.is_file(), reason="models/runbuster_faces.onnx missing")


def test_a_missing_model_names_the_command_that_rebuilds_it(tmp_path: Path) -> None:
    with pytest.raises(ModelUnavailable, match="train_runbuster_faces"):
        face_reader(model=tmp_path / "missing.onnx")


def test_a_cut_is_centred_on_its_face_and_spans_the_cut_box() -> None:
    tops = np.zeros((200, 300, 3), np.uint8)
    tops[90:111, 140:161] = 255  # a 21-pixel face centred at (150, 100)
    cuts = face_cuts(tops, [(150.0, 100.0), (40.0, 60.0)], 21.0, np.ones(3, np.float32))
    assert cuts.shape == (2, CUT_PX, CUT_PX, 3)
    rows, columns = np.nonzero(cuts[0, :, :, 0] > 127)
    # Centred to within the whole pixel crop_die rounds its square to, scaled to the cut.
    assert rows.mean() == pytest.approx((CUT_PX - 1) / 2, abs=1.3)
    assert columns.mean() == pytest.approx((CUT_PX - 1) / 2, abs=1.3)
    # The face fills 1 / FACE_CUT of the box, which crop_die widens by its margin.
    assert len(set(columns)) / CUT_PX == pytest.approx(1 / (FACE_CUT * CROP_MARGIN), abs=0.05)
    assert not cuts[1].any()


@needs_model
def test_a_face_reads_the_same_turned_a_quarter(mat_scenes: list[MatScene]) -> None:
    cuts = _labelled_cuts(mat_scenes[0])[0]
    reader = face_reader()
    probabilities = reader.value_probabilities(cuts)
    assert probabilities.shape == (len(cuts), 6)
    assert np.allclose(probabilities.sum(axis=1), 1.0, atol=1e-5)
    turned = reader.value_probabilities(np.ascontiguousarray(np.rot90(cuts, 1, axes=(1, 2))))
    assert np.allclose(turned, probabilities, atol=1e-5)
    assert reader.value_probabilities(cuts[:0]).shape == (0, 6)


@needs_model
def test_the_face_reader_alone_reads_the_faces_of_the_test_mats(mat_scenes: list[MatScene]) -> None:
    """Cut round the labelled footprints of the 28 test mats, the shipped face reader alone reads 510 of the
    510 faces (the mat reader adds the dice reader's readings to it: `zones.FACE_READER_WEIGHT`)."""
    reader = face_reader()
    right = total = 0
    for scene in mat_scenes:
        cuts, values = _labelled_cuts(scene)
        right += int((reader.value_probabilities(cuts).argmax(axis=1) + 1 == values).sum())
        total += len(values)
    assert total >= 500
    assert right / total >= 0.99, f"{total - right} of {total} faces misread"


def _labelled_cuts(scene: MatScene) -> tuple[np.ndarray, np.ndarray]:
    location = locate_mat(scene.image)
    views = MatViews.of(scene.image, location, Paper.A3)
    centres = mat_to_view(np.array([label.mat_point for label in scene.dice]))
    points = [(float(x), float(y)) for x, y in centres]
    cuts = face_cuts(views.tops, points, views.edge * VIEW_SCALE, views.tops_gains)
    return cuts, np.array([label.die.value for label in scene.dice])
