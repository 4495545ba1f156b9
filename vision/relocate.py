"""A die whose value the reader is unsure of is read again at its top face.

The detector's box can lie off a die's top face: round the top and its near side, or shifted in a cluster.
A die boxed that far off is misread about ten times as often as the rest (`models/DICE_HISTORY.md`, session
49), and read again from its true box it mostly comes out right. The face locator (`vision.face_locator`),
trained on rendered photos as taken (`python -m models.train_dice_locator`), moves such a box onto the face it
finds near the box's centre, and the die's value is read again there; its colour and whether it is a die
stay the first reading's, which the move did not improve (`models/MODEL_CARD.md`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from vision.decode import BGRImage
from vision.face_locator import FaceLocator
from vision.observation import Box
from vision.onnx_session import MODELS_FOLDER
from vision.read import SECOND_LOOK_BELOW, Gains

LOCATOR_MODEL = MODELS_FOLDER / "dice_locator.onnx"
FACE_SHARE = 0.8
"""A top face's side, as a share of its box's longer side: the scale the locator's cuts are made at."""
RELOCATE_BELOW = SECOND_LOOK_BELOW
"""Value confidence under which a die is read again at its face, the reader's second look's: reading
every die again gained no more values and cost a second read stage, and from 0.9 the 12 MP photos of small
dice took longer than issue 3's 250 ms (`models/MODEL_CARD.md`)."""
MOST_MOVED = 0.35
"""Box sides: a face found further off the box's centre is another die's, and the box stays."""


class BoxLocator(FaceLocator):
    """The face locator of photos as taken."""

    def __init__(self, threads: int = 1, model: Path = LOCATOR_MODEL):
        super().__init__(model, "python -m models.train_dice_locator", threads)

    def on_faces(self, pixels: BGRImage, boxes: Sequence[Box], gains: Gains) -> list[Box]:
        """Each box moved, unchanged in size, to centre on the top face found near its centre."""
        if not boxes:
            return []
        corners = np.array(boxes, np.float64).reshape(-1, 4)
        centres = (corners[:, :2] + corners[:, 2:]) / 2
        sides = np.max(corners[:, 2:] - corners[:, :2], axis=1)
        moves = self.face_centres(pixels, centres, FACE_SHARE * sides, gains) - centres
        moves[np.hypot(*moves.T) > MOST_MOVED * sides] = 0.0
        return [
            (x0 + dx, y0 + dy, x1 + dx, y1 + dy)
            for (x0, y0, x1, y1), (dx, dy) in zip(corners, moves, strict=True)
        ]
