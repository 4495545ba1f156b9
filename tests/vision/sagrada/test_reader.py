"""The whole reader: rendered windows, and real dice photographed into a rendered window."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.sagrada.window import ALL_CELLS, Color, Die, Window
from vision.colors import COLOR_SETS
from vision.errors import ColourlessImage
from vision.evaluation import read_split
from vision.sagrada.cells import CELL_CLASSES, CellReader, SpaceReading, class_index
from vision.sagrada.lattice import find_window_fits
from vision.sagrada.reader import SagradaReader, UncertainSpace, WindowReading
from vision.synth.real_dice import load_real_dice
from vision.synth.sagrada import (
    RenderedWindow,
    SagradaConfig,
    WindowScene,
    mat_photo_config,
    paste_real_dice,
    phone_photo_config,
    render_window_scene,
)

from .conftest import jpeg_bytes, needs_cell_model, pitch_px, window_config

REPOSITORY = Path(__file__).resolve().parents[3]
REAL_DICE = REPOSITORY / "tests" / "data" / "dice_real"
VALIDATION_SPLIT = REPOSITORY / "models" / "validation_split.txt"
SEVERAL_WINDOW_PHOTOS = 8

pytestmark = needs_cell_model


@pytest.fixture(scope="module")
def reader(cell_reader: CellReader) -> SagradaReader:
    return SagradaReader(cell_reader)


def read_as(reading: list[WindowReading], truth: RenderedWindow) -> WindowReading | None:
    """The window read at the labelled window's place (corners within a fifth of a space), if any."""
    for window in reading:
        if np.abs(window.corners - truth.corners).max() < 0.2 * pitch_px(truth):
            return window
    return None


def test_every_space_of_rendered_windows_is_read(scenes: list[WindowScene], reader: SagradaReader) -> None:
    whole = 0
    for scene in scenes:
        truth = scene.windows[0]
        window = read_as(list(reader.read_pixels(scene.image).windows), truth)
        whole += window is not None and window.window == truth.window
    # Floor under the measured level (36 of 40 with session 44's space classifier, 35 with session 15's);
    # issue 4's target is 99 % of windows.
    assert whole >= 0.775 * len(scenes), f"every space read right in {whole} of {len(scenes)} windows"


def space_read_as(first: Die, first_p: float, second: Die) -> SpaceReading:
    probabilities = np.zeros(len(CELL_CLASSES), np.float32)
    probabilities[class_index(first)] = first_p
    probabilities[class_index(second)] = 1.0 - first_p
    return SpaceReading(ALL_CELLS[0], probabilities)


def test_a_die_read_less_surely_than_98_percent_is_asked_about_with_its_alternative() -> None:
    """Session 45 measured that asking below 0.98 rather than 0.9 halves the misreads that pass unasked."""
    question = UncertainSpace.of(space_read_as(Die(Color.RED, 4), 0.95, Die(Color.PURPLE, 4)))
    assert question is not None
    assert (question.reading, question.alternatives) == ("r4", ("p4",))
    assert question.confidence == pytest.approx(0.95)
    assert UncertainSpace.of(space_read_as(Die(Color.RED, 4), 0.99, Die(Color.PURPLE, 4))) is None


def test_a_fit_the_layout_prefers_off_the_grid_gives_way_to_one_whose_spaces_read_surer(
    reader: SagradaReader,
) -> None:
    """A finished window: the dice hide the grout, and the layout's best fit lies more than two spaces off the
    grid. Another fit at its place, on the grid, reads the spaces surer."""
    scene = render_window_scene(window_config((0.85, 1.0)), np.random.default_rng(10086))
    truth = scene.windows[0]
    (fits,) = find_window_fits(scene.image)
    assert np.abs(fits[0].corners - truth.corners).max() > 2 * pitch_px(truth)  # the layout's pick is off
    window = read_as(list(reader.read_pixels(scene.image).windows), truth)
    assert window is not None and window.window == truth.window


