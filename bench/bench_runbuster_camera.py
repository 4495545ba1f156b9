"""Run Buster from photos: how fast the mat is found and read, and how often dice land in the right zone.

On rendered mats (random views from either side, 2-6 dice at random places in every zone) it prints:
- the time to render a photo, to find the mat, and to place the dice (medians);
- zone assignment from the renderer's exact die boxes: dice in the right zone, and the placement error
  on the mat in millimetres (mean, 99th percentile, worst);
- when the dice models are installed, the whole pipeline (recognizer -> mat -> zones): dice found, read
  and placed right, dice missed, and extra detections, with the recognizer's time.

Run from the repository root: python3 -m bench.bench_runbuster_camera [--scenes 60] [--seed 0]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

import numpy as np

from vision.errors import ModelUnavailable
from vision.observation import DetectedDie
from vision.recognizer import DiceRecognizer
from vision.runbuster.locate import locate_mat
from vision.runbuster.mat import DIE_EDGE, ZONE_KEYS
from vision.runbuster.zones import assign_dice, read_mat_photo
from vision.synth.mat import MatScene, MatSceneConfig, render_mat_scene


def exact_dice(scene: MatScene) -> list[DetectedDie]:
    """The rendered dice as a perfect recognizer would report them."""
    dice = []
    for label in scene.dice:
        box = label.die.box
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        dice.append(DetectedDie(centre, box, label.die.value, label.die.color, 1.0, 1.0, 1.0))
    return dice


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scenes", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    config = MatSceneConfig(dice_per_zone=(2, 6))
    rng = np.random.default_rng(args.seed)
    render_s, locate_s, assign_s, errors = [], [], [], []
    scenes = []
    right = total = 0
    for _ in range(args.scenes):
        started = time.perf_counter()
        scene = render_mat_scene(config, rng)
        render_s.append(time.perf_counter() - started)
        scenes.append(scene)
        started = time.perf_counter()
        location = locate_mat(scene.image)
        located = time.perf_counter()
        reading = assign_dice(location, exact_dice(scene))
        assign_s.append(time.perf_counter() - located)
        locate_s.append(located - started)
        for placed, label in zip(reading.dice, scene.dice, strict=True):
            total += 1
            right += placed.zone == label.zone
            errors.append(float(np.hypot(*np.subtract(placed.mat_point, label.mat_point))))
    size = f"{config.scene.width}x{config.scene.height}"
    print(f"{args.scenes} rendered mats at {size}, {total} dice")
    print(f"render      median {1000 * statistics.median(render_s):7.1f} ms")
    print(f"find mat    median {1000 * statistics.median(locate_s):7.1f} ms")
    print(f"place dice  median {1000 * statistics.median(assign_s):7.2f} ms")
    print(f"zones from exact boxes: {right}/{total} right ({100 * right / total:.2f} %)")
    print(
        f"placement error on the mat (A3 mm): mean {np.mean(errors):.2f}, "
        f"99th percentile {np.percentile(errors, 99):.2f}, worst {max(errors):.2f} "
        f"(a die is {DIE_EDGE:.0f} mm)"
    )

    try:
        recognizer = DiceRecognizer()
    except ModelUnavailable as error:
        print(f"whole pipeline skipped: {error}")
        return
    found_right = missed = extra = 0
    recognise_s = []
    for scene in scenes:
        started = time.perf_counter()
        reading = read_mat_photo(recognizer, scene.image)
        recognise_s.append(time.perf_counter() - started)
        for key in ZONE_KEYS:
            truth, read = Counter(scene.values(key)), Counter(reading.values(key))
            found_right += sum((truth & read).values())
            missed += sum((truth - read).values())
            extra += sum((read - truth).values())
    print(
        f"photo to zones median {1000 * statistics.median(recognise_s):7.1f} ms (find mat, recognize, place)"
    )
    print(
        f"whole pipeline: {found_right}/{total} dice in the right zone with the right value "
        f"({100 * found_right / total:.2f} %), {missed} missed or misread, {extra} extra"
    )


if __name__ == "__main__":
    main()
