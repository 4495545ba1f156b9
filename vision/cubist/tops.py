"""Find the top faces of a Cubist workroom: a small CenterNet-style network of our own (`cubist_tops.onnx`)
puts a heatmap peak at each top face's centre and predicts the face's extent.

The shipped dice detector boxes whole dice, and where dice touch on all sides it often boxes several as
one (75% of the top faces found on rendered workrooms). This network has the detector's layers and loss
but learned top faces of dice built edge to edge and stacked (`models/CUBIST_TOPS.md`), so a structure's
columns come out one peak each, wherever in the structure they stand.

The photo is searched at a working copy whose long side is at most `WORKING_LONG_SIDE`; where the faces
found there are much smaller or bigger than `FACE_PX` (a far or close camera, a big photo), a second pass at
the scale that makes them `FACE_PX` answers instead, so the network sees faces the size it reads best.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.decode import BGRImage, resized
from vision.detect import DETECTOR_STRIDE, DetectorSettings, detector_input, heatmap_peaks
from vision.observation import Box, box_centre
from vision.onnx_session import MODELS_FOLDER, open_session

TOPS_MODEL = MODELS_FOLDER / "cubist_tops.onnx"
REBUILD = "python -m models.train_cubist_tops"
WORKING_LONG_SIDE = 640
FACE_PX = 36.0
"""The top faces' median side, at the working scale, that the second pass brings them to."""
RESCALE_BEYOND = 1.4
"""A second pass runs when the first pass's median face is this many times off `FACE_PX` either way."""
LONGEST_PASS = 1600
"""The largest working copy a second pass makes (a small structure far away in a big photo)."""
MIN_SCORE = 0.4
"""A heatmap peak this high is a top face (chosen on renders outside the tests' and the bench's seeds)."""
SURE_SCORE = 0.5
APART_SHARE = 0.45
"""Touching faces lie a side apart; a weaker peak nearer a surer face than this share of its side is a
second peak on it or between two faces (chosen with `MIN_SCORE`)."""


@dataclass(frozen=True)
class TopFace:
    """A top face found: its box (the face's extent) in the pixels given, and the heatmap peak."""

    box: Box
    score: float

    @property
    def centre(self) -> tuple[float, float]:
        return box_centre(self.box)

    @property
    def side(self) -> float:
        """The face's size: the geometric mean of its box's width and height."""
        return float(np.sqrt(max(self.box[2] - self.box[0], 0.0) * max(self.box[3] - self.box[1], 0.0)))


class TopFaceFinder:
    """The top-face network, loaded once; `find` returns the faces in a photo, the surest first."""

    def __init__(self, threads: int = 1, model: Path = TOPS_MODEL, min_score: float = MIN_SCORE):
        self.settings = DetectorSettings(min_score=min_score, max_dice=100)
        self._session = open_session(model, threads, REBUILD)
        self._input_name = self._session.get_inputs()[0].name

    def find(self, pixels: BGRImage) -> list[TopFace]:
        long_side = max(pixels.shape[:2])
        first_side = min(long_side, WORKING_LONG_SIDE)
        faces = self._pass(pixels, first_side)
        sure = [face.side for face in faces if face.score >= SURE_SCORE]
        if not sure:
            return faces
        median = float(np.median(sure)) * first_side / long_side
        if 1 / RESCALE_BEYOND <= median / FACE_PX <= RESCALE_BEYOND:
            return faces
        second_side = round(min(first_side * FACE_PX / median, LONGEST_PASS))
        return self._pass(pixels, max(second_side, 64))

    def _pass(self, pixels: BGRImage, working_long_side: int) -> list[TopFace]:
        """One pass at a copy whose long side is `working_long_side` (shrunk or enlarged)."""
        copy = resized(pixels, working_long_side)
        tensor, _ = detector_input(copy, max(copy.shape[:2]))
        (prediction,) = self._session.run(None, {self._input_name: tensor})
        cell = DETECTOR_STRIDE * pixels.shape[1] / copy.shape[1]
        return apart(
            [TopFace(peak.box, peak.score) for peak in heatmap_peaks(prediction[0], self.settings, cell)]
        )


def apart(faces: list[TopFace]) -> list[TopFace]:
    """`faces` (the surest first) less those centred within `APART_SHARE` of a surer face's side from its
    centre."""
    kept: list[TopFace] = []
    for face in faces:
        x, y = face.centre
        if all(math.dist((x, y), other.centre) >= APART_SHARE * other.side for other in kept):
            kept.append(face)
    return kept
