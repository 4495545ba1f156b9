"""A small network that reads the value of a die's top face from a cut made where its game's reader already
knows a die stands.

The dice reader (`vision.read`) reads dice anywhere: on tables, at any tilt, real and rendered. A game's
reader that has found its board sees every top face from straight above, at a known size and place, with
the die's own sides and its neighbours beside it in known places. A face reader is trained on exactly those
cuts, one per game (`models/train_runbuster_faces.py`, `models/train_sagrada_faces.py`), and the game's
reader weighs its value probabilities with the dice reader's.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision.onnx_session import open_session
from vision.read import FloatArray, read_with_second_look, reader_input, softmax

Cuts = npt.NDArray[np.uint8]


class FaceReader:
    """A face reader's network, loaded once; `rebuild` is the command that trains `model`.

    A face reads the same turned: a cut whose most likely value is less likely than `second_look_below` is
    read at its three other quarter turns too and the four readings averaged (the default: every cut)."""

    def __init__(self, model: Path, rebuild: str, threads: int = 1, second_look_below: float = math.inf):
        self._session = open_session(model, threads, rebuild)
        model_input = self._session.get_inputs()[0]
        self._input_name = model_input.name
        self.input_size = int(model_input.shape[-1])
        """The cut side the model was exported with (the last axis of its input)."""
        self.second_look_below = second_look_below

    def value_probabilities(self, cuts: Cuts) -> FloatArray:
        """For each cut, the probability of each value 1-6 (N x 6)."""
        if not len(cuts):
            return np.zeros((0, 6), np.float32)
        return read_with_second_look(self._one_look, cuts, self.second_look_below)

    def _one_look(self, cuts: Cuts) -> FloatArray:
        (logits,) = self._session.run(None, {self._input_name: reader_input(cuts)})
        return softmax(np.asarray(logits, np.float32))
