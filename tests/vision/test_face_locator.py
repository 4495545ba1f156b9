"""The face locators' cuts (`vision.face_locator`): each game's model is tested with its game."""

from __future__ import annotations

import numpy as np
import pytest

from vision.face_locator import CUT_PX, LOCATOR_CUT, locator_cuts


def _centroid(cut: np.ndarray) -> tuple[float, float]:
    weights = cut[:, :, 0].astype(np.float64)
    rows, columns = np.indices(weights.shape)
    return float((columns * weights).sum() / weights.sum()), float((rows * weights).sum() / weights.sum())


def test_a_cut_is_centred_on_its_point_to_the_sub_pixel() -> None:
    """A soft spot at a point between pixels lies at the middle of the cut round that point, and half a
    face to its left in the cut round the point half a face to its right."""
    rows, columns = np.indices((200, 300))
    spot_x, spot_y, face_side = 150.3, 100.7, 30.0
    spot = 255 * np.exp(-((columns - spot_x) ** 2 + (rows - spot_y) ** 2) / (2 * 6.0**2))
    tops = np.repeat(spot[:, :, None], 3, axis=2).astype(np.uint8)
    points = np.array([[spot_x, spot_y], [spot_x + face_side / 2, spot_y]])
    cuts = locator_cuts(tops, points, face_side, np.ones(3, np.float32))
    assert cuts.shape == (2, CUT_PX, CUT_PX, 3)
    middle = (CUT_PX - 1) / 2
    assert _centroid(cuts[0]) == pytest.approx((middle, middle), abs=0.1)
    half_a_face = CUT_PX / (2 * LOCATOR_CUT)
    assert _centroid(cuts[1]) == pytest.approx((middle - half_a_face, middle), abs=0.15)
