"""The round trip's per-die outcomes: what the bench's breakdown by face size and misread is made of."""

from __future__ import annotations

from vision.decode import BGRImage
from vision.evaluation import RenderedReading, die_outcomes, read_rendered_scenes, summarise
from vision.observation import DetectedDie, box_centre
from vision.synth.scene import SceneConfig

CONFIG = SceneConfig(
    width=320,
    height=320,
    dice_count=(3, 6),
    die_size_px=(30.0, 50.0),
    distractor_count=(0, 0),
    edge_dice_probability=0.5,
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
                DetectedDie(
                    center=box_centre(die.box),
                    box=die.box,
                    value=die.value if reader_is_right else 1,
                    color=die.color if reader_is_right else "red",
                    detection_confidence=1.0,
                    value_confidence=1.0,
                    color_confidence=1.0,
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
