"""Median time from photo to scored windows: one window at 1280x720, four windows in a 12 MP photo, one
window on a printed mat at 1280x720.

    python3 bench/bench_sagrada_read.py [--runs N] [--accuracy WINDOWS] [--seeds-after N] [--real-windows N]
                                        [--model FILE.onnx] [--face-model FILE.onnx] [--without-dice-reader]
                                        [--classifier-alone]

Photos are rendered (seeded) and JPEG-encoded, then read from bytes as the command does: decode, find
windows, read the spaces, identify the patterns, score. Prints the median of the whole read (wall clock,
and the process's CPU time, which other work on a shared machine does not inflate) and of each stage,
and how many windows were read right (every space, and the pattern), on one thread; the machine's load
average before and after says how much the wall clock figures were shared.

`--accuracy WINDOWS` prints, instead, the issue's accuracy figures on that many rendered windows per set (the
tests' photos, 960x540, other seeds; `--seeds-after N` starts each set N seeds later, for a second sample when
comparing candidates): every space right with any number of dice, with at most 10 and with 85-100 % of the
spaces filled (a finished game: the dice hide the grout and no print is left to tell the turn), and with the
cards on printed window mats (`tablesight mat sagrada`) photographed by a steady camera (then the same photos
read as if they had no mats, by the markerless search alone), and with two to four windows in a 12 MP phone
photo (a third as many photos as WINDOWS, read from JPEG bytes as the command reads them); the pattern named,
what went wrong where a window was not read whole (a window whose grid is found a fifth to half a space off
counts as not read whole, and whether its spaces read right all the same is said; and windows reported where
no card lies), and how many windows the player can set right by answering the spaces reported uncertain; and
real dice pasted into rendered windows (from the photos the space classifier never trained on; a quarter as
many windows as WINDOWS, or `--real-windows N`). `--model` and `--face-model` read the spaces with another
space classifier or face reader file than the shipped one, to compare a candidate on the same photos;
`--without-dice-reader` leaves the dice reader's opinion of a die's value and colour out, and
`--classifier-alone` both value readers', to measure what they add.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from engine.sagrada.window import ALL_CELLS, Window
from vision.colors import COLOR_SETS
from vision.evaluation import read_split
from vision.read import READER_MODEL
from vision.sagrada.cells import CELL_MODEL, FACE_MODEL, CellReader
from vision.sagrada.reader import SagradaReader, WindowReading
from vision.synth.real_dice import load_real_dice
from vision.synth.sagrada import (
    RenderedWindow,
    SagradaConfig,
    WindowScene,
    mat_photo_config,
    on_mats,
    paste_real_dice,
    phone_photo_config,
    render_window_scene,
)

REPOSITORY = Path(__file__).resolve().parent.parent


def photo(
    width: int, height: int, windows: int, window_px: tuple[float, float], seed: int, framed: bool = False
) -> WindowScene:
    base = SagradaConfig(windows=(windows, windows), window_px=window_px, fill=(0.2, 0.6))
    config = replace(base, scene=replace(base.scene, width=width, height=height))
    return render_window_scene(on_mats(config) if framed else config, np.random.default_rng(seed))


def read_right(scene: WindowScene, reader: SagradaReader, data: bytes) -> tuple[int, int]:
    """Windows read with every space right, and with the right pattern named."""
    reading = reader.read(data)
    whole = named = 0
    for truth in scene.windows:
        window, upright = found_as(reading.windows, truth)
        if window is not None and upright:
            whole += window.window == truth.window
            named += window.pattern is not None and window.pattern.name == truth.pattern
    return whole, named


def space_pitch(truth: RenderedWindow) -> float:
    """The labelled window's space pitch in the photo, along its first row."""
    return float(np.linalg.norm(truth.corners[1] - truth.corners[0])) / 5


def found_as(
    windows: tuple[WindowReading, ...], truth: RenderedWindow, within: float = 0.2
) -> tuple[WindowReading | None, bool]:
    """The window read at the labelled one's place (every corner within `within` of a space: a fifth, on
    its grid), and whether it was read the right way up."""
    for window in windows:
        for upright in (True, False):
            corners = window.corners if upright else np.roll(window.corners, 2, axis=0)
            if np.abs(corners - truth.corners).max() < within * space_pitch(truth):
                return window, upright
    return None, False


