"""Train the dice detector and reader and export them to ONNX: `python -m models.train_dice`.

Data: synthetic scenes from our renderer (vision.synth), the bulk of it, plus the real photos of
tests/data/dice_real that are not in the fixed validation split (models/validation_split.txt). Seeds are
fixed, so the same command on the same torch version rebuilds the shipped models. Needs the `train` extra.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar, cast

import cv2
import numpy as np
import numpy.typing as npt
import torch
from torch.nn import functional

from models.dice_nets import DiceDetectorNet, DiceReaderNet
from models.run import add_bfloat16_option, bfloat16_training, export, start_run
from vision.colors import COLOR_SETS
from vision.detect import DETECTOR_MODEL, DETECTOR_STRIDE, DetectorSettings, DiceDetector
from vision.evaluation import load_labelled_photos, match_boxes, read_split, summarise
from vision.markers import FloatArray, MatLocation, MatNotFound
from vision.observation import box_iou
from vision.read import (
    COLOR_CLASSES,
    CROP_MARGIN,
    NOT_A_DIE,
    READER_INPUT_SIZE,
    READER_MODEL,
    VALUE_CLASSES,
    crop_die,
    crop_square,
    white_balance_gains,
)
from vision.recognizer import DiceRecognizer
from vision.runbuster.locate import locate_mat
from vision.runbuster.mat import Paper
from vision.runbuster.topdown import VIEW_SCALE, view_to_photo
from vision.runbuster.zones import FACE_BOXES, MatViews
from vision.sagrada.cells import (
    DIE_TOP,
    PX_PER_UNIT,
    READER_CUT,
    READER_ZOOM,
    flatten,
    image_to_flat,
    space_centres,
)
from vision.sagrada.lattice import WindowLattice
from vision.synth.dice import PIP_LAYOUTS
from vision.synth.mat import MatSceneConfig, render_mat_scene
from vision.synth.real_dice import RealDieCrop, load_real_dice, render_real_dice_scene
from vision.synth.sagrada import RenderedWindow, SagradaConfig, render_window_scene
from vision.synth.scene import RenderedDie, SceneConfig, motion_blur, render_scene, veiled

REPOSITORY = Path(__file__).resolve().parent.parent
REAL_PHOTOS = REPOSITORY / "tests" / "data" / "dice_real"
VALIDATION_SPLIT = Path(__file__).resolve().parent / "validation_split.txt"
SEED = 3
DETECTOR_CROP = 192
SCENE_SHAPES = ((512, 512), (640, 480), (480, 640))

IGNORED = -100
"""Cross-entropy's ignore index: a "not a die" crop has no colour to learn."""

Image = npt.NDArray[np.uint8]
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class TrainingDie:
    box: Box
    value: int
    color: str
    readable: bool
    """False for dice whose top face is mostly hidden: the detector learns them, the reader does not."""
    detected_box: Box | None = None
    """The trained detector's box on this die: the reader trains on the boxes it will be given."""
    pips: tuple[tuple[float, float], ...] = ()
    """Image points of the top face's pips (rendered dice only): the reader's pip map targets."""


PIP_SPREAD = 0.25
"""Outer pips' distance from the face centre as a share of the edge: the middle of the renderer's range."""
PIP_MAP_STRIDE = 4
"""The reader's pip map is at 1/4 of its crop."""
PIP_LOSS_WEIGHT = 0.05
"""The pip map's summed cross-entropy against the value's: enough to guide, not to dominate."""


def top_face_pips(top_face: npt.NDArray[np.float32], value: int) -> tuple[tuple[float, float], ...]:
    """Where the pips of `value` lie in the image, from the top face's corners in printed order."""
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    to_image = cv2.getPerspectiveTransform(square, top_face.astype(np.float32))
    layout = np.array(
        [[0.5 + col * PIP_SPREAD, 0.5 + row * PIP_SPREAD] for col, row in PIP_LAYOUTS[value]], np.float32
    )
    points = cv2.perspectiveTransform(layout[None], to_image)[0]
    return tuple((float(x), float(y)) for x, y in points)


def rendered_training_die(die: RenderedDie) -> TrainingDie:
    """A rendered die's label, readable when at least 80% of its top face shows."""
    return TrainingDie(
        die.box,
        die.value,
        die.color,
        die.visible_fraction >= 0.8,
        pips=top_face_pips(die.top_face, die.value),
    )


@dataclass(frozen=True)
class TrainingScene:
    image: Image
    dice: tuple[TrainingDie, ...]
    thumbnail: Image
    """64x64 copy, from which the white balance under each random colour cast is computed cheaply."""
    negatives: tuple[Box, ...] = ()
    """Boxes on no die (the trained detector's false alarms, random background): "not a die" examples."""
    cut_as_read: bool = False
    """The dice's boxes are the cuts a game's reader makes at run time in a flat view of the table (Run
    Buster's top faces, Sagrada's spaces), not the detector's: the reader trains on those cuts alone."""


def training_scene(
    image: Image, dice: tuple[TrainingDie, ...], balanced_from: Image | None = None, cut_as_read: bool = False
) -> TrainingScene:
    """A scene whose white balance is measured on `balanced_from` (the image itself by default)."""
    thumbnail = cast(
        Image,
        cv2.resize(image if balanced_from is None else balanced_from, (64, 64), interpolation=cv2.INTER_AREA),
    )
    return TrainingScene(image, dice, thumbnail, cut_as_read=cut_as_read)


