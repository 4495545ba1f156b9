"""Where a die's top face lies, in a top-down view at the height of the dice's tops.

A die placed first from a rough guess (a detector's box, a window space's centre through a fitted plane) can
lie up to about half a die off its top face. In a view warped flat at the dice's tops every top face is an
upright square of a die's edge, so a small network trained on such views looks at a cut round the guess and
says where the nearest face's centre is (a game's own file: `vision.runbuster.footprints`,
`vision.sagrada.tops`). Two rounds bring the guess within a few hundredths of a die's edge of its face, so
the readers are shown the face where it is.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from vision.markers import BGRImage
from vision.onnx_session import open_session
from vision.read import FloatArray, Gains, balanced, reader_input

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
    """A face locator's network, loaded once; `retrain` is the command that rebuilds `model`."""

    def __init__(self, model: Path, retrain: str, threads: int = 1):
        self._session = open_session(model, threads, retrain)
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