@pytest.mark.parametrize(
    ("config", "seed", "at", "as_jpeg"),
    [
        # The rival half a turn round and a third of a space off; the pixels, as the tests render them.
        (window_config((0.85, 1.0)), 82069, 0, False),
        # The rival a quarter turn round, over the name strip; a 12 MP phone photo read from its JPEG.
        (phone_photo_config(), 71074, 1, True),
    ],
    ids=["finished window", "12 MP photo"],
)
def test_a_fit_turned_off_the_card_does_not_replace_one_that_shows_the_name_strip(
    reader: SagradaReader, config: SagradaConfig, seed: int, at: int, as_jpeg: bool
) -> None:
    """A full window whose layout's best fit lies on the grid but reads the dice unsure; a rival fit turned
    off the card reads them surer, yet shows the card's name strip beyond its row 4 less clearly."""
    scene = render_window_scene(config, np.random.default_rng(seed))
    truth = scene.windows[at]
    reading = reader.read(jpeg_bytes(scene)) if as_jpeg else reader.read_pixels(scene.image)
    window = read_as(list(reading.windows), truth)
    assert window is not None, "the window was read through a fit off its grid"


def test_windows_with_few_dice_are_read_and_named(
    sparse_scenes: list[WindowScene], reader: SagradaReader
) -> None:
    named = whole = 0
    for scene in sparse_scenes:
        truth = scene.windows[0]
        window = read_as(list(reader.read_pixels(scene.image).windows), truth)
        if window is None:
            continue
        named += window.pattern is not None and window.pattern.name == truth.pattern
        whole += window.window == truth.window
    # Floors under the measured level (39 named, 39 whole of 40; 38 whole before session 42's fit);
    # issue 4's targets are 98 % named and 99 % whole.
    assert named >= 0.925 * len(sparse_scenes), f"pattern named right in {named} of {len(sparse_scenes)}"
    assert whole >= 0.875 * len(sparse_scenes), f"every space right in {whole} of {len(sparse_scenes)}"


def test_squares_drawn_on_the_table_are_not_taken_for_a_window(reader: SagradaReader) -> None:
    """A rendered table (seed 40083 of the benchmark's photos with at most 10 dice) with a row of drawn
    squares beside the card: no die, no pattern's print, so no window there."""
    scene = render_window_scene(window_config((0.0, 0.5)), np.random.default_rng(40083))
    windows = reader.read_pixels(scene.image).windows
    (card,) = scene.windows
    assert [read_as(list(windows), card)] == list(windows)
    on_card = windows[0]
    assert on_card.window == card.window and on_card.pattern is not None
    assert on_card.pattern.name == card.pattern


def photo_on_a_mat(seed: int) -> WindowScene:
    """The benchmark's photo `seed` of a card on a window mat (`mat_photo_config`)."""
    return render_window_scene(mat_photo_config(), np.random.default_rng(seed))


def test_a_drawn_square_whose_spaces_fit_a_pattern_loosely_is_no_window(cell_reader: CellReader) -> None:
    """A rendered table (seed 60272 of the benchmark's photos on window mats, read without the markers)
    with a ruled square drawn beside the mat: its inside reads as 20 empty spaces whose colours fit the
    pattern Virtus at 0.88, where an empty card's print names its card at 1.0. Only the card is reported."""
    scene = photo_on_a_mat(60272)
    windows = SagradaReader(cell_reader, mats=False).read_pixels(scene.image).windows
    (card,) = scene.windows
    assert [read_as(list(windows), card)] == list(windows)


def test_the_dice_reader_keeps_dice_the_space_classifier_doubts(cell_reader: CellReader) -> None:
    """Seed 60094 of the benchmark's photos on window mats, read without the markers: the space classifier
    alone reads two of its dice as empty spaces; with the dice reader's odds of a die weighed in
    (`READER_DIE_WEIGHT`) every space reads right."""
    scene = photo_on_a_mat(60094)
    (card,) = scene.windows
    window = read_as(list(SagradaReader(cell_reader, mats=False).read_pixels(scene.image).windows), card)
    assert window is not None and window.window == card.window


@pytest.fixture(scope="module")
def real_dice_scenes() -> list[WindowScene]:
    """Windows filled with real dice from the photos the space classifier never trained on."""
    crops = load_real_dice(REAL_DICE, COLOR_SETS["sagrada"], images=set(read_split(VALIDATION_SPLIT)))
    rng = np.random.default_rng(11)
    empty = window_config((0.0, 0.0))
    return [paste_real_dice(render_window_scene(empty, rng), crops, rng, fill=0.45) for _ in range(10)]


