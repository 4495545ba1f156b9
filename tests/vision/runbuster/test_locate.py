"""Finding the mat: markers, homography, the camera estimate and the parallax correction."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.markers import MatNotFound
from vision.observation import box_centre
from vision.runbuster.locate import locate_mat
from vision.runbuster.mat import DIE_EDGE, MARKERS, MAT_HEIGHT, MAT_WIDTH
from vision.runbuster.printable import draw_mat
from vision.synth.mat import MatScene


def _warped(homography: np.ndarray, size: tuple[int, int], px_per_unit: float = 3.0) -> np.ndarray:
    printed = draw_mat(px_per_unit)
    to_print = np.diag([px_per_unit, px_per_unit, 1.0])
    to_print[:2, 2] = -0.5  # mat units to pixel indices, whose centres lie half a pixel in
    return np.asarray(
        cv2.warpPerspective(printed, homography @ np.linalg.inv(to_print), size, borderValue=(70, 90, 80))
    )


def test_a_warped_print_gives_back_its_homography() -> None:
    corners = np.float32([[0, 0], [MAT_WIDTH, 0], [MAT_WIDTH, MAT_HEIGHT], [0, MAT_HEIGHT]])
    target = np.float32([[180, 140], [1420, 90], [1560, 1040], [110, 980]])
    homography = cv2.getPerspectiveTransform(corners, target)
    location = locate_mat(_warped(homography, (1700, 1150)))
    assert location.markers == tuple(m.id for m in MARKERS)
    assert location.reprojection_error < 1.0
    assert np.abs(location.outline - target).max() < 1.0
    middle = location.to_mat(location.to_image(np.array([[210.0, 148.5]])))
    assert np.allclose(middle, [[210.0, 148.5]])


def test_rendered_photos_place_dice_within_two_millimetres(mat_scenes: list[MatScene]) -> None:
    """The footprint centre of every die, from its projected middle at half a die's height."""
    errors = []
    for scene in mat_scenes:
        location = locate_mat(scene.image)
        assert np.abs(location.outline - scene.mat_corners).max() < 3.0
        for label in scene.dice:
            seen = location.to_mat(np.array([box_centre(label.die.box)]), DIE_EDGE / 2)
            errors.append(float(np.hypot(*(seen[0] - label.mat_point))))
    assert np.percentile(errors, 99) < 2.0 and max(errors) < 3.0


def test_ignoring_the_height_would_misplace_dice_at_a_slant(mat_scenes: list[MatScene]) -> None:
    """Without the camera estimate a die's middle lands several millimetres off: the correction matters."""
    worst = 0.0
    for scene in mat_scenes:
        location = locate_mat(scene.image)
        for label in scene.dice:
            flat = location.to_mat(np.array([box_centre(label.die.box)]))
            worst = max(worst, float(np.hypot(*(flat[0] - label.mat_point))))
    assert worst > 4.0


def test_a_photo_without_the_mat_is_refused_by_name() -> None:
    with pytest.raises(MatNotFound, match=r"needs 2 of its 6 corner markers in view, found 0 \(ids: none\)"):
        locate_mat(np.full((480, 640, 3), 120, np.uint8))


def test_one_marker_is_not_enough() -> None:
    printed = draw_mat(3.0)
    only_first = printed[: (60 * 3), : (60 * 3)].copy()
    with pytest.raises(MatNotFound, match=r"found 1 \(ids: 0\)"):
        locate_mat(np.pad(only_first, ((20, 20), (20, 20), (0, 0)), constant_values=255))


def test_covered_markers_leave_the_others_to_place_the_mat(mat_scenes: list[MatScene]) -> None:
    scene = mat_scenes[0]
    full = locate_mat(scene.image)
    covered = scene.image.copy()
    for marker_id in (0, 1, 4, 5):
        quad = full.to_image(next(m for m in MARKERS if m.id == marker_id).corners)
        cv2.fillConvexPoly(covered, np.round(quad).astype(np.int32), (90, 60, 40))
    partial = locate_mat(covered)
    assert partial.markers == (2, 3)
    assert np.abs(partial.outline - full.outline).max() < 6.0
