"""Where each die stands on the Run Buster mat: its top face located in the view at the dice's tops.

A die found by the detector is placed first from its box, which can lie up to about half a die off its
footprint (a box spanning the top and the near side, or a box round a single pip of a faint die). In the
view at the dice's tops (`vision.runbuster.topdown`) every top face is an upright square of a die's edge
centred on its footprint, so the face locator (`vision.face_locator`) trained on that view alone (`python -m
models.train_runbuster_footprints`) moves each footprint to its face, and two finds of one die meet at one
place.
"""

from __future__ import annotations

from pathlib import Path

from vision.face_locator import FaceLocator
from vision.onnx_session import MODELS_FOLDER

LOCATOR_MODEL = MODELS_FOLDER / "runbuster_footprints.onnx"


class FootprintLocator(FaceLocator):
    """The Run Buster mat's face locator."""

    def __init__(self, threads: int = 1, model: Path = LOCATOR_MODEL):
        super().__init__(model, "python -m models.train_runbuster_footprints", threads)