SCENE_KINDS = (
    "table",
    "steep table",
    "run buster mat",
    "sagrada window",
    "run buster top view",
    "sagrada flat view",
    "real dice on a table",
)
"""Kinds of the reader's extra scenes: `varied_training_scene` renders each."""


@dataclass(frozen=True)
class TrainingPlan:
    synthetic_scenes: int = 600
    """Table scenes both networks train on (the detector on these alone)."""
    reader_scenes: int = 2400
    """Further scenes for the reader only, of the kinds in `reader_scene_shares`."""
    reader_scene_shares: tuple[float, ...] = (0.5, 0.12, 0.06, 0.06, 0.08, 0.08, 0.1)
    """Share of each of SCENE_KINDS among the reader's extra scenes."""
    detector_steps: int = 10000
    detector_batch: int = 8
    detector_blur: float = 0.0
    """Share of the detector's crops blurred as a camera out of focus or shaken, in proportion to the dice's
    size (`camera_blur`); 0 draws nothing, so the crops are those of the runs before the option."""
    reader_steps: int = 18000
    reader_batch: int = 64
    reader_width: float = 1.0
    """The reader's channels as a multiple of `models.dice_nets.reader_channels`'s base network."""
    reader_input_size: int = READER_INPUT_SIZE
    """The side the reader's crops are scaled to: at 64 a pip and a glare spot beside it keep more pixels
    than at 48 (session 41, `models/MODEL_CARD.md`)."""
    reader_cast: tuple[float, float] = (0.75, 1.3)
    """The range of each channel's gain in a reader crop's colour cast: the white balance undoes the cast
    when the scene shows a neutral surface, and the reader learns to read through what is left."""
    reader_bfloat16: bool = True
    """Train the reader under bfloat16 autocast, channels last (the weights stay float32): about twice as
    fast a step on a processor with AVX-512 BF16, which pays for the 64-px crops."""
    reader_blur: float = 0.0
    """Share of the reader's crops (dice and "not a die" alike) blurred as `detector_blur`'s are."""
    reader_veil: float = 0.0
    """Share of the reader's crops seen through veiling light (`veiling_light`); 0 draws nothing."""
    real_share: float = 0.25
    negative_share: float = 0.2


def training_photo_names() -> list[str]:
    """The real photos outside the validation split, by file name: the only ones training may see."""
    validation = set(read_split(VALIDATION_SPLIT))
    return sorted(p.name for p in (REAL_PHOTOS / "images").glob("*.jpg") if p.name not in validation)


def real_training_scenes() -> list[TrainingScene]:
    """The real photos outside the validation split, with their labels. A photo with a die its labels leave
    out (unlabelled.csv) is refused: the detector would learn that die as background, the reader as "not a
    die"; label it instead."""
    scenes = []
    for photo in load_labelled_photos(REAL_PHOTOS, training_photo_names()):
        if photo.unlabelled:
            raise ValueError(f"the training photo {photo.path.name} has dice its labels leave out")
        image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
        if image is None:
            raise FileNotFoundError(f"cannot read the training photo {photo.path}")
        dice = tuple(TrainingDie(d.box, d.value, d.color, True) for d in photo.dice)
        scenes.append(training_scene(cast(Image, image), dice))
    return scenes


@functools.cache
def training_split_crops() -> tuple[RealDieCrop, ...]:
    """The dice of the real photos outside the validation split, cut along their silhouettes."""
    return tuple(load_real_dice(REAL_PHOTOS, COLOR_CLASSES, images=set(training_photo_names())))


def synthetic_training_scenes(count: int, rng: np.random.Generator) -> list[TrainingScene]:
    """Scenes from the renderer with its broad variety (backgrounds, tilt, light, blur), dice from small to
    large, some marbled ("other") dice and pipless distractors."""
    if count == 0:
        return []
    scenes = []
    for index in range(count):
        width, height = SCENE_SHAPES[index % len(SCENE_SHAPES)]
        config = SceneConfig(
            width=width,
            height=height,
            dice_count=(1, 16),
            die_size_px=(14.0, 110.0),
            marbled_probability=0.12,
        )
        scene = render_scene(config, rng)
        dice = tuple(rendered_training_die(die) for die in scene.dice if die.visible_fraction >= 0.4)
        scenes.append(training_scene(scene.image, dice))
    return scenes


def with_harder_looks(config: SceneConfig) -> SceneConfig:
    """`config` with the die looks the real photos showed the reader getting wrong, more often than the
    renderer's default: dark, coloured and big pips, and glare."""
    return dataclasses.replace(
        config,
        dark_pips_probability=0.3,
        colored_pips_probability=0.3,
        big_one_probability=0.2,
        glare_probability=0.7,
    )


