"""Round trips through the renderer: dice drawn with known values and colours must be read back.

Scenes use a seed the training never draws from, and stay inside the envelope the product promises
(dice 20 px and up, tilt up to 35 degrees, the renderer's light, blur, noise and JPEG, distractors).

Measured with the shipped models on these 1000 scenes, at the versions of `constraints.txt`, short of issue
3's 99.5% for value and colour:

- session 27's machine (4497 dice): recall 98.78%, precision 95.24%, value accuracy 98.69%, colour accuracy
  98.65% per die;
- session 41's reader (64-px crops) on session 27's machine kind (4497 dice): recall 98.89%, precision
  95.70%, value accuracy 98.49%, colour accuracy 98.83%; session 27's reader there in the same session
  98.87%, 95.22%, 98.63%, 98.88%. Here the new reader reads 6 values fewer, where the bench's 2000 scenes
  (`models/MODEL_CARD.md`) gave it 34 more: within a standard error here, two there;
- with session 48's search for close-ups (`vision.detect`), the same files on session 27's machine kind
  (4497 dice): recall 98.84%, precision 95.90%, value accuracy 98.49%, colour accuracy 98.79% (98.89%,
  95.70%, 98.49%, 98.83% before it, the same day);
- with session 49's wholes and nested boxes (`vision.recognizer.without_parts`), there (4497 dice): recall
  98.82%, precision 96.13%, value accuracy 98.51%, colour accuracy 98.78% (98.84%, 95.90%, 98.49%, 98.79%
  before them, the same day);
- session 30's machine (4533 dice): recall 98.94%, precision 95.63%, value accuracy 98.37%, colour accuracy
  98.48%.

The renderer's output moves with the processor (`models/MODEL_CARD.md`, Versions; where exactly was not
traced): from the same seed the two machines hold 36 expected dice apart and read their values 0.32 points
apart, more than one standard error of a 4500-dice sample (about 0.2 points). The floors therefore sit about
half a point under the figures and still fail a reader that regresses by more than that. (Until session 30
they sat 0.15 under session 27's figures, and this module failed on session 30's machine with the same
files.) Until session 27 the module read 200 scenes, too few
to tell two readers apart: on the first 200 the reader before (session 15's) read 99.12% of values and the
shipped one 98.68%, on all 1000 98.65% and 98.69% (colour 98.81% and 98.65%; a one-off script repeating this
module's round trip with each reader file). Raise the floors to the issue's when a model reaches it.
"""

from __future__ import annotations

import pytest

from vision.colors import COLOR_SETS
from vision.decode import BGRImage
from vision.evaluation import AccuracyReport, PhotoScore, read_rendered_scenes, summarise
from vision.observation import DetectedDie
from vision.recognizer import DiceRecognizer
from vision.synth.scene import SceneConfig

SCENES = 1000
CONFIG = SceneConfig(width=400, height=400, dice_count=(1, 8), die_size_px=(20.0, 80.0))


@pytest.fixture(scope="module")
def scores(recognizer: DiceRecognizer) -> list[PhotoScore]:
    def read_dice(image: BGRImage) -> tuple[DetectedDie, ...]:
        return recognizer.recognize_pixels(image, COLOR_SETS["all"]).dice

    return [reading.score() for reading in read_rendered_scenes(read_dice, CONFIG, seed=90210, scenes=SCENES)]


def test_every_visible_die_is_found(scores: list[PhotoScore]) -> None:
    report = summarise(scores)
    assert report.recall >= 0.98, str(report)
    assert report.precision >= 0.945, str(report)


def test_value_accuracy_per_die(scores: list[PhotoScore]) -> None:
    report = summarise(scores)
    assert report.value_accuracy >= 0.98, str(report)


def test_colour_accuracy_per_die(scores: list[PhotoScore]) -> None:
    report = summarise(scores)
    assert report.color_accuracy >= 0.98, str(report)


def _read_with(recognizer: DiceRecognizer) -> AccuracyReport:
    def read_dice(image: BGRImage) -> tuple[DetectedDie, ...]:
        return recognizer.recognize_pixels(image, COLOR_SETS["all"]).dice

    return summarise([r.score() for r in read_rendered_scenes(read_dice, CONFIG, seed=90210, scenes=SCENES)])


def test_unsure_values_read_again_at_their_faces_read_more_right(scores: list[PhotoScore]) -> None:
    """The same scenes read with no value read again at a located face (`vision.relocate`), and with the
    dice reader's second reading there but not the face reader's of the face cut square. Measured with
    session 56's files: value accuracy 98.96 % against 98.69 % and 98.51 %; colour the same in all three."""
    report = summarise(scores)
    without_faces = _read_with(DiceRecognizer(faces_model=None))
    plain = _read_with(DiceRecognizer(locator_model=None))
    print(f"shipped: {report}\nwithout the face reader: {without_faces}\nwithout either: {plain}")
    assert report.value_accuracy > without_faces.value_accuracy
    assert report.value_accuracy > plain.value_accuracy
    assert report.color_accuracy == without_faces.color_accuracy == plain.color_accuracy
