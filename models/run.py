"""What every trainer here does alike: start a seeded run on one thread, train under bfloat16 on request,
and export the trained network to ONNX."""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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


@contextmanager
def bfloat16_training(
    network: torch.nn.Module, enabled: bool
) -> Iterator[Callable[[torch.Tensor], torch.Tensor]]:
    """While training, with `enabled`: the network's weights in channels-last layout (they stay float32), and
    the function this yields lays a batch's pixels out alike, for the caller's forward pass under
    `torch.autocast("cpu", dtype=torch.bfloat16)`. A step then takes about half its float32 time on a CPU
    with bfloat16 instructions. Afterwards the network is back in the usual layout, to score and export in
    float32. Not `enabled`: nothing changes.

    Where oneDNN has no fast bfloat16 path (a CPU without AVX-512) torch falls back to reference kernels, an
    order of magnitude slower than float32 (`models/MODEL_CARD.md`, How to retrain), so the run warns."""
    if not enabled:
        yield lambda pixels: pixels
        return
    if not native_bfloat16():
        warnings.warn(
            "this CPU has no fast bfloat16 path (oneDNN needs AVX-512): training under bfloat16 will run "
            "many times slower than in float32; turn bfloat16 off to train in float32 (the file then "
            "differs from one trained under bfloat16)",
            RuntimeWarning,
            stacklevel=3,
        )
    network.to(memory_format=torch.channels_last)  # type: ignore[call-overload]  # torch's stub omits it
    try:
        yield lambda pixels: pixels.contiguous(memory_format=torch.channels_last)
    finally:
        network.to(memory_format=torch.contiguous_format)  # type: ignore[call-overload]


def native_bfloat16() -> bool:
    """Whether torch's CPU kernels (oneDNN) run bfloat16 natively here rather than on a slow fallback."""
    return bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())


def add_bfloat16_option(
    parser: argparse.ArgumentParser, flag: str = "--bfloat16", default: bool = True
) -> None:
    """A trainer's switch for bfloat16 autocast (`bfloat16_training`), on by default: the shipped files were
    trained under it."""
    parser.add_argument(
        flag,
        action=argparse.BooleanOptionalAction,
        default=default,
        help="train under bfloat16 autocast: about twice as fast with AVX-512 BF16, many times slower "
        "without AVX-512 (then pass the --no- form)",
    )


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
