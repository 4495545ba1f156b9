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
import math
import statistics
import time
from collections import Counter
from collections.abc import Sequence

import numpy as np

from vision.detect import DETECTOR_MODEL
from vision.evaluation import centres_match
from vision.markers import FloatArray, MatLocation
from vision.observation import DetectedDie, box_centre, box_iou
from vision.read import READER_MODEL
from vision.runbuster.faces import FACE_MODEL
from vision.runbuster.footprints import LOCATOR_MODEL
from vision.runbuster.locate import locate_mat
from vision.runbuster.mat import DIE_EDGE, MAT_HEIGHT, MAT_WIDTH, ZONE_KEYS, ZONES, Paper
from vision.runbuster.zones import (
    MatReading,
    MatViews,
    SharedRecognizer,
    assign_dice,
    find_on_mat,
    on_print,
    read_top_faces,
)
from vision.synth.mat import MatScene, MatSceneConfig, render_mat_scene

BORDER_BAND = 4.0
"""Mat units either side of a zone's printed edge where an extra detection is blamed on the edge."""


def exact_dice(scene: MatScene) -> list[DetectedDie]:
    """The rendered dice as a perfect recognizer would report them."""
    dice = []
    for label in scene.dice:
        box = label.die.box
        dice.append(DetectedDie(box_centre(box), box, label.die.value, label.die.color, 1.0, 1.0, 1.0))
    return dice


DIE_KINDS = (
    "right",
    "  right, flagged unsure",
    "value",
    "  value, flagged unsure",
    "zone",
    "detector miss",
    "left out by the mat's rules",
    "colour",
)
DETECTION_KINDS = (
    "extra on or between dice",
    "extra beside a die (its shadow)",
    "extra on a zone edge",
    "extra elsewhere (blank paper)",
    "(kept as outside every zone)",
    "(left out: on a marker or lettering)",
    "(left out: off the sheet)",
    "(left out: not die-sized, or a die found twice)",
)


def error_buckets(
    scene: MatScene, location: MatLocation, raw: Sequence[DetectedDie], reading: MatReading
) -> Counter[str]:
    """Each rendered die as right or by what went wrong, and each extra detection by where it was seen.

    A rendered die is matched one to one with a recognizer detection `raw` whose footprint lies within
    half an edge of its own (nearest first), or with the detection kept for it when it was found twice.
    Unmatched: a detector miss; matched but not placed: "left out by the mat's rules"; placed in another
    zone or none: "zone"; read as another value: "value" (a wrong colour is counted apart, as "colour",
    since zones do not depend on it). A detection matched to no rendered die is either left out by the
    mat's rules (on the print, off the sheet, or not die-sized or a second find of a die) or an extra: on
    or between rendered dice (a second box on a die, or one spanning two), beside a die (its shadow), on a
    zone's printed edge, or elsewhere (blank paper).
    """
    buckets: Counter[str] = Counter()
    truth_boxes = [label.die.box for label in scene.dice]
    footprints = np.array([label.mat_point for label in scene.dice]).reshape(-1, 2)
    matches = _nearest_pairs(footprints, location.to_mat(_centres(raw), DIE_EDGE / 2), DIE_EDGE / 2)
    placed = {_key(p.die): p for p in reading.dice}
    # A die found twice keeps one of its two detections: the one kept stands for it.
    spare = {index for index, die in enumerate(raw) if _key(die) in placed} - set(matches.values())
    for index, found in list(matches.items()):
        if _key(raw[found]) not in placed:
            twin = next(
                (k for k in spare if math.dist(placed[_key(raw[k])].mat_point, footprints[index]) < DIE_EDGE),
                None,
            )
            if twin is not None:
                matches[index] = twin
                spare.discard(twin)
    for index, label in enumerate(scene.dice):
        if index not in matches:
            buckets["detector miss"] += 1
            continue
        die = raw[matches[index]]
        where = placed.get(_key(die))
        if where is None:
            buckets["left out by the mat's rules"] += 1
        elif where.zone != label.zone:
            buckets["zone"] += 1
        elif where.value != label.die.value:
            buckets["value"] += 1
            buckets["  value, flagged unsure"] += where.unsure
        else:
            buckets["right"] += 1
            buckets["  right, flagged unsure"] += where.unsure
        if where is not None and where.die.color != label.die.color:
            buckets["colour"] += 1
    matched = {matches[index] for index in matches}
    unmatched = [index for index in range(len(raw)) if index not in matched]
    if not unmatched:
        return buckets
    points = location.to_mat(_centres([raw[index] for index in unmatched]), DIE_EDGE / 2)
    for index, (x, y) in zip(unmatched, points, strict=True):
        die = raw[index]
        if _key(die) not in placed:
            if on_print(x, y):
                buckets["(left out: on a marker or lettering)"] += 1
            elif not (0 <= x <= MAT_WIDTH and 0 <= y <= MAT_HEIGHT):
                buckets["(left out: off the sheet)"] += 1
            else:
                buckets["(left out: not die-sized, or a die found twice)"] += 1
        elif placed[_key(die)].zone is None:
            buckets["(kept as outside every zone)"] += 1
        elif any(centres_match(die.box, box) or box_iou(die.box, box) > 0 for box in truth_boxes):
            buckets["extra on or between dice"] += 1
        elif float(np.hypot(*(footprints - (x, y)).T).min(initial=np.inf)) < 2 * DIE_EDGE:
            buckets["extra beside a die (its shadow)"] += 1
        elif any(_near_edge(x, y, zone.left, zone.top, zone.right, zone.bottom) for zone in ZONES):
            buckets["extra on a zone edge"] += 1
        else:
            buckets["extra elsewhere (blank paper)"] += 1
    return buckets


