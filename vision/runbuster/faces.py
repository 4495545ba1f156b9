"""A second reader for the mat's top faces, trained on the view at the dice's tops alone.

The dice reader (`vision.read`) reads dice anywhere: on tables, at any tilt, real and rendered. On the mat
every top face is an upright square of known size at its footprint (`vision.runbuster.topdown`), with
the die's own sides and its neighbours beside it in known places. This small network is trained on
exactly those cuts (`python -m models.train_runbuster_faces`), and `zones.read_faces` adds its value
probabilities to the dice reader's: the dice reader keeps what it learnt from real photos, the face reader
what is particular to the mat's view.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision.markers import BGRImage
from vision.onnx_session import MODELS_FOLDER, open_session
from vision.read import FloatArray, crop_die, reader_input, softmax

FACE_MODEL = MODELS_FOLDER / "runbuster_faces.onnx"
FACE_CUT = 1.7
"""The box cut round a top face's footprint, in die edges (`crop_die` adds its margin): a face turned 45
degrees spans 1.41 edges, and a footprint placed from a detection can be 0.4 edges off its face."""
CUT_PX = 48
"""The cut's side in pixels (a face of the A3 print is about 34 px in the view)."""

Cuts = npt.NDArray[np.uint8]


def face_cuts(tops: BGRImage, centres: npt.ArrayLike, face_side: float, gains: FloatArray) -> Cuts:
    """The cut round each face centred at `centres` (N x 2 pixels of the view at the dice's tops, where a
    face is `face_side` pixels across), white-balanced with `gains`, as an N x CUT_PX x CUT_PX x 3 array."""
    half = FACE_CUT * face_side / 2
    points = np.asarray(centres, np.float64).reshape(-1, 2).tolist()
    cuts = [crop_die(tops, (x - half, y - half, x + half, y + half), gains, CUT_PX) for x, y in points]
    return np.array(cuts, np.uint8).reshape(-1, CUT_PX, CUT_PX, 3)


class FaceReader:
    """The face reader's network, loaded once."""

    def __init__(self, threads: int = 1, model: Path = FACE_MODEL):
        self._session = open_session(model, threads, "python -m models.train_runbuster_faces")
        self._input_name = self._session.get_inputs()[0].name

    def value_probabilities(self, cuts: Cuts) -> FloatArray:
        """For each cut, the probability of each value 1-6 (N x 6), averaged over its four quarter turns
        (a face reads the same turned)."""
        if not len(cuts):
            return np.zeros((0, 6), np.float32)
        turned = np.concatenate([np.rot90(cuts, turn, axes=(1, 2)) for turn in range(4)])
        (logits,) = self._session.run(None, {self._input_name: reader_input(turned)})
        probabilities: FloatArray = (
            softmax(np.asarray(logits, np.float32)).reshape(4, len(cuts), -1).mean(axis=0)
        )
        return probabilities
