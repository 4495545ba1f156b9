"""Train the dice face locator on rendered photos and export it to models/dice_locator.onnx.

    python -m models.train_dice_locator [--scenes N] [--epochs N]

The photos are the rendered round trip's kind (`vision.synth.scene`: 400x400, one to eight dice 20-80 px,
every table and look), at seeds apart from the benchmark's, a quarter of them with the real dice of the
photos outside the validation split laid on the renderer's tables. Round each die seen at least half, a
point is drawn where a detector's box centre could lie (near the box's centre) or near its top face, and
the locator learns where, in the cut round that point (`vision.relocate`, the cut sized from the box as at
run time), the top face's centre is, and the face's shape (`vision.relocate.face_shape`). Prints how far
from the face the box centres and the located points lie on held-out photos, and how far off the located
faces' sides are.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import torch
from torch.nn.functional import smooth_l1_loss

from models.cut_training import Cuts, cast_gains, export_face_locator, fit, lit, quarter_turned
from models.dice_nets import FaceShapeNet
from models.run import start_run
from models.train_dice import training_split_crops
from models.train_runbuster_footprints import turned_offsets
from vision.face_locator import CUT_PX, cut_side, locator_cuts
from vision.relocate import FACE_SHARE, LOCATOR_MODEL, BoxLocator, face_shape
from vision.synth.real_dice import render_real_dice_scene
from vision.synth.scene import RenderedDie, Scene, SceneConfig, render_scene

SEED = 21
Targets = npt.NDArray[np.float32]
"""A cut's target: where the face's centre lies in it (x, y, cut widths from its centre), and its shape."""
SCENE = SceneConfig(width=400, height=400, dice_count=(1, 8), die_size_px=(20.0, 80.0))
REAL_DICE_SHARE = 0.25
"""Share of the photos whose dice are the real training photos' dice laid on the renderer's tables
(`vision.synth.real_dice`): a locator that only saw rendered dice sized real ones' faces at 0.69 of their
outlines (median) and put their centres 0.059 face sides off, against 1.00 and 0.013 for rendered dice
(`models/MODEL_CARD.md`, session 56)."""
_FROM_BOX, _NEAR_FACE, _BOX_SHARE = 0.08, 0.05, 0.6
"""_BOX_SHARE of the cuts are centred a normal step of _FROM_BOX box sides on each axis from the box's
centre (the first look), the rest _NEAR_FACE box sides from the top face (the second)."""


def round_trip_photo(rng: np.random.Generator) -> Scene:
    """A photo of the round trip's kind; REAL_DICE_SHARE of them hold real dice laid on the table."""
    if rng.random() < REAL_DICE_SHARE:
        return render_real_dice_scene(SCENE, training_split_crops(), rng)
    return render_scene(SCENE, rng)


def _photos(scenes: int, rng: np.random.Generator) -> Iterator[tuple[Scene, list[RenderedDie]]]:
    """`scenes` photos (`round_trip_photo`), each with its dice seen at least half (photos with none
    left out)."""
    for _ in range(scenes):
        scene = round_trip_photo(rng)
        dice = [die for die in scene.dice if die.visible_fraction >= 0.5]
        if dice:
            yield scene, dice


def photo_samples(scenes: int, seed: int) -> tuple[Cuts, Targets]:
    """One cut a die seen at least half on `scenes` rendered photos, and where its top face's centre lies
    in it, in cut widths from the cut's centre, with the face's shape."""
    rng = np.random.default_rng(seed)
    cuts, targets = [], []
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
            unit = cut_side(face_side)
            cuts.append(locator_cuts(scene.image, point[None], face_side, gains))
            targets.append((*((face - point) / unit), *face_shape(die.top_face, unit)))
    return np.concatenate(cuts), np.array(targets, np.float32)


def augment(cuts: Cuts, targets: Targets, rng: np.random.Generator) -> tuple[Cuts, Targets]:
    """The footprint locator's quarter turns and light; a quarter turn also negates the face's squash."""
    turns = rng.integers(0, 4, len(cuts))
    shapes = targets[:, 2:].copy()
    shapes[turns % 2 == 1, 1:] *= -1
    return lit(quarter_turned(cuts, turns), rng), np.hstack((turned_offsets(targets[:, :2], turns), shapes))


def loss(predicted: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """Smooth L1 on where the face is, and at half the weight on its shape (its terms vary more)."""
    return smooth_l1_loss(predicted[:, :2], targets[:, :2], beta=0.02) + 0.5 * smooth_l1_loss(
        predicted[:, 2:], targets[:, 2:], beta=0.05
    )


def held_out_errors(model: Path, scenes: int, seed: int) -> tuple[npt.NDArray[np.float64], ...]:
    """How far each held-out die's top face lies from its box's centre and from the face the exported
    locator finds, in box sides; and the found face's side over the drawn one's."""
    locator = BoxLocator(model=model)
    rng = np.random.default_rng(seed)
    from_boxes, from_located, sides_found = [], [], []
    for scene, dice in _photos(scenes, rng):
        boxes = np.array([die.box for die in dice], np.float64)
        found = locator.faces(scene.image, [tuple(box) for box in boxes], cast_gains(scene.image, rng))
        faces = np.array([die.top_face.mean(axis=0) for die in dice], np.float64)
        sides = np.max(boxes[:, 2:] - boxes[:, :2], axis=1)
        from_boxes.extend(np.hypot(*((boxes[:, :2] + boxes[:, 2:]) / 2 - faces).T) / sides)
        from_located.extend(np.hypot(*(found.centres - faces).T) / sides)
        drawn = np.array([np.exp(face_shape(die.top_face, 1.0)[0]) for die in dice])
        sides_found.extend(np.sqrt(np.abs(np.linalg.det(found.matrices))) / drawn)
    return np.array(from_boxes), np.array(from_located), np.array(sides_found)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=10000, help="rendered training photos")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--output", type=Path, default=LOCATOR_MODEL)
    arguments = parser.parse_args(argv)
    started = start_run(SEED)
    cuts, targets = photo_samples(arguments.scenes, SEED)
    print(
        f"{len(cuts)} training cuts from rendered photos ({time.perf_counter() - started:.0f} s)", flush=True
    )
    network = FaceShapeNet(CUT_PX)
    fit(network, cuts, targets, arguments.epochs, SEED + 2, augment, loss, True)
    export_face_locator(network, arguments.output, "faces")
    boxes, located, sides = held_out_errors(arguments.output, max(arguments.scenes // 8, 10), SEED + 1)
    print(
        f"held-out rendered photos: box centres a median {np.median(boxes):.3f} box sides off the top face "
        f"(90th percentile {np.percentile(boxes, 90):.3f}), located {np.median(located):.3f} "
        f"({np.percentile(located, 90):.3f}, 99th {np.percentile(located, 99):.3f}); located sides "
        f"{np.percentile(sides, 5):.3f}-{np.percentile(sides, 95):.3f} of the drawn (5th-95th percentile)"
    )
    print(f"wrote {arguments.output} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
