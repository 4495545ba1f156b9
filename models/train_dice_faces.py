"""Train the face reader of dice's top faces cut square from photos as taken; export models/dice_faces.onnx.

    python -m models.train_dice_faces [--scenes N] [--epochs N] [--no-bfloat16]

Run after `python -m models.train_dice_locator`: the cuts are made where the shipped face locator finds
each face, so the reader learns the locator's errors too. Each die's box is shaken as a detector's can be
(its centre a normal step of 0.06 of its side on each axis, its size 8 % either way), its face found from
there (`vision.relocate.BoxLocator`) and cut square (`vision.relocate.square_cuts`) under a random colour
cast, labelled with its value; every batch shows its cuts varied afresh (`jittered`). The photos: the
locator's (`models.train_dice_locator.round_trip_photo`: the rendered round trip's kind at seeds apart from
the benchmark's, a quarter of them with the dice of the real photos outside the validation split laid on the
renderer's tables), and those real photos themselves (each die eight times). Prints the share of dice read
right (one look, unturned) on held-out photos of the same mix, the real photos left out.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from models.cut_training import (
    Cuts,
    Labels,
    cast_gains,
    export_face_reader,
    fit_face_reader,
    lit,
    share_right,
)
from models.run import add_bfloat16_option, start_run
from models.train_dice import REAL_PHOTOS, training_photo_names
from models.train_dice_locator import round_trip_photo
from vision.decode import BGRImage
from vision.evaluation import load_labelled_photos
from vision.observation import Box
from vision.read import Gains
from vision.relocate import FACES_MODEL, SQUARE_CUT_PX, BoxLocator, square_cuts

SEED = 31
PHOTO_REPEATS = 8
"""Times each die of the real training photos is cut, from a box shaken afresh each time."""
WIDTH = 2.0
"""The reader's layers are this many times as wide as the dice reader's, as the Sagrada face reader's: in
session 59 twice the width read more dice right on the rendered sets and on the validation split's dice laid
on tables, and kept the validation split's figures (`models/MODEL_CARD.md`)."""
_CENTRE_SHAKE, _SIZE_SHAKE = 0.06, 0.08
JITTER_SHIFT_PX, JITTER_SCALE, JITTER_TURN_DEG = 2.0, 0.15, 180.0
"""Each batch's cuts moved (a normal step of this many pixels on each axis), scaled (this share either way)
and turned (up to this many degrees either way: a face lies any way round in its cut) afresh. The cuts
themselves are made once, and a reader shown the same ones twelve times learns each of them: varied afresh
it read more dice right, the more so the more they varied (`models/MODEL_CARD.md`, session 63)."""
BLUR_SHARE = 0.5
"""The share of cuts softened by a Gaussian blur (sigma 0.4-1 px), as focus and motion soften small dice."""


def shaken(box: Box, rng: np.random.Generator) -> Box:
    """`box` moved and resized as a detector's box of the same die might be."""
    x0, y0, x1, y1 = box
    dx, dy = rng.normal(0, _CENTRE_SHAKE, 2) * max(x1 - x0, y1 - y0)
    scale = rng.uniform(1 - _SIZE_SHAKE, 1 + _SIZE_SHAKE)
    cx, cy = (x0 + x1) / 2 + dx, (y0 + y1) / 2 + dy
    half_width, half_height = (x1 - x0) * scale / 2, (y1 - y0) * scale / 2
    return (cx - half_width, cy - half_height, cx + half_width, cy + half_height)


def jittered(cuts: Cuts, labels: Labels, rng: np.random.Generator) -> tuple[Cuts, Labels]:
    """Each cut at one of the square's eight symmetries (a mirrored face shows the same value), moved and
    scaled a little, turned any way, now and then blurred; then light and white-balance changes and a little
    noise (`models.cut_training.lit`)."""
    side = cuts.shape[1]
    centre = (side - 1) / 2
    varied = np.empty_like(cuts)
    for index, cut in enumerate(cuts):
        symmetry = int(rng.integers(0, 8))
        turned = np.rot90(cut, symmetry % 4)
        if symmetry >= 4:
            turned = turned[:, ::-1]
        turn = rng.uniform(-JITTER_TURN_DEG, JITTER_TURN_DEG)
        scale = rng.uniform(1 - JITTER_SCALE, 1 + JITTER_SCALE)
        matrix = np.asarray(cv2.getRotationMatrix2D((centre, centre), turn, scale), np.float64)
        matrix[:, 2] += rng.normal(0, JITTER_SHIFT_PX, 2)
        varied[index] = cv2.warpAffine(
            np.ascontiguousarray(turned),
            matrix,
            (side, side),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REFLECT,
        )
        if rng.random() < BLUR_SHARE:
            varied[index] = cv2.GaussianBlur(varied[index], (0, 0), rng.uniform(0.4, 1.0))
    return lit(varied, rng, channel_gains=(0.93, 1.07)), labels


def face_samples(scenes: int, seed: int, photo_repeats: int = PHOTO_REPEATS) -> tuple[Cuts, Labels]:
    """The square cut of each die's located face (seen at least 0.8, as the benchmark holds a reader to) on
    `scenes` rendered photos, then `photo_repeats` times of each die of the real training photos; and each
    die's value less one."""
    locator = BoxLocator()
    rng = np.random.default_rng(seed)
    cuts: list[Cuts] = []
    labels: list[int] = []

    def cut(image: BGRImage, boxes: list[Box], values: list[int], gains: Gains) -> None:
        faces = locator.faces(image, [shaken(box, rng) for box in boxes], gains)
        cuts.append(square_cuts(image, faces, gains))
        labels.extend(value - 1 for value in values)

    for _ in range(scenes):
        scene = round_trip_photo(rng)
        dice = [die for die in scene.dice if die.visible_fraction >= 0.8]
        if dice:
            gains = cast_gains(scene.image, rng)
            cut(scene.image, [die.box for die in dice], [die.value for die in dice], gains)
    for photo in load_labelled_photos(REAL_PHOTOS, training_photo_names()) if photo_repeats else []:
        read = cv2.imread(str(photo.path), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
        if read is None:
            raise FileNotFoundError(f"cannot read the training photo {photo.path}")
        image: BGRImage = np.asarray(read, np.uint8)
        boxes, values = [die.box for die in photo.dice], [die.value for die in photo.dice]
        for _ in range(photo_repeats):
            cut(image, boxes, values, cast_gains(image, rng))
    return np.concatenate(cuts), np.array(labels, np.int64)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=12000, help="rendered training photos")
    parser.add_argument("--epochs", type=int, default=12)
    add_bfloat16_option(parser)
    parser.add_argument("--output", type=Path, default=FACES_MODEL)
    arguments = parser.parse_args(argv)
    started = start_run(SEED)
    cuts, labels = face_samples(arguments.scenes, SEED)
    held_cuts, held_labels = face_samples(max(arguments.scenes // 10, 20), SEED + 1, photo_repeats=0)
    print(f"{len(cuts)} training cuts ({time.perf_counter() - started:.0f} s)", flush=True)
    network = fit_face_reader(
        cuts, labels, arguments.epochs, SEED + 2, WIDTH, bfloat16=arguments.bfloat16, augment=jittered
    )
    export_face_reader(network, SQUARE_CUT_PX, arguments.output)
    print(f"held-out photos: {share_right(network, held_cuts, held_labels):.2%} of dice read right")
    print(f"wrote {arguments.output} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