def _key(die: DetectedDie) -> tuple[tuple[float, float], tuple[float, float, float, float]]:
    """A detection's place, which stays when its values are read again on its top face."""
    return die.center, die.box


def _centres(dice: Sequence[DetectedDie]) -> FloatArray:
    return np.array([die.center for die in dice], np.float64).reshape(-1, 2)


def _nearest_pairs(truth: FloatArray, found: FloatArray, within: float) -> dict[int, int]:
    """Truth index -> found index, one to one, nearest points first, no pair farther apart than `within`."""
    distances = np.hypot(*(truth[:, None, :] - found[None, :, :]).transpose(2, 0, 1))
    pairs: dict[int, int] = {}
    for flat in np.argsort(distances, axis=None):
        t, f = divmod(int(flat), distances.shape[1])
        if distances[t, f] > within:
            break
        if t not in pairs and f not in pairs.values():
            pairs[t] = f
    return pairs


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

    models = (DETECTOR_MODEL, READER_MODEL, FACE_MODEL, LOCATOR_MODEL)
    missing = [path.name for path in models if not path.is_file()]
    if missing:
        print(f"whole pipeline skipped: {', '.join(missing)} not installed")
        return
    recognizer = SharedRecognizer()
    found_right = missed = extra = 0
    recognise_s = []
    buckets: Counter[str] = Counter()
    for scene in scenes:
        # read_mat_photo's steps one at a time: the error kinds need the mat's location and every detection
        # before the mat's rules leave some out, and its reading keeps neither.
        started = time.perf_counter()
        location = locate_mat(scene.image)
        views = MatViews.of(scene.image, location, Paper.A3)
        raw = find_on_mat(recognizer, location, views)
        reading = read_top_faces(recognizer, assign_dice(location, raw), views)
        recognise_s.append(time.perf_counter() - started)
        buckets += error_buckets(scene, location, raw, reading)
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
    print(f"the {total} rendered dice:")
    for kind in DIE_KINDS:
        print(f"  {kind:48s} {buckets[kind]:5d}")
    print("the detections matching no rendered die:")
    for kind in DETECTION_KINDS:
        print(f"  {kind:48s} {buckets[kind]:5d}")


if __name__ == "__main__":
    main()
