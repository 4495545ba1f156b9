"""Find dice: a small CenterNet-style network predicts, at 1/4 of the working resolution, a heatmap of die
centres, each die's box size and the centre's sub-cell offset; peaks of the heatmap are the dice.

The image is first shrunk so its long side is at most `working_long_side`: the detector is trained for dice
of about 8 to 120 px at that scale, which covers 20 px dice in a 1280x720 frame. A bigger photo (a phone's
12 MP of a whole table from standing height, dice 30-60 px across) would leave its small dice a few pixels
wide there: where the coarse pass finds no sure dice, or sure dice of a size the finer scale sees better,
the photo is searched again at the scale that keeps the smallest die asked for at `DETECTABLE_DIE_PX`, and
that pass answers. One pass answers for the whole photo, because the dice on one table are about the same
size in it (`vision.recognizer.without_specks` counts on that too), and because the fine pass boxes a big
die's top face or side apart from the whole die.

Dice too big for the working scale (a close-up: a webcam frame of 640x480 with dice 100-200 px across, a
phone held over two dice) go the other way: at the working scale the detector boxes their faces and pips, or
nothing. So the photo is first looked at halved, and halved again while the sure dice there are still too big
for the scale above (a look that finds no sure die goes on too); where they are, the coarsest such pass
answers. A die filling half the frame shows its pips even at half scale, where they box as sure small dice
and end that search; so the coarser looks past it run all the same, and their sure dice too big for the look
above are added to the answer as wholes, for the reader to tell from the parts they hold
(`vision.recognizer.without_parts`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from vision.decode import BGRImage
from vision.observation import Box, box_ious, kept_in_order
from vision.onnx_session import MODELS_FOLDER, open_session

DETECTOR_STRIDE = 4
DETECTOR_ALIGNMENT = 16
DETECTOR_MODEL = MODELS_FOLDER / "dice_detector.onnx"

FloatArray = npt.NDArray[np.float32]


DETECTABLE_DIE_PX = 10.0
"""A die this wide at the working scale is well inside the detector's trained range (8 to 120 px)."""
COARSE_ENOUGH = 2.5
"""The coarse pass answers when its sure dice measure this many times `DETECTABLE_DIE_PX` at its scale (the
median of them): 157 px in a 12 MP photo. On six rendered 12 MP photos of each size (one-off runs, seed 5),
110-200 px dice stayed the coarse pass's (found as before), and of 60-110 px dice the fine pass found 98.7%
against the coarse pass's 90.8%."""
SURE_SCORE = 0.5
"""A coarse candidate this sure is taken for a die in deciding which pass answers."""
LARGEST_DIE_PX = 100.0
"""Dice boxed up to this wide at a pass's scale are found there reliably; wider ones (their median, among the
sure dice of the pass at half that scale) are left to the coarser pass."""
SMALLEST_PASS_SIDE = 80
"""The coarsest pass: a long side under this leaves a die too few cells of the detector's map."""


@dataclass(frozen=True)
class DetectorSettings:
    working_long_side: int = 640
    smallest_die_px: float = 20.0
    """The smallest die to find, in the pixels of the image as stored (issue 3's range is 20-200 px): where
    the working scale would shrink it under `DETECTABLE_DIE_PX`, the fine pass runs (for images given at
    their stored size, those whose long side is over 1280 px)."""
    min_score: float = 0.2
    """Low on purpose: the reader rejects candidates that are not dice."""
    max_dice: int = 200
    duplicate_iou: float = 0.5
    close_ups: bool = True
    """Look at coarser copies for dice too big for the working scale (`DiceDetector._close_up`). The reader's
    training mines its false alarms without them: the faces and pips of big dice that the working pass boxes
    are the parts it must learn to call "not a die", and the shipped reader was mined so."""


@dataclass(frozen=True)
class DieCandidate:
    """A die found by the detector: box in the pixels it was given, and the heatmap peak as a score."""

    box: Box
    score: float


