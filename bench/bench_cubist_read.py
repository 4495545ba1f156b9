"""How well and how fast `tablesight cubist read` reads rendered workrooms it never trained on.

    python3 bench/bench_cubist_read.py [--photos N] [--seed FIRST]

Each photo is a default rendered workroom (`vision.synth.cubist`: 960x720, 1-8 dice of one player, up to
three levels, 30% an installation card's structure, any yaw, tilt up to 33 degrees), seeds from 300 000
(the top-face finder trained on seeds below 6 000, the tests use 200 000 up), JPEG-encoded and read from
bytes as the command reads a file. Prints the top faces found (recall, precision), the values and colours
read of the faces found on a column, the top views read whole (up to a quarter turn and a shift, nothing
left over), with the same counts split by whether any column is stacked, and the median time of each stage
on one thread, with the machine's load average before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
from collections.abc import Sequence

import cv2
import numpy as np

from vision.cubist.evaluation import WorkroomScore, score_workroom
from vision.cubist.workroom import WorkroomReader
from vision.synth.cubist import CubistSceneConfig, render_workroom


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=300)
    parser.add_argument("--seed", type=int, default=300_000, help="the first photo's seed")
    arguments = parser.parse_args(argv)
    cv2.setNumThreads(1)
    reader = WorkroomReader()
    print(f"load average before: {_load()}")
    totals: dict[str, WorkroomScore] = {}
    exact: dict[str, list[bool]] = {"all": [], "flat": [], "stacked": []}
    stages: dict[str, list[float]] = {}
    for seed in range(arguments.seed, arguments.seed + arguments.photos):
        scene = render_workroom(CubistSceneConfig(), np.random.default_rng(seed))
        ok, encoded = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        assert ok
        reading = reader.read(encoded.tobytes())
        for stage, ms in reading.timings_ms.items():
            stages.setdefault(stage, []).append(ms)
        score = score_workroom(scene, reading)
        kind = "stacked" if any(column.height > 1 for column in scene.columns) else "flat"
        for group in ("all", kind):
            totals[group] = totals[group] + score if group in totals else score
            exact[group].append(score.exact)
    for group in ("all", "flat", "stacked"):
        if group not in totals:
            continue
        total, photos = totals[group], len(exact[group])
        print(
            f"{group} ({photos} photos): top faces found {total.matched} of {total.faces} "
            f"(recall {total.matched / total.faces:.2%}), {total.found - total.matched} of {total.found} "
            f"finds on no face (precision {total.matched / max(total.found, 1):.2%}); values right "
            f"{total.values_right / max(total.matched, 1):.2%}, colours right "
            f"{total.colors_right / max(total.matched, 1):.2%} of the faces found; top views read whole "
            f"{sum(exact[group])} of {photos} ({sum(exact[group]) / photos:.2%})"
        )
    shown = ", ".join(f"{stage} {statistics.median(ms):.1f}" for stage, ms in stages.items())
    print(f"median ms per stage: {shown}")
    print(f"load average after: {_load()}")


def _load() -> str:
    return " ".join(f"{load:.2f}" for load in os.getloadavg()) + f" on {os.cpu_count()} cores"


if __name__ == "__main__":
    main()
