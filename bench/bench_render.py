"""Milliseconds per rendered dice scene, for the sizes training uses: `python bench/bench_render.py`."""

from __future__ import annotations

import argparse
import time

import numpy as np

from vision.synth.scene import SceneConfig, render_scene


def bench(config: SceneConfig, scenes: int, seed: int) -> float:
    """Mean milliseconds per scene over `scenes` renders, after one warm-up render."""
    rng = np.random.default_rng(seed)
    render_scene(config, rng)
    start = time.perf_counter()
    for _ in range(scenes):
        render_scene(config, rng)
    return (time.perf_counter() - start) * 1000.0 / scenes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    cases = {
        "320x320, 10 dice": SceneConfig(width=320, height=320, dice_count=(10, 10), die_size_px=(20, 60)),
        "640x640, 10 dice": SceneConfig(width=640, height=640, dice_count=(10, 10), die_size_px=(24, 90)),
        "640x640, 1-12 dice (default)": SceneConfig(),
    }
    for name, config in cases.items():
        print(f"{name}: {bench(config, args.scenes, args.seed):.1f} ms per scene")


if __name__ == "__main__":
    main()
