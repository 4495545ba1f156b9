"""Score a workroom reading against a rendered workroom's labels: what the tests' floors and the bench's
figures count alike (faces found, values and colours read, the top view read whole)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.cubist.topview import TopView
from vision.cubist.workroom import FaceReading, WorkroomReading
from vision.evaluation import match_boxes
from vision.observation import Box
from vision.synth.cubist import WorkroomScene


@dataclass(frozen=True)
class WorkroomScore:
    faces: int
    """Columns in the photo (each shows one top face)."""
    found: int
    """Faces the reader kept, placed or not."""
    matched: int
    """Faces kept that lie on a column's top face."""
    values_right: int
    """Of the matched faces, those read with the column's value."""
    colors_right: int
    """Of the matched faces, those read in the workroom's colour."""
    exact: bool
    """The top view read is the structure's, up to a quarter turn and a shift, and no face is left over."""

    def __add__(self, other: WorkroomScore) -> WorkroomScore:
        return WorkroomScore(
            self.faces + other.faces,
            self.found + other.found,
            self.matched + other.matched,
            self.values_right + other.values_right,
            self.colors_right + other.colors_right,
            self.exact and other.exact,
        )


def face_box(corners: npt.NDArray[np.float32]) -> Box:
    """The axis-aligned extent of a top face's corners (N x 2): the box the top-face finder learns."""
    low, high = corners.min(axis=0), corners.max(axis=0)
    return float(low[0]), float(low[1]), float(high[0]), float(high[1])


def same_view(seen: TopView, truth: TopView) -> bool:
    """Whether `seen` is `truth` turned a quarter any number of times and shifted."""
    return bool(truth.values) and bool(seen.placements(truth.with_heights(dict.fromkeys(truth.values, 1))))


def score_workroom(scene: WorkroomScene, reading: WorkroomReading) -> WorkroomScore:
    faces: list[FaceReading] = [c.face for c in reading.columns] + list(reading.unplaced)
    truth = [face_box(column.top_face) for column in scene.columns]
    pairs = match_boxes(truth, [face.box for face in faces])
    values = sum(faces[found].value == scene.columns[column].value for column, found in pairs)
    colors = sum(faces[found].color == scene.color for _, found in pairs)
    truth_view = TopView({column.column: column.value for column in scene.columns})
    exact = not reading.unplaced and same_view(reading.view, truth_view)
    return WorkroomScore(len(scene.columns), len(faces), len(pairs), values, colors, exact)
