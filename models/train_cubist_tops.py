"""Train the Cubist top-face finder on rendered workrooms and export it to models/cubist_tops.onnx.

    python -m models.train_cubist_tops [--scenes N] [--steps N]

The network, its targets, loss, samples and training loop are the dice detector's (`models.dice_nets`,
`models.train_dice`): only the labels differ. Each column of a rendered workroom (`vision.synth.cubist`)
is one box, its top face's extent, so the heatmap peaks at the face's centre, and the dice's sides, the
dice below a stacked one and the renderer's distractors are background. The workrooms vary more than the
tests' and the bench's (photo shapes, die sizes, tilt, stacking, distractors), and are rendered from seeds
0 to N-1; those use seeds from 200 000 up. Prints recall and precision of the faces found on held-out
workrooms (seeds from 500 000) through the exported file, as `vision.cubist.tops` runs it.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch

from models.dice_nets import DiceDetectorNet
from models.run import export, start_run
from models.train_dice import (
    BatchStream,
    TrainingDie,
    TrainingPlan,
    TrainingScene,
    detector_batch,
    detector_losses,
    fit,
    training_scene,
)
from vision.cubist.evaluation import face_box
from vision.cubist.tops import TOPS_MODEL, TopFaceFinder
from vision.evaluation import match_boxes
from vision.synth.cubist import CubistSceneConfig, WorkroomScene, render_workroom

SEED = 23
HELD_OUT_SEEDS = 500_000
"""The first seed of the workrooms the run scores itself on (never trained on)."""
PHOTO_SHAPES = ((960, 720), (720, 960), (800, 800), (1280, 960), (640, 480))


def varied_config(rng: np.random.Generator) -> CubistSceneConfig:
    """A workroom config a little wider than the default in every direction the renderer offers."""
    base = CubistSceneConfig()
    width, height = PHOTO_SHAPES[int(rng.integers(len(PHOTO_SHAPES)))]
    scene = dataclasses.replace(
        base.scene,
        width=width,
        height=height,
        die_size_px=(24.0, 120.0),
        max_tilt_deg=38.0,
        distractor_count=(0, 4),
        translucent_probability=0.25,
    )
    return dataclasses.replace(
        base, scene=scene, stack_probability=float(rng.uniform(0.2, 0.5)), gap=(0.0, 0.08)
    )


def training_workroom(scene: WorkroomScene) -> TrainingScene:
    """A rendered workroom as the detector's trainer takes a scene: one box a column, its top face."""
    dice = tuple(
        TrainingDie(face_box(column.top_face), column.value, scene.color, True) for column in scene.columns
    )
    return training_scene(scene.image, dice)


def training_workrooms(count: int) -> list[TrainingScene]:
    scenes = []
    for seed in range(count):
        rng = np.random.default_rng(seed)
        scenes.append(training_workroom(render_workroom(varied_config(rng), rng)))
    return scenes


def held_out_scores(model: Path, count: int) -> tuple[int, int, int]:
    """Top faces on `count` held-out default workrooms, faces found, and those found on a face."""
    finder = TopFaceFinder(model=model)
    faces = found = matched = 0
    for seed in range(HELD_OUT_SEEDS, HELD_OUT_SEEDS + count):
        scene = render_workroom(CubistSceneConfig(), np.random.default_rng(seed))
        boxes = [face.box for face in finder.find(scene.image)]
        faces, found = faces + len(scene.columns), found + len(boxes)
        matched += len(match_boxes([face_box(column.top_face) for column in scene.columns], boxes))
    return faces, found, matched


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=6000, help="rendered training workrooms")
    parser.add_argument("--steps", type=int, default=24000, help="batches of 8 crops")
    parser.add_argument("--held-out", type=int, default=200, help="workrooms scored after training")
    parser.add_argument("--output", type=Path, default=TOPS_MODEL)
    arguments = parser.parse_args(argv)
    started = start_run(SEED)
    scenes = training_workrooms(arguments.scenes)
    columns = sum(len(scene.dice) for scene in scenes)
    print(f"{len(scenes)} workrooms, {columns} top faces ({time.perf_counter() - started:.0f} s)", flush=True)
    plan = TrainingPlan(detector_steps=arguments.steps, real_share=0.0)
    network = DiceDetectorNet()
    make_batch = functools.partial(detector_batch, scenes, [], plan)
    fit("top faces", network, BatchStream(make_batch, plan.detector_steps, SEED + 1), detector_losses, 4e-3)
    export(
        network,
        torch.zeros(1, 3, 256, 256),
        arguments.output,
        ["maps"],
        {"pixels": {0: "batch", 2: "height", 3: "width"}, "maps": {0: "batch", 2: "rows", 3: "cols"}},
    )
    print(f"wrote {arguments.output} ({time.perf_counter() - started:.0f} s)", flush=True)
    faces, found, matched = held_out_scores(arguments.output, arguments.held_out)
    print(
        f"held-out workrooms ({arguments.held_out}, seeds from {HELD_OUT_SEEDS}): {matched} of {faces} top "
        f"faces found (recall {matched / faces:.2%}), {found - matched} of {found} finds on no face "
        f"(precision {matched / max(found, 1):.2%}) ({time.perf_counter() - started:.0f} s)"
    )


if __name__ == "__main__":
    main()
