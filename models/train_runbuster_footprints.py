"""Train the Run Buster face locator on rendered mats and export it to models/runbuster_footprints.onnx.

    python -m models.train_runbuster_footprints [--scenes N] [--epochs N]

The mats are the face reader's (`models.train_runbuster_faces.mat_config`: A3 and A4, half with harder
dice), found by their markers as at run time. Round each die's top face in the view at the dice's tops a
point is drawn where a rough footprint could lie, and the locator learns where, in the cut round that
point (`vision.runbuster.footprints`), the nearest face's centre is. Prints how far from the face the
located point is on held-out mats, after one look.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from functools import partial
from pathlib import Path

import numpy as np
import numpy.typing as npt
from torch.nn.functional import smooth_l1_loss

from models.cut_training import Cuts, cast_gains, export_face_locator, fit, lit, outputs, quarter_turned
from models.dice_nets import FaceLocatorNet
from models.run import start_run
from models.train_dice import top_faces_in_view
from models.train_runbuster_faces import mat_config
from vision.face_locator import CUT_PX, LOCATOR_CUT, cut_side, locator_cuts
from vision.markers import MatNotFound
from vision.runbuster.footprints import LOCATOR_MODEL
from vision.runbuster.locate import locate_mat
from vision.runbuster.topdown import VIEW_SCALE
from vision.runbuster.zones import MatViews
from vision.synth.mat import render_mat_scene

SEED = 11
Offsets = npt.NDArray[np.float32]
_NEAR_SHIFT, _FAR_REACH = 0.12, 0.75
"""Half the cuts are centred a normal step of _NEAR_SHIFT die edges on each axis from a face (a box's
centre near its die), half anywhere within _FAR_REACH edges of it (a box round the top and the near side,
or round one pip of a faint die, whose centres lie up to about half an edge off)."""


def mat_samples(scenes: int, seed: int) -> tuple[Cuts, Offsets]:
    """Cuts round points near every die's top face on `scenes` rendered mats, and where the nearest face's
    centre lies in each, in cut widths from the cut's centre."""
    rng = np.random.default_rng(seed)
    cuts, offsets = [], []
    for _ in range(scenes):
        config = mat_config(rng)
        scene = render_mat_scene(config, rng)
        try:
            location = locate_mat(scene.image)
        except MatNotFound:
            continue
        if not scene.dice:
            continue
        views = MatViews.of(scene.image, location, config.paper)
        faces = top_faces_in_view([d.die for d in scene.dice], location, views.edge).mean(axis=1)
        visible = [i for i, d in enumerate(scene.dice) if d.die.visible_fraction >= 0.5]
        if not visible:
            continue
        face_side = views.edge * VIEW_SCALE * rng.uniform(0.95, 1.05)
        points = np.array([faces[i] + _shift(rng) * face_side for i in visible])
        nearest = faces[np.hypot(*(points[:, None] - faces[None]).transpose(2, 0, 1)).argmin(axis=1)]
        gains = cast_gains(views.tops, rng)
        cuts.append(locator_cuts(views.tops, points, face_side, gains))
        offsets.append((nearest - points) / cut_side(face_side))
    return np.concatenate(cuts), np.concatenate(offsets).astype(np.float32)


def _shift(rng: np.random.Generator) -> npt.NDArray[np.float64]:
    if rng.random() < 0.5:
        near: npt.NDArray[np.float64] = rng.normal(0, _NEAR_SHIFT, 2)
        return near
    angle, reach = rng.uniform(0, 2 * np.pi), _FAR_REACH * np.sqrt(rng.random())
    far: npt.NDArray[np.float64] = np.array([np.cos(angle), np.sin(angle)]) * reach
    return far


def augment(cuts: Cuts, offsets: Offsets, rng: np.random.Generator) -> tuple[Cuts, Offsets]:
    """Quarter turns, with the offset turned alike; light changes, a little noise."""
    turns = rng.integers(0, 4, len(cuts))
    return lit(quarter_turned(cuts, turns), rng), turned_offsets(offsets, turns)


def turned_offsets(offsets: Offsets, turns: npt.NDArray[np.int64]) -> Offsets:
    """Each offset turned as `quarter_turned` turns its cut."""
    turned = offsets.copy()
    for _turn in range(3):
        # np.rot90 turns a quarter counterclockwise: an offset (x, y) becomes (y, -x).
        more = turns > _turn
        turned[more] = np.stack((turned[more, 1], -turned[more, 0]), axis=1)
    return turned


def location_errors(network: FaceLocatorNet, cuts: Cuts, offsets: Offsets) -> npt.NDArray[np.float64]:
    """How far each located centre lies from the face's, in die edges."""
    errors: npt.NDArray[np.float64] = np.hypot(*(outputs(network, cuts) - offsets).T) * LOCATOR_CUT
    return errors


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=1200, help="rendered training mats")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--output", type=Path, default=LOCATOR_MODEL)
    arguments = parser.parse_args(argv)
    started = start_run(SEED)
    cuts, offsets = mat_samples(arguments.scenes, SEED)
    held_cuts, held_offsets = mat_samples(max(arguments.scenes // 8, 10), SEED + 1)
    print(f"{len(cuts)} training cuts from rendered mats ({time.perf_counter() - started:.0f} s)", flush=True)
    network = FaceLocatorNet(CUT_PX)
    fit(network, cuts, offsets, arguments.epochs, SEED + 2, augment, partial(smooth_l1_loss, beta=0.02))
    start = np.hypot(*held_offsets.T) * LOCATOR_CUT
    errors = location_errors(network, held_cuts, held_offsets)
    print(
        f"held-out rendered mats: cut centres a median {np.median(start):.3f} die edges off the face, "
        f"located {np.median(errors):.3f} (90th percentile {np.percentile(errors, 90):.3f}, "
        f"99th {np.percentile(errors, 99):.3f}) after one look"
    )
    export_face_locator(network, arguments.output)
    print(f"wrote {arguments.output} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
