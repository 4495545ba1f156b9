"""Scoring: the round trip's per-die outcomes (what the bench's breakdown by face size and misread is made
of), and the real photos' dice that their labels leave out."""

from __future__ import annotations

from pathlib import Path

from vision.decode import BGRImage
from vision.evaluation import (
    LabelledPhoto,
    RenderedReading,
    centres_match,
    die_outcomes,
    load_labelled_photos,
    read_rendered_scenes,
    summarise,
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
    report = summarise([reading.score() for reading in readings])
    assert report.value_accuracy == report.color_accuracy == report.recall == 1.0


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
