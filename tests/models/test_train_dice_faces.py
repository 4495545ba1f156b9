"""The photo face reader's training: its cuts are square cuts of the dice's located faces with their values,
and a tiny run exports a model the recognizer's face reader loads. Skipped where torch (the `train` extra)
is not installed."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from models import run
from models.train_dice_faces import face_samples, jittered, main
from vision.relocate import FACES_MODEL, SQUARE_CUT, SQUARE_CUT_PX, photo_face_reader


def test_each_cut_holds_a_die_and_its_value() -> None:
    """Rendered photos only (no real photos): every label is a value less one, every cut a square cut, and
    the middle of a cut, where the face lies, differs from its rim, where the table shows more."""
    cuts, labels = face_samples(20, 5, photo_repeats=0)
    assert cuts.shape[1:] == (SQUARE_CUT_PX, SQUARE_CUT_PX, 3) and len(cuts) == len(labels) > 20
    assert set(labels.tolist()) <= set(range(6)) and len(set(labels.tolist())) > 3
    face = round(SQUARE_CUT_PX / (2 * SQUARE_CUT))
    start = (SQUARE_CUT_PX - face) // 2
    middle = cuts[:, start : start + face, start : start + face].std(axis=(1, 2, 3))
    assert np.median(middle) > 10


def test_jittered_cuts_are_turned_and_mirrored_and_little_moved() -> None:
    """Two marks a quarter turn apart round the cut's centre: after the jitter they lie as far from the
    centre as before (a face is moved and scaled a little, not cut elsewhere; a few are lost where a turn
    reflects a mark into the cut's corner), and half the cuts show them the other way round (mirrored: a
    mirrored face shows the same value); the labels stay."""
    side = SQUARE_CUT_PX
    centre = (side - 1) / 2
    cut = np.full((side, side, 3), 60, np.uint8)
    cut[8:11, 22:25] = 250  # the bright mark, 14.5 px above the centre
    cut[22:25, 37:40] = 160  # the dim one, 14.5 px right of it
    labels = np.arange(400) % 6
    varied, varied_labels = jittered(np.repeat(cut[None], 400, axis=0), labels, np.random.default_rng(3))
    assert varied.shape == (400, side, side, 3) and varied.dtype == np.uint8
    assert np.array_equal(varied_labels, labels)
    turns, radii = [], []
    for image in varied.sum(axis=3).astype(np.float64):
        bright = np.array(np.unravel_index(int(np.argmax(image)), image.shape)) - centre
        rows, cols = np.indices(image.shape) - centre
        image[np.hypot(rows - bright[0], cols - bright[1]) < 6] = 0
        dim = np.array(np.unravel_index(int(np.argmax(image)), image.shape)) - centre
        turns.append(np.sign(bright[0] * dim[1] - bright[1] * dim[0]))
        radii += [np.hypot(*bright), np.hypot(*dim)]
    assert 0.35 < np.mean(np.array(turns) > 0) < 0.65
    assert abs(np.median(radii) - 14.5) < 1.5 and np.mean(np.abs(np.array(radii) - 14.5) < 6) > 0.9


def weights(model: Path) -> int:
    """How many numbers an ONNX file's weights hold: its network's shape, whatever it learnt."""
    import onnx  # the train extra's exporter, there wherever torch is

    return sum(int(np.prod(tensor.dims)) for tensor in onnx.load(str(model)).graph.initializer)


def test_a_tiny_training_run_exports_a_model_the_face_reader_loads(tmp_path: Path) -> None:
    """The model loads and reads, and is the shipped file's network (`WIDTH` times the dice reader's width
    since session 59): a command that trains another no longer rebuilds the shipped file."""
    model = tmp_path / "dice_faces.onnx"
    main(["--scenes=30", "--epochs=1", f"--output={model}"])
    probabilities = photo_face_reader(model=model).value_probabilities(
        np.zeros((2, SQUARE_CUT_PX, SQUARE_CUT_PX, 3), np.uint8)
    )
    assert probabilities.shape == (2, 6) and np.allclose(probabilities.sum(axis=1), 1.0, atol=1e-4)
    assert weights(model) == weights(FACES_MODEL)


def test_no_bfloat16_trains_in_float32(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where bfloat16 would crawl, `--no-bfloat16` keeps the run in float32: no warning that it will crawl."""
    monkeypatch.setattr(run, "native_bfloat16", lambda: False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        main(["--scenes=10", "--epochs=1", f"--output={tmp_path / 'faces.onnx'}", "--no-bfloat16"])
    assert not [w for w in caught if "bfloat16" in str(w.message)]
    assert (tmp_path / "faces.onnx").is_file()
