"""The mat's face reader (`vision.face_reader`): its cuts round the top faces' footprints in the view at the
dice's tops (`vision.runbuster.topdown`), where every face is an upright square of known size, and its
model (`python -m models.train_runbuster_faces`). `zones.read_faces` adds its value probabilities to the
dice reader's: the dice reader keeps what it learnt from real photos, the face reader what is particular
to the mat's view.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision.face_reader import Cuts, FaceReader
from vision.markers import BGRImage
from vision.onnx_session import MODELS_FOLDER
from vision.read import Gains, crop_die

FACE_MODEL = MODELS_FOLDER / "runbuster_faces.onnx"
FACE_CUT = 1.7
"""The box cut round a top face's footprint, in die edges (`crop_die` adds its margin): a face turned 45
degrees spans 1.41 edges, and a footprint placed from a detection can be 0.4 edges off its face."""
CUT_PX = 48
"""The cut's side in pixels (a face of the A3 print is about 34 px in the view)."""


def face_cuts(tops: BGRImage, centres: npt.ArrayLike, face_side: float, gains: Gains) -> Cuts:
    """The cut round each face centred at `centres` (N x 2 pixels of the view at the dice's tops, where a
    face is `face_side` pixels across), white-balanced with `gains`, as an N x CUT_PX x CUT_PX x 3 array."""
    half = FACE_CUT * face_side / 2
    points = np.asarray(centres, np.float64).reshape(-1, 2).tolist()
    cuts = [crop_die(tops, (x - half, y - half, x + half, y + half), gains, CUT_PX) for x, y in points]
    return np.array(cuts, np.uint8).reshape(-1, CUT_PX, CUT_PX, 3)


def face_reader(threads: int = 1, model: Path = FACE_MODEL) -> FaceReader:
    """The face reader for the mat's view."""
    return FaceReader(model, "python -m models.train_runbuster_faces", threads)
