"""Dice to zones on rendered mats, and what a reading keeps."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.vision.runbuster.conftest import VIEW_SHAPE, ExactRecognizer, as_detected
from vision.markers import MatLocation
from vision.observation import Box, DetectedDie
from vision.read import DieReading
from vision.runbuster.locate import locate_mat
from vision.runbuster.mat import DIE_EDGE, MARKERS, PRINTED_AREAS, ZONE_KEYS, Paper
from vision.runbuster.topdown import VIEW_SCALE
from vision.runbuster.zones import (
    FACE_READER_WEIGHT,
    RESCUE_BOX,
    RESCUE_DIE_PROBABILITY,
    assign_dice,
    read_mat,
    read_mat_photo,
)
from vision.synth.mat import MatScene


def test_dice_at_random_places_land_in_their_zones(mat_scenes: list[MatScene]) -> None:
    """Every rendered die, reported where the recognizer reports it, goes to its own zone (>= 99.5 %)."""
    total = right = 0
    for scene in mat_scenes:
        reading = read_mat(scene.image, [as_detected(label) for label in scene.dice])
        assert len(reading.dice) == len(scene.dice)
        for placed, label in zip(reading.dice, scene.dice, strict=True):
            total += 1
            right += placed.zone == label.zone
        for key in ZONE_KEYS:
            assert reading.values(key) == scene.values(key)
    assert total >= 400
    assert right / total >= 0.995, f"{total - right} of {total} dice in the wrong zone"


def _die_at(
    location: MatLocation,
    mat_point: tuple[float, float],
    value: int = 3,
    confidence: float = 1.0,
    size: float = 1.4,
) -> DetectedDie:
    """A detection of a die standing at `mat_point`, its box `size` times the die's face as seen there."""
    x, y = mat_point
    face = location.to_image(np.array([[x - 8, y - 8], [x + 8, y - 8], [x + 8, y + 8], [x - 8, y + 8]]), 8.0)
    centre = location.to_image(np.array([[x, y]]), 8.0)[0]
    half = size * float(np.sqrt(cv2.contourArea(face.astype(np.float32)))) / 2
    cx, cy = float(centre[0]), float(centre[1])
    return DetectedDie(
        (cx, cy), (cx - half, cy - half, cx + half, cy + half), value, "red", 1.0, confidence, 1.0
    )


def test_dice_off_the_sheet_on_the_print_or_not_die_sized_are_left_out(mat_scenes: list[MatScene]) -> None:
    location = locate_mat(mat_scenes[1].image)
    marker = MARKERS[0]
    points = [(-60.0, 100.0), (marker.left + 17, marker.top + 17), (210.0, 148.5), (200.0, 260.0)]
    reading = assign_dice(location, [_die_at(location, p) for p in points])
    assert [d.zone for d in reading.dice] == [None, "red.hand"]
    assert reading.to_json()["outside"] == 1
    middles = [((a.left + a.right) / 2, (a.top + a.bottom) / 2) for a in PRINTED_AREAS]
    on_letters = [_die_at(location, middle) for middle in middles]
    assert assign_dice(location, on_letters).dice == ()
    for size in (0.6, 3.5):  # too small for a die, a hand reaching in
        assert assign_dice(location, [_die_at(location, (200.0, 260.0), size=size)]).dice == ()


def test_a_reading_names_unsure_zones_and_the_markers_seen(mat_scenes: list[MatScene]) -> None:
    location = locate_mat(mat_scenes[2].image)
    dice = [_die_at(location, (100.0, 100.0), 5, 0.4), _die_at(location, (300.0, 30.0), 2)]
    assert assign_dice(location, dice).to_json() == {
        "zones": {"red.hand": [], "red.roll": [], "blue.hand": [2], "blue.roll": [5]},
        "unsure": ["blue.roll"],
        "outside": 0,
        "markers": list(location.markers),
    }


def test_an_a4_mat_maps_dice_at_the_height_of_a_die_on_the_smaller_print(mat_scenes: list[MatScene]) -> None:
    location = locate_mat(mat_scenes[3].image)
    height = 16.0 / Paper.A4.scale / 2
    centre = location.to_image(np.array([[200.0, 190.0]]), height)[0]
    die = replace(_die_at(location, (200.0, 190.0), size=2.0), center=(float(centre[0]), float(centre[1])))
    reading = assign_dice(location, [die], Paper.A4)
    assert np.allclose(reading.dice[0].mat_point, (200.0, 190.0), atol=1e-6)
    assert assign_dice(location, []).dice == ()


def test_a_photo_is_read_on_the_mats_top_down_views(mat_scenes: list[MatScene]) -> None:
    """The recognizer is shown the top-down views only (the view at the dice's tops also turned by quarters
    for reading), and each die lands in its zone with its value."""
    for scene in mat_scenes[:4]:
        recognizer = ExactRecognizer(scene)
        reading = read_mat_photo(recognizer, scene.image)
        assert recognizer.shown[0] == VIEW_SHAPE
        assert set(recognizer.shown) == {VIEW_SHAPE, VIEW_SHAPE[::-1]}
        for key in ZONE_KEYS:
            assert reading.values(key) == scene.values(key)


def test_a_die_found_twice_is_placed_once(mat_scenes: list[MatScene]) -> None:
    """Two detections closer than a die's edge are one die: the more confident one is kept."""
    location = locate_mat(mat_scenes[0].image)
    sure, doubtful = _die_at(location, (200.0, 260.0), 4), _die_at(location, (208.0, 262.0), 2)
    reading = assign_dice(location, [replace(doubtful, detection_confidence=0.5), sure])
    assert [d.value for d in reading.dice] == [4]
    neighbours = [sure, _die_at(location, (217.0, 260.0), 2)]  # two dice side by side
    assert [d.value for d in assign_dice(location, neighbours).dice] == [4, 2]


