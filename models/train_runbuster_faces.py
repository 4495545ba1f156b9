"""Train the Run Buster face reader on rendered mats and export it to models/runbuster_faces.onnx.

    python -m models.train_runbuster_faces [--scenes N] [--epochs N]

Mats are rendered (`vision.synth.mat`, seeded) with the dice looks of the dice reader's own extra scenes
half the time (coloured, dark and big pips, more glare), found by their markers as at run time, and each
die's top face is cut from the view at the dice's tops (`vision.runbuster.faces`) round its labelled
centre moved as a footprint placed from a detection leaves it. Prints the share of faces read
right on held-out mats (cut round their labelled centres moved the same way).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from models.cut_training import Cuts, Labels, cast_gains, export_face_reader, fit_face_reader, share_right
from models.run import start_run
from models.train_dice import top_faces_in_view, with_harder_looks
from vision.markers import MatNotFound
from vision.runbuster.faces import CUT_PX, FACE_MODEL, face_cuts
from vision.runbuster.locate import locate_mat
from vision.runbuster.mat import Paper
from vision.runbuster.topdown import VIEW_SCALE
from vision.runbuster.zones import MatViews
from vision.synth.mat import MatSceneConfig, render_mat_scene

SEED = 7
_NEAR_SHIFT, _FAR_SHIFT, _FAR_SHARE = 0.05, 0.18, 0.25
"""The cut's centre is moved from the face's by a normal step on each axis, of this many die edges (in a
share `_FAR_SHARE` of the cuts, the larger): the footprints the mat reader places from detections lay a
median 0.063, at the 90th percentile 0.16 and at most 0.37 edges from their labels on 12 rendered mats
(a one-off count), and a face reader trained on steps of 0.07 alone misread dice placed 0.2-0.45 edges off."""
_VARIED_LOOKS = 0.5
"""Share of mats whose dice have `models.train_dice.with_harder_looks`."""


def mat_config(rng: np.random.Generator) -> MatSceneConfig:
    """The bench's mats, on A3 or A4 (whose zones hold six dice only now and then), half of them with
    harder dice."""
    a3 = rng.random() < 0.7
    config = MatSceneConfig(paper=Paper.A3 if a3 else Paper.A4, dice_per_zone=(1, 6) if a3 else (1, 4))
    if rng.random() < _VARIED_LOOKS:
        config = replace(config, scene=with_harder_looks(config.scene))
    return config


def mat_samples(scenes: int, seed: int) -> tuple[Cuts, Labels]:
    """The top-face cuts of every die on `scenes` rendered mats, and their values less one."""
    rng = np.random.default_rng(seed)
    cuts: list[Cuts] = []
    labels: list[int] = []
    for _ in range(scenes):
        config = mat_config(rng)
        scene = render_mat_scene(config, rng)
        try:
            location = locate_mat(scene.image)
        except MatNotFound:
            continue
        views = MatViews.of(scene.image, location, config.paper)
        face_side = views.edge * VIEW_SCALE
        dice = [d.die for d in scene.dice if d.die.visible_fraction >= 0.5]
        if not dice:
            continue
        far = rng.random(len(dice)) < _FAR_SHARE
        faces = top_faces_in_view(dice, location, views.edge).mean(axis=1)
        centres = [
            centre + rng.normal(0, (_FAR_SHIFT if f else _NEAR_SHIFT) * face_side, 2)
            for centre, f in zip(faces, far, strict=True)
        ]
        gains = cast_gains(views.tops, rng)
        cuts.append(face_cuts(views.tops, centres, face_side * rng.uniform(0.95, 1.05), gains))
        labels.extend(die.value - 1 for die in dice)
    return np.concatenate(cuts), np.array(labels, np.int64)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=1200, help="rendered training mats")
    parser.add_argument("--epochs", type=int, default=15)
    parser.add_argument("--output", type=Path, default=FACE_MODEL)
    arguments = parser.parse_args(argv)
    started = start_run(SEED)
    cuts, labels = mat_samples(arguments.scenes, SEED)
    held_cuts, held_labels = mat_samples(max(arguments.scenes // 8, 10), SEED + 1)
    print(
        f"{len(cuts)} training faces from rendered mats ({time.perf_counter() - started:.0f} s)", flush=True
    )
    network = fit_face_reader(cuts, labels, arguments.epochs, SEED + 2)
    print(f"held-out rendered mats: {share_right(network, held_cuts, held_labels):.2%} of faces read right")
    export_face_reader(network, CUT_PX, arguments.output)
    print(f"wrote {arguments.output} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
