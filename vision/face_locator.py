"""Where a die's top face lies near a rough guess of it.

A die placed first from a rough guess (a detector's box, a footprint placed from one) can lie up to about
half a die off its top face, and a reader shown the near side or a neighbour reads that instead. A small
network trained on the view it is used in looks at a cut round the guess and says where the face's centre
is; two rounds bring the guess within a few hundredths of a die's edge of its face. Each use has its own
file: the Run Buster mat's view at the dice's tops (`vision.runbuster.footprints`) and photos as taken
(`vision.relocate`).
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


def locator_cuts(tops: BGRImage, points: npt.ArrayLike, face_side: npt.ArrayLike, gains: Gains) -> Cuts:
    """The cut round each point (N x 2 pixels of the view, where a face is `face_side` pixels across: one
    size, or one a point), centred on the point to the sub-pixel, white-balanced with `gains`, as an
    N x CUT_PX x CUT_PX x 3 array."""
    centres = np.asarray(points, np.float64).reshape(-1, 2)
    sides = np.broadcast_to(np.asarray(face_side, np.float64), len(centres))
    cuts = [
        balanced(
            cast(
                BGRImage,
                cv2.resize(
                    cv2.getRectSubPix(tops, (cut_side(side),) * 2, (float(x), float(y))),
                    (CUT_PX, CUT_PX),
                    interpolation=cv2.INTER_AREA,
                ),
            ),
            gains,
        )
        for (x, y), side in zip(centres, sides, strict=True)
    ]
    return np.array(cuts, np.uint8).reshape(-1, CUT_PX, CUT_PX, 3)


class FaceLocator:
    """A face locator's network, loaded once; `retrain` is the command that rebuilds `model`."""

    def __init__(self, model: Path, retrain: str, threads: int = 1):
        self._session = open_session(model, threads, retrain)
        self._input_name = self._session.get_inputs()[0].name
        self._answer_length = int(self._session.get_outputs()[0].shape[-1])

    def answers(self, cuts: Cuts) -> FloatArray:
        """For each cut, where the nearest top face's centre lies (x, y), in cut widths from its centre, and
        whatever more the model says of that face (`vision.relocate`: its shape)."""
        if not len(cuts):
            return np.zeros((0, self._answer_length), np.float32)
        (found,) = self._session.run(None, {self._input_name: reader_input(cuts)})
        return np.asarray(found, np.float32)

    def offsets(self, cuts: Cuts) -> FloatArray:
        """For each cut, where the nearest top face's centre lies (x, y), in cut widths from its centre."""
        return self.answers(cuts)[:, :2]

    def face_centres(
        self, tops: BGRImage, points: npt.ArrayLike, face_side: npt.ArrayLike, gains: Gains
    ) -> Points:
        """The centre of the top face nearest each point (N x 2 pixels of the view, faces `face_side`
        across as for `locator_cuts`), after ROUNDS moves."""
        return self.located(tops, points, face_side, gains)[0]

    def located(
        self, tops: BGRImage, points: npt.ArrayLike, face_side: npt.ArrayLike, gains: Gains
    ) -> tuple[Points, FloatArray, npt.NDArray[np.int64]]:
        """`face_centres`, with the last round's `answers` (made in cuts round the points after the round
        before) and each cut's side in view pixels, the unit they are in."""
        located = np.asarray(points, np.float64).reshape(-1, 2)
        unit = np.array(
            [cut_side(side) for side in np.broadcast_to(np.asarray(face_side, np.float64), len(located))],
            np.int64,
        )
        for _round in range(ROUNDS):
            answers = self.answers(locator_cuts(tops, located, face_side, gains))
            located = located + answers[:, :2] * unit[:, None]
        return located, answers, unit
