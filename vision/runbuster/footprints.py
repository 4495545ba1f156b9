"""Where each die stands: its top face located in the view at the dice's tops.

A die found by the detector is placed first from its box, which can lie up to about half a die off its
footprint (a box spanning the top and the near side, or a box round a single pip of a faint die). In the
view at the dice's tops (`vision.runbuster.topdown`) every top face is an upright square of a die's edge
centred on its footprint, so a small network trained on that view alone (`python -m
models.train_runbuster_footprints`) looks at a cut round the rough footprint and says where the nearest
face's centre is. Two rounds bring a footprint within a few hundredths of a die's edge of its face, so the
readers are shown the face where it is, and two finds of one die meet at one place.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from vision.markers import BGRImage
from vision.onnx_session import MODELS_FOLDER, open_session
from vision.read import FloatArray, Gains, balanced, reader_input

LOCATOR_MODEL = MODELS_FOLDER / "runbuster_footprints.onnx"
LOCATOR_CUT = 2.4
"""The cut round a rough footprint, in die edges: the whole face stays in it from half an edge off."""
CUT_PX = 48
"""The cut's side in pixels (a die's edge is then 20 px)."""
ROUNDS = 2
"""Times a footprint is moved to the face the locator sees: the second round starts near the face, where
the locator is most precise."""

Cuts = npt.NDArray[np.uint8]
Points = npt.NDArray[np.float64]


def cut_side(face_side: float) -> int:
    """The side in view pixels of the cut round a point, where a face is `face_side` pixels across: the
    unit of the locator's offsets."""
    return max(2, round(LOCATOR_CUT * face_side))


def locator_cuts(tops: BGRImage, points: npt.ArrayLike, face_side: float, gains: Gains) -> Cuts:
    """The cut round each point (N x 2 pixels of the view at the dice's tops, where a face is `face_side`
    pixels across), centred on the point to the sub-pixel, white-balanced with `gains`, as an
    N x CUT_PX x CUT_PX x 3 array."""
    side = cut_side(face_side)
    cuts = [
        balanced(
            cast(
                BGRImage,
                cv2.resize(
                    cv2.getRectSubPix(tops, (side, side), (float(x), float(y))),
                    (CUT_PX, CUT_PX),
                    interpolation=cv2.INTER_AREA,
                ),
            ),
            gains,
        )
        for x, y in np.asarray(points, np.float64).reshape(-1, 2)
    ]
    return np.array(cuts, np.uint8).reshape(-1, CUT_PX, CUT_PX, 3)


class FaceLocator:
    """The face locator's network, loaded once."""

    def __init__(self, threads: int = 1, model: Path = LOCATOR_MODEL):
        self._session = open_session(model, threads, "python -m models.train_runbuster_footprints")
        self._input_name = self._session.get_inputs()[0].name

    def offsets(self, cuts: Cuts) -> FloatArray:
        """For each cut, where the nearest top face's centre lies (x, y), in cut widths from its centre."""
        if not len(cuts):
            return np.zeros((0, 2), np.float32)
        (found,) = self._session.run(None, {self._input_name: reader_input(cuts)})
        return np.asarray(found, np.float32)

    def face_centres(self, tops: BGRImage, points: npt.ArrayLike, face_side: float, gains: Gains) -> Points:
        """The centre of the top face nearest each point (N x 2 pixels of the view at the dice's tops),
        after ROUNDS moves."""
        located = np.asarray(points, np.float64).reshape(-1, 2)
        for _round in range(ROUNDS):
            offsets = self.offsets(locator_cuts(tops, located, face_side, gains))
            located = located + offsets * cut_side(face_side)
        return located
