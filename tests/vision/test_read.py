"""Reader stage: white balance, crops, the colour restriction, the second look at unsure dice, and the shipped
model on real dice."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.colors import COLOR_SETS
from vision.evaluation import load_labelled_photos, read_split
from vision.read import (
    COLOR_CLASSES,
    NOT_A_DIE,
    READER_INPUT_SIZE,
    DiceReader,
    DieReading,
    crop_die,
    holds_colour,
    needs_second_look,
    restrict_colors,
    second_look,
    white_balance_gains,
)

REPOSITORY = Path(__file__).resolve().parents[2]
REAL_PHOTOS = REPOSITORY / "tests" / "data" / "dice_real"


def scene_under_cast(cast_bgr: tuple[float, float, float]) -> np.ndarray:
    """A white tray with a red and a blue patch, lit by a coloured light."""
    scene = np.full((200, 200, 3), 230, np.float32)
    scene[20:60, 20:60] = (40, 40, 200)
    scene[100:140, 100:140] = (200, 60, 30)
    return np.clip(scene * np.array(cast_bgr, np.float32), 0, 255).astype(np.uint8)


def test_white_balance_makes_the_bright_tray_grey_again() -> None:
    warm = scene_under_cast((0.85, 0.95, 1.15))
    balanced = np.clip(warm.astype(np.float32) * white_balance_gains(warm), 0, 255)
    tray = balanced[180, 180]
    assert tray.max() - tray.min() < 6


def test_white_balance_of_a_neutral_scene_changes_nothing() -> None:
    assert white_balance_gains(scene_under_cast((1.0, 1.0, 1.0))) == pytest.approx(np.ones(3), abs=0.02)


def test_white_balance_leaves_a_coloured_table_as_the_camera_saw_it() -> None:
    """Nothing bright is neutral on a yellow board: turning it grey would cast blue over every die on it."""
    board = np.full((200, 200, 3), (60, 200, 230), np.uint8)
    board[20:60, 20:60] = (40, 40, 200)
    board[100:140, 100:140] = (30, 30, 30)
    assert white_balance_gains(board) == pytest.approx(np.ones(3))
    with_tray = board.copy()
    with_tray[150:200] = (215, 225, 235)  # a white tray's edge in view, under a mild warm light
    gains = white_balance_gains(with_tray)
    assert gains[0] > 1.0 > gains[2]


def test_crop_is_square_at_the_reader_input_size_even_past_the_image_edge() -> None:
    image = np.full((100, 100, 3), 128, np.uint8)
    for box in [(40.0, 40.0, 60.0, 60.0), (-10.0, -5.0, 15.0, 20.0), (90.0, 80.0, 130.0, 120.0)]:
        crop = crop_die(image, box, np.ones(3, np.float32))
        assert crop.shape == (READER_INPUT_SIZE, READER_INPUT_SIZE, 3)
        assert int(crop.mean()) == 128


def test_restricting_colours_keeps_other_and_renormalises() -> None:
    probabilities = np.zeros((1, len(COLOR_CLASSES)), np.float32)
    probabilities[0, COLOR_CLASSES.index("white")] = 0.6
    probabilities[0, COLOR_CLASSES.index("yellow")] = 0.3
    probabilities[0, COLOR_CLASSES.index("other")] = 0.1
    restricted = restrict_colors(probabilities, COLOR_SETS["sagrada"])
    assert restricted[0, COLOR_CLASSES.index("white")] == 0.0
    assert restricted[0, COLOR_CLASSES.index("yellow")] == pytest.approx(0.75)
    assert restricted[0, COLOR_CLASSES.index("other")] == pytest.approx(0.25)


def test_shipped_reader_reads_real_validation_dice_from_their_true_boxes() -> None:
    reader = DiceReader()
    photos = load_labelled_photos(REAL_PHOTOS, read_split(REPOSITORY / "models" / "validation_split.txt"))
    correct = total = 0
    for photo in photos[:10]:
        image = cv2.imread(str(photo.path))
        readings = reader.read(image, [die.box for die in photo.dice], COLOR_SETS["all"])
        correct += sum(r.value == d.value for r, d in zip(readings, photo.dice, strict=True))
        total += len(readings)
        for r in readings:  # each reading keeps the value probabilities it was chosen from
            assert r.value_confidence == max(r.value_probabilities) == r.value_probabilities[r.value - 1]
    # Measured 73/74 with the shipped reader, with or without the second look (session 41; an earlier reader
    # 74/74, 73 without it; session 14's reader 72 either way).
    assert correct / total >= 0.95


def test_the_reader_white_balances_with_the_gains_it_is_handed() -> None:
    """A caller that reads one scene many times (the Run Buster views) works its white balance out once and
    hands it over: the same readings as the reader's own, and those gains, not the pixels', decide."""
    reader = DiceReader()
    photo = load_labelled_photos(REAL_PHOTOS, read_split(REPOSITORY / "models" / "validation_split.txt"))[0]
    image = cv2.imread(str(photo.path))
    boxes = [die.box for die in photo.dice]
    own = reader.read(image, boxes, COLOR_SETS["all"])
    assert reader.read(image, boxes, COLOR_SETS["all"], white_balance_gains(image)) == own
    warm = np.clip(image * np.array((0.7, 0.95, 1.15), np.float32), 0, 255).astype(np.uint8)
    handed = reader.read(warm, boxes, COLOR_SETS["all"], white_balance_gains(image))
    assert handed != reader.read(warm, boxes, COLOR_SETS["all"])


def test_the_shipped_reader_takes_crops_of_the_size_it_is_trained_on_by_default() -> None:
    assert DiceReader().input_size == READER_INPUT_SIZE


def test_reader_returns_nothing_for_no_boxes() -> None:
    assert DiceReader().read(np.zeros((10, 10, 3), np.uint8), [], COLOR_SETS["all"]) == []


def value_row(die_probability: float, face_confidence: float) -> list[float]:
    """Value probabilities of a crop: a die with this probability, read as a 3 with this confidence."""
    faces = [(1 - face_confidence) / 5] * 6
    faces[2] = face_confidence
    return [die_probability * f for f in faces] + [1 - die_probability]


def test_only_likely_dice_read_with_little_confidence_get_a_second_look() -> None:
    values = np.array(
        [value_row(0.99, 0.99), value_row(0.99, 0.6), value_row(0.99, 0.99), value_row(0.1, 0.4)], np.float32
    )
    colors = np.zeros((4, len(COLOR_CLASSES)), np.float32)
    colors[:, 0] = (0.98, 0.98, 0.55, 0.3)
    colors[:, 1] = 1 - colors[:, 0]
    assert values[:, NOT_A_DIE] == pytest.approx([0.01, 0.01, 0.01, 0.9])
    assert needs_second_look(values, colors, 0.75).tolist() == [1, 2]
    assert needs_second_look(values, colors, 0.0).tolist() == []


def test_a_second_look_averages_the_four_turns_of_the_unsure_cuts_only() -> None:
    """A look that reads which corner of the cut is bright: the unsure cut's readings are averaged over its
    four turns in every output, the sure cut's left as they were."""
    cuts = np.zeros((2, 4, 4, 1), np.uint8)
    cuts[:, 0, 0] = 255

    def look(batch: np.ndarray) -> tuple[np.ndarray, ...]:
        corners = np.stack(
            [batch[:, 0, 0, 0], batch[:, 0, -1, 0], batch[:, -1, -1, 0], batch[:, -1, 0, 0]], axis=1
        ).astype(np.float32)
        return corners / 255, 2 * corners / 255

    first, second = second_look(look, cuts, lambda readings: np.array([1]))
    assert first.tolist() == [[1, 0, 0, 0], [0.25] * 4]
    assert second.tolist() == [[2, 0, 0, 0], [0.5] * 4]


