"""The lattice fit on rendered windows: found, in the right place, and the right way up."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from vision.sagrada.lattice import GRID_WIDTH, WindowLattice, find_windows, project
from vision.synth.sagrada import RenderedWindow, WindowScene

from .conftest import pitch_px


def matching(lattices: list[WindowLattice], window: RenderedWindow) -> WindowLattice | None:
    """The found lattice whose centre lies within a pitch of the window's, if any."""
    for lattice in lattices:
        if np.linalg.norm(lattice.cell_centers().mean(axis=0) - window.cells.mean(axis=0)) < pitch_px(window):
            return lattice
    return None


def corner_error(lattice: WindowLattice, window: RenderedWindow) -> tuple[float, float]:
    """Largest corner error in spaces, as found and with the card turned half round."""
    pitch = pitch_px(window)
    as_found = float(np.abs(lattice.corners - window.corners).max()) / pitch
    turned = float(np.abs(lattice.turned().corners - window.corners).max()) / pitch
    return as_found, turned


def test_windows_are_found_on_their_grid_and_mostly_the_right_way_up(scenes: list[WindowScene]) -> None:
    placed = upright = 0
    for scene in scenes:
        window = scene.windows[0]
        lattice = matching(find_windows(scene.image), window)
        if lattice is None:
            continue
        as_found, turned = corner_error(lattice, window)
        placed += min(as_found, turned) < 0.2
        upright += as_found < 0.2
    assert placed >= 0.95 * len(scenes), f"{placed} of {len(scenes)} windows fitted to within 0.2 space"
    assert upright >= 0.95 * len(scenes), f"{upright} of {len(scenes)} windows the right way up by the frame"


def test_windows_with_few_dice_are_found_on_their_grid(sparse_scenes: list[WindowScene]) -> None:
    placed = 0
    for scene in sparse_scenes:
        lattice = matching(find_windows(scene.image), scene.windows[0])
        placed += lattice is not None and min(corner_error(lattice, scene.windows[0])) < 0.2
    assert placed >= 0.95 * len(sparse_scenes), f"{placed} of {len(sparse_scenes)} fitted within 0.2 space"


def test_half_turn_swaps_the_corners_and_back() -> None:
    lattice = WindowLattice(np.array([[10.0, 1, 50], [-1, 10, 80], [0, 0, 1]]), 0.3, 0.7)
    turned = lattice.turned()
    assert np.allclose(turned.corners, np.roll(lattice.corners, 2, axis=0))
    assert turned.orientation_margin == pytest.approx(-0.3)
    assert np.allclose(turned.turned().grid_to_image, lattice.grid_to_image)
    assert np.allclose(lattice.corners[1] - lattice.corners[0], [10 * GRID_WIDTH, -GRID_WIDTH])


def test_a_photo_without_a_window_yields_none() -> None:
    rng = np.random.default_rng(3)
    noise = rng.integers(90, 200, (400, 600, 3), dtype=np.uint8)
    assert find_windows(noise) == []


def test_the_plane_of_the_dice_tops_follows_the_camera() -> None:
    """A camera tilted over the card: the homography raised by a die's height maps grid points where the
    camera sees the points that high above the card (towards the camera)."""
    width, height, focal = 1280, 720, 900.0
    camera = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1.0]])
    rotation, _ = cv2.Rodrigues(np.array([0.5, -0.3, 0.4]))
    translation = np.array([-3.0, -2.0, 14.0])
    grid = np.array([[0, 0], [6, 0], [6, 5], [0, 5], [3, 2.5]], np.float64)

    def seen(lift: float) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        points = np.column_stack((grid, np.full(len(grid), lift))) @ rotation.T + translation
        return (points @ camera.T)[:, :2] / (points @ camera.T)[:, 2:], points[:, 2]

    on_card, _ = seen(0.0)
    homography, _ = cv2.findHomography(grid, on_card)
    lattice = WindowLattice(homography, 0.0, 1.0)
    towards_camera = min((0.9, -0.9), key=lambda lift: float(seen(lift)[1].mean()))
    expected, _ = seen(towards_camera)
    assert np.abs(project(lattice.raised(0.9, width, height), grid) - expected).max() < 0.5
    assert np.abs(expected - on_card).max() > 20  # the test means something: the lift shows


def test_a_ruled_square_on_the_table_is_no_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """A dark-ruled square of a card's size matches the layout by its edge alone; with no grout inside it
    is not taken for a window (the grout check is what turns it away)."""
    table = np.full((540, 960, 3), 205, np.uint8)
    cv2.rectangle(table, (330, 150), (630, 430), (25, 25, 25), 14)
    assert find_windows(table) == []
    monkeypatch.setattr("vision.sagrada.lattice.MIN_GROUT_SEEN", 0)
    assert find_windows(table) != []
