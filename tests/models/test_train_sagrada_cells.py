"""The Sagrada space classifier's training: every space cut once and labelled with what stands or is printed
there, and a tiny run exports a model the space reader loads. Skipped where torch (the `train` extra) is not
installed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from engine.sagrada.window import ALL_CELLS, official_patterns
from models.train_sagrada_cells import main, rendered_samples, window_samples
from vision.sagrada.cells import CELL_CLASSES, CROP_PX, CUT_CHANNELS, CellReader, PrintedSpace
from vision.sagrada.lattice import WindowLattice
from vision.synth.sagrada import SagradaConfig, render_window_scene


def test_every_space_gives_one_cut_labelled_with_its_die_or_print() -> None:
    scene = render_window_scene(SagradaConfig(fill=(0.3, 0.6)), np.random.default_rng(3))
    cuts, labels = window_samples(scene, np.random.default_rng(4), only_dice=False)
    window = scene.windows[0]
    pattern = official_patterns()[window.pattern]
    expected = [
        window.window[cell] if window.window[cell] is not None else PrintedSpace.of(pattern.restriction(cell))
        for cell in ALL_CELLS
    ]
    assert cuts.shape == (len(ALL_CELLS), CROP_PX, CROP_PX, CUT_CHANNELS)
    assert [CELL_CLASSES[label] for label in labels] == expected


def test_a_tiny_training_run_exports_a_model_the_space_reader_loads(tmp_path: Path) -> None:
    model = tmp_path / "cells.onnx"
    main(["--scenes=20", "--several-window-scenes=2", "--epochs=1", f"--output={model}"])
    scene = render_window_scene(SagradaConfig(fill=(0.5, 0.5)), np.random.default_rng(5))
    (spaces,) = CellReader(model=model, dice_reader=None, face_reader=None).read(
        scene.image, [WindowLattice.through(scene.windows[0].corners)]
    )
    assert len(spaces) == len(ALL_CELLS)
    assert all(np.isclose(space.probabilities.sum(), 1.0, atol=1e-4) for space in spaces)


def test_photos_of_several_windows_follow_the_one_window_photos_with_every_window_cut() -> None:
    one, _ = rendered_samples(2, 9, [])
    more, labels = rendered_samples(2, 9, [], several_window_scenes=2)
    assert np.array_equal(more[: len(one)], one)  # the one-window photos are drawn first, as without
    added = len(more) - len(one)
    assert added >= 4 * len(ALL_CELLS) and added % len(ALL_CELLS) == 0 and len(labels) == len(more)


def test_a_cache_rendered_for_other_numbers_of_scenes_is_rendered_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache, model = tmp_path / "spaces.npz", tmp_path / "cells.onnx"
    options = ["--several-window-scenes=0", "--epochs=1", f"--output={model}", f"--cache={cache}"]
    main(["--scenes=20", *options])
    main(["--scenes=20", *options])
    main(["--scenes=24", *options])
    counts = [line.split()[0] for line in capsys.readouterr().out.splitlines() if "training spaces" in line]
    assert counts[0] == counts[1] != counts[2]
    assert int(counts[2]) == 24 * len(ALL_CELLS)
