"""Read each die: a small CNN looks at a square crop of a candidate die and gives its top-face value (1-6)
or "not a die" (the detector's candidates include pipless cubes, tokens and table patterns: the reader sees
them close up and rejects them), and its colour (the eight die colours, or "other" for marbled and unusual
dice), each with a probability.

Colour is made robust to white balance before the network sees it: the scene's brightest neutral surfaces
(white trays, paper, pips, glare) are taken for white and the channel gains that make them grey are applied
to every crop, in training and at run time alike; a scene with nothing bright and neutral is left as the
camera balanced it. A game that expects fewer colours restricts the choice:
colours outside its set get zero prior, "other" keeps its share, so a die unlike any expected colour ends
up with low colour confidence instead of a confident guess.

A die reads the same a quarter turn round, so a crop read with little confidence gets a second look: the
three other quarter turns are read too and the four readings averaged. Only unsure dice get it (16 of the
360 candidates on the validation photos, counted with an earlier reader). With the shipped reader, on
rendered scenes value accuracy goes from 97.3% to 97.8% with it and colour from 98.7% to 98.8%; on the
validation photos value from 98.3% to 99.4% and photos read exactly from 24 to 27 of 30 (`python
bench/bench_vision.py --skip-latency`, with `--second-look-below 0` for one look). With an earlier
reader, turning every crop gained no more than this, for far more time, and turning only half round, or
only one way and back, gained less.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from vision.colors import DIE_COLORS
from vision.decode import BGRImage
from vision.observation import Box, box_centre
from vision.onnx_session import MODELS_FOLDER, open_session

READER_INPUT_SIZE = 64
"""The crop side the shipped reader is trained on (48 until session 41); at run time the model file's input
shape decides."""
CROP_MARGIN = 1.15
COLOR_CLASSES: tuple[str, ...] = (*DIE_COLORS, "other")
VALUE_CLASSES = 7
"""Value logits: faces 1 to 6, then "not a die"."""
NOT_A_DIE = 6
READER_MODEL = MODELS_FOLDER / "dice_reader.onnx"

FloatArray = npt.NDArray[np.float32]
Gains = FloatArray
"""Per-channel white balance gains (B, G, R), as `white_balance_gains` gives them."""

SECOND_LOOK_BELOW = 0.75
"""A likely die whose value or colour confidence is below this is read again at three quarter turns (by
default: a caller that turns the crops itself passes 0, no second look)."""
SECOND_LOOK_MIN_DIE_PROBABILITY = 0.3
"""Candidates the reader already rejects as no die are not worth a second look."""

NEUTRAL_RATIO = 1.4
"""A pixel is neutral (white, grey, paper, a pip, glare) when its brightest channel is at most this many times
its dimmest: what a mild cast leaves of white, and far less than any die colour or coloured table. On
rendered scenes and real dice laid on rendered tables (`vision.synth.real_dice`) the shipped reader read
colours best with it at 1.35-1.4 among 1.35, 1.4, 1.6 and 2.0 (one-off runs on seeds the benchmark does
not use)."""
_BRIGHT_SHARE = 0.03
_MIN_REFERENCE_BRIGHTNESS = 300.0
"""B + G + R: a neutral surface darker than this (dark grey) is no white reference."""
_GAIN_LIMITS = (0.6, 1.7)


@dataclass(frozen=True)
class DieReading:
    """One candidate read: how likely it is a die at all, and its value and colour given that it is."""

    die_probability: float
    value: int
    value_confidence: float
    color: str
    color_confidence: float
    value_probabilities: tuple[float, ...] = ()
    """Each face's probability (1-6) given a die, which `value` and its confidence come from; empty where a
    reading is made otherwise (a test's)."""

    def weighed_with(self, probabilities: npt.ArrayLike, weight: float) -> DieReading:
        """This reading's value from its value probabilities and another reader's, added at `weight`."""
        combined = (np.asarray(self.value_probabilities) + weight * np.asarray(probabilities)) / (1 + weight)
        best = int(combined.argmax())
        return replace(
            self,
            value=best + 1,
            value_confidence=float(combined[best]),
            value_probabilities=tuple(float(p) for p in combined),
        )


def white_balance_gains(pixels: BGRImage) -> Gains:
    """Per-channel gains (B, G, R) that turn the scene's brightest neutral surfaces grey: the mean of the
    brightest 3% of a coarse copy's pixels, among those no more coloured than NEUTRAL_RATIO.

    A scene without that much bright and neutral (a green felt, a yellow board, dark wood, and nothing white
    on it) is left as the camera balanced it: its brightest pixels are the table's colour, and turning them
    grey casts the opposite colour over every die. Gains are clamped, so a neutral surface under a cast is
    corrected only moderately.
    """
    small = cv2.resize(pixels, (64, 64), interpolation=cv2.INTER_AREA).reshape(-1, 3).astype(np.float32)
    neutral = small[small.max(axis=1) <= NEUTRAL_RATIO * np.maximum(small.min(axis=1), 1.0)]
    brightness = neutral.sum(axis=1)
    wanted = round(_BRIGHT_SHARE * len(small))
    if len(neutral) < wanted or brightness.max(initial=0.0) < _MIN_REFERENCE_BRIGHTNESS:
        return np.ones(3, np.float32)
    reference = neutral[np.argsort(brightness)[-wanted:]]
    channel_means = np.maximum(reference.mean(axis=0), 1.0)
    gains: Gains = np.clip(channel_means.mean() / channel_means, *_GAIN_LIMITS).astype(np.float32)
    return gains


GREY_SPREAD = 3
"""A pixel is grey when its three channels lie within this many levels of each other. A black-and-white
photo (a webcam's night mode, a phone's mono filter) decodes to equal channels, JPEG's rounding included,
while the least coloured of the real photos (white and black dice on the white tray) spreads 1% of its
pixels' channels by 8 levels or more."""
_GREY_SAMPLE_SIDE = 256


def holds_colour(pixels: BGRImage) -> bool:
    """Whether the photo shows colour at all: more than 1% of a coarse sample of its pixels are not grey. A
    greyscale photo shows a yellow die and a white one alike, so no die's colour can be read from it."""
    step = max(1, max(pixels.shape[:2]) // _GREY_SAMPLE_SIDE)
    sample = pixels[::step, ::step]
    blue, green, red = sample[..., 0], sample[..., 1], sample[..., 2]
    # Channel by channel: numpy's reduction over a 3-long axis took 2 ms of a 1280x720 frame, this 0.1 ms
    # (a one-off timing, session 65).
    spread = np.maximum(np.maximum(blue, green), red) - np.minimum(np.minimum(blue, green), red)
    return bool(np.count_nonzero(spread > GREY_SPREAD) > 0.01 * spread.size)


def crop_square(box: Box) -> tuple[int, int, int]:
    """The image square `crop_die` cuts around `box`: left, top and side in whole pixels."""
    cx, cy = box_centre(box)
    half = max(box[2] - box[0], box[3] - box[1]) * CROP_MARGIN / 2
    return round(cx - half), round(cy - half), max(2, round(2 * half))


def crop_die(
    pixels: BGRImage, box: Box, gains: Gains, size: int = READER_INPUT_SIZE
) -> npt.NDArray[np.uint8]:
    """A square crop around the die's box (plus margin), white-balanced, resized to `size` pixels a side."""
    x0, y0, side = crop_square(box)
    region: BGRImage = pixels[max(0, y0) : max(0, y0 + side), max(0, x0) : max(0, x0 + side)]
    if region.shape[0] != side or region.shape[1] != side:
        region = cast(
            BGRImage,
            cv2.copyMakeBorder(
                region if region.size else np.zeros((1, 1, 3), np.uint8),
                max(0, -y0),
                max(0, side - max(0, -y0) - region.shape[0]),
                max(0, -x0),
                max(0, side - max(0, -x0) - region.shape[1]),
                cv2.BORDER_REPLICATE,
            ),
        )
    interpolation = cv2.INTER_AREA if side > size else cv2.INTER_LINEAR
    return balanced(cast(BGRImage, cv2.resize(region, (size, size), interpolation=interpolation)), gains)


def balanced(pixels: BGRImage, gains: Gains) -> BGRImage:
    """`pixels` with the white balance `gains` applied, as the reader is trained to see them."""
    corrected: BGRImage = np.clip(pixels.astype(np.float32) * gains, 0, 255).astype(np.uint8)
    return corrected


def reader_input(crops: Sequence[npt.NDArray[np.uint8]] | npt.NDArray[np.uint8]) -> FloatArray:
    """SxSxC crops as one NxCxSxS float batch (0-255; the networks normalise)."""
    batch: FloatArray = np.ascontiguousarray(np.asarray(crops).transpose(0, 3, 1, 2), dtype=np.float32)
    return batch


def softmax(logits: FloatArray) -> FloatArray:
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    probabilities: FloatArray = (shifted / shifted.sum(axis=1, keepdims=True)).astype(np.float32)
    return probabilities


def restrict_colors(probabilities: FloatArray, allowed: Sequence[str]) -> FloatArray:
    """Zero the colours a game does not use (keeping "other") and renormalise each row."""
    keep = np.array([name in allowed or name == "other" for name in COLOR_CLASSES], dtype=np.float32)
    restricted = probabilities * keep
    renormalised: FloatArray = (restricted / np.maximum(restricted.sum(axis=1, keepdims=True), 1e-12)).astype(
        np.float32
    )
    return renormalised


class DiceReader:
    """The reader network, loaded once; `read` gives value and colour for each box in one batch."""

    def __init__(
        self, threads: int = 1, model: Path = READER_MODEL, second_look_below: float = SECOND_LOOK_BELOW
    ):
        self.second_look_below = second_look_below
        self._session = open_session(model, threads, "python -m models.train_dice")
        model_input = self._session.get_inputs()[0]
        self._input_name = model_input.name
        self.input_size = int(model_input.shape[-1])
        """The crop side the model was exported with (the last axis of its input)."""

    def read(
        self,
        pixels: BGRImage,
        boxes: Sequence[Box],
        allowed_colors: Sequence[str],
        gains: Gains | None = None,
    ) -> list[DieReading]:
        """Read each box of `pixels`, white-balanced by `gains` (`white_balance_gains` of the scene): a
        caller reading one scene many times passes them, otherwise they are taken from `pixels`. In a
        greyscale photo every colour is read with confidence 0: the network still names one, but nothing
        in the photo backs it, and whoever uses the reading (the detect JSON, Cubist's player colour) is
        told so."""
        if not boxes:
            return []
        if gains is None:
            gains = white_balance_gains(pixels)
        crops = [crop_die(pixels, box, gains, self.input_size) for box in boxes]
        readings = self.read_crops(crops, allowed_colors)
        if holds_colour(pixels):
            return readings
        return [replace(reading, color_confidence=0.0) for reading in readings]

    def read_crops(
        self, crops: Sequence[npt.NDArray[np.uint8]], allowed_colors: Sequence[str]
    ) -> list[DieReading]:
        """Read crops already cut by `crop_die` (white-balanced, `input_size` square)."""
        values, colors = self.probabilities(crops, allowed_colors)
        die_probabilities = 1.0 - values[:, NOT_A_DIE]
        faces = face_probabilities(values)
        readings = []
        for die_probability, face_row, color_row in zip(die_probabilities, faces, colors, strict=True):
            value_index, color_index = int(face_row.argmax()), int(color_row.argmax())
            readings.append(
                DieReading(
                    die_probability=float(die_probability),
                    value=value_index + 1,
                    value_confidence=float(face_row[value_index]),
                    color=COLOR_CLASSES[color_index],
                    color_confidence=float(color_row[color_index]),
                    value_probabilities=tuple(float(p) for p in face_row),
                )
            )
        return readings

    def probabilities(
        self, crops: Sequence[npt.NDArray[np.uint8]] | npt.NDArray[np.uint8], allowed_colors: Sequence[str]
    ) -> tuple[FloatArray, FloatArray]:
        """Value probabilities (faces, then "not a die") and colour probabilities restricted to the game's,
        each crop's averaged over its four quarter turns when it needs a second look."""
        values, colors = second_look(
            lambda cuts: self._one_look(cuts, allowed_colors),
            np.asarray(crops),
            lambda readings: needs_second_look(readings[0], readings[1], self.second_look_below),
        )
        return values, colors

    def _one_look(
        self, crops: npt.NDArray[np.uint8], allowed_colors: Sequence[str]
    ) -> tuple[FloatArray, FloatArray]:
        value_logits, color_logits = self._session.run(None, {self._input_name: reader_input(crops)})
        return softmax(value_logits), restrict_colors(softmax(color_logits), allowed_colors)


def face_probabilities(values: FloatArray) -> FloatArray:
    """Each face's probability given that the crop is a die."""
    die_probabilities = 1.0 - values[:, NOT_A_DIE]
    faces: FloatArray = values[:, :NOT_A_DIE] / np.maximum(die_probabilities[:, None], 1e-12)
    return faces


def needs_second_look(values: FloatArray, colors: FloatArray, below: float) -> npt.NDArray[np.intp]:
    """Indices of the likely dice read with value or colour confidence below `below`."""
    likely_die = 1.0 - values[:, NOT_A_DIE] >= SECOND_LOOK_MIN_DIE_PROBABILITY
    unsure = (face_probabilities(values).max(axis=1) < below) | (colors.max(axis=1) < below)
    return np.flatnonzero(likely_die & unsure)


def second_look(
    look: Callable[[npt.NDArray[np.uint8]], tuple[FloatArray, ...]],
    cuts: npt.NDArray[np.uint8],
    unsure: Callable[[tuple[FloatArray, ...]], npt.NDArray[np.intp]],
) -> tuple[FloatArray, ...]:
    """`look`'s probabilities (one array per output) for each of `cuts` (N x S x S x C); the cuts `unsure`
    picks from them are read at their three other quarter turns too and the four readings averaged (a die
    reads the same turned)."""
    readings = look(cuts)
    indices = unsure(readings)
    if indices.size:
        turned = np.concatenate([np.rot90(cuts[indices], turn, axes=(1, 2)) for turn in (1, 2, 3)])
        for probabilities, more in zip(readings, look(turned), strict=True):
            probabilities[indices] = (
                probabilities[indices] + more.reshape(3, len(indices), -1).sum(axis=0)
            ) / 4
    return readings


def read_with_second_look(
    look: Callable[[npt.NDArray[np.uint8]], FloatArray], cuts: npt.NDArray[np.uint8], below: float
) -> FloatArray:
    """`second_look` for the games' single-output readers: a cut whose most likely class is less likely
    than `below` gets it."""
    (probabilities,) = second_look(
        lambda turned: (look(turned),), cuts, lambda readings: np.flatnonzero(readings[0].max(axis=1) < below)
    )
    return probabilities