def off_its_grid(windows: tuple[WindowReading, ...], truth: RenderedWindow) -> str:
    """Why a labelled window was not found on its grid: found up to half a space off it (and whether its
    spaces read right all the same), turned a quarter round (its rows laid along the card's columns, the
    grid stretched over the frame at one end and short of the last column at the other), or not found."""
    window, upright = found_as(windows, truth, within=0.5)
    if window is None:
        quarter_turned = any(
            np.abs(np.roll(found.corners, turn, axis=0) - truth.corners).max() < 1.5 * space_pitch(truth)
            for found in windows
            for turn in (1, 3)
        )
        return "window found a quarter turn round" if quarter_turned else "window not found"
    if not upright:
        return "window a fifth to half a space off its grid, upside down"
    spaces = "every space right" if window.window == truth.window else "spaces misread"
    return f"window a fifth to half a space off its grid ({spaces})"


def off_the_cards(window: WindowReading, scene: WindowScene) -> bool:
    """Whether a window read lies on no card of the photo (a drawing on the table taken for one)."""
    centre = window.corners.mean(axis=0)
    at = (float(centre[0]), float(centre[1]))
    return all(cv2.pointPolygonTest(card.card_corners, at, False) < 0 for card in scene.windows)


def faults(read: Window, truth: Window) -> Counter[str]:
    """The kinds of misread spaces in a window found on its grid."""
    kinds: Counter[str] = Counter()
    for cell in ALL_CELLS:
        got, expected = read[cell], truth[cell]
        if got == expected:
            continue
        if expected is None:
            kinds["empty space read as a die"] += 1
        elif got is None:
            kinds["die read as empty"] += 1
        else:
            kinds["die colour" if got.color != expected.color else "die value"] += 1
    return kinds


