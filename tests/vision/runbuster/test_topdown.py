"""The mat's top-down views: where mat points appear, what the view at the paper's height shows."""

from __future__ import annotations

import cv2
import numpy as np

from vision.runbuster.locate import locate_mat
from vision.runbuster.mat import ZONES
from vision.runbuster.printable import draw_mat
from vision.runbuster.topdown import (
    VIEW_LEFT,
    VIEW_SCALE,
    VIEW_SIZE,
    VIEW_TOP,
    mat_to_view,
    plane_views,
    view_to_mat,
)
from vision.synth.mat import MatSceneConfig, render_mat_scene


def test_the_view_covers_every_zone_at_the_detectors_size() -> None:
    corners = np.array([[z.left, z.top] for z in ZONES] + [[z.right, z.bottom] for z in ZONES])
    pixels = mat_to_view(corners)
    assert (pixels >= 0).all() and (pixels < VIEW_SIZE).all()
    assert max(VIEW_SIZE) == 640
    assert np.allclose(view_to_mat(pixels), corners)


def _paper_view(image: np.ndarray) -> np.ndarray:
    (view,) = plane_views(image, locate_mat(image), (0.0,))
    return np.asarray(cv2.cvtColor(view, cv2.COLOR_BGR2GRAY), np.float32)


def test_the_view_at_the_papers_height_shows_the_print_where_it_lies() -> None:
    """An empty mat seen from straight above matches the drawn mat cut to the view's rectangle, and a
    large photo (shrunk before the view is taken) gives the same view."""
    scene = render_mat_scene(MatSceneConfig(), np.random.default_rng(4), contents={})
    seen = _paper_view(scene.image)
    printed = cv2.cvtColor(draw_mat(VIEW_SCALE), cv2.COLOR_BGR2GRAY).astype(np.float32)
    # Mat point (x, y) is at printed pixel (x, y) * scale - 0.5 and at view pixel (x - left, y - top) * scale.
    shift = np.float32([[1, 0, (VIEW_LEFT * VIEW_SCALE) - 0.5], [0, 1, (VIEW_TOP * VIEW_SCALE) - 0.5]])
    expected = cv2.warpAffine(printed, shift, VIEW_SIZE, flags=cv2.WARP_INVERSE_MAP, borderValue=255)
    inside = (slice(20, VIEW_SIZE[1] - 20), slice(20, VIEW_SIZE[0] - 20))
    correlation = np.corrcoef(seen[inside].ravel(), expected[inside].ravel())[0, 1]
    assert correlation > 0.8
    misplaced = np.corrcoef(seen[inside].ravel(), np.roll(expected, 6, axis=0)[inside].ravel())[0, 1]
    assert misplaced < correlation - 0.2
    height, width = scene.image.shape[:2]
    large = cv2.resize(scene.image, (width * 3, height * 3), interpolation=cv2.INTER_CUBIC)
    assert np.abs(_paper_view(large) - seen)[inside].mean() < 4.0
