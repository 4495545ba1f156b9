"""Milliseconds per rendered scene, for the sizes training uses: `python bench/bench_render.py`.

Prints wall-clock and process CPU time per scene; on a shared machine the CPU figure is the steadier one.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from vision.colors import COLOR_SETS
from vision.synth.sagrada import SagradaConfig, render_window_scene
from vision.synth.scene import SceneConfig, render_scene


def bench(render: Callable[[np.random.Generator], object], scenes: int, seed: int) -> tuple[float, float]:
    """Mean wall and CPU milliseconds per scene over `scenes` renders, after one warm-up render."""
    rng = np.random.default_rng(seed)
    render(rng)
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(scenes):
        render(rng)
    return (time.perf_counter() - wall) * 1000 / scenes, (time.process_time() - cpu) * 1000 / scenes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    small = SceneConfig(width=320, height=320, dice_count=(10, 10), die_size_px=(20, 60))
    large = SceneConfig(width=640, height=640, dice_count=(10, 10), die_size_px=(24, 90))
    window = SagradaConfig(scene=SceneConfig(colors=COLOR_SETS["sagrada"], translucent_probability=0.9))
    cases: dict[str, Callable[[np.random.Generator], object]] = {
        "dice 320x320, 10 dice": lambda rng: render_scene(small, rng),
        "dice 640x640, 10 dice": lambda rng: render_scene(large, rng),
        "dice 640x640, default config (1-12 dice)": lambda rng: render_scene(SceneConfig(), rng),
        "sagrada 640x640, 1 window, 0-20 dice": lambda rng: render_window_scene(window, rng),
    }
    for name, render in cases.items():
        wall, cpu = bench(render, args.scenes, args.seed)
        print(f"{name}: {wall:.1f} ms wall, {cpu:.1f} ms CPU per scene")


if __name__ == "__main__":
    main()