def test_a_die_given_a_second_look_reads_the_same_turned_a_quarter() -> None:
    """Averaged over the four turns, a reading cannot depend on which way up the crop came."""
    reader = DiceReader(second_look_below=1.01)
    photo = load_labelled_photos(REAL_PHOTOS, read_split(REPOSITORY / "models" / "validation_split.txt"))[0]
    image = cv2.imread(str(photo.path))
    gains = white_balance_gains(image)
    crops = [crop_die(image, die.box, gains) for die in photo.dice]
    upright = reader.read_crops(crops, COLOR_SETS["all"])
    turned = reader.read_crops([np.rot90(crop) for crop in crops], COLOR_SETS["all"])
    assert [r.value for r in turned] == [r.value for r in upright] == [d.value for d in photo.dice]
    for a, b in zip(upright, turned, strict=True):
        assert a.value_confidence == pytest.approx(b.value_confidence, abs=1e-4)
        assert a.color_confidence == pytest.approx(b.color_confidence, abs=1e-4)


def greyscale(image: np.ndarray) -> np.ndarray:
    """`image` as a black-and-white photo stores it: one grey level per pixel, decoded back to three equal
    channels, through JPEG."""
    grey = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    ok, encoded = cv2.imencode(".jpg", grey, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR)


def test_another_readers_value_probabilities_weigh_in_at_their_weight() -> None:
    """A red 5 read 0.6 sure, and another reader's 3 at 0.9: at twice the weight the 3 wins, with the two
    readers' probabilities added; at a tenth the 5 stands. The colour stays the first reading's."""
    reading = DieReading(0.99, 5, 0.6, "red", 0.8, (0.0, 0.0, 0.3, 0.0, 0.6, 0.1))
    other = np.array([0.0, 0.0, 0.9, 0.0, 0.1, 0.0])
    weighed = reading.weighed_with(other, 2.0)
    assert (weighed.value, weighed.color, weighed.color_confidence) == (3, "red", 0.8)
    assert weighed.value_confidence == pytest.approx((0.3 + 2 * 0.9) / 3)
    assert sum(weighed.value_probabilities) == pytest.approx(1.0)
    assert reading.weighed_with(other, 0.1).value == 5


