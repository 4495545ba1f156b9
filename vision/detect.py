"""Find dice: a small CenterNet-style network predicts, at 1/4 of the working resolution, a heatmap of die
centres, each die's box size and the centre's sub-cell offset; peaks of the heatmap are the dice.

The image is first shrunk so its long side is at most `working_long_side`: the detector is trained for dice
of about 8 to 120 px at that scale, which covers 20 px dice in a 1280x720 frame and phone photos whose
dice are at least 1/50 of the long side.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from vision.decode import BGRImage
from vision.evaluation import box_iou
from vision.observation import Box
from vision.onnx_session import MODELS_FOLDER, open_session

DETECTOR_STRIDE = 4
DETECTOR_ALIGNMENT = 16
DETECTOR_MODEL = MODELS_FOLDER / "dice_detector.onnx"

FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True)
class DetectorSettings:
    working_long_side: int = 640
    min_score: float = 0.2
    """Low on purpose: the reader rejects candidates that are not dice."""
    max_dice: int = 200
    duplicate_iou: float = 0.5


@dataclass(frozen=True)
class DieCandidate:
    """A die found by the detector: box in the pixels it was given, and the heatmap peak as a score."""

    box: Box
    score: float


def detector_input(pixels: BGRImage, working_long_side: int) -> tuple[FloatArray, float]:
    """Shrink (never enlarge) to the working scale, pad to a multiple of 16, and lay out as 1x3xHxW."""
    height, width = pixels.shape[:2]
    scale = min(1.0, working_long_side / max(height, width))
    working: BGRImage = pixels
    if scale < 1.0:
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        working = cast(BGRImage, cv2.resize(pixels, size, interpolation=cv2.INTER_AREA))
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
    candidates = []
    for index in np.argsort(-scores)[: settings.max_dice * 2]:
        row, col = rows[index], cols[index]
        cx = float(col + prediction[3, row, col]) * pixels_per_cell
        cy = float(row + prediction[4, row, col]) * pixels_per_cell
        half_width = float(np.exp(prediction[1, row, col])) * pixels_per_cell / 2
        half_height = float(np.exp(prediction[2, row, col])) * pixels_per_cell / 2
        box = (cx - half_width, cy - half_height, cx + half_width, cy + half_height)
        candidates.append(DieCandidate(box, float(scores[index])))
    return _drop_duplicates(candidates, settings)[: settings.max_dice]


def _drop_duplicates(candidates: list[DieCandidate], settings: DetectorSettings) -> list[DieCandidate]:
    kept: list[DieCandidate] = []
    for candidate in candidates:
        if all(box_iou(candidate.box, other.box) < settings.duplicate_iou for other in kept):
            kept.append(candidate)
    return kept


class DiceDetector:
    """The detector network, loaded once; `find` returns dice boxes in the pixels of the image given."""

    def __init__(
        self, settings: DetectorSettings | None = None, threads: int = 1, model: Path = DETECTOR_MODEL
    ):
        self.settings = settings or DetectorSettings()
        self._session = open_session(model, threads, "python -m models.train_dice")
        self._input_name = self._session.get_inputs()[0].name

    def find(self, pixels: BGRImage) -> list[DieCandidate]:
        tensor, scale = detector_input(pixels, self.settings.working_long_side)
        (prediction,) = self._session.run(None, {self._input_name: tensor})
        return heatmap_peaks(prediction[0], self.settings, pixels_per_cell=DETECTOR_STRIDE / scale)
