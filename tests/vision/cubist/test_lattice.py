"""Placing top faces on the lattice from their image centres: flat and stacked structures under perspective,
any yaw and tilts up to 33 degrees (the renderer's camera projects exact centres; no pixels are drawn)."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pytest

from engine.cubist.structures import Column, Structure
from engine.cubist.topview import TopView, column_heights
from vision.cubist.evaluation import same_view
from vision.cubist.lattice import fit_lattice
from vision.synth.camera import look_at_table
from vision.synth.cubist import random_workroom

FloatArray = npt.NDArray[np.float64]


def projected(
    structure: Structure, tilt: float, yaw: float, distance: float, rng: np.random.Generator
) -> tuple[list[Column], FloatArray, FloatArray]:
    """Each column's top-face centre and box size as a camera `distance` die edges away sees them."""
    camera = look_at_table(
        width=960,
        height=720,
        focal=40.0 * distance,
        tilt_deg=tilt,
        azimuth_deg=0.0,
        roll_deg=yaw,
        distance=distance,
    )
    heights = column_heights(structure)
    middle = np.mean(np.array(list(heights), np.float64), axis=0)
    columns, centres, extents = [], [], []
    for column, height in heights.items():
        centre = np.array(column, np.float64) - middle + rng.normal(0, 0.015, 2)
        corners = np.array(
            [[centre[0] + dx, centre[1] + dy, height] for dx in (-0.48, 0.48) for dy in (-0.48, 0.48)]
        )
        image = camera.project(corners)
        columns.append(column)
        centres.append(camera.project(np.array([[centre[0], centre[1], float(height)]]))[0])
        extents.append(np.ptp(image, axis=0))
    return columns, np.array(centres), np.array(extents)


def read_view(structure: Structure, tilt: float, yaw: float, distance: float, seed: int) -> TopView:
    columns, centres, extents = projected(structure, tilt, yaw, distance, np.random.default_rng(seed))
    fit = fit_lattice(centres, extents)
    values = TopView.of(structure).values
    placed = {
        cell: values[column] for column, cell in zip(columns, fit.columns, strict=True) if cell is not None
    }
    return TopView(placed)


@pytest.mark.parametrize("yaw", [0.0, 17.0, 45.0, 71.0, 130.0, 200.0, 305.0])
@pytest.mark.parametrize("tilt", [0.0, 20.0, 33.0])
def test_a_flat_l_and_a_plus_are_placed_at_any_yaw_and_tilt(yaw: float, tilt: float) -> None:
    for dice in (
        {(0, 0, 0): 3, (1, 0, 0): 4, (2, 0, 0): 5, (2, 1, 0): 6},
        {(1, 1, 0): 3, (0, 1, 0): 2, (2, 1, 0): 4, (1, 0, 0): 4, (1, 2, 0): 2},
    ):
        structure = Structure(dice)
        assert same_view(read_view(structure, tilt, yaw, 14.0, 1), TopView.of(structure))


def test_a_near_camera_bends_the_lattice_and_it_is_still_placed() -> None:
    structure = Structure({(x, 0, 0): 1 + x for x in range(6)} | {(0, 1, 0): 2, (5, 1, 0): 5})
    for yaw in (10.0, 80.0, 160.0):
        assert same_view(read_view(structure, 30.0, yaw, 9.0, 2), TopView.of(structure))


def test_a_stack_two_high_seen_slanted_keeps_its_column() -> None:
    # The middle column's top stands two levels up: at 30 degrees it moves over a step towards its neighbour.
    structure = Structure(
        {(0, 0, 0): 3, (1, 0, 0): 2, (1, 0, 1): 2, (1, 0, 2): 2, (2, 0, 0): 3, (1, 1, 0): 1}
    )
    for yaw in (0.0, 90.0, 225.0):
        columns, centres, extents = projected(structure, 30.0, yaw, 20.0, np.random.default_rng(3))
        fit = fit_lattice(centres, extents)
        assert same_view(read_view(structure, 30.0, yaw, 20.0, 3), TopView.of(structure))
        levels = dict(zip(columns, fit.levels, strict=True))
        assert levels[(1, 0)] == 2 and levels[(0, 0)] == 0


def test_grown_workrooms_are_placed_whole_almost_always() -> None:
    right = total = 0
    for seed in range(200):
        rng = np.random.default_rng(700_000 + seed)
        structure = random_workroom(int(rng.integers(2, 9)), rng)
        tilt, yaw = float(rng.uniform(0, 33)), float(rng.uniform(0, 360))
        distance = math.exp(rng.uniform(math.log(10), math.log(40)))
        total += 1
        right += same_view(read_view(structure, tilt, yaw, distance, seed), TopView.of(structure))
    assert right >= 0.93 * total


def test_a_face_far_from_the_rest_is_not_placed() -> None:
    centres = np.array([[100.0, 100.0], [150.0, 100.0], [150.0, 150.0], [400.0, 420.0]])
    fit = fit_lattice(centres, np.full((4, 2), 48.0))
    placed = fit.columns[:3]
    assert fit.columns[3] is None and None not in placed and len(set(placed)) == 3


def test_no_face_and_one_face() -> None:
    assert fit_lattice(np.zeros((0, 2)), np.zeros((0, 2))).columns == ()
    assert fit_lattice(np.array([[10.0, 20.0]]), np.array([[30.0, 30.0]])).columns == ((0, 0),)
