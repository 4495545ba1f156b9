import math

import cv2
import numpy as np
import pytest

from vision.synth.camera import look_at_table
from vision.synth.dice import (
    CANONICAL_VALUES,
    PIP_LAYOUTS,
    DieLook,
    Glare,
    die_box,
    die_rotation,
    draw_box,
    face_texture,
    pip_mask,
)

LOOK = DieLook(
    body=(0.1, 0.1, 0.8),
    pip=(1.0, 1.0, 1.0),
    opacity=1.0,
    tint=(0.0, 0.0, 0.0),
    corner_radius=0.15,
    pip_radius=0.1,
    pip_spread=0.25,
    bevel=0.2,
)


def test_each_value_has_that_many_pips_inside_the_face() -> None:
    for value, layout in PIP_LAYOUTS.items():
        assert len(layout) == value
        assert all(-1 <= c <= 1 and -1 <= r <= 1 for c, r in layout)


def test_opposite_faces_sum_to_seven_and_one_two_three_turn_counterclockwise() -> None:
    normals = np.array([[0, 0, 1], [0, 0, -1], [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]])
    for face in range(0, 6, 2):
        assert CANONICAL_VALUES[face] + CANONICAL_VALUES[face + 1] == 7
    n1, n2, n3 = (normals[CANONICAL_VALUES.index(v)] for v in (1, 2, 3))
    assert np.dot(np.cross(n1, n2), n3) > 0


@pytest.mark.parametrize("value", range(1, 7))
def test_the_rotation_for_a_value_puts_that_face_up_and_its_opposite_down(value: int) -> None:
    for yaw in (0.0, 0.7, 2.5, -1.9):
        box = die_box(1.0, -2.0, 1.2, die_rotation(value, yaw))
        assert CANONICAL_VALUES[box.up_face] == value
        assert CANONICAL_VALUES[box.up_face ^ 1] == 7 - value
        top = box.face_corners(box.up_face)
        assert np.allclose(top[:, 2], 1.2)
        assert np.allclose(box.footprint.mean(axis=0), [1.0, -2.0])


def test_face_corners_wind_the_same_way_for_every_face_seen_from_outside() -> None:
    box = die_box(0.0, 0.0, 1.0, die_rotation(3, 0.4))
    for face in range(6):
        corners = box.face_corners(face)
        normal = box.face_normals[face]
        winding = np.cross(corners[1] - corners[0], corners[3] - corners[0])
        # Texture right x texture down points into the die when seen from outside (image axes convention).
        assert np.dot(winding, normal) < 0


def test_a_die_seen_from_above_shows_its_top_and_no_bottom() -> None:
    box = die_box(0.0, 0.0, 1.0, die_rotation(5, 0.3))
    visible = box.faces_toward(np.array([0.3, 0.2, 20.0]))
    assert box.up_face in visible
    assert box.up_face ^ 1 not in visible
    assert 1 <= len(visible) <= 3


def test_pip_mask_covers_about_the_pip_area() -> None:
    for value in range(1, 7):
        mask = pip_mask(64, value, 0.1, 0.25)
        expected = value * math.pi * (0.1 * 64) ** 2
        assert mask.sum() == pytest.approx(expected, rel=0.15)


def test_opaque_face_texture_is_fully_covered_inside_with_rounded_corners() -> None:
    texture = face_texture(LOOK, 4, 48, 0.9, np.random.default_rng(0))
    assert texture.shape == (48, 48, 4)  # no clear channel: nothing shows through
    assert texture[24, 24, 3] == pytest.approx(1.0)
    assert texture[0, 0, 3] < 0.5  # the rounded corner
    # A pip (white) is brighter than the blue body between pips.
    pip_center = int((0.5 - 0.25) * 48)
    assert texture[pip_center, pip_center, 1] > texture[24, 12, 1] + 0.3