def varied_training_scene(kind: str, rng: np.random.Generator) -> TrainingScene:
    """One reader scene of `kind` (one of SCENE_KINDS): the looks the real photos showed the reader gets
    wrong (coloured, dark and big or ringed pips, marbled dice, glare spots and streaks, steep tilt) on a
    table, or dice on the games' own boards, whose printed marks and markers the detector takes for dice
    now and then."""
    width, height = SCENE_SHAPES[int(rng.integers(len(SCENE_SHAPES)))]
    looks = with_harder_looks(
        SceneConfig(
            width=width,
            height=height,
            dice_count=(1, 16),
            die_size_px=(14.0, 110.0),
            max_tilt_deg=45.0 if kind == "steep table" else 35.0,
            marbled_probability=0.15,
            glare_streak_probability=0.3,
        )
    )
    labels: Sequence[RenderedDie]
    if kind in ("table", "steep table"):
        scene = render_scene(looks, rng)
        image, labels = scene.image, scene.dice
    elif kind == "real dice on a table":
        # The real photos' dice, all seen on one white tray, on other tables under other light.
        real = render_real_dice_scene(looks, training_split_crops(), rng)
        return training_scene(
            real.image, tuple(TrainingDie(d.box, d.value, d.color, True) for d in real.dice)
        )
    elif kind in ("run buster mat", "run buster top view"):
        # At the mat's own photo size: the sheet fills most of the picture, its dice are 20-40 px.
        mat_looks = dataclasses.replace(
            looks, width=1280, height=960, marbled_probability=0.0, motion_blur_probability=0.0
        )
        config = MatSceneConfig(scene=mat_looks)
        mat = render_mat_scene(config, rng)
        image, labels = mat.image, [d.die for d in mat.dice]
        if kind == "run buster top view":
            return top_view_scene(image, labels, config.paper, rng)
    elif kind in ("sagrada window", "sagrada flat view"):
        window_looks = dataclasses.replace(
            looks, colors=COLOR_SETS["sagrada"], translucent_probability=0.9, marbled_probability=0.0
        )
        windows = render_window_scene(
            SagradaConfig(scene=window_looks, window_px=(160.0, 0.6 * min(width, height))), rng
        )
        image = windows.image
        if kind == "sagrada flat view" and windows.windows:
            return flat_window_scene(image, windows.windows[0])
        labels = [d for w in windows.windows for d in w.dice if d is not None] + list(windows.loose_dice)
    else:
        raise ValueError(f"unknown scene kind {kind!r}; the kinds are {SCENE_KINDS}")
    dice = tuple(rendered_training_die(d) for d in labels if d.visible_fraction >= 0.4)
    return training_scene(image, dice)


def top_view_scene(
    photo: Image, labels: Sequence[RenderedDie], paper: Paper, rng: np.random.Generator
) -> TrainingScene:
    """A Run Buster mat's photo as its reader sees it: the view at the dice's tops (`vision.runbuster`),
    each die's box one of the reader's boxes round its top face. The mat is found as at run time; a
    photo whose markers are not found is kept as it is."""
    try:
        location = locate_mat(photo)
    except MatNotFound:
        return training_scene(
            photo, tuple(rendered_training_die(d) for d in labels if d.visible_fraction >= 0.4)
        )
    views = MatViews.of(photo, location, paper)
    face_side = views.edge * VIEW_SCALE
    visible = [die for die in labels if die.visible_fraction >= 0.4]
    dice = []
    for die, face in zip(visible, top_faces_in_view(visible, location, views.edge), strict=True):
        half = float(rng.choice(FACE_BOXES)) * face_side / 2
        (x, y), pips = face.mean(axis=0), top_face_pips(face.astype(np.float32), die.value)
        box = (float(x - half), float(y - half), float(x + half), float(y + half))
        dice.append(TrainingDie(box, die.value, die.color, die.visible_fraction >= 0.8, pips=pips))
    return training_scene(views.tops, tuple(dice), cut_as_read=True)


def top_faces_in_view(dice: Sequence[RenderedDie], location: MatLocation, height: float) -> FloatArray:
    """The corners of each die's rendered top face (N x 4 x 2) in the mat's view of the plane `height`
    above the paper (`vision.runbuster.topdown`)."""
    if not dice:  # OpenCV maps no points to None, not to an empty array
        return np.zeros((0, 4, 2))
    photo_to_view = np.linalg.inv(view_to_photo(location, height))
    corners = np.array([die.top_face for die in dice], np.float64).reshape(1, -1, 2)
    return cast(FloatArray, cv2.perspectiveTransform(corners, photo_to_view).reshape(-1, 4, 2))


def flat_window_scene(photo: Image, window: RenderedWindow) -> TrainingScene:
    """A Sagrada window as the dice reader sees it in `vision.sagrada.cells`: the flat view at the dice's
    tops, each die's box the cut round its space's centre, white-balanced from the whole photo."""
    lattice = WindowLattice.through(window.corners)
    height, width = photo.shape[:2]
    to_flat = np.diag([READER_ZOOM, READER_ZOOM, 1.0]) @ image_to_flat(lattice, DIE_TOP, width, height)
    # crop_die cuts its box and a margin: the box is the reader's cut less that margin.
    half = READER_CUT * PX_PER_UNIT * READER_ZOOM / CROP_MARGIN / 2
    dice = []
    for die, (x, y) in zip(window.dice, space_centres(READER_ZOOM), strict=True):
        if die is None or die.visible_fraction < 0.4:
            continue
        face = cv2.perspectiveTransform(die.top_face.reshape(1, -1, 2).astype(np.float64), to_flat)[0]
        box = (float(x - half), float(y - half), float(x + half), float(y + half))
        pips = top_face_pips(face.astype(np.float32), die.value)
        dice.append(TrainingDie(box, die.value, die.color, die.visible_fraction >= 0.8, pips=pips))
    flat = flatten(photo, lattice, DIE_TOP, READER_ZOOM)
    return training_scene(flat, tuple(dice), balanced_from=photo, cut_as_read=True)


