"""Train the dice face locator on rendered photos and export it to models/dice_locator.onnx.

    python -m models.train_dice_locator [--scenes N] [--epochs N]

The photos are the rendered round trip's kind (`vision.synth.scene`: 400x400, one to eight dice 20-80 px,
every table and look), at seeds apart from the benchmark's. Round each die seen at least half, a point is
drawn where a detector's box centre could lie (near the box's centre) or near its top face, and the locator
learns where, in the cut round that point (`vision.relocate`, the cut sized from the box as at run time),
the top face's centre is. Prints how far from the face the box centres and the located points lie on
held-out photos.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator, Sequence
from functools import partial
from pathlib import Path

import numpy as np
import numpy.typing as npt
from torch.nn.functional import smooth_l1_loss

from models.cut_training import Cuts, cast_gains, export_face_locator, fit
from models.dice_nets import FaceLocatorNet
from models.run import start_run
from models.train_runbuster_footprints import augment
from vision.face_locator import CUT_PX, cut_side, locator_cuts
from vision.relocate import FACE_SHARE, LOCATOR_MODEL, BoxLocator
from vision.synth.scene import RenderedDie, Scene, SceneConfig, render_scene

SEED = 21
Offsets = npt.NDArray[np.float32]
SCENE = SceneConfig(width=400, height=400, dice_count=(1, 8), die_size_px=(20.0, 80.0))
_FROM_BOX, _NEAR_FACE, _BOX_SHARE = 0.08, 0.05, 0.6
"""_BOX_SHARE of the cuts are centred a normal step of _FROM_BOX box sides on each axis from the box's
centre (the first look), the rest _NEAR_FACE box sides from the top face (the second)."""


def _photos(scenes: int, rng: np.random.Generator) -> Iterator[tuple[Scene, list[RenderedDie]]]:
    """`scenes` rendered photos, each with its dice seen at least half (photos with none left out)."""
    for _ in range(scenes):
        scene = render_scene(SCENE, rng)
        dice = [die for die in scene.dice if die.visible_fraction >= 0.5]
        if dice:
            yield scene, dice


def photo_samples(scenes: int, seed: int) -> tuple[Cuts, Offsets]:
    """One cut a die seen at least half on `scenes` rendered photos, and where its top face's centre lies
    in it, in cut widths from the cut's centre."""
    rng = np.random.default_rng(seed)
    cuts, offsets = [], []
    for scene, dice in _photos(scenes, rng):
        gains = cast_gains(scene.image, rng)
        for die in dice:
            x0, y0, x1, y1 = die.box
            side = max(x1 - x0, y1 - y0)
            face = die.top_face.mean(axis=0).astype(np.float64)
            centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
            face_side = FACE_SHARE * side * rng.uniform(0.92, 1.08)
            if rng.random() < _BOX_SHARE:
                point = centre + rng.normal(0, _FROM_BOX, 2) * side
            else:
                point = face + rng.normal(0, _NEAR_FACE, 2) * side
            cuts.append(locator_cuts(scene.image, point[None], face_side, gains))
            offsets.append((face - point) / cut_side(face_side))
    return np.concatenate(cuts), np.array(offsets, np.float32)


def held_out_errors(model: Path, scenes: int, seed: int) -> tuple[npt.NDArray[np.float64], ...]:
    """How far each held-out die's top face lies from its box's centre and from where the exported locator
    moves the box, in box sides."""
    locator = BoxLocator(model=model)
    rng = np.random.default_rng(seed)
    from_boxes, from_located = [], []
    for scene, dice in _photos(scenes, rng):
        boxes = np.array([die.box for die in dice], np.float64)
        moved = np.array(
            locator.on_faces(scene.image, [tuple(box) for box in boxes], cast_gains(scene.image, rng))
        )
        faces = np.array([die.top_face.mean(axis=0) for die in dice], np.float64)
        sides = np.max(boxes[:, 2:] - boxes[:, :2], axis=1)
        for found, kept in ((boxes, from_boxes), (moved, from_located)):
            kept.extend(np.hypot(*((found[:, :2] + found[:, 2:]) / 2 - faces).T) / sides)
    return np.array(from_boxes), np.array(from_located)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=6000, help="rendered training photos")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--output", type=Path, default=LOCATOR_MODEL)
    arguments = parser.parse_args(argv)
    started = start_run(SEED)
    cuts, offsets = photo_samples(arguments.scenes, SEED)
    print(
        f"{len(cuts)} training cuts from rendered photos ({time.perf_counter() - started:.0f} s)", flush=True
    )
    network = FaceLocatorNet(CUT_PX)
    fit(network, cuts, offsets, arguments.epochs, SEED + 2, augment, partial(smooth_l1_loss, beta=0.02), True)
    export_face_locator(network, arguments.output)
    boxes, located = held_out_errors(arguments.output, max(arguments.scenes // 8, 10), SEED + 1)
    print(
        f"held-out rendered photos: box centres a median {np.median(boxes):.3f} box sides off the top face "
        f"(90th percentile {np.percentile(boxes, 90):.3f}), located {np.median(located):.3f} "
        f"({np.percentile(located, 90):.3f})"
    )
    print(f"wrote {arguments.output} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
