"""Run Buster from photos: how fast the mat is found and read, and how often dice land in the right zone.

On rendered mats (random views from either side, 2-6 dice at random places in every zone) it prints:
- the time to render a photo, to find the mat, and to place the dice (medians);
- zone assignment from the renderer's exact die boxes: dice in the right zone, and the placement error
  on the mat in millimetres (mean, 99th percentile, worst);
- when the dice models are installed, the whole pipeline (recognizer -> mat -> zones): dice found, read
  and placed right, dice missed, and extra detections, with the recognizer's time.

Run from the repository root:
    python3 -m bench.bench_runbuster_camera [--scenes 60] [--seed 0] [--dice-per-zone 2 6]
(--scenes 28 --seed 20261129 --dice-per-zone 3 6 gives the scenes of tests/vision/runbuster.)
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Sequence

import numpy as np

from vision.detect import DETECTOR_MODEL
from vision.evaluation import centres_match, match_boxes
from vision.observation import DetectedDie
from vision.read import READER_MODEL
from vision.runbuster.locate import locate_mat
from vision.runbuster.mat import DIE_EDGE, MARKER_SIDE, MARKERS, PRINTED_AREAS, ZONE_KEYS, ZONES
from vision.runbuster.zones import MatReading, SharedRecognizer, assign_dice, recognize_on_mat
from vision.synth.mat import MatScene, MatSceneConfig, render_mat_scene

BORDER_BAND = 4.0
"""Mat units either side of a zone's printed edge where an extra detection is blamed on the edge."""


def exact_dice(scene: MatScene) -> list[DetectedDie]:
    """The rendered dice as a perfect recognizer would report them."""
    dice = []
    for label in scene.dice:
        box = label.die.box
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        dice.append(DetectedDie(centre, box, label.die.value, label.die.color, 1.0, 1.0, 1.0))
    return dice


def error_buckets(scene: MatScene, raw: Sequence[DetectedDie], reading: MatReading) -> Counter[str]:
    """Each rendered die as right or by what went wrong, and each extra die by where it was seen.

    A rendered die is matched one to one with a recognizer detection (each box holding the other's
    centre). Unmatched: a detector miss; matched but left out by the mat's filters: "left out"; placed
    in another zone or none: "zone"; read as another value: "value" (a wrong colour is counted apart, as
    "colour", since zones do not depend on it). An extra is a placed die matched to no rendered die: on
    or between rendered dice (a second box on a die, or one spanning two), on the print (a marker or
    lettering), on a zone's printed edge, or elsewhere (the table, a shadow, blank paper).
    """
    buckets: Counter[str] = Counter()
    truth_boxes = [label.die.box for label in scene.dice]
    matches = dict(match_boxes(truth_boxes, [die.box for die in raw]))
    placed = {id(p.die): p for p in reading.dice}
    for index, label in enumerate(scene.dice):
        if index not in matches:
            buckets["detector miss"] += 1
            continue
        die = raw[matches[index]]
        where = placed.get(id(die))
        if where is None:
            buckets["left out by the mat filters"] += 1
        elif where.zone != label.zone:
            buckets["zone"] += 1
        elif die.value != label.die.value:
            buckets["value"] += 1
        else:
            buckets["right"] += 1
        if die.color != label.die.color:
            buckets["colour"] += 1
    matched = {id(raw[found]) for found in matches.values()}
    for extra in reading.dice:
        if id(extra.die) in matched or extra.zone is None:
            continue
        x, y = extra.mat_point
        if any(centres_match(extra.die.box, box) or _overlaps(extra.die.box, box) for box in truth_boxes):
            buckets["extra on or between dice"] += 1
        elif _on_marker_or_lettering(x, y):
            buckets["extra on the print"] += 1
        elif any(_near_edge(x, y, zone.left, zone.top, zone.right, zone.bottom) for zone in ZONES):
            buckets["extra on a zone edge"] += 1
        else:
            buckets["extra elsewhere (table, shadow, paper)"] += 1
    return buckets


def _overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _on_marker_or_lettering(x: float, y: float) -> bool:
    on_marker = any(
        m.left <= x <= m.left + MARKER_SIDE and m.top <= y <= m.top + MARKER_SIDE for m in MARKERS
    )
    return on_marker or any(area.contains(x, y) for area in PRINTED_AREAS)


def _near_edge(x: float, y: float, left: float, top: float, right: float, bottom: float) -> bool:
    near_x = (
        min(abs(x - left), abs(x - right)) <= BORDER_BAND and top - BORDER_BAND <= y <= bottom + BORDER_BAND
    )
    near_y = (
        min(abs(y - top), abs(y - bottom)) <= BORDER_BAND and left - BORDER_BAND <= x <= right + BORDER_BAND
    )
    return near_x or near_y


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scenes", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dice-per-zone", type=int, nargs=2, default=(2, 6), metavar=("LOW", "HIGH"))
    args = parser.parse_args()

    config = MatSceneConfig(dice_per_zone=tuple(args.dice_per_zone))
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

    missing = [path.name for path in (DETECTOR_MODEL, READER_MODEL) if not path.is_file()]
    if missing:
        print(f"whole pipeline skipped: {', '.join(missing)} not installed")
        return
    recognizer = SharedRecognizer()
    found_right = missed = extra = 0
    recognise_s = []
    buckets: Counter[str] = Counter()
    for scene in scenes:
        started = time.perf_counter()
        location = locate_mat(scene.image)
        raw = recognize_on_mat(recognizer, scene.image, location)
        reading = assign_dice(location, raw)
        recognise_s.append(time.perf_counter() - started)
        buckets += error_buckets(scene, raw, reading)
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
    print("errors by kind (each rendered die matched to one detection):")
    for kind, count in sorted(buckets.items(), key=lambda item: -item[1]):
        print(f"  {kind:40s} {count:5d}")


if __name__ == "__main__":
    main()