def accuracy(
    reader: SagradaReader, windows: int, seeds_after: int = 0, real_windows: int | None = None
) -> None:
    """The issue's accuracy figures on rendered windows, and on real dice pasted into `real_windows` more
    (a quarter of `windows` unless given); `seeds_after` moves every rendered set's first seed on, for a
    second sample of photos when comparing candidates."""
    markerless = SagradaReader(reader.cells, mats=False)
    plain = SagradaConfig(window_px=(220.0, 340.0))
    plain = replace(plain, scene=replace(plain.scene, width=960, height=540))
    framed = mat_photo_config()

    def pixels_read_by(reading: SagradaReader) -> Callable[[WindowScene], tuple[WindowReading, ...]]:
        return lambda scene: reading.read_pixels(scene.image).windows

    def read_from_jpeg(scene: WindowScene) -> tuple[WindowReading, ...]:
        ok, encoded = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        assert ok
        return reader.read(encoded.tobytes()).windows

    for name, config, first_seed, photos, read in (
        ("0-20 dice", plain, 30000, windows, pixels_read_by(reader)),
        ("at most 10 dice", replace(plain, fill=(0.0, 0.5)), 40000, windows, pixels_read_by(reader)),
        (
            "85-100 % of the spaces filled (a finished game)",
            replace(plain, fill=(0.85, 1.0)),
            80000,
            windows,
            pixels_read_by(reader),
        ),
        ("0-20 dice, cards on window mats at 1280x960", framed, 60000, windows, pixels_read_by(reader)),
        (
            "the same photos read without their mats' markers",
            framed,
            60000,
            windows,
            pixels_read_by(markerless),
        ),
        (
            "2-4 windows in a 12 MP photo, read from its JPEG",
            phone_photo_config(),
            70000,
            max(windows // 3, 1),
            read_from_jpeg,
        ),
    ):
        whole = named = seen = confirmable = asked = silent = 0
        kinds: Counter[str] = Counter()
        for seed in range(first_seed + seeds_after, first_seed + seeds_after + photos):
            scene = render_window_scene(config, np.random.default_rng(seed))
            found = read(scene)
            kinds["window reported where there is no card"] += sum(off_the_cards(w, scene) for w in found)
            for truth in scene.windows:
                seen += 1
                window, upright = found_as(found, truth)
                if window is None:
                    kinds[off_its_grid(found, truth)] += 1
                    continue
                if not upright:
                    kinds["window read upside down"] += 1
                    continue
                whole += window.window == truth.window
                named += window.pattern is not None and window.pattern.name == truth.pattern
                kinds.update(faults(window.window, truth.window))
                flagged = {space.cell for space in window.uncertain}
                wrong = {cell for cell in ALL_CELLS if window.window[cell] != truth.window[cell]}
                asked += len(flagged)
                silent += len(wrong - flagged)
                confirmable += not wrong - flagged
        listed = ", ".join(f"{kind} {count}" for kind, count in kinds.most_common() if count) or "none"
        print(
            f"{name}: every space right in {whole} of {seen} windows ({whole / seen:.1%}), "
            f"pattern named in {named} ({named / seen:.1%})"
        )
        print(f"  faults: {listed}")
        print(
            f"  every misread space asked about in {confirmable} of {seen} windows "
            f"({confirmable / seen:.1%}); spaces asked about {asked}, misread without asking {silent}"
        )
    held_out = set(read_split(REPOSITORY / "models" / "validation_split.txt"))
    crops = load_real_dice(
        REPOSITORY / "tests" / "data" / "dice_real", COLOR_SETS["sagrada"], images=held_out
    )
    base = SagradaConfig(fill=(0.0, 0.0), window_px=(220.0, 340.0))
    empty = replace(base, scene=replace(base.scene, width=960, height=540))
    rng = np.random.default_rng(50000)
    dice = right = false_dice = 0
    kinds = Counter()
    real_windows = windows // 4 if real_windows is None else real_windows
    for _ in range(real_windows):
        scene = paste_real_dice(render_window_scene(empty, rng), crops, rng, fill=0.45)
        truth = scene.windows[0]
        window, upright = found_as(reader.read_pixels(scene.image).windows, truth)
        placed = sum(die is not None for die in truth.window.dice)
        dice += placed
        if window is None or not upright:
            kinds["window not found the right way up"] += placed
            continue
        misread = faults(window.window, truth.window)
        kinds.update(misread)
        right += placed - (misread.total() - misread["empty space read as a die"])
        false_dice += misread["empty space read as a die"]
    listed = ", ".join(f"{kind} {count}" for kind, count in kinds.most_common()) or "none"
    print(
        f"real dice pasted into {real_windows} windows: {right} of {dice} read right, "
        f"{false_dice} empty spaces read as dice"
    )
    print(f"  faults: {listed}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--accuracy", type=int, metavar="WINDOWS", help="print accuracy on this many windows")
    parser.add_argument(
        "--seeds-after", type=int, default=0, metavar="N", help="start every accuracy set's seeds N later"
    )
    parser.add_argument(
        "--real-windows",
        type=int,
        metavar="N",
        help="windows holding real dice (default: a quarter of WINDOWS)",
    )
    parser.add_argument("--model", type=Path, default=CELL_MODEL, help="the space classifier's ONNX file")
    parser.add_argument("--face-model", type=Path, default=FACE_MODEL, help="the face reader's ONNX file")
    parser.add_argument(
        "--without-dice-reader", action="store_true", help="read dice without the dice reader's opinion"
    )
    parser.add_argument(
        "--classifier-alone", action="store_true", help="read dice without either value reader's opinion"
    )
    arguments = parser.parse_args()
    runs = arguments.runs
    cv2.setNumThreads(1)
    alone = arguments.classifier_alone
    dice_reader = None if alone or arguments.without_dice_reader else READER_MODEL
    face_reader = None if alone else arguments.face_model
    cells = CellReader(model=arguments.model, dice_reader=dice_reader, face_reader=face_reader)
    reader = SagradaReader(cells)
    if arguments.accuracy:
        accuracy(reader, arguments.accuracy, arguments.seeds_after, arguments.real_windows)
        return
    print(f"load average before: {_load()}")
    cases = {
        "one window, 1280x720": (1280, 720, 1, (220.0, 380.0)),
        "four windows, 4000x3000": (4000, 3000, 4, (700.0, 900.0)),
        "one window on a mat, 1280x720": (1280, 720, 1, (150.0, 230.0)),
    }
    for name, (width, height, windows, window_px) in cases.items():
        totals: list[float] = []
        cpu: list[float] = []
        stages: dict[str, list[float]] = {}
        whole = named = rendered = 0
        for seed in range(runs):
            scene = photo(width, height, windows, window_px, seed, framed="mat" in name)
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
    print(f"load average after: {_load()}")


def _load() -> str:
    return " ".join(f"{load:.2f}" for load in os.getloadavg()) + f" on {os.cpu_count()} cores"


if __name__ == "__main__":
    main()
