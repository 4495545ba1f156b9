"""The training loop the games' small classifiers share (the Sagrada space classifier, the Run Buster face
reader): every cut is in memory, so each epoch is one shuffled pass over them."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from vision.read import reader_input

Cuts = npt.NDArray[np.uint8]
Labels = npt.NDArray[np.int64]
BATCH = 128


def fit(
    network: nn.Module,
    cuts: Cuts,
    labels: Labels,
    epochs: int,
    seed: int,
    augment: Callable[[Cuts, np.random.Generator], Cuts],
    label_smoothing: float = 0.0,
) -> None:
    """AdamW with a one-cycle schedule to 3e-3 over `epochs` shuffled passes in batches of BATCH, each
    batch augmented from the seeded generator; prints the mean loss of every epoch."""
    rng = np.random.default_rng(seed)
    steps = epochs * (len(cuts) // BATCH)
    optimizer = torch.optim.AdamW(network.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, 3e-3, total_steps=steps, pct_start=0.15)
    network.train()
    started = time.perf_counter()
    for epoch in range(epochs):
        order = rng.permutation(len(cuts))
        total = 0.0
        for start in range(0, len(order) - BATCH + 1, BATCH):
            chosen = order[start : start + BATCH]
            pixels = torch.from_numpy(reader_input(augment(cuts[chosen], rng)))
            loss = nn.functional.cross_entropy(
                network(pixels), torch.from_numpy(labels[chosen]), label_smoothing=label_smoothing
            )
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimizer.step()
            schedule.step()
            total += loss.item()
        print(
            f"epoch {epoch + 1}/{epochs}: loss {total / (len(order) // BATCH):.4f} "
            f"({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    network.eval()


def predictions(network: nn.Module, cuts: Cuts) -> npt.NDArray[np.int64]:
    """The class the network gives each cut (as it lies, unturned)."""
    with torch.no_grad():
        return network(torch.from_numpy(reader_input(cuts))).argmax(dim=1).numpy()  # type: ignore[no-any-return]
