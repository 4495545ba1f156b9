"""The whole recognition pipeline, loaded once and reused: decode -> find dice -> read value and colour.

Every call returns a DiceObservation in stored-image pixels with the time each stage took, so benchmarks
and the command line report where the time goes.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2

from vision.colors import DIE_COLORS
from vision.decode import BGRImage, DecodeLimits, decode_image
from vision.detect import DETECTOR_MODEL, DetectorSettings, DiceDetector
from vision.observation import DetectedDie, DiceObservation, box_centre
from vision.read import READER_MODEL, SECOND_LOOK_BELOW, DiceReader


@dataclass(frozen=True)
class RecognizerSettings:
    decode: DecodeLimits = field(default_factory=DecodeLimits)
    detector: DetectorSettings = field(default_factory=DetectorSettings)
    min_confidence: float = 0.3
    """A candidate is reported when detector score x the reader's probability that it is a die reaches
    this (chosen on the training photos, never on the validation split)."""
    second_look_below: float = SECOND_LOOK_BELOW
    """The reader's confidence under which a die is read again at three more quarter turns (0: never)."""
    threads: int = 1
    """Threads for onnxruntime and OpenCV. OpenCV's setting is process-wide: the last recognizer made wins."""


class DiceRecognizer:
    """Loads both models once; `recognize` reads one image (path or bytes) into a DiceObservation."""

    def __init__(
        self,
        settings: RecognizerSettings | None = None,
        detector_model: Path = DETECTOR_MODEL,
        reader_model: Path = READER_MODEL,
    ):
        self.settings = settings or RecognizerSettings()
        cv2.setNumThreads(self.settings.threads)
        self.detector = DiceDetector(self.settings.detector, self.settings.threads, detector_model)
        self.reader = DiceReader(self.settings.threads, reader_model, self.settings.second_look_below)

    def recognize(self, source: str | Path | bytes, colors: Sequence[str] = DIE_COLORS) -> DiceObservation:
        """Raises UnreadableImage or ImageTooLarge (both VisionError) for input that is not a usable image."""
        started = time.perf_counter()
        decoded = decode_image(source, self.settings.decode)
        decode_ms = (time.perf_counter() - started) * 1000
        observation = self.recognize_pixels(decoded.pixels, colors)
        scale_x = decoded.stored_width / decoded.pixels.shape[1]
        scale_y = decoded.stored_height / decoded.pixels.shape[0]
        dice = tuple(
            DetectedDie(
                center=(die.center[0] * scale_x, die.center[1] * scale_y),
                box=(die.box[0] * scale_x, die.box[1] * scale_y, die.box[2] * scale_x, die.box[3] * scale_y),
                value=die.value,
                color=die.color,
                detection_confidence=die.detection_confidence,
                value_confidence=die.value_confidence,
                color_confidence=die.color_confidence,
            )
            for die in observation.dice
        )
        timings = {"decode": decode_ms, **observation.timings_ms}
        timings["total"] = (time.perf_counter() - started) * 1000
        return DiceObservation(decoded.stored_width, decoded.stored_height, dice, timings)

    def recognize_pixels(self, pixels: BGRImage, colors: Sequence[str] = DIE_COLORS) -> DiceObservation:
        """Find and read dice in already decoded BGR pixels; coordinates are in those pixels."""
        started = time.perf_counter()
        candidates = self.detector.find(pixels)
        found = time.perf_counter()
        readings = self.reader.read(pixels, [c.box for c in candidates], colors)
        read = time.perf_counter()
        dice = tuple(
            DetectedDie(
                center=box_centre(c.box),
                box=c.box,
                value=r.value,
                color=r.color,
                detection_confidence=c.score * r.die_probability,
                value_confidence=r.value_confidence,
                color_confidence=r.color_confidence,
            )
            for c, r in zip(candidates, readings, strict=True)
            if c.score * r.die_probability >= self.settings.min_confidence
        )
        timings = {"detect": (found - started) * 1000, "read": (read - found) * 1000}
        return DiceObservation(pixels.shape[1], pixels.shape[0], dice, timings)
