"""Median time from photo to scored windows: one window at 1280x720, four windows in a 12 MP photo.

    python3 bench/bench_sagrada_read.py [--runs N]

Photos are rendered (seeded) and JPEG-encoded, then read from bytes as the command does. The stages that
need no model (decode, lattice fit, spaces and pattern) are always timed; the whole read, dice reading
and scoring included, once models/dice_reader.onnx is present.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace

import cv2
import numpy as np

from vision.decode import decode_image
from vision.errors import ModelUnavailable
from vision.sagrada.cells import flatten, look_at_spaces, read_print
from vision.sagrada.lattice import find_windows
from vision.sagrada.pattern_id import all_cells_seen, identify_pattern
from vision.sagrada.reader import SagradaReader
from vision.synth.sagrada import SagradaConfig, render_window_scene


def photo(width: int, height: int, windows: int, window_px: tuple[float, float], seed: int) -> bytes:
    base = SagradaConfig(windows=(windows, windows), window_px=window_px, fill=(0.2, 0.6))
    config = replace(base, scene=replace(base.scene, width=width, height=height))
    scene = render_window_scene(config, np.random.default_rng(seed))
    ok, encoded = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    print(f"  rendered {width}x{height} with {len(scene.windows)} windows")
    return encoded.tobytes()


def model_free_read(data: bytes) -> int:
    pixels = decode_image(data).pixels
    lattices = find_windows(pixels)
    for lattice in lattices:
        flat = flatten(pixels, lattice)
        prints = [None if look.has_die else read_print(flat, look) for look in look_at_spaces(flat)]
        identify_pattern(all_cells_seen(prints), lattice.orientation_margin)
    return len(lattices)


def median_ms(action: object, data: bytes, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action(data)  # type: ignore[operator]
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    cv2.setNumThreads(1)
    cases = {
        "one window, 1280x720": photo(1280, 720, 1, (220.0, 380.0), 1),
        "four windows, 4000x3000": photo(4000, 3000, 4, (700.0, 900.0), 2),
    }
    try:
        reader: SagradaReader | None = SagradaReader()
    except ModelUnavailable as error:
        reader = None
        print(f"  whole read not timed: {error}")
    for name, data in cases.items():
        found = model_free_read(data)
        stages = median_ms(model_free_read, data, runs)
        line = f"{name}: {found} windows found; decode+lattice+spaces+pattern median {stages:.1f} ms"
        if reader is not None:
            line += f"; photo to score median {median_ms(reader.read, data, runs):.1f} ms"
        print(line)


if __name__ == "__main__":
    main()
