"""Train the Sagrada top-face locator on rendered windows and export it to models/sagrada_tops.onnx.

    python -m models.train_sagrada_tops [--scenes N] [--epochs N]

The windows are the space classifier's (`models.train_sagrada_cells`: one window, or two or three in view),
warped flat at the dice's tops through their labelled lattice shaken as a run-time fit leaves it: the
plane of the tops is recovered from the fit alone, so a die's top face lies off its space's centre there by
the fit's error and by where the die stands in its space. Round each die's space centre, or near its top
face, a point is drawn, and the locator learns where, in the cut round that point
(`vision.face_locator`), the top face of that space's die lies. Prints how far from the face the located
point is on held-out windows, after one look from the space's centre and after the located rounds.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from functools import partial
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import torch
from torch.nn.functional import smooth_l1_loss

from models.cut_training import Cuts, cast_gains, fit
from models.dice_nets import FaceLocatorNet
from models.run import export, start_run
from models.train_runbuster_footprints import augment
from models.train_sagrada_cells import several_window_config, shaken_lattice, training_config
from vision.face_locator import CUT_PX, cut_side, locator_cuts
from vision.sagrada.cells import DIE_TOP, PX_PER_UNIT, READER_ZOOM, flatten, image_to_flat, space_centres
from vision.sagrada.tops import TOPS_MODEL, TopLocator
from vision.synth.sagrada import render_window_scene

SEED = 13
Offsets = npt.NDArray[np.float32]
_FROM_CENTRE, _NEAR_FACE = 0.08, 0.05
"""Half the cuts are centred a normal step of _FROM_CENTRE die edges on each axis from the space's centre
(the first look), half _NEAR_FACE edges from the die's top face (the later looks)."""
FACE_SIDE = PX_PER_UNIT * READER_ZOOM
"""A die's edge in the flat view the locator looks at (the value readers' view)."""


def window_tops(scenes: int, seed: int) -> tuple[list[npt.NDArray[np.uint8]], list[Offsets], list[Offsets]]:
    """For each window of `scenes` rendered scenes with dice: its flat view at the dice's tops through a
    shaken lattice, its dice's space centres and their top faces' centres there (pixels of the view)."""
    rng = np.random.default_rng(seed)
    flats, centres, faces = [], [], []
    for _ in range(scenes):
        config = training_config(rng) if rng.random() < 0.5 else several_window_config(rng)
        scene = render_window_scene(config, rng)
        height, width = scene.image.shape[:2]
        for window in scene.windows:
            dice = [(index, die) for index, die in enumerate(window.dice) if die is not None]
            if not dice:
                continue
            lattice = shaken_lattice(window, rng)
            to_flat = np.diag([READER_ZOOM, READER_ZOOM, 1.0]) @ image_to_flat(
                lattice, DIE_TOP, width, height
            )
            corners = np.array([die.top_face for _, die in dice], np.float64)
            flat_corners = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), to_flat).reshape(-1, 4, 2)
            flats.append(flatten(scene.image, lattice, DIE_TOP, READER_ZOOM))
            centres.append(space_centres(READER_ZOOM)[[index for index, _ in dice]].astype(np.float32))
            faces.append(flat_corners.mean(axis=1).astype(np.float32))
    return flats, centres, faces


def top_samples(scenes: int, seed: int) -> tuple[Cuts, Offsets]:
    """One cut a die on `scenes` rendered scenes, round its space's centre or near its top face, and where
    that face's centre lies in the cut, in cut widths from the cut's centre."""
    rng = np.random.default_rng(seed + 100)
    cuts, offsets = [], []
    for flat, centres, faces in zip(*window_tops(scenes, seed), strict=True):
        near_face = rng.random(len(faces)) < 0.5
        points = np.where(
            near_face[:, None],
            faces + rng.normal(0, _NEAR_FACE, faces.shape) * FACE_SIDE,
            centres + rng.normal(0, _FROM_CENTRE, faces.shape) * FACE_SIDE,
        )
        side = FACE_SIDE * rng.uniform(0.95, 1.05)
        cuts.append(locator_cuts(flat, points, side, cast_gains(flat, rng)))
        offsets.append((faces - points) / cut_side(side))
    return np.concatenate(cuts), np.concatenate(offsets).astype(np.float32)


def held_out_errors(network_file: Path, scenes: int, seed: int) -> tuple[npt.NDArray[np.float64], ...]:
    """How far from each held-out die's top face its space's centre, the first look and the located
    rounds lie, in die edges, read through the exported file as at run time."""
    locator = TopLocator(model=network_file)
    starts, firsts, rounds = [], [], []
    for flat, centres, faces in zip(*window_tops(scenes, seed), strict=True):
        gains = cast_gains(flat, np.random.default_rng(0))
        first = centres + locator.offsets(locator_cuts(flat, centres, FACE_SIDE, gains)) * cut_side(FACE_SIDE)
        for found, kept in (
            (centres, starts),
            (first, firsts),
            (locator.tops(flat, centres, FACE_SIDE, gains), rounds),
        ):
            kept.append(np.hypot(*(found - faces).T) / FACE_SIDE)
    return tuple(np.concatenate(errors) for errors in (starts, firsts, rounds))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=1600, help="rendered training scenes")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--output", type=Path, default=TOPS_MODEL)
    arguments = parser.parse_args(argv)
    started = start_run(SEED)
    cuts, offsets = top_samples(arguments.scenes, SEED)
    print(
        f"{len(cuts)} training cuts from rendered windows ({time.perf_counter() - started:.0f} s)", flush=True
    )
    network = FaceLocatorNet(CUT_PX)
    fit(network, cuts, offsets, arguments.epochs, SEED + 2, augment, partial(smooth_l1_loss, beta=0.02), True)
    export(
        network,
        torch.zeros(1, 3, CUT_PX, CUT_PX),
        arguments.output,
        ["face_offsets"],
        {"pixels": {0: "cuts"}, "face_offsets": {0: "cuts"}},
    )
    start, first, located = held_out_errors(arguments.output, max(arguments.scenes // 8, 10), SEED + 1)
    print(
        f"held-out rendered windows: space centres a median {np.median(start):.3f} die edges off the face "
        f"(90th percentile {np.percentile(start, 90):.3f}); one look {np.median(first):.3f} "
        f"({np.percentile(first, 90):.3f}); located {np.median(located):.3f} "
        f"({np.percentile(located, 90):.3f}, 99th {np.percentile(located, 99):.3f})"
    )
    print(f"wrote {arguments.output} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