def reader_training_scenes(plan: TrainingPlan, rng: np.random.Generator) -> list[TrainingScene]:
    """The reader's extra scenes, their kinds drawn by the plan's shares."""
    if len(plan.reader_scene_shares) != len(SCENE_KINDS):
        raise ValueError(
            f"reader_scene_shares gives {len(plan.reader_scene_shares)} shares for {len(SCENE_KINDS)} kinds"
        )
    shares = np.array(plan.reader_scene_shares) / sum(plan.reader_scene_shares)
    kinds = rng.choice(len(SCENE_KINDS), size=plan.reader_scenes, p=shares)
    return [varied_training_scene(SCENE_KINDS[kind], rng) for kind in kinds]


def photometric_jitter(image: Image, rng: np.random.Generator) -> Image:
    """Colour cast, brightness and contrast, blur and noise: the camera and light vary, the dice do not."""
    gains = (rng.uniform(0.75, 1.3, size=3) * rng.uniform(0.7, 1.25)).astype(np.float32)
    contrast = np.float32(rng.uniform(0.8, 1.2))
    result: npt.NDArray[np.float32] = (image.astype(np.float32) * gains - 128.0) * contrast + 128.0
    if rng.random() < 0.3:
        result = cast(npt.NDArray[np.float32], cv2.GaussianBlur(result, (0, 0), rng.uniform(0.4, 1.2)))
    if rng.random() < 0.3:
        noise = np.empty_like(result)
        cv2.randn(noise, 0.0, rng.uniform(2.0, 8.0))  # type: ignore[call-overload]  # the stubs want arrays
        result += noise
    return np.clip(result, 0, 255).astype(np.uint8)


