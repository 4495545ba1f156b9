"""Train the Sagrada space classifier on rendered windows and export it to models/sagrada_cells.onnx.

    python -m models.train_sagrada_cells [--scenes N] [--several-window-scenes N] [--epochs N] [--no-bfloat16]

Windows are rendered (`vision.synth.sagrada`, seeded), one a photo and then two or three a photo (the later
ones off the photo's centre, where dice lean furthest over their neighbours), warped flat through their
labelled lattice shaken by a few hundredths of a space (as the run-time fit leaves it), and each space is
cut out as the reader does (`vision.sagrada.cells`). Some windows hold real dice cut from the training
photos of tests/data/dice_real (never the fixed validation split, which the tests keep for themselves).
Prints the accuracy per space and the share of windows read whole on held-out rendered windows.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from engine.sagrada.window import ALL_CELLS, official_patterns
from models.cut_training import Cuts, Labels, fit, predictions
from models.dice_nets import conv_bn_relu
from models.run import add_bfloat16_option, export, start_run
from models.train_dice import REAL_PHOTOS, training_photo_names
from vision.colors import COLOR_SETS
from vision.sagrada.cells import (
    CELL_CLASSES,
    CELL_MODEL,
    CROP_PX,
    CUT_CHANNELS,
    PLANES,
    PrintedSpace,
    class_index,
    space_cuts,
)
from vision.sagrada.lattice import WindowLattice
from vision.synth.real_dice import RealDieCrop, load_real_dice
from vision.synth.sagrada import (
    RenderedWindow,
    SagradaConfig,
    WindowScene,
    paste_real_dice,
    render_window_scene,
)

SEED = 5
_SHAKE = 0.04
"""Standard deviation of the corner shake, in spaces."""
_REAL_SHARE = 0.2
"""Share of the training windows holding real dice."""


class CellNet(nn.Module):
    """A plain small CNN applied to each plane's 40x40 cut of one space (the same weights for both), the
    two feature vectors side by side into one linear layer: logits over `CELL_CLASSES`. Each plane keeps
    the whole network's eye for colour and pips, and the layer weighs one plane against the other."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv_bn_relu(3, 24, stride=2),
            conv_bn_relu(24, 32),
            conv_bn_relu(32, 48, stride=2),
            conv_bn_relu(48, 48),
            conv_bn_relu(48, 64, stride=2),
            conv_bn_relu(64, 64),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
        )
        self.classify = nn.Sequential(nn.Dropout(0.1), nn.Linear(64 * len(PLANES), len(CELL_CLASSES)))

    def forward(self, pixels: torch.Tensor) -> torch.Tensor:
        planes = torch.split(pixels / 127.5 - 1.0, 3, dim=1)
        return self.classify(torch.cat([self.features(plane) for plane in planes], dim=1))  # type: ignore[no-any-return]


def training_config(rng: np.random.Generator) -> SagradaConfig:
    """Window photos of the sizes the reader meets: 1280x720 frames and reduced phone photos."""
    width, height = (960, 540) if rng.random() < 0.5 else (1000, 750)
    base = SagradaConfig(fill=(0.0, 1.0), window_px=(150.0, 420.0))
    return replace(base, scene=replace(base.scene, width=width, height=height))


def several_window_config(rng: np.random.Generator) -> SagradaConfig:
    """Two or three windows in a reduced phone photo, the later ones anywhere in view: off the photo's
    centre, where the dice lean over their neighbours' spaces furthest."""
    base = SagradaConfig(windows=(2, 3), fill=(0.0, 1.0), window_px=(150.0, 260.0))
    return replace(base, scene=replace(base.scene, width=1000, height=750))


def shaken_lattice(window: RenderedWindow, rng: np.random.Generator) -> WindowLattice:
    """The labelled lattice with each corner moved by a little of a space, as a fit leaves it."""
    pitch = float(np.linalg.norm(window.corners[1] - window.corners[0])) / 5
    return WindowLattice.through(window.corners + rng.normal(0, _SHAKE * pitch, (4, 2)).astype(np.float32))


def window_samples(scene: WindowScene, rng: np.random.Generator, only_dice: bool) -> tuple[Cuts, Labels]:
    """The 20 cuts of each window in the scene and their classes (only the dice when `only_dice`)."""
    crops, labels = [], []
    for window in scene.windows:
        pattern = official_patterns()[window.pattern]
        cuts = space_cuts(scene.image, shaken_lattice(window, rng))
        for cell, cut in zip(ALL_CELLS, cuts, strict=True):
            die = window.window[cell]
            if only_dice and die is None:
                continue
            crops.append(cut)
            labels.append(class_index(die if die is not None else PrintedSpace.of(pattern.restriction(cell))))
    return np.array(crops, np.uint8).reshape(-1, CROP_PX, CROP_PX, CUT_CHANNELS), np.array(labels, np.int64)


