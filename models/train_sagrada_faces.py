"""Train the Sagrada face reader on rendered windows and export it to models/sagrada_faces.onnx.

    python -m models.train_sagrada_faces [--scenes N] [--epochs N] [--no-bfloat16]

Windows are rendered (`vision.synth.sagrada`, seeded; half with the dice reader's harder looks, a fifth with
real dice from the training photos), warped flat at the dice's tops through their labelled lattice shaken
as a fit leaves it, and each die is cut exactly as the space classifier's value readers see it
(`vision.sagrada.cells.reader_cuts`). Prints the share of dice read right on held-out rendered windows.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from engine.sagrada.window import ALL_CELLS
from models.cut_training import Cuts, Labels, cast_gains, export_face_reader, fit_face_reader, share_right
from models.run import add_bfloat16_option, start_run
from models.train_dice import with_harder_looks
from models.train_sagrada_cells import shaken_lattice, training_config, training_crops
from vision.decode import BGRImage
from vision.read import balanced
from vision.sagrada.cells import DIE_TOP, FACE_CUT_PX, FACE_MODEL, READER_ZOOM, flatten, reader_cuts
from vision.synth.real_dice import RealDieCrop
from vision.synth.sagrada import WindowScene, paste_real_dice, render_window_scene

SEED = 13
_VARIED_LOOKS = 0.5
"""Share of windows whose dice have `models.train_dice.with_harder_looks`."""
_REAL_SHARE = 0.2
"""Share of windows holding real dice."""
WIDTH = 2.0
"""The face reader's layers are this many times as wide as the dice reader's, trained under bfloat16
(`models.cut_training.fit`): in session 40 twice the width read 8 more bench windows whole than the dice
reader's width over the bench's two samples (`models/SAGRADA_FACES.md`)."""


def window_faces(scene: WindowScene, rng: np.random.Generator) -> tuple[Cuts, Labels]:
    """The value readers' cut of every die in the scene's windows, and the dice's values less one."""
    gains = cast_gains(scene.image, rng)
    cuts: list[BGRImage] = []
    labels: list[int] = []
    for window in scene.windows:
        dice = [window.window[cell] for cell in ALL_CELLS]
        spaces = np.array([die is not None for die in dice])
        if not spaces.any():
            continue
        flat = flatten(scene.image, shaken_lattice(window, rng), DIE_TOP, READER_ZOOM)
        cuts.extend(balanced(cut, gains) for cut in reader_cuts(flat, spaces, FACE_CUT_PX))
        labels.extend(die.value - 1 for die in dice if die is not None)
    return np.array(cuts, np.uint8).reshape(-1, FACE_CUT_PX, FACE_CUT_PX, 3), np.array(labels, np.int64)


def rendered_faces(scenes: int, seed: int, real: Sequence[RealDieCrop]) -> tuple[Cuts, Labels]:
    rng = np.random.default_rng(seed)
    cuts, labels = [], []
    for _ in range(scenes):
        config = training_config(rng)
        if rng.random() < _VARIED_LOOKS:
            config = replace(config, scene=with_harder_looks(config.scene))
        with_real = bool(real) and rng.random() < _REAL_SHARE
        if with_real:
            config = replace(config, fill=(0.0, 0.0))
        scene = render_window_scene(config, rng)
        if with_real and scene.windows:
            scene = paste_real_dice(scene, real, rng, fill=rng.uniform(0.3, 0.9))
        scene_cuts, scene_labels = window_faces(scene, rng)
        cuts.append(scene_cuts)
        labels.append(scene_labels)
    return np.concatenate(cuts), np.concatenate(labels)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=6000, help="rendered training windows")
    parser.add_argument("--epochs", type=int, default=15)
    add_bfloat16_option(parser)
    parser.add_argument("--output", type=Path, default=FACE_MODEL)
    arguments = parser.parse_args(argv)
    started = start_run(SEED)
    cuts, labels = rendered_faces(arguments.scenes, SEED, training_crops())
    held_cuts, held_labels = rendered_faces(max(arguments.scenes // 8, 10), SEED + 1, [])
    print(
        f"{len(cuts)} training dice from rendered windows ({time.perf_counter() - started:.0f} s)", flush=True
    )
    network = fit_face_reader(cuts, labels, arguments.epochs, SEED + 2, WIDTH, bfloat16=arguments.bfloat16)
    print(f"held-out rendered windows: {share_right(network, held_cuts, held_labels):.2%} of dice read right")
    export_face_reader(network, FACE_CUT_PX, arguments.output)
    print(f"wrote {arguments.output} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
