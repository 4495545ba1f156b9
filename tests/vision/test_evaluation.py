"""Scoring: the round trip's per-die outcomes (what the bench's breakdown by face size and misread is made
of), the real photos' dice that their labels leave out, and the changes the real photos are read under."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.decode import BGRImage
from vision.evaluation import (
    LabelledDie,
    LabelledPhoto,
    Perturbation,
    RenderedReading,
    centres_match,
    die_outcomes,
    load_labelled_photos,
    perturbation_named,
    read_rendered_scenes,
    summarise,
    view_from_overhead_deg,
)
from vision.observation import Box, DetectedDie, box_centre
from vision.synth.scene import SceneConfig

REAL_PHOTOS = Path(__file__).resolve().parents[2] / "tests" / "data" / "dice_real"

CONFIG = SceneConfig(
    width=320,
    height=320,
    dice_count=(3, 6),
    die_size_px=(30.0, 50.0),
    distractor_count=(0, 0),
    edge_dice_probability=0.5,
)


def found_die(box: Box, value: int, color: str) -> DetectedDie:
    return DetectedDie(
        center=box_centre(box),
        box=box,
        value=value,
        color=color,
        detection_confidence=1.0,
        value_confidence=1.0,
        color_confidence=1.0,
    )


def readings_by(reader_is_right: bool) -> list[RenderedReading]:
    """Five rendered scenes read by a reader that finds every labelled die and reads it right, or reads
    every die as a red 1."""

    def nothing(image: BGRImage) -> list[DetectedDie]:
        return []

    return [
        RenderedReading(
            reading.labels,
            tuple(
                found_die(
                    die.box, die.value if reader_is_right else 1, die.color if reader_is_right else "red"
                )
                for die in reading.labels
            ),
        )
        for reading in read_rendered_scenes(nothing, CONFIG, seed=5, scenes=5)
    ]


def test_every_expected_die_found_is_an_outcome_with_its_face_size() -> None:
    readings = readings_by(reader_is_right=True)
    outcomes = die_outcomes(readings)
    assert len(outcomes) == sum(len(reading.expected) for reading in readings) > 10
    assert all(o.read_value == o.value and o.read_color == o.color for o in outcomes)
    # The face's edge is the renderer's die size, give or take the camera's slant.
    assert all(20.0 <= o.face_px <= 55.0 for o in outcomes)
    labelled = {die.glare for reading in readings for die in reading.expected}
    assert {o.glare for o in outcomes} == labelled
    # The renderer's camera leans up to 35 degrees; a die at the photo's far edge is seen a little steeper.
    assert all(0.0 <= o.view_deg < 50.0 for o in outcomes) and max(o.view_deg for o in outcomes) > 5.0
    report = summarise([reading.score() for reading in readings])
    assert report.value_accuracy == report.color_accuracy == report.recall == 1.0


@pytest.mark.parametrize("angle", [0.0, 20.0, 35.0, 60.0])
@pytest.mark.parametrize("turn", [0.0, 30.0, 70.0])
def test_a_square_seen_at_a_slant_gives_its_angle_from_overhead(angle: float, turn: float) -> None:
    """A square face tipped `angle` degrees away from the camera, about an axis turned `turn` degrees in
    the photo, its corners shifted anywhere: squashed by cos(angle) across that axis."""
    corners = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]) * 40.0
    spin = np.radians(17.0)
    corners = corners @ np.array([[np.cos(spin), np.sin(spin)], [-np.sin(spin), np.cos(spin)]])
    turn_rad = np.radians(turn)
    axis = np.array([np.cos(turn_rad), np.sin(turn_rad)])
    across = np.array([-axis[1], axis[0]])
    squashed = np.outer(corners @ axis, axis) + np.cos(np.radians(angle)) * np.outer(corners @ across, across)
    assert view_from_overhead_deg(squashed + np.array([300.0, 120.0])) == pytest.approx(angle, abs=0.01)


def test_misreads_are_kept_and_hidden_dice_do_not_count() -> None:
    readings = readings_by(reader_is_right=False)
    outcomes = die_outcomes(readings)
    # Some dice stick out of the picture: found (the reader here finds every label), but not expected.
    assert sum(len(reading.hidden) for reading in readings) > 0
    assert len(outcomes) == sum(len(reading.expected) for reading in readings)
    assert sum(o.read_value != o.value for o in outcomes) == sum(o.value != 1 for o in outcomes) > 0
    assert all(o.read_color == "red" for o in outcomes)


def held_die_photo() -> LabelledPhoto:
    (photo,) = load_labelled_photos(REAL_PHOTOS, ["IMG_20191208_112623.jpg"])
    return photo


def test_a_die_the_labels_leave_out_is_loaded_with_the_photo() -> None:
    photo = held_die_photo()
    ((left, top, right, bottom),) = photo.unlabelled
    assert 0 <= left < right <= 640 and 0 <= top < bottom <= 640
    assert not any(centres_match(photo.unlabelled[0], die.box) for die in photo.dice)
    others = load_labelled_photos(REAL_PHOTOS, ["IMG_20191208_111751.jpg"])
    assert others[0].unlabelled == ()


def test_a_die_found_where_the_labels_leave_one_out_neither_counts_for_nor_against() -> None:
    photo = held_die_photo()
    labelled = [found_die(die.box, die.value, die.color) for die in photo.dice]
    held = found_die(photo.unlabelled[0], 4, "white")
    assert photo.score([*labelled, held]).exact
    assert summarise([photo.score([*labelled, held])]).precision == 1.0
    elsewhere = found_die((10.0, 10.0, 40.0, 40.0), 4, "white")
    assert not photo.score([*labelled, held, elsewhere]).exact
    assert not photo.score([held]).exact


def square_photo(width: int, height: int, box: Box) -> tuple[BGRImage, LabelledPhoto]:
    """A grey image with one white square where its one labelled die's box is."""
    image = np.full((height, width, 3), 90, np.uint8)
    left, top, right, bottom = (round(v) for v in box)
    image[top:bottom, left:right] = 255
    return image, LabelledPhoto(Path("square.jpg"), (LabelledDie(box, 3, "red"),), ((0.0, 0.0, 5.0, 5.0),))