def detector_input(pixels: BGRImage, working_long_side: int) -> tuple[FloatArray, float]:
    """Shrink (never enlarge) to the working scale, pad to a multiple of 16, and lay out as 1x3xHxW."""
    scale = min(1.0, working_long_side / max(pixels.shape[:2]))
    working = shrunk(pixels, working_long_side)
    pad_bottom = -working.shape[0] % DETECTOR_ALIGNMENT
    pad_right = -working.shape[1] % DETECTOR_ALIGNMENT
    if pad_bottom or pad_right:
        working = cast(
            BGRImage, cv2.copyMakeBorder(working, 0, pad_bottom, 0, pad_right, cv2.BORDER_REPLICATE)
        )
    tensor: FloatArray = np.ascontiguousarray(working.transpose(2, 0, 1)[None], dtype=np.float32)
    return tensor, scale


def heatmap_peaks(
    prediction: FloatArray, settings: DetectorSettings, pixels_per_cell: float = DETECTOR_STRIDE
) -> list[DieCandidate]:
    """Local maxima of the heatmap (3x3) above the score floor, as boxes in image pixels.

    `prediction` is the network's 5xHxW output: centre heatmap, log box width and height (in cells),
    and the centre's x and y offset within its cell; `pixels_per_cell` maps cells to image pixels.
    """
    heat = prediction[0]
    local_max = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    rows, cols = np.nonzero((heat >= local_max) & (heat >= settings.min_score))
    scores = heat[rows, cols]
    order = np.argsort(-scores)[: settings.max_dice * 2]
    rows, cols, scores = rows[order], cols[order], scores[order]
    centres_x = (cols + prediction[3, rows, cols]) * pixels_per_cell
    centres_y = (rows + prediction[4, rows, cols]) * pixels_per_cell
    half_widths = np.exp(prediction[1, rows, cols]).astype(np.float64) * pixels_per_cell / 2
    half_heights = np.exp(prediction[2, rows, cols]).astype(np.float64) * pixels_per_cell / 2
    boxes = np.stack(
        [
            centres_x - half_widths,
            centres_y - half_heights,
            centres_x + half_widths,
            centres_y + half_heights,
        ],
        axis=1,
    )
    kept = _without_duplicates(boxes, settings.duplicate_iou)[: settings.max_dice]
    return [DieCandidate(tuple(boxes[k].tolist()), float(scores[k])) for k in kept]


def _without_duplicates(boxes: npt.NDArray[np.float64], duplicate_iou: float) -> list[int]:
    """Indices of `boxes` (N x 4, surest first) each kept unless it overlaps a surer kept one by
    `duplicate_iou` or more (`vision.observation.box_iou`), in their order."""
    return kept_in_order(range(len(boxes)), box_ious(boxes, boxes) >= duplicate_iou)


def _drop_duplicates(candidates: list[DieCandidate], settings: DetectorSettings) -> list[DieCandidate]:
    """`candidates` (surest first) less those a surer one duplicates (`_without_duplicates`)."""
    boxes = np.array([candidate.box for candidate in candidates], np.float64).reshape(-1, 4)
    return [candidates[index] for index in _without_duplicates(boxes, settings.duplicate_iou)]


