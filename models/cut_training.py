"""The training loop the games' small networks on cuts share (the Sagrada space classifier and face reader,
the Run Buster face reader and face locator): every cut is in memory, so each epoch is one shuffled pass
over them. Also what the face readers' and the locators' trainers draw alike: a colour cast's white
balance, quarter turns, light and noise; and how the face readers are fitted, scored and exported."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

import numpy as np
import numpy.typing as npt
import torch
from torch import nn
from torch.nn.functional import cross_entropy

from models.dice_nets import FaceNet
from models.run import bfloat16_training, export
from vision.decode import BGRImage
from vision.face_locator import CUT_PX
from vision.read import FloatArray, reader_input, white_balance_gains

Cuts = npt.NDArray[np.uint8]
Labels = npt.NDArray[np.int64]
Targets = TypeVar("Targets", Labels, npt.NDArray[np.float32])
"""What a network learns for each cut: a class (`Labels`) or numbers (the face locator's offsets)."""
Augment = Callable[[Cuts, Targets, np.random.Generator], tuple[Cuts, Targets]]
"""Varies a batch; it returns the targets too, since turning a cut turns an offset with it."""
Loss = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]
BATCH = 128


def fit(
    network: nn.Module,
    cuts: Cuts,
    targets: Targets,
    epochs: int,
    seed: int,
    augment: Augment[Targets],
    loss: Loss,
    bfloat16: bool = False,
) -> None:
    """AdamW with a one-cycle schedule to 3e-3 over `epochs` shuffled passes in batches of BATCH, each
    batch augmented from the seeded generator; prints the mean loss of every epoch.

    With `bfloat16` the forward pass runs under bfloat16 autocast (`models.run.bfloat16_training`)."""
    rng = np.random.default_rng(seed)
    steps = epochs * (len(cuts) // BATCH)
    with bfloat16_training(network, bfloat16) as laid_out:
        optimizer = torch.optim.AdamW(network.parameters(), lr=3e-3, weight_decay=1e-4)
        schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, 3e-3, total_steps=steps, pct_start=0.15)
        network.train()
        started = time.perf_counter()
        for epoch in range(epochs):
            order = rng.permutation(len(cuts))
            total = 0.0
            for start in range(0, len(order) - BATCH + 1, BATCH):
                chosen = order[start : start + BATCH]
                batch, batch_targets = augment(cuts[chosen], targets[chosen], rng)
                inputs = laid_out(torch.from_numpy(reader_input(batch)))
                with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bfloat16):
                    predicted = network(inputs)
                batch_loss = loss(predicted.float(), torch.from_numpy(batch_targets))
                optimizer.zero_grad()
                batch_loss.backward()  # type: ignore[no-untyped-call]
                optimizer.step()
                schedule.step()
                total += batch_loss.item()
            print(
                f"epoch {epoch + 1}/{epochs}: loss {total / (len(order) // BATCH):.4f} "
                f"({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
        network.eval()


def outputs(network: nn.Module, cuts: Cuts) -> npt.NDArray[np.float32]:
    """The network's outputs for cuts as they lie, unturned."""
    with torch.no_grad():
        return network(torch.from_numpy(reader_input(cuts))).numpy()  # type: ignore[no-any-return]


def predictions(network: nn.Module, cuts: Cuts) -> npt.NDArray[np.int64]:
    """The class a classifier gives each cut (as it lies, unturned)."""
    classes: npt.NDArray[np.int64] = outputs(network, cuts).argmax(axis=1)
    return classes


def cast_gains(view: BGRImage, rng: np.random.Generator) -> FloatArray:
    """White-balance gains for the view under a random colour cast: those the run-time balance finds for
    the cast view, with the cast itself, so a cut is balanced as the cast view would be."""
    cast = rng.uniform(0.8, 1.25, 3).astype(np.float32)
    return white_balance_gains(np.clip(view * cast, 0, 255).astype(np.uint8)) * cast


def quarter_turned(cuts: Cuts, turns: npt.NDArray[np.int64]) -> Cuts:
    """Each cut turned `turns` quarters counterclockwise (`np.rot90`)."""
    return np.stack([np.rot90(cut, int(k)) for cut, k in zip(cuts, turns, strict=True)])


def lit(cuts: Cuts, rng: np.random.Generator, channel_gains: tuple[float, float] | None = None) -> Cuts:
    """Cuts under other light (a gain each; with `channel_gains`, each channel's own gain drawn in that range
    too, as a white balance left a little off) with a little noise."""
    gains = rng.uniform(0.8, 1.2, (len(cuts), 1, 1, 1))
    if channel_gains is not None:
        gains = gains * rng.uniform(*channel_gains, (len(cuts), 1, 1, 3))
    noisy = cuts * gains + rng.normal(0, 3, cuts.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def augment_faces(cuts: Cuts, labels: Labels, rng: np.random.Generator) -> tuple[Cuts, Labels]:
    """Quarter turns (a die lies any way round), light changes, a little noise."""
    return lit(quarter_turned(cuts, rng.integers(0, 4, len(cuts))), rng), labels


def fit_face_reader(
    cuts: Cuts,
    labels: Labels,
    epochs: int,
    seed: int,
    width: float = 1.0,
    bfloat16: bool = False,
    augment: Augment[Labels] = augment_faces,
) -> FaceNet:
    """A face reader (`FaceNet`, `width` times as wide) fitted to each cut's value less one, with `augment`
    (the games' face readers': `augment_faces`) and a cross-entropy smoothed by 0.05 (a face seen in glare or
    blur may truly be either of two values); `bfloat16` as for `fit`."""
    network = FaceNet(width)
    fit(
        network,
        cuts,
        labels,
        epochs,
        seed,
        augment,
        partial(cross_entropy, label_smoothing=0.05),
        bfloat16,
    )
    return network


def share_right(network: nn.Module, cuts: Cuts, labels: Labels) -> float:
    """The share of cuts a classifier reads as their label (as they lie, unturned)."""
    return float((predictions(network, cuts) == labels).mean())


def export_face_locator(network: nn.Module, output: Path, answer: str = "face_offsets") -> None:
    """Write a face locator (`models.dice_nets.FaceLocatorNet`, or `FaceShapeNet`, whose `answer` is
    "faces") to ONNX as `vision.face_locator` loads it."""
    export(
        network,
        torch.zeros(1, 3, CUT_PX, CUT_PX),
        output,
        [answer],
        {"pixels": {0: "cuts"}, answer: {0: "cuts"}},
    )


def export_face_reader(network: FaceNet, cut_px: int, output: Path) -> None:
    """Write a face reader to ONNX as its game's `vision.face_reader.FaceReader` loads it."""
    export(
        network,
        torch.zeros(1, 3, cut_px, cut_px),
        output,
        ["value_logits"],
        {"pixels": {0: "faces"}, "value_logits": {0: "faces"}},
    )