def training_crops() -> list[RealDieCrop]:
    """Real dice crops from the photos outside the validation split."""
    return load_real_dice(REAL_PHOTOS, COLOR_SETS["sagrada"], images=set(training_photo_names()))


def rendered_samples(
    scenes: int, seed: int, real: Sequence[RealDieCrop], several_window_scenes: int = 0
) -> tuple[Cuts, Labels]:
    """The cuts of `scenes` one-window photos, then of `several_window_scenes` photos of several windows."""
    rng = np.random.default_rng(seed)
    all_crops, all_labels = [], []
    for index in range(scenes + several_window_scenes):
        with_real = bool(real) and rng.random() < _REAL_SHARE
        config = training_config(rng) if index < scenes else several_window_config(rng)
        if with_real:
            config = replace(config, fill=(0.0, 0.0))
        scene = render_window_scene(config, rng)
        if with_real and scene.windows:
            scene = paste_real_dice(scene, real, rng, fill=rng.uniform(0.3, 0.9))
        crops, labels = window_samples(scene, rng, only_dice=False)
        all_crops.append(crops)
        all_labels.append(labels)
    return np.concatenate(all_crops), np.concatenate(all_labels)


def augment(crops: Cuts, labels: Labels, rng: np.random.Generator) -> tuple[Cuts, Labels]:
    """Quarter turns (dice lie any way round), light and white-balance changes (the same in both planes of
    a cut), a little noise."""
    turned = np.stack(
        [np.rot90(crop, int(k)) for crop, k in zip(crops, rng.integers(0, 4, len(crops)), strict=True)]
    )
    balance = rng.uniform(0.9, 1.1, (len(crops), 1, 1, 3))
    gains = rng.uniform(0.75, 1.2, (len(crops), 1, 1, 1)) * np.tile(balance, CUT_CHANNELS // 3)
    noisy = turned * gains + rng.normal(0, 3, turned.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8), labels


def accuracy(network: CellNet, crops: Cuts, labels: Labels) -> tuple[float, float]:
    """Share of spaces read right, and of whole windows (20 spaces in a row) read right."""
    right = predictions(network, crops) == labels
    whole = right[: len(right) // 20 * 20].reshape(-1, 20).all(axis=1)
    return float(right.mean()), float(whole.mean())


def cached_samples(
    cache: Path, rendered_for: npt.NDArray[np.int64]
) -> tuple[Cuts, Labels, Cuts, Labels] | None:
    """The training and held-out spaces kept in `cache`, if it holds spaces rendered for the same numbers of
    scenes (`rendered_for`); otherwise None, and they are rendered again."""
    if not cache.is_file():
        return None
    stored = np.load(cache)
    if "rendered_for" not in stored.files or not np.array_equal(stored["rendered_for"], rendered_for):
        print(f"{cache} holds spaces rendered for other numbers of scenes: rendering them again", flush=True)
        return None
    return stored["crops"], stored["labels"], stored["held"], stored["held_labels"]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=3000, help="rendered training windows")
    parser.add_argument(
        "--several-window-scenes", type=int, default=3600, help="further training photos of 2-3 windows"
    )
    parser.add_argument("--epochs", type=int, default=15)
    add_bfloat16_option(parser)
    parser.add_argument("--output", type=Path, default=CELL_MODEL)
    parser.add_argument(
        "--cache", type=Path, help="keep the rendered spaces in this .npz and reuse them on the next run"
    )
    arguments = parser.parse_args(argv)
    started = start_run(SEED)
    cache: Path | None = arguments.cache
    rendered_for = np.array([arguments.scenes, arguments.several_window_scenes])
    cached = cached_samples(cache, rendered_for) if cache is not None else None
    if cached is not None:
        crops, labels, held_crops, held_labels = cached
    else:
        crops, labels = rendered_samples(
            arguments.scenes, SEED, training_crops(), arguments.several_window_scenes
        )
        held_crops, held_labels = rendered_samples(max(arguments.scenes // 8, 20), SEED + 1, [])
        if cache is not None:
            np.savez(
                cache,
                crops=crops,
                labels=labels,
                held=held_crops,
                held_labels=held_labels,
                rendered_for=rendered_for,
            )
    print(f"{len(crops)} training spaces rendered ({time.perf_counter() - started:.0f} s)", flush=True)
    network = CellNet()
    fit(
        network,
        crops,
        labels,
        arguments.epochs,
        SEED + 2,
        augment,
        nn.functional.cross_entropy,
        arguments.bfloat16,
    )
    spaces, windows = accuracy(network, held_crops, held_labels)
    print(f"held-out rendered windows: {spaces:.2%} of spaces, {windows:.2%} of windows read right")
    export(
        network,
        torch.zeros(1, CUT_CHANNELS, CROP_PX, CROP_PX),
        arguments.output,
        ["logits"],
        {"pixels": {0: "spaces"}, "logits": {0: "spaces"}},
    )
    print(f"wrote {arguments.output} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