class DiceDetector:
    """The detector network, loaded once; `find` returns dice boxes in the pixels of the image given."""

    def __init__(
        self, settings: DetectorSettings | None = None, threads: int = 1, model: Path = DETECTOR_MODEL
    ):
        self.settings = settings or DetectorSettings()
        self._session = open_session(model, threads, "python -m models.train_dice")
        self._input_name = self._session.get_inputs()[0].name

    def find(self, pixels: BGRImage, stored_scale: float = 1.0) -> list[DieCandidate]:
        """Dice boxes in `pixels` (`stored_scale` times the stored image's size): the surest first from the
        pass at the working scale, or where that is too coarse for the smallest dice, from a finer one, or
        where the dice are too big for it, from a coarser one; then any whole die a coarser look still saw
        (`_close_up`)."""
        long_side = max(pixels.shape[:2])
        working = self.settings.working_long_side
        fine_side = fine_long_side(long_side, working, self.settings.smallest_die_px * stored_scale)
        # Each copy is shrunk from the finer one: cheaper than shrinking the whole image again.
        fine_pixels = pixels if fine_side is None else shrunk(pixels, fine_side)
        working_pixels = shrunk(fine_pixels, working)
        answer, wholes = self._close_up(working_pixels, long_side)
        if answer is None:
            answer = self._working_or_fine(long_side, fine_side, fine_pixels, working_pixels)
        # A pass's answer has no duplicates already; only wholes seen again there are dropped.
        return _drop_duplicates(answer + wholes, self.settings) if wholes else answer

    def _working_or_fine(
        self, long_side: int, fine_side: int | None, fine_pixels: BGRImage, working_pixels: BGRImage
    ) -> list[DieCandidate]:
        """The pass at the working scale, or where that is too coarse for the smallest dice, a finer one;
        boxes in the pixels of an image `long_side` long."""
        working = self.settings.working_long_side
        coarse = self._pass(working_pixels, working, long_side / max(working_pixels.shape[:2]))
        if fine_side is None:
            return coarse
        size = _sure_size(coarse)
        if size is not None and size >= COARSE_ENOUGH * DETECTABLE_DIE_PX * long_side / working:
            return coarse
        return self._pass(fine_pixels, fine_side, long_side / max(fine_pixels.shape[:2]))

    def _close_up(
        self, working_pixels: BGRImage, long_side: int
    ) -> tuple[list[DieCandidate] | None, list[DieCandidate]]:
        """The dice of the coarsest pass, at half the working scale or less, whose sure dice are still too
        big for the pass at twice its scale (None where the working scale suits them); and from the coarser
        passes past that, the sure dice too big for the pass at twice their scale, wholes of which the answer
        may hold only parts, for the reader to judge. A pass that finds no sure die does not end the search:
        a die far too big for a scale shows it only its parts, or nothing. Boxes in the pixels of an image
        `long_side` long."""
        answer: list[DieCandidate] | None = None
        wholes: list[DieCandidate] = []
        if not self.settings.close_ups:
            return answer, wholes
        searching = True
        view, side = working_pixels, max(working_pixels.shape[:2]) // 2
        while side >= SMALLEST_PASS_SIDE:
            view = shrunk(view, side)
            candidates = self._pass(view, side, long_side / max(view.shape[:2]))
            # The box side (image pixels) from which a die is too big for the look at twice this scale.
            too_big = LARGEST_DIE_PX / 2 * long_side / side
            size = _sure_size(candidates)
            if searching and size is not None:
                searching = size >= too_big
                if searching:
                    answer = candidates
            if not searching:
                wholes += [
                    candidate
                    for candidate in candidates
                    if candidate.score >= SURE_SCORE and _side(candidate) >= too_big
                ]
            side //= 2
        return answer, wholes

    def _pass(self, pixels: BGRImage, working_long_side: int, unscale: float = 1.0) -> list[DieCandidate]:
        """One pass with `pixels` shrunk to `working_long_side`; boxes in `pixels` times `unscale`."""
        tensor, scale = detector_input(pixels, working_long_side)
        (prediction,) = self._session.run(None, {self._input_name: tensor})
        return heatmap_peaks(prediction[0], self.settings, pixels_per_cell=DETECTOR_STRIDE * unscale / scale)


def fine_long_side(long_side: int, working_long_side: int, smallest_die_px: float) -> int | None:
    """The long side at which a die `smallest_die_px` across is `DETECTABLE_DIE_PX` (never more than the
    image's own), or None where the working scale is already fine enough for it."""
    fine = min(long_side, round(long_side * DETECTABLE_DIE_PX / smallest_die_px))
    return fine if fine > working_long_side else None


def shrunk(pixels: BGRImage, long_side: int) -> BGRImage:
    """`pixels` shrunk (never enlarged) so that the long side is `long_side`."""
    scale = long_side / max(pixels.shape[:2])
    if scale >= 1.0:
        return pixels
    size = (max(1, round(pixels.shape[1] * scale)), max(1, round(pixels.shape[0] * scale)))
    return cast(BGRImage, cv2.resize(pixels, size, interpolation=cv2.INTER_AREA))


def _sure_size(candidates: list[DieCandidate]) -> float | None:
    """The median box side of the sure candidates (`SURE_SCORE`), None where none is sure: what decides which
    pass answers."""
    sides = [_side(candidate) for candidate in candidates if candidate.score >= SURE_SCORE]
    return float(np.median(sides)) if sides else None


def _side(candidate: DieCandidate) -> float:
    box = candidate.box
    return max(box[2] - box[0], box[3] - box[1])