def white_bounds(image: BGRImage) -> Box:
    ys, xs = np.nonzero(image[:, :, 0] > 170)
    return (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))


@pytest.mark.parametrize(
    "perturbation",
    [
        Perturbation("scaled", scale=0.5),
        Perturbation("quarter turn", turn_deg=90),
        Perturbation("turned", turn_deg=30),
        Perturbation("tilted", tilt=0.25),
        Perturbation("both", scale=1.5, turn_deg=-20, tilt=0.1),
    ],
    ids=lambda p: p.name,
)
def test_a_perturbation_moves_the_boxes_with_the_pixels(perturbation: Perturbation) -> None:
    image, photo = square_photo(200, 120, (120.0, 30.0, 160.0, 70.0))
    changed, moved = perturbation.apply(photo, image)
    assert changed.dtype == np.uint8 and changed.ndim == 3
    assert moved.dice[0].value == 3 and moved.dice[0].color == "red"
    assert np.allclose(moved.dice[0].box, white_bounds(changed), atol=2.5)
    assert len(moved.unlabelled) == 1


def test_a_quarter_turn_grows_the_canvas_to_hold_the_whole_photo() -> None:
    image, photo = square_photo(200, 120, (120.0, 30.0, 160.0, 70.0))
    changed, _ = Perturbation("quarter turn", turn_deg=90).apply(photo, image)
    assert changed.shape[:2] == (200, 120)


def test_a_change_of_light_keeps_the_boxes_and_the_pixels_in_range() -> None:
    image, photo = square_photo(200, 120, (120.0, 30.0, 160.0, 70.0))
    changed, moved = perturbation_named("warm light").apply(photo, image)
    assert moved == photo and changed.shape == image.shape
    assert changed[50, 140].tolist() == [178, 229, 255]  # 255 x (0.7, 0.9, 1.1), clipped