def read_real_dice(scenes: list[WindowScene], reader: SagradaReader) -> tuple[int, int, int]:
    """Dice placed, dice read right, and empty spaces read as dice, over `scenes`."""
    dice = right = false_dice = 0
    for scene in scenes:
        truth = scene.windows[0]
        window = read_as(list(reader.read_pixels(scene.image).windows), truth)
        assert window is not None, f"window {truth.window} with real dice not found"
        for cell in ALL_CELLS:
            die, expected = window.window[cell], truth.window[cell]
            if expected is None:
                false_dice += die is not None
            else:
                dice += 1
                right += die == expected
    return dice, right, false_dice


@pytest.fixture(scope="module")
def real_dice_read(real_dice_scenes: list[WindowScene], reader: SagradaReader) -> tuple[int, int, int]:
    """`read_real_dice` by the shipped reader, read once for the tests that judge it."""
    return read_real_dice(real_dice_scenes, reader)


def test_real_dice_in_a_rendered_window_are_read(real_dice_read: tuple[int, int, int]) -> None:
    dice, right, false_dice = real_dice_read
    # Floors under the measured level (0 false dice, 97 of 99 read right; 95 with session 15's space
    # classifier); the aim is every die.
    assert false_dice <= 1, f"{false_dice} empty spaces read as dice"
    assert right >= 0.93 * dice, f"{right} of {dice} real dice read right"


def test_the_readers_opinion_of_dice_costs_no_real_dice(
    real_dice_scenes: list[WindowScene], real_dice_read: tuple[int, int, int]
) -> None:
    """The readers were trained on rendered dice more than real ones: their say over the values and colours
    (which gains on rendered windows, `test_cells.py`) must not lose the real dice the classifier reads."""
    alone = SagradaReader(CellReader(dice_reader=None, face_reader=None))
    _dice, right_alone, _false = read_real_dice(real_dice_scenes, alone)
    _dice, right, _false = real_dice_read
    assert right >= right_alone  # measured 97 and 97 of 99 (95 and 93 with session 15's classifier)


def test_several_windows_in_a_phone_photo_are_each_found_and_read(reader: SagradaReader) -> None:
    """Two to four windows on the table in one 12 MP JPEG, read from its bytes as the command reads them:
    the windows after the first lie anywhere in view, where the dice lean furthest."""
    config = phone_photo_config()
    found = whole = windows = 0
    for seed in range(9000, 9000 + SEVERAL_WINDOW_PHOTOS):
        scene = render_window_scene(config, np.random.default_rng(seed))
        reading = list(reader.read(jpeg_bytes(scene)).windows)
        for truth in scene.windows:
            window = read_as(reading, truth)
            windows += 1
            found += window is not None
            whole += window is not None and window.window == truth.window
    # Floors under the measured level (23 of 23 found, 22 read whole; 22 and 21 before session 42's fit);
    # the dice of the windows off the photo's centre lean over their neighbours' empty spaces, which then
    # read as dice.
    assert found >= 0.95 * windows, f"{found} of {windows} windows found on their grid"
    assert whole >= 0.8 * windows, f"every space right in {whole} of {windows} windows"


def test_a_photo_is_read_from_bytes_into_the_issue_json(
    scenes: list[WindowScene], reader: SagradaReader
) -> None:
    ok, encoded = cv2.imencode(".png", scenes[1].image)
    assert ok
    reading = reader.read(encoded.tobytes())
    data = json.loads(json.dumps(reading.to_json()))
    assert set(data) == {"windows", "timings_ms"}
    assert {"decode", "find_windows", "read_spaces", "pattern", "score", "total"} <= set(data["timings_ms"])
    (window,) = data["windows"]
    assert {"grid", "pattern", "pattern_confidence", "uncertain", "corners", "score"} <= set(window)
    assert len(window["corners"]) == 4
    assert Window.parse(window["grid"]) == reading.windows[0].window


def test_a_greyscale_photo_is_refused_with_the_reason(
    scenes: list[WindowScene], reader: SagradaReader
) -> None:
    """Dice and printed spaces differ by colour, which a black-and-white photo does not show: the reader says
    so rather than read a window of guessed colours."""
    grey = cv2.cvtColor(cv2.cvtColor(scenes[1].image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    ok, encoded = cv2.imencode(".jpg", grey)
    assert ok
    with pytest.raises(ColourlessImage, match="greyscale"):
        reader.read(encoded.tobytes())
