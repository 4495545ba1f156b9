"""Dice against print, space by space, on rendered windows seen through their true lattice."""

from __future__ import annotations

import numpy as np
import pytest

from engine.sagrada.window import ALL_CELLS, Color, Die, official_patterns
from vision.sagrada.cells import (
    CELL_CLASSES,
    CROP_PX,
    CellReader,
    PrintedSpace,
    SpaceReading,
    cell_crops,
    class_index,
    flatten,
    weigh_values,
)
from vision.synth.sagrada import WindowScene

from .conftest import needs_cell_model, true_lattice


def test_classes_cover_every_print_and_die_once() -> None:
    assert len(CELL_CLASSES) == len(set(CELL_CLASSES)) == 12 + 30
    assert class_index(Die(Color.PURPLE, 6)) == len(CELL_CLASSES) - 1
    assert class_index(PrintedSpace(None, None)) == 0


def test_a_reading_sums_the_prints_into_empty() -> None:
    probabilities = np.zeros(len(CELL_CLASSES), np.float32)
    probabilities[class_index(PrintedSpace(Color.RED, None))] = 0.3
    probabilities[class_index(PrintedSpace(None, 4))] = 0.3
    probabilities[class_index(Die(Color.RED, 4))] = 0.4
    space = SpaceReading(ALL_CELLS[0], probabilities)
    assert space.die is None and space.printed in (PrintedSpace(Color.RED, None), PrintedSpace(None, 4))
    (first, first_p), (second, second_p), *_ = space.readings()
    assert (first, second) == ("--", "r4")
    assert first_p == pytest.approx(0.6) and second_p == pytest.approx(0.4)


def test_cuts_are_centred_on_their_spaces(scenes: list[WindowScene]) -> None:
    window = scenes[0].windows[0]
    crops = cell_crops(flatten(scenes[0].image, true_lattice(window)))
    assert crops.shape == (20, CROP_PX, CROP_PX, 3)


@needs_cell_model
def test_spaces_are_read_whole(scenes: list[WindowScene], cell_reader: CellReader) -> None:
    """Die or empty, and the die's colour and value, on windows holding any number of dice."""
    wrong = windows_right = 0
    for scene in scenes:
        window = scene.windows[0]
        (spaces,) = cell_reader.read(scene.image, [true_lattice(window)])
        misses = sum(space.die != window.window[space.cell] for space in spaces)
        wrong += misses
        windows_right += misses == 0
    total = 20 * len(scenes)
    assert wrong <= 0.025 * total, f"{wrong} of {total} spaces misread"
    # Measured: 13 of 800 spaces misread, all 20 right in 30 of 40 windows.
    assert windows_right >= 0.75 * len(scenes), f"all 20 spaces right in {windows_right} of {len(scenes)}"


def test_the_dice_readers_values_reweigh_the_dice_but_not_whether_a_die_is_there() -> None:
    probabilities = np.zeros((1, len(CELL_CLASSES)), np.float32)
    probabilities[0, class_index(PrintedSpace(None, 5))] = 0.2
    probabilities[0, class_index(Die(Color.BLUE, 6))] = 0.5
    probabilities[0, class_index(Die(Color.BLUE, 5))] = 0.2
    probabilities[0, class_index(Die(Color.GREEN, 5))] = 0.1
    faces = np.array([[0.0, 0.0, 0.0, 0.0, 0.8, 0.2]], np.float32)
    (weighed,) = weigh_values(probabilities, faces)
    space = SpaceReading(ALL_CELLS[0], weighed)
    assert space.die == Die(Color.BLUE, 5)
    assert space.die_probability == pytest.approx(0.8)
    assert weighed[class_index(PrintedSpace(None, 5))] == pytest.approx(0.2)
    assert weighed[class_index(Die(Color.BLUE, 5))] == pytest.approx(0.8 * 0.16 / 0.34)


@needs_cell_model
def test_empty_spaces_show_their_print(sparse_scenes: list[WindowScene], cell_reader: CellReader) -> None:
    right = total = 0
    for scene in sparse_scenes:
        window = scene.windows[0]
        pattern = official_patterns()[window.pattern]
        (spaces,) = cell_reader.read(scene.image, [true_lattice(window)])
        for space in spaces:
            if window.window[space.cell] is None:
                total += 1
                right += space.printed == PrintedSpace.of(pattern.restriction(space.cell))
    assert right >= 0.93 * total, f"print read right on {right} of {total} empty spaces"
