"""The whole pipeline: stored-pixel coordinates through reduced decoding, timings, errors, colour sets."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.colors import COLOR_SETS
from vision.errors import ModelUnavailable, UnreadableImage
from vision.evaluation import load_labelled_photos, match_boxes
from vision.recognizer import DiceRecognizer

REAL_PHOTOS = Path(__file__).resolve().parents[1] / "data" / "dice_real"
PHOTO_NAME = "IMG_20191208_111304.jpg"


def test_big_photo_is_reported_in_its_stored_pixels(recognizer: DiceRecognizer) -> None:
    """The photo enlarged 4x (2560 px) is decoded at reduced size; boxes must still land on the dice."""
    photo = load_labelled_photos(REAL_PHOTOS, [PHOTO_NAME])[0]
    enlarged = cv2.resize(cv2.imread(str(photo.path)), (2560, 2560), interpolation=cv2.INTER_CUBIC)
    ok, data = cv2.imencode(".jpg", enlarged, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    observation = recognizer.recognize(data.tobytes())
    assert (observation.width, observation.height) == (2560, 2560)
    truth = [tuple(4 * v for v in die.box) for die in photo.dice]
    assert len(match_boxes(truth, [die.box for die in observation.dice])) == len(truth)


def test_every_stage_is_timed(recognizer: DiceRecognizer) -> None:
    observation = recognizer.recognize(REAL_PHOTOS / "images" / PHOTO_NAME)
    assert set(observation.timings_ms) == {"decode", "detect", "read", "total"}
    assert all(ms >= 0 for ms in observation.timings_ms.values())


def test_colour_set_is_respected(recognizer: DiceRecognizer) -> None:
    observation = recognizer.recognize(REAL_PHOTOS / "images" / PHOTO_NAME, COLOR_SETS["cubist"])
    assert {die.color for die in observation.dice} <= {*COLOR_SETS["cubist"], "other"}


def test_an_empty_table_has_no_dice(recognizer: DiceRecognizer) -> None:
    table = np.full((480, 640, 3), (180, 190, 200), np.uint8)
    assert recognizer.recognize_pixels(table).dice == ()


def test_unreadable_input_raises_a_vision_error(recognizer: DiceRecognizer) -> None:
    with pytest.raises(UnreadableImage):
        recognizer.recognize(b"GIF89a not supported")


def test_missing_model_is_a_typed_error(tmp_path: Path) -> None:
    with pytest.raises(ModelUnavailable, match=r"nothing\.onnx: model file not found"):
        DiceRecognizer(detector_model=tmp_path / "nothing.onnx")
