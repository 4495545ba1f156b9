"""Where each die's top face lies in a found window, seen flat at the height of the dice's tops.

The value readers cut a die round its space's centre in the plane of the dice's tops, which
`WindowLattice.raised` recovers from the fitted card alone; the fit's perspective does not pin that plane
down, and a die stands up to a tenth of its edge off its space's centre. So a die's top can lie a fifth of
a space or more off the cut's centre, and a reader shown a side face reads the side. The face locator
(`vision.face_locator`), trained on rendered windows seen through lattices shaken as fits leave them
(`python -m models.train_sagrada_tops`), moves each cut to the face it sees. `models/SAGRADA_TOPS.md` gives
the figures.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.face_locator import FaceLocator, Points
from vision.markers import BGRImage
from vision.onnx_session import MODELS_FOLDER
from vision.read import Gains

TOPS_MODEL = MODELS_FOLDER / "sagrada_tops.onnx"
MOST_MOVED = 0.7
"""Die edges: a face located further than this from its space's centre is a neighbour's (the spaces lie
1.24 edges apart), and the cut stays at the centre."""


class TopLocator(FaceLocator):
    """The face locator of Sagrada windows."""

    def __init__(self, threads: int = 1, model: Path = TOPS_MODEL):
        super().__init__(model, "python -m models.train_sagrada_tops", threads)

    def tops(self, flat: BGRImage, centres: Points, face_side: float, gains: Gains) -> Points:
        """Where the top face of the die at each space centre (N x 2 pixels of `flat`, the view at the
        dice's tops, where a die's edge is `face_side` pixels) lies, or the centre where the face found lies
        further than `MOST_MOVED` from it."""
        located = self.face_centres(flat, centres, face_side, gains)
        too_far = np.hypot(*(located - centres).T) > MOST_MOVED * face_side
        located[too_far] = centres[too_far]
        return located
