"""The lattice fit on rendered windows: found, in the right place, and the right way up."""

from __future__ import annotations

import numpy as np
import pytest

from vision.sagrada.lattice import GRID_WIDTH, WindowLattice, find_windows
from vision.synth.sagrada import RenderedWindow, WindowScene

from .conftest import pitch_px


def matching(lattices: list[WindowLattice], window: RenderedWindow) -> WindowLattice | None:
    """The found lattice whose centre lies within a pitch of the window's, if any."""
    for lattice in lattices:
        if np.linalg.norm(lattice.cell_centers().mean(axis=0) - window.cells.mean(axis=0)) < pitch_px(window):
            return lattice
    return None


def test_found_windows_sit_on_the_printed_grid(scenes: list[WindowScene]) -> None:
    found = placed = 0
    for scene in scenes:
        window = scene.windows[0]
        lattice = matching(find_windows(scene.image), window)
        if lattice is None:
            continue
        found += 1
        # Corners within a fifth of a space, in the labelled order (r1c1 first): position and turn.
        if np.abs(lattice.corners - window.corners).max() < 0.2 * pitch_px(window):
            placed += 1
    assert found >= 0.6 * len(scenes), f"found {found} of {len(scenes)} windows"
    assert placed >= 0.85 * found, f"{placed} of {found} found windows fitted to within 0.2 space"


def test_sparse_windows_are_nearly_always_found(sparse_scenes: list[WindowScene]) -> None:
    found = sum(matching(find_windows(s.image), s.windows[0]) is not None for s in sparse_scenes)
    assert found >= 0.75 * len(sparse_scenes), f"found {found} of {len(sparse_scenes)}"


def test_half_turn_swaps_the_corners_and_back() -> None:
    lattice = WindowLattice(np.array([[10.0, 1, 50], [-1, 10, 80], [0, 0, 1]]), 0.3, 12)
    turned = lattice.turned()
    assert np.allclose(turned.corners, np.roll(lattice.corners, 2, axis=0))
    assert turned.orientation_margin == pytest.approx(-0.3)
    assert np.allclose(turned.turned().grid_to_image, lattice.grid_to_image)
    assert np.allclose(lattice.corners[1] - lattice.corners[0], [10 * GRID_WIDTH, -GRID_WIDTH])


def test_a_photo_without_a_window_yields_none() -> None:
    rng = np.random.default_rng(3)
    noise = rng.integers(90, 200, (400, 600, 3), dtype=np.uint8)
    assert find_windows(noise) == []
