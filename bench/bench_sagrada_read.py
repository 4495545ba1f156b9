"""Median time from photo to scored windows: one window at 1280x720, four windows in a 12 MP photo.

    python3 bench/bench_sagrada_read.py [--runs N]

Photos are rendered (seeded) and JPEG-encoded, then read from bytes as the command does: decode, find
windows, read the spaces, identify the patterns, score. Prints the median of the whole read (wall clock,
and the process's CPU time, which other work on a shared machine does not inflate) and of each stage,
and how many windows were read right (every space, and the pattern), on one thread.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace

import cv2
import numpy as np

from vision.sagrada.reader import SagradaReader
from vision.synth.sagrada import SagradaConfig, WindowScene, render_window_scene


def photo(width: int, height: int, windows: int, window_px: tuple[float, float], seed: int) -> WindowScene:
    base = SagradaConfig(windows=(windows, windows), window_px=window_px, fill=(0.2, 0.6))
    config = replace(base, scene=replace(base.scene, width=width, height=height))
    return render_window_scene(config, np.random.default_rng(seed))


def read_right(scene: WindowScene, reader: SagradaReader, data: bytes) -> tuple[int, int]:
    """Windows read with every space right, and with the right pattern named."""
    reading = reader.read(data)
    whole = named = 0
    for truth in scene.windows:
        for window in reading.windows:
            pitch = float(np.linalg.norm(truth.corners[1] - truth.corners[0])) / 5
            if np.abs(window.corners - truth.corners).max() < 0.2 * pitch:
                whole += window.window == truth.window
                named += window.pattern is not None and window.pattern.name == truth.pattern
    return whole, named


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    cv2.setNumThreads(1)
    reader = SagradaReader()
    cases = {
        "one window, 1280x720": (1280, 720, 1, (220.0, 380.0)),
        "four windows, 4000x3000": (4000, 3000, 4, (700.0, 900.0)),
    }
    for name, (width, height, windows, window_px) in cases.items():
        totals: list[float] = []
        cpu: list[float] = []
        stages: dict[str, list[float]] = {}
        whole = named = rendered = 0
        for seed in range(runs):
            scene = photo(width, height, windows, window_px, seed)
            ok, encoded = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
            assert ok
            data = encoded.tobytes()
            cpu_started = time.process_time()
            reading = reader.read(data)
            cpu.append((time.process_time() - cpu_started) * 1000)
            totals.append(reading.timings_ms["total"])
            for stage, ms in reading.timings_ms.items():
                stages.setdefault(stage, []).append(ms)
            right, pattern_right = read_right(scene, reader, data)
            whole, named, rendered = whole + right, named + pattern_right, rendered + len(scene.windows)
        per_stage = ", ".join(f"{stage} {statistics.median(ms):.1f}" for stage, ms in stages.items())
        print(
            f"{name}: photo to score median {statistics.median(totals):.1f} ms "
            f"(CPU {statistics.median(cpu):.1f} ms) over {runs} photos"
        )
        print(f"  stages (median ms): {per_stage}")
        print(f"  windows read whole {whole} of {rendered}, pattern named {named} of {rendered}")


if __name__ == "__main__":
    main()