def test_a_die_seen_aslant_found_as_its_top_and_its_near_side_is_one_die(mat_scenes: list[MatScene]) -> None:
    """Detections less than an edge apart in line with the camera are one die, standing at the one farther
    from the camera (the near side shows nearer it); as far apart across that line they are two."""
    location = locate_mat(mat_scenes[0].image)
    centre = np.array([200.0, 260.0])
    towards = location.camera_position[:2] - centre
    towards /= np.linalg.norm(towards)
    top, side = centre - 6.5 * towards, centre + 6.5 * towards
    found = [_die_at(location, (top[0], top[1]), 4), _die_at(location, (side[0], side[1]), 2, size=1.2)]
    reading = assign_dice(location, [found[0], replace(found[1], detection_confidence=0.5)])
    assert [d.value for d in reading.dice] == [4]
    assert np.allclose(reading.dice[0].mat_point, top, atol=1e-6)
    side_surer = assign_dice(location, [replace(found[0], detection_confidence=0.5), found[1]])
    assert len(side_surer.dice) == 1
    assert np.allclose(side_surer.dice[0].mat_point, top, atol=1e-6)
    across = np.array([-towards[1], towards[0]]) * 6.5
    left, right = centre + across, centre - across
    beside = [_die_at(location, (left[0], left[1]), 4), _die_at(location, (right[0], right[1]), 2)]
    assert [d.value for d in assign_dice(location, beside).dice] == [4, 2]


def test_the_camera_is_placed_above_the_mat(mat_scenes: list[MatScene]) -> None:
    """The camera's estimated place projects the mat's centre to where the homography puts it."""
    location = locate_mat(mat_scenes[0].image)
    camera = location.camera_position
    assert camera[2] < -200  # above the sheet (the mat's z points into the table), tens of cm away
    ray = np.array([210.0, 148.5, 0.0]) - camera
    seen = location.camera_matrix @ (location.rotation @ (camera + 0.5 * ray) + location.translation)
    assert np.allclose(seen[:2] / seen[2], location.to_image(np.array([[210.0, 148.5]]))[0], atol=1.0)


class _OtherFaceReader(ExactRecognizer):
    """The dice reader's readings as ExactRecognizer's; the face reader gives each face the next value up
    with probability `sure`, the rest to the die's own value."""

    def __init__(self, scene: MatScene, sure: float) -> None:
        super().__init__(scene)
        self.sure = sure

    def read_face_values(
        self, tops: np.ndarray, centres: np.ndarray, face_side: float, gains: np.ndarray
    ) -> np.ndarray:
        rows = super().read_face_values(tops, centres, face_side, gains)
        values = rows.argmax(axis=1)
        rows[:] = 0.0
        rows[np.arange(len(rows)), values] = 1.0 - self.sure
        rows[np.arange(len(rows)), (values + 1) % 6] = self.sure
        return rows


def test_a_sure_face_reader_outweighs_the_dice_reader_and_an_unsure_one_does_not(
    mat_scenes: list[MatScene],
) -> None:
    """The value read is the one with the most of the dice reader's share plus FACE_READER_WEIGHT times
    the face reader's probability: against a dice reader sure of every reading, a face reader at 0.9 wins
    and one at 0.4 does not."""
    scene = mat_scenes[5]
    for sure, wins in ((0.9, True), (0.4, False)):
        reading = read_mat_photo(_OtherFaceReader(scene, sure), scene.image)
        assert len(reading.dice) == len(scene.dice)
        for die in reading.dice:
            label = min(scene.dice, key=lambda d: np.hypot(*np.subtract(d.mat_point, die.mat_point)))
            expected = label.die.value % 6 + 1 if wins else label.die.value
            share = FACE_READER_WEIGHT * sure if wins else 1.0 + FACE_READER_WEIGHT * (1.0 - sure)
            assert die.value == expected
            assert die.die.value_confidence == pytest.approx(share / (1.0 + FACE_READER_WEIGHT))


class _FaintDice(ExactRecognizer):
    """The detector's boxes read as no die (0.1), as a faint die boxed by one pip; a box of RESCUE_BOX
    edges round a footprint reads as a die in the view at the dice's tops, and with `in_middle` in the
    view at their middle (the first view shown)."""

    def __init__(self, scene: MatScene, in_middle: float) -> None:
        super().__init__(scene)
        self.in_middle = in_middle

    def read_boxes(self, pixels: np.ndarray, boxes: Sequence[Box], gains: np.ndarray) -> list[DieReading]:
        readings = super().read_boxes(pixels, boxes, gains)
        rescue_side = RESCUE_BOX * DIE_EDGE * VIEW_SCALE
        middle = np.array_equal(pixels, self._views[0])
        return [
            replace(
                reading,
                die_probability=(self.in_middle if middle else 1.0)
                if abs((x1 - x0) - rescue_side) < 1e-6
                else 0.1,
            )
            for reading, (x0, _y0, x1, _y1) in zip(readings, boxes, strict=True)
        ]


def test_a_weak_candidate_is_a_die_when_its_located_face_is_one_in_both_views(
    mat_scenes: list[MatScene],
) -> None:
    """Candidates under the confidence floor are kept when the dice reader, shown their located footprint,
    is sure of a die in both top-down views, and left out when it is not in one of them."""
    scene = mat_scenes[2]
    assert RESCUE_DIE_PROBABILITY <= 0.95
    found = read_mat_photo(_FaintDice(scene, in_middle=0.95), scene.image)
    for key in ZONE_KEYS:
        assert found.values(key) == scene.values(key)
    assert read_mat_photo(_FaintDice(scene, in_middle=RESCUE_DIE_PROBABILITY - 0.05), scene.image).dice == ()
