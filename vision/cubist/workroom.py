"""Read a Cubist workroom from a photo: decode -> find the top faces (`vision.cubist.tops`) -> read each
face's value and colour (the shipped dice reader, on a crop round the face) -> place the faces on the
structure's lattice (`vision.cubist.lattice`) -> the top view, its rule problems and the installation cards
it can be (`engine.cubist.topview`). Every stage is timed.

A photo from above shows each column's top value, not reliably its height, so the reading is a top view:
what the rules can check on their own, and the cards a player then confirms by the heights each needs. The
dice reader's colours are restricted to the four players' (a workroom holds one player's dice); a face
the reader takes for no die is dropped, and a face the lattice cannot place is reported apart.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engine.cubist.cards import CardSet, bundled_cards
from engine.cubist.structures import Column, Problem
from engine.cubist.topview import InstallationMatch, TopView
from vision.colors import COLOR_SETS
from vision.cubist.lattice import LatticeFit, fit_lattice
from vision.cubist.tops import TOPS_MODEL, TopFace, TopFaceFinder
from vision.decode import BGRImage, DecodeLimits, decode_image
from vision.observation import Box
from vision.read import READER_MODEL, DiceReader, DieReading

WORKROOM_COLORS = tuple(colour for colour in COLOR_SETS["cubist"] if colour != "red")
"""The four players' dice colours: the red die is the museum's cornerstone, never in a workroom."""
KEEP_CONFIDENCE = 0.3
"""A face is kept when the finder's score times the reader's probability that it is a die reaches this (the
dice recognizer's rule, `vision.recognizer.RecognizerSettings.min_confidence`)."""
READING_LONG_SIDE = 1600
"""Photos are decoded to at least this long side: a workroom's faces keep 20 px or more for the reader."""


@dataclass(frozen=True)
class FaceReading:
    """A top face found and read: box and centre in the stored photo's pixels, and what it shows."""

    box: Box
    score: float
    value: int
    value_confidence: float
    color: str
    color_confidence: float

    @property
    def centre(self) -> tuple[float, float]:
        return (self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "color": self.color,
            "value_confidence": round(self.value_confidence, 3),
            "color_confidence": round(self.color_confidence, 3),
            "center": [round(self.centre[0], 1), round(self.centre[1], 1)],
        }


@dataclass(frozen=True)
class ColumnReading:
    """A column of the structure: its (x, y) and the face read on top of it, and how many levels its top
    seems to stand above the lowest column's (a hint from the camera's slant, not a height to trust)."""

    column: Column
    face: FaceReading
    levels_up: int

    def to_json(self) -> dict[str, Any]:
        return {"x": self.column[0], "y": self.column[1], **self.face.to_json()}


@dataclass(frozen=True)
class WorkroomReading:
    width: int
    height: int
    columns: tuple[ColumnReading, ...]
    unplaced: tuple[FaceReading, ...]
    """Faces read that the lattice could place on no free column (apart from the structure, or off its
    cells): shown to the player, left out of the top view."""
    problems: tuple[Problem, ...]
    matches: tuple[InstallationMatch, ...]
    timings_ms: dict[str, float]

    @property
    def view(self) -> TopView:
        return TopView({c.column: c.face.value for c in self.columns})

    @property
    def color(self) -> str | None:
        """The workroom's player colour: the colour the columns' readings give most weight together; None
        when no reading backs any colour (no columns, or a greyscale photo)."""
        weights: dict[str, float] = {}
        for column in self.columns:
            weights[column.face.color] = weights.get(column.face.color, 0.0) + column.face.color_confidence
        best = max(weights, key=lambda colour: weights[colour], default=None)
        return best if best is not None and weights[best] > 0 else None

    def to_json(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "height": self.height,
            "color": self.color,
            "columns": [column.to_json() for column in self.columns],
            "unplaced": [face.to_json() for face in self.unplaced],
            "problems": [
                {
                    "rule": p.rule,
                    "columns": [list(position[:2]) for position in p.positions],
                    "message": p.message,
                }
                for p in self.problems
            ],
            "matches": [
                {
                    "card": match.card.id,
                    "points": match.card.points,
                    "heights": [
                        [{"x": x, "y": y, "height": h} for (x, y), h in sorted(heights.items())]
                        for heights in match.heights
                    ],
                }
                for match in self.matches
            ],
            "timings_ms": {stage: round(ms, 1) for stage, ms in self.timings_ms.items()},
        }


class WorkroomReader:
    """The top-face finder and the dice reader, loaded once; `read` turns a photo into a WorkroomReading."""

    def __init__(
        self,
        threads: int = 1,
        tops_model: Path = TOPS_MODEL,
        reader_model: Path = READER_MODEL,
        cards: CardSet | None = None,
    ):
        self.finder = TopFaceFinder(threads, tops_model)
        self.reader = DiceReader(threads, reader_model)
        self.cards = cards or bundled_cards()

    def read(self, source: str | Path | bytes) -> WorkroomReading:
        """Raises UnreadableImage or ImageTooLarge (both VisionError) for input that is not a usable image."""
        started = time.perf_counter()
        decoded = decode_image(source, DecodeLimits(target_long_side=READING_LONG_SIDE))
        decode_ms = (time.perf_counter() - started) * 1000
        reading = self.read_pixels(decoded.pixels, 1 / decoded.scale)
        timings = {"decode": decode_ms, **reading.timings_ms}
        timings["total"] = (time.perf_counter() - started) * 1000
        return WorkroomReading(
            decoded.stored_width,
            decoded.stored_height,
            reading.columns,
            reading.unplaced,
            reading.problems,
            reading.matches,
            timings,
        )

    def read_pixels(self, pixels: BGRImage, to_stored: float = 1.0) -> WorkroomReading:
        """Read decoded BGR pixels; coordinates come out times `to_stored` (the stored photo's pixels)."""
        started = time.perf_counter()
        found = self.finder.find(pixels)
        after_find = time.perf_counter()
        faces = read_faces(self.reader, pixels, found, to_stored)
        after_read = time.perf_counter()
        fit = fit_lattice(
            np.array([face.centre for face in faces], np.float64).reshape(-1, 2),
            np.array([[f.box[2] - f.box[0], f.box[3] - f.box[1]] for f in faces], np.float64).reshape(-1, 2),
        )
        columns, unplaced = placed(faces, fit)
        after_place = time.perf_counter()
        view = TopView({c.column: c.face.value for c in columns})
        problems = tuple(view.problems())
        matches = tuple(view.matching_installations(self.cards)) if columns else ()
        finished = time.perf_counter()
        timings = {
            "find": (after_find - started) * 1000,
            "read": (after_read - after_find) * 1000,
            "place": (after_place - after_read) * 1000,
            "rules": (finished - after_place) * 1000,
        }
        height, width = pixels.shape[:2]
        return WorkroomReading(
            round(width * to_stored), round(height * to_stored), columns, unplaced, problems, matches, timings
        )


def read_faces(
    reader: DiceReader, pixels: BGRImage, found: list[TopFace], to_stored: float
) -> list[FaceReading]:
    """Each face read by the dice reader on a crop round its box, colours among the players'; those the
    reader and finder together are not sure enough are dice left out. Boxes times `to_stored`."""
    readings: list[DieReading] = reader.read(pixels, [face.box for face in found], WORKROOM_COLORS)
    return [
        FaceReading(
            (
                face.box[0] * to_stored,
                face.box[1] * to_stored,
                face.box[2] * to_stored,
                face.box[3] * to_stored,
            ),
            face.score * reading.die_probability,
            reading.value,
            reading.value_confidence,
            reading.color,
            reading.color_confidence,
        )
        for face, reading in zip(found, readings, strict=True)
        if face.score * reading.die_probability >= KEEP_CONFIDENCE
    ]


def placed(
    faces: list[FaceReading], fit: LatticeFit
) -> tuple[tuple[ColumnReading, ...], tuple[FaceReading, ...]]:
    """The faces the lattice placed, as columns (by x, then y), and the others."""
    columns = sorted(
        (
            ColumnReading(column, face, levels)
            for face, column, levels in zip(faces, fit.columns, fit.levels, strict=True)
            if column is not None
        ),
        key=lambda reading: reading.column,
    )
    unplaced = tuple(face for face, column in zip(faces, fit.columns, strict=True) if column is None)
    return tuple(columns), unplaced


def annotate(pixels: BGRImage, reading: WorkroomReading) -> BGRImage:
    """`pixels` (the photo at any size) with each column's face boxed and labelled `x,y: value`, the faces
    left unplaced in red: what a player checks a reading against."""
    canvas = pixels.copy()
    scale_x = canvas.shape[1] / reading.width
    scale_y = canvas.shape[0] / reading.height
    thickness = max(1, round(max(canvas.shape[:2]) / 600))
    labelled = [
        (c.face, f"{c.column[0]},{c.column[1]}: {c.face.value}", (0, 255, 0)) for c in reading.columns
    ]
    labelled += [(face, f"? {face.value}", (0, 0, 255)) for face in reading.unplaced]
    for face, label, colour in labelled:
        x0, y0, x1, y1 = (
            round(face.box[0] * scale_x),
            round(face.box[1] * scale_y),
            round(face.box[2] * scale_x),
            round(face.box[3] * scale_y),
        )
        cv2.rectangle(canvas, (x0, y0), (x1, y1), colour, thickness)
        size = max(0.4, (x1 - x0) / 90)
        origin = (x0, max(0, y0 - 4 * thickness))
        cv2.putText(canvas, label, origin, cv2.FONT_HERSHEY_SIMPLEX, size, (0, 0, 0), thickness + 2)
        cv2.putText(canvas, label, origin, cv2.FONT_HERSHEY_SIMPLEX, size, (255, 255, 255), thickness)
    return canvas