def test_every_real_photo_holds_colour_and_none_of_them_in_greyscale() -> None:
    """The least coloured real photos (white and black dice on the white tray) still hold colour; each photo
    turned greyscale holds none, nor does one with a few coloured pixels (a sticker in a corner)."""
    photos = load_labelled_photos(REAL_PHOTOS, read_split(REPOSITORY / "models" / "validation_split.txt"))
    for photo in photos:
        image = cv2.imread(str(photo.path))
        assert holds_colour(image), photo.path.name
        grey = greyscale(image)
        assert not holds_colour(grey), photo.path.name
        grey[:4, :4] = (0, 0, 255)
        assert not holds_colour(grey), photo.path.name


def test_dice_in_a_greyscale_photo_keep_most_values_but_no_colour_confidence() -> None:
    """A greyscale photo shows a yellow die and a white one alike: the colour each die is read as gets
    confidence 0, so a game asks rather than guesses. The pips still read, though worse where a colour
    told them from the body (red pips on a black die)."""
    reader = DiceReader()
    photos = load_labelled_photos(REAL_PHOTOS, read_split(REPOSITORY / "models" / "validation_split.txt"))
    right = total = 0
    for photo in photos[:10]:
        image = cv2.imread(str(photo.path))
        boxes = [die.box for die in photo.dice]
        assert all(r.color_confidence > 0.3 for r in reader.read(image, boxes, COLOR_SETS["all"]))
        in_grey = reader.read(greyscale(image), boxes, COLOR_SETS["all"])
        assert all(reading.color_confidence == 0.0 for reading in in_grey)
        right += sum(r.value == d.value for r, d in zip(in_grey, photo.dice, strict=True))
        total += len(in_grey)
    # Measured 66 of 74 with the shipped reader (session 42), which never trained on greyscale photos.
    assert right / total >= 0.85