def detector_sample(
    scene: TrainingScene, rng: np.random.Generator, blur: float = 0.0
) -> tuple[Image, npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """A crop at a random scale (median die 9-110 px), mostly around a die, with its heatmap (1 channel)
    and mask, size and offset targets (5 channels). Cropping before resizing keeps this cheap."""
    sizes = [max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in scene.dice] or [40.0]
    target_size = math.exp(rng.uniform(math.log(9.0), math.log(110.0)))
    scale = float(np.clip(target_size / float(np.median(sizes)), 0.08, 3.0))
    height, width = scene.image.shape[:2]
    window = DETECTOR_CROP / scale
    if scene.dice and rng.random() < 0.8:
        x0, y0, x1, y1 = scene.dice[int(rng.integers(len(scene.dice)))].box
        centre_x = (x0 + x1) / 2 + rng.uniform(-0.4, 0.4) * window
        centre_y = (y0 + y1) / 2 + rng.uniform(-0.4, 0.4) * window
    else:
        centre_x, centre_y = rng.uniform(0, width), rng.uniform(0, height)
    left, top = round(centre_x - window / 2), round(centre_y - window / 2)
    right, bottom = left + round(window), top + round(window)
    region = scene.image[max(0, top) : max(0, min(height, bottom)), max(0, left) : max(0, min(width, right))]
    if region.size == 0:
        region, left, top = scene.image[:1, :1], 0, 0
    placed_left, placed_top = max(0, left) - left, max(0, top) - top
    region_size = (max(1, round(region.shape[1] * scale)), max(1, round(region.shape[0] * scale)))
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    resized = cv2.resize(region, region_size, interpolation=interpolation)[:DETECTOR_CROP, :DETECTOR_CROP]
    pad_top, pad_left = (
        min(DETECTOR_CROP, round(placed_top * scale)),
        min(DETECTOR_CROP, round(placed_left * scale)),
    )
    resized = resized[: DETECTOR_CROP - pad_top, : DETECTOR_CROP - pad_left]
    crop = cast(
        Image,
        cv2.copyMakeBorder(
            resized,
            pad_top,
            DETECTOR_CROP - pad_top - resized.shape[0],
            pad_left,
            DETECTOR_CROP - pad_left - resized.shape[1],
            cv2.BORDER_REPLICATE,
        ),
    )
    origin = np.array([left, top, left, top], dtype=np.float32)
    boxes = (np.array([d.box for d in scene.dice], dtype=np.float32).reshape(-1, 4) - origin) * scale
    crop, boxes = _random_dihedral(crop, boxes, rng)
    if blur and rng.random() < blur:
        crop = camera_blur(crop, float(np.median(sizes)) * scale, rng)
    crop = photometric_jitter(crop, rng)
    heat, regression = detector_targets(boxes, DETECTOR_CROP // DETECTOR_STRIDE)
    return crop, heat, regression


def camera_blur(image: Image, die_px: float, rng: np.random.Generator) -> Image:
    """A camera out of focus (a Gaussian of 2-9% of a die's side) or shaken (a line of 8-30% of it, any
    way): more than the renderer draws, as far as a person still sees a die there."""
    if rng.random() < 0.5:
        return cast(Image, cv2.GaussianBlur(image, (0, 0), max(0.5, rng.uniform(0.02, 0.09) * die_px)))
    return motion_blur(image, max(3, round(rng.uniform(0.08, 0.3) * die_px)), float(rng.uniform(0, 180)))


def veiling_light(image: Image, rng: np.random.Generator) -> Image:
    """`image` under a veil of 5-40% of a light grey to white, a little tinted (`veiled`)."""
    share = float(rng.uniform(0.05, 0.4))
    veil = np.float32(255.0 * rng.uniform(0.5, 1.0)) * rng.uniform(0.95, 1.05, 3).astype(np.float32)
    return cast(Image, np.clip(veiled(image.astype(np.float32), share, veil) + 0.5, 0, 255).astype(np.uint8))


def _random_dihedral(
    image: Image, boxes: npt.NDArray[np.float32], rng: np.random.Generator
) -> tuple[Image, npt.NDArray[np.float32]]:
    side = image.shape[0]
    for _ in range(int(rng.integers(4))):
        image = np.ascontiguousarray(np.rot90(image))
        boxes = np.stack([boxes[:, 1], side - boxes[:, 2], boxes[:, 3], side - boxes[:, 0]], axis=1)
    if rng.random() < 0.5:
        image = np.ascontiguousarray(image[:, ::-1])
        boxes = np.stack([side - boxes[:, 2], boxes[:, 1], side - boxes[:, 0], boxes[:, 3]], axis=1)
    return image, boxes


def detector_targets(
    boxes: npt.NDArray[np.float32], cells: int
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Gaussian centre heatmap, and at each centre cell: mask, log width and height, x and y offset."""
    heat = np.zeros((cells, cells), np.float32)
    regression = np.zeros((5, cells, cells), np.float32)
    ys, xs = np.mgrid[0:cells, 0:cells].astype(np.float32)
    for x0, y0, x1, y1 in boxes / DETECTOR_STRIDE:
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if not (0 <= cx < cells and 0 <= cy < cells):
            continue
        width, height = max(x1 - x0, 0.5), max(y1 - y0, 0.5)
        sigma = max(0.5, min(width, height) / 6)
        col, row = int(cx), int(cy)
        heat = np.maximum(heat, np.exp(-((xs - col) ** 2 + (ys - row) ** 2) / (2 * sigma**2)))
        regression[:, row, col] = (1.0, math.log(width), math.log(height), cx - col, cy - row)
    return heat, regression


def detector_loss(prediction: torch.Tensor, heat: torch.Tensor, regression: torch.Tensor) -> torch.Tensor:
    """CenterNet's focal loss on the heatmap plus L1 on size and offset at the centre cells."""
    predicted_heat = prediction[:, 0].clamp(1e-4, 1 - 1e-4)
    positive = (heat >= 0.999).float()
    positive_loss = -torch.log(predicted_heat) * (1 - predicted_heat) ** 2 * positive
    negative_loss = -torch.log(1 - predicted_heat) * predicted_heat**2 * (1 - heat) ** 4 * (1 - positive)
    centres = max(float(positive.sum()), 1.0)
    mask = regression[:, 0:1]
    size_loss = (functional.l1_loss(prediction[:, 1:3], regression[:, 1:3], reduction="none") * mask).sum()
    offset_loss = (functional.l1_loss(prediction[:, 3:5], regression[:, 3:5], reduction="none") * mask).sum()
    return (positive_loss.sum() + negative_loss.sum() + size_loss + offset_loss) / centres


def reader_sample(
    scene: TrainingScene,
    target: Box,
    crop_size: int,
    rng: np.random.Generator,
    pips: Sequence[tuple[float, float]] = (),
    cast_range: tuple[float, float] = TrainingPlan.reader_cast,
    blur: float = 0.0,
    veil: float = 0.0,
) -> tuple[Image, npt.NDArray[np.float32]]:
    """The crop of `target` as the recognizer will cut it, from a jittered box (detector error), under a
    random colour cast that the white balance must undo, sometimes at low resolution (small dice); and
    where the image points `pips` land in it."""
    x0, y0, x1, y1 = target
    size = max(x1 - x0, y1 - y0)
    shift_x, shift_y = rng.uniform(-0.08, 0.08, size=2) * size
    grow = rng.uniform(0.9, 1.12)
    cx, cy, half_w, half_h = (x0 + x1) / 2 + shift_x, (y0 + y1) / 2 + shift_y, (x1 - x0) / 2, (y1 - y0) / 2
    box = (cx - half_w * grow, cy - half_h * grow, cx + half_w * grow, cy + half_h * grow)
    colour_cast = rng.uniform(*cast_range, size=3).astype(np.float32) * np.float32(rng.uniform(0.75, 1.2))
    gains = white_balance_gains(np.clip(scene.thumbnail * colour_cast, 0, 255).astype(np.uint8))
    crop = crop_die(scene.image, box, (colour_cast * gains).astype(np.float32), crop_size)
    left, top, side = crop_square(box)
    points = (np.array(pips, np.float32).reshape(-1, 2) - (left, top) + 0.5) * (crop_size / side) - 0.5
    if rng.random() < 0.2:
        low = int(rng.integers(16, crop_size))
        smaller = cv2.resize(crop, (low, low), interpolation=cv2.INTER_AREA)
        crop = cast(Image, cv2.resize(smaller, crop.shape[:2][::-1]))
    if blur and rng.random() < blur:
        crop = camera_blur(crop, size * crop_size / side, rng)
    if veil and rng.random() < veil:
        crop = veiling_light(crop, rng)
    for _ in range(int(rng.integers(4))):  # np.rot90 turns (x, y) into (y, side - 1 - x)
        crop = np.rot90(crop)
        points = np.stack([points[:, 1], crop_size - 1 - points[:, 0]], axis=1)
    return photometric_jitter_mild(np.ascontiguousarray(crop), rng), points


def pip_map(points: npt.NDArray[np.float32], crop_size: int) -> npt.NDArray[np.float32]:
    """The pip map's target: a small Gaussian at each pip, on the reader's 1/4 map."""
    cells = crop_size // PIP_MAP_STRIDE
    centres = (np.arange(cells, dtype=np.float32) + 0.5) * PIP_MAP_STRIDE - 0.5
    target = np.zeros((cells, cells), np.float32)
    for x, y in points:
        bump = np.exp(
            -((centres[None, :] - x) ** 2 + (centres[:, None] - y) ** 2) / (2 * PIP_MAP_STRIDE**2 * 0.36)
        )
        target = np.maximum(target, bump)
    return target


def photometric_jitter_mild(crop: Image, rng: np.random.Generator) -> Image:
    result: npt.NDArray[np.float32] = crop.astype(np.float32) * rng.uniform(0.85, 1.15)
    if rng.random() < 0.25:
        result = cast(npt.NDArray[np.float32], cv2.GaussianBlur(result, (0, 0), rng.uniform(0.3, 0.9)))
    if rng.random() < 0.3:
        result += rng.normal(0.0, rng.uniform(2.0, 7.0), size=result.shape)
    return np.clip(result, 0, 255).astype(np.uint8)


def mine_detections(
    scenes: Sequence[TrainingScene], detector_path: Path, rng: np.random.Generator
) -> list[TrainingScene]:
    """Run the trained detector on every scene, at its working and fine scales only
    (`DetectorSettings.close_ups`): its box on each die (the crops the reader will see), and where it fires
    on no die (distractor cubes, tokens, patterns, the faces and pips of dice too big for the scale) plus two
    random die-sized background boxes a scene, which the reader learns to call "not a die"."""
    detector = DiceDetector(DetectorSettings(min_score=0.15, close_ups=False), threads=1, model=detector_path)
    mined = []
    for scene in scenes:
        dice_boxes = [d.box for d in scene.dice]
        found = [c.box for c in detector.find(scene.image)]
        detected = {} if scene.cut_as_read else dict(match_boxes(dice_boxes, found))
        dice = tuple(
            dataclasses.replace(die, detected_box=found[detected[index]]) if index in detected else die
            for index, die in enumerate(scene.dice)
        )
        negatives = [box for box in found if all(box_iou(box, other) < 0.2 for other in dice_boxes)]
        sizes = [max(b[2] - b[0], b[3] - b[1]) for b in dice_boxes] or [40.0]
        height, width = scene.image.shape[:2]
        for _ in range(2):
            size = float(rng.choice(sizes)) * rng.uniform(0.8, 1.25)
            x, y = rng.uniform(0, max(1.0, width - size)), rng.uniform(0, max(1.0, height - size))
            box = (x, y, x + size, y + size)
            if all(box_iou(box, other) < 0.1 for other in dice_boxes):
                negatives.append(box)
        mined.append(dataclasses.replace(scene, dice=dice, negatives=tuple(negatives)))
    print(f"{sum(len(s.negatives) for s in mined)} negatives in {len(mined)} scenes", flush=True)
    return mined


def _pick_scene(
    synthetic: Sequence[TrainingScene],
    real: Sequence[TrainingScene],
    real_share: float,
    rng: np.random.Generator,
) -> TrainingScene:
    pool = real if (not synthetic or rng.random() < real_share) and real else synthetic
    return pool[int(rng.integers(len(pool)))]


Batch = tuple[torch.Tensor, ...]


class BatchStream(torch.utils.data.IterableDataset[Batch]):
    """`steps` batches made in a worker process from its own seeded generator: data preparation overlaps
    the network's steps, and the run stays reproducible (one worker, fixed seed)."""

    def __init__(self, make_batch: Callable[[np.random.Generator], Batch], steps: int, seed: int):
        self.make_batch = make_batch
        self.steps = steps
        self.seed = seed

    def __iter__(self) -> Iterator[Batch]:
        rng = np.random.default_rng(self.seed)
        return (self.make_batch(rng) for _ in range(self.steps))


def detector_batch(
    synthetic: Sequence[TrainingScene],
    real: Sequence[TrainingScene],
    plan: TrainingPlan,
    rng: np.random.Generator,
) -> Batch:
    samples = [
        detector_sample(_pick_scene(synthetic, real, plan.real_share, rng), rng, plan.detector_blur)
        for _ in range(plan.detector_batch)
    ]
    images = torch.from_numpy(np.stack([s[0] for s in samples]).transpose(0, 3, 1, 2).astype(np.float32))
    return (
        images,
        torch.from_numpy(np.stack([s[1] for s in samples])),
        torch.from_numpy(np.stack([s[2] for s in samples])),
    )


def reader_batch(
    synthetic: Sequence[TrainingScene],
    real: Sequence[TrainingScene],
    plan: TrainingPlan,
    rng: np.random.Generator,
) -> Batch:
    """Crops with their value and colour labels, pip maps, and which pip maps are known (rendered dice and
    every "not a die" crop, whose map is empty; not the real photos' dice)."""
    color_index = {name: index for index, name in enumerate(COLOR_CLASSES)}
    crops: list[Image] = []
    values, colors, maps, known = [], [], [], []
    while len(crops) < plan.reader_batch:
        scene = _pick_scene(synthetic, real, plan.real_share, rng)
        if scene.negatives and rng.random() < plan.negative_share:
            target = scene.negatives[int(rng.integers(len(scene.negatives)))]
            pips: Sequence[tuple[float, float]] = ()
            values.append(NOT_A_DIE)
            colors.append(IGNORED)
            known.append(1.0)
        else:
            readable = [d for d in scene.dice if d.readable]
            if not readable:
                continue
            die = readable[int(rng.integers(len(readable)))]
            target = die.detected_box if die.detected_box is not None and rng.random() < 0.7 else die.box
            pips = die.pips
            values.append(die.value - 1)
            colors.append(color_index[die.color])
            known.append(1.0 if die.pips else 0.0)
        crop, points = reader_sample(
            scene,
            target,
            plan.reader_input_size,
            rng,
            pips,
            plan.reader_cast,
            plan.reader_blur,
            plan.reader_veil,
        )
        crops.append(crop)
        maps.append(pip_map(points, plan.reader_input_size))
    batch = torch.from_numpy(np.stack(crops).transpose(0, 3, 1, 2).astype(np.float32))
    return (
        batch,
        torch.tensor(values),
        torch.tensor(colors),
        torch.from_numpy(np.stack(maps)),
        torch.tensor(known),
    )


def detector_losses(network: DiceDetectorNet, batch: Batch) -> dict[str, torch.Tensor]:
    images, heat, regression = batch
    return {"loss": detector_loss(network(images), heat, regression)}


def reader_losses(network: DiceReaderNet, batch: Batch) -> dict[str, torch.Tensor]:
    crops, values, colors, pip_maps, known = batch
    value_logits, color_logits, pip_logits = (
        logits.float() for logits in network.forward_with_pips(crops)
    )  # float32 losses under bfloat16 autocast
    pip_loss = functional.binary_cross_entropy_with_logits(pip_logits, pip_maps, reduction="none")
    return {
        "value loss": functional.cross_entropy(value_logits, values, label_smoothing=0.05),
        "colour loss": functional.cross_entropy(
            color_logits, colors, ignore_index=IGNORED, label_smoothing=0.05
        ),
        "pip loss": PIP_LOSS_WEIGHT * (pip_loss.sum(dim=(1, 2)) * known).sum() / known.sum().clamp(min=1.0),
    }


Network = TypeVar("Network", bound=torch.nn.Module)


def fit(
    name: str,
    network: Network,
    stream: BatchStream,
    losses_of: Callable[[Network, Batch], dict[str, torch.Tensor]],
    learning_rate: float,
    bfloat16: bool = False,
) -> None:
    """AdamW with a one-cycle schedule over the stream's batches; prints the losses every 250 steps. With
    `bfloat16`, the forward pass runs under bfloat16 autocast (`models.run.bfloat16_training`)."""
    with bfloat16_training(network, bfloat16) as laid_out:
        optimizer = torch.optim.AdamW(network.parameters(), lr=learning_rate, weight_decay=1e-4)
        schedule = torch.optim.lr_scheduler.OneCycleLR(
            optimizer, learning_rate, total_steps=stream.steps, pct_start=0.1
        )
        loader = torch.utils.data.DataLoader(stream, batch_size=None, num_workers=1, prefetch_factor=4)
        network.train()
        started = time.perf_counter()
        for step, batch in enumerate(loader):
            batch = (laid_out(batch[0]), *batch[1:])
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bfloat16):
                losses = losses_of(network, batch)
            optimizer.zero_grad()
            sum(losses.values()).backward()  # type: ignore[union-attr]
            optimizer.step()
            schedule.step()
            if step % 250 == 0 or step == stream.steps - 1:
                shown = ", ".join(f"{key} {value.item():.3f}" for key, value in losses.items())
                print(f"{name} step {step}: {shown} ({time.perf_counter() - started:.0f} s)", flush=True)
    network.eval()


def train(
    plan: TrainingPlan,
    detector_path: Path,
    reader_path: Path,
    validate: bool = True,
    train_detector: bool = True,
    seed: int = SEED,
    train_reader: bool = True,
) -> None:
    """Render the scenes, train and export the detector (unless `train_detector` is false: then the one at
    `detector_path` is kept), mine its false alarms, train and export the reader (unless `train_reader` is
    false: then the one at `reader_path` is kept), score both. Everything random (scenes, batches, initial
    weights) follows `seed`; the detector comes out the same whether or not the reader follows it."""
    started = start_run(seed)
    rng = np.random.default_rng(seed)
    real = real_training_scenes()
    synthetic = synthetic_training_scenes(plan.synthetic_scenes, rng)
    print(
        f"{len(real)} real and {len(synthetic)} synthetic scenes ({time.perf_counter() - started:.0f} s)",
        flush=True,
    )
    if train_detector:
        detector = DiceDetectorNet()
        make_batch = functools.partial(detector_batch, synthetic, real, plan)
        fit(
            "detector",
            detector,
            BatchStream(make_batch, plan.detector_steps, seed + 1),
            detector_losses,
            4e-3,
        )
        export(
            detector,
            torch.zeros(1, 3, 256, 256),
            detector_path,
            ["maps"],
            {"pixels": {0: "batch", 2: "height", 3: "width"}, "maps": {0: "batch", 2: "rows", 3: "cols"}},
        )
    if train_reader:
        synthetic += reader_training_scenes(plan, rng)
        print(
            f"{len(synthetic)} synthetic scenes for the reader ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
        synthetic = mine_detections(synthetic, detector_path, rng)
        real = mine_detections(real, detector_path, rng)
        reader = DiceReaderNet(VALUE_CLASSES, len(COLOR_CLASSES), plan.reader_width)
        make_batch = functools.partial(reader_batch, synthetic, real, plan)
        fit(
            "reader",
            reader,
            BatchStream(make_batch, plan.reader_steps, seed + 2),
            reader_losses,
            5e-3,
            plan.reader_bfloat16,
        )
        export(
            reader,
            torch.zeros(1, 3, plan.reader_input_size, plan.reader_input_size),
            reader_path,
            ["value_logits", "color_logits"],
            {"pixels": {0: "dice"}, "value_logits": {0: "dice"}, "color_logits": {0: "dice"}},
        )
    print(f"trained and exported in {time.perf_counter() - started:.0f} s", flush=True)
    if not validate:
        return
    recognizer = DiceRecognizer(detector_model=detector_path, reader_model=reader_path)
    photos = load_labelled_photos(REAL_PHOTOS, read_split(VALIDATION_SPLIT))
    scores = [p.score(recognizer.recognize(p.path).dice) for p in photos]
    print(f"validation split: {summarise(scores)}", flush=True)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    defaults = TrainingPlan()
    parser.add_argument("--synthetic-scenes", type=int, default=defaults.synthetic_scenes)
    parser.add_argument("--reader-scenes", type=int, default=defaults.reader_scenes)
    parser.add_argument("--detector-steps", type=int, default=defaults.detector_steps)
    parser.add_argument(
        "--detector-blur",
        type=float,
        default=defaults.detector_blur,
        help="share of the detector's crops blurred as a camera out of focus or shaken",
    )
    parser.add_argument("--reader-steps", type=int, default=defaults.reader_steps)
    parser.add_argument(
        "--reader-width",
        type=float,
        default=defaults.reader_width,
        help="the reader's channels, times the base's",
    )
    parser.add_argument(
        "--reader-input-size",
        type=int,
        default=defaults.reader_input_size,
        help="the side in pixels the reader's crops are scaled to",
    )
    parser.add_argument(
        "--reader-cast",
        type=float,
        nargs=2,
        default=defaults.reader_cast,
        metavar=("LOW", "HIGH"),
        help="the range of each channel's gain in a reader crop's colour cast",
    )
    parser.add_argument(
        "--reader-blur",
        type=float,
        default=defaults.reader_blur,
        help="share of the reader's crops blurred as a camera out of focus or shaken",
    )
    parser.add_argument(
        "--reader-veil",
        type=float,
        default=defaults.reader_veil,
        help="share of the reader's crops seen through veiling light (haze, flare, a flat webcam)",
    )
    add_bfloat16_option(parser, "--reader-bfloat16", defaults.reader_bfloat16)
    parser.add_argument("--detector", type=Path, default=DETECTOR_MODEL, help="where to write the detector")
    parser.add_argument("--reader", type=Path, default=READER_MODEL, help="where to write the reader")
    parser.add_argument(
        "--skip-validation", action="store_true", help="do not score the result on the validation split"
    )
    only = parser.add_mutually_exclusive_group()
    only.add_argument(
        "--reader-only", action="store_true", help="keep the detector at --detector; retrain only the reader"
    )
    only.add_argument(
        "--detector-only", action="store_true", help="train only the detector; keep the reader at --reader"
    )
    parser.add_argument("--seed", type=int, default=SEED, help="the seed of everything random in the run")
    args = parser.parse_args(argv)
    plan = TrainingPlan(
        synthetic_scenes=args.synthetic_scenes,
        reader_scenes=args.reader_scenes,
        detector_steps=args.detector_steps,
        detector_blur=args.detector_blur,
        reader_steps=args.reader_steps,
        reader_width=args.reader_width,
        reader_input_size=args.reader_input_size,
        reader_cast=tuple(args.reader_cast),
        reader_bfloat16=args.reader_bfloat16,
        reader_blur=args.reader_blur,
        reader_veil=args.reader_veil,
    )
    train(
        plan,
        args.detector,
        args.reader,
        validate=not args.skip_validation,
        train_detector=not args.reader_only,
        seed=args.seed,
        train_reader=not args.detector_only,
    )


if __name__ == "__main__":
    main()
