"""What every trainer here does alike: start a seeded run on one thread, and export the trained network
to ONNX."""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import torch


def start_run(seed: int) -> float:
    """Seed torch's initial weights with `seed`, keep torch and OpenCV to one thread each, and return the
    run's start (`time.perf_counter`) for its progress lines.

    One thread: on this shared 2-core machine, two torch threads measured 8x slower (spin waits), and
    the batch worker wants the other core."""
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    return time.perf_counter()


def export(
    network: torch.nn.Module,
    example: torch.Tensor,
    path: Path,
    outputs: list[str],
    dynamic: dict[str, dict[int, str]],
) -> None:
    """Classic (TorchScript-based) ONNX export of a network taking "pixels", with the axes in `dynamic` left
    free (batch and image size for the dice models, the batch for the games' networks on cuts)."""
    torch.onnx.export(
        network,
        (example,),
        str(path),
        input_names=["pixels"],
        output_names=outputs,
        dynamic_axes=dynamic,
        opset_version=17,
        dynamo=False,
    )