@pytest.mark.parametrize("angle", [0.0, math.pi / 2])
def test_a_streak_of_glare_runs_long_along_its_angle_and_thin_across_it(angle: float) -> None:
    blank = face_texture(LOOK, None, 64, 0.8, np.random.default_rng(0))
    streak = Glare(0.5, 0.5, radius=0.04, strength=1.0, angle=angle, stretch=10.0)
    glared = face_texture(LOOK, None, 64, 0.8, np.random.default_rng(0), streak)
    added = (glared - blank)[..., :3].mean(axis=2)
    along, across = (added[32, 8:56], added[8:56, 32]) if angle == 0.0 else (added[8:56, 32], added[32, 8:56])
    assert along.min() > 0.4  # lit from one side of the face to the other
    assert np.count_nonzero(across > 0.1) <= 8  # a few pixels wide


def test_a_round_glare_spot_is_the_default_shape() -> None:
    spot = Glare(0.5, 0.5, radius=0.1, strength=1.0)
    blank = face_texture(LOOK, None, 64, 0.8, np.random.default_rng(0))
    added = (face_texture(LOOK, None, 64, 0.8, np.random.default_rng(0), spot) - blank)[..., :3].mean(axis=2)
    assert np.count_nonzero(added[32] > 0.1) == np.count_nonzero(added[:, 32] > 0.1)


def test_translucent_face_texture_lets_light_through_the_body_but_not_the_pips() -> None:
    look = DieLook(**{**LOOK.__dict__, "opacity": 0.5, "tint": (0.2, 0.2, 0.9)})
    texture = face_texture(look, 1, 64, 1.0, np.random.default_rng(0))
    assert texture[32, 32, 4] < 0.05  # the single pip is opaque
    assert texture[32, 12, 4] > 0.3


def _render_single_die(value: int, yaw: float, tilt: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """A white die with black pips on black, drawn directly: (image, owner map, top quad, top owner id)."""
    camera = look_at_table(
        width=200, height=200, focal=1400.0, tilt_deg=tilt, azimuth_deg=30, roll_deg=50, distance=14
    )
    box = die_box(0.0, 0.0, 1.0, die_rotation(value, yaw))
    look = DieLook(
        body=(1.0, 1.0, 1.0),
        pip=(0.0, 0.0, 0.0),
        opacity=1.0,
        tint=(0.0, 0.0, 0.0),
        corner_radius=0.1,
        pip_radius=0.1,
        pip_spread=0.25,
        bevel=0.0,
    )
    image = np.zeros((200, 200, 3), np.float32)
    owner = np.full((200, 200), -1, np.int32)
    quad, area = draw_box(
        image,
        owner,
        camera,
        box,
        look,
        CANONICAL_VALUES,
        np.array([0.0, 0.0, 1.0]),
        1.0,
        np.random.default_rng(0),
        8,
    )
    assert area > 0
    return image, owner, quad, 8 + box.up_face


@pytest.mark.parametrize("value", range(1, 7))
def test_the_labelled_top_face_is_where_the_top_face_is_drawn(value: int) -> None:
    _, owner, quad, top_id = _render_single_die(value, yaw=0.5 + value, tilt=25.0)
    drawn = owner == top_id
    label = np.zeros_like(drawn, np.uint8)
    cv2.fillConvexPoly(label, np.round(quad * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    overlap = np.logical_and(drawn, label > 0).sum() / np.logical_or(drawn, label > 0).sum()
    assert overlap > 0.93


@pytest.mark.parametrize("value", range(1, 7))
def test_rectifying_the_labelled_top_face_shows_the_printed_pip_layout(value: int) -> None:
    image, _, quad, _ = _render_single_die(value, yaw=1.1 * value, tilt=30.0)
    square = np.array([[0, 0], [60, 0], [60, 60], [0, 60]], np.float32)
    face = cv2.warpPerspective(
        image[..., 0], cv2.getPerspectiveTransform(quad.astype(np.float32), square), (60, 60)
    )
    pips = (face < 0.4).astype(np.uint8)
    pips[:6], pips[-6:], pips[:, :6], pips[:, -6:] = 0, 0, 0, 0  # the face's rounded rim
    count, _, _, centroids = cv2.connectedComponentsWithStats(pips)
    assert count - 1 == value
    found = sorted(tuple(round((c - 30) / 15) for c in centroid) for centroid in centroids[1:])
    assert found == sorted(PIP_LAYOUTS[value])
