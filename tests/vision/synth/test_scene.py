import colorsys

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.colors import COLOR_SETS, DIE_COLORS, OTHER_COLOR
from vision.synth.scene import (
    MIN_PIP_LIGHTNESS_GAP,
    SceneConfig,
    SceneConfigError,
    lightness,
    place_dice,
    readable_pip,
    render_scene,
    sample_camera,
    sample_die_look,
    separated,
)
from vision.synth.textures import BACKGROUND_KINDS

SMALL = SceneConfig(width=320, height=256, dice_count=(3, 8), die_size_px=(20, 60), marbled_probability=0.1)


def scenes(config: SceneConfig, count: int, seed: int = 7) -> list:
    rng = np.random.default_rng(seed)
    return [render_scene(config, rng) for _ in range(count)]


def test_the_same_seed_renders_the_same_scene() -> None:
    first = render_scene(SMALL, np.random.default_rng(42))
    second = render_scene(SMALL, np.random.default_rng(42))
    assert np.array_equal(first.image, second.image)
    assert len(first.dice) == len(second.dice)
    for a, b in zip(first.dice, second.dice, strict=True):
        assert (a.value, a.color, a.box, a.center, a.visible_fraction) == (
            b.value,
            b.color,
            b.box,
            b.center,
            b.visible_fraction,
        )
        assert np.array_equal(a.top_face, b.top_face)


def test_each_die_is_labelled_with_the_glare_on_its_top_face() -> None:
    def glares(probability: float) -> list[float]:
        config = SceneConfig(width=320, height=256, dice_count=(4, 8), glare_probability=probability)
        return [die.glare for scene in scenes(config, 6) for die in scene.dice]

    assert set(glares(0.0)) == {0.0}
    lit = glares(1.0)
    # A scene's lamp shows on about 70% of its dice, each highlight adding 0.3-1.2 of full white.
    assert 0.5 < np.mean([glare > 0 for glare in lit]) < 0.9
    assert all(glare == 0.0 or 0.3 <= glare <= 1.2 for glare in lit)


def test_image_has_the_configured_size_and_type() -> None:
    scene = render_scene(SMALL, np.random.default_rng(1))
    assert scene.image.shape == (256, 320, 3)
    assert scene.image.dtype == np.uint8


def test_labels_are_in_range_and_geometrically_consistent() -> None:
    allowed = set(SMALL.colors) | {OTHER_COLOR}
    total = 0
    for scene in scenes(SMALL, 12):
        for die in scene.dice:
            total += 1
            assert 1 <= die.value <= 6
            assert die.color in allowed
            assert die.top_face.shape == (4, 2) and die.top_face.dtype == np.float32
            assert die.outline.ndim == 2 and die.outline.shape[1] == 2
            x0, y0, x1, y1 = die.box
            assert 0 <= x0 < x1 <= SMALL.width - 1 and 0 <= y0 < y1 <= SMALL.height - 1
            assert np.all(die.top_face >= [x0 - 1e-3, y0 - 1e-3]) and np.all(
                die.top_face <= [x1 + 1e-3, y1 + 1e-3]
            )
            top = die.top_face.reshape(-1, 1, 2)
            assert cv2.pointPolygonTest(top, die.center, False) > 0
            edges = np.linalg.norm(np.roll(die.top_face, -1, axis=0) - die.top_face, axis=1)
            assert SMALL.die_size_px[0] - 1e-3 <= edges.mean() <= SMALL.die_size_px[1] + 1e-3
            assert 0.0 <= die.visible_fraction <= 1.0
    assert total >= 12 * 3 * 0.8


def test_top_face_corners_wind_clockwise_on_screen() -> None:
    """The printed order (top-left, top-right, bottom-right, bottom-left) runs clockwise, y pointing down."""
    for scene in scenes(SMALL, 4):
        for die in scene.dice:
            a, b, _, d = die.top_face
            right, down = b - a, d - a
            assert right[0] * down[1] - right[1] * down[0] > 0


def test_dice_stand_apart_in_3d_though_some_touch() -> None:
    config = SceneConfig(
        width=320, height=320, dice_count=(10, 10), die_size_px=(24, 40), cluster_probability=0.8
    )
    rng = np.random.default_rng(3)
    touching = 0
    for _ in range(5):
        camera = sample_camera(config, rng)
        dice = place_dice(config, camera, rng)
        assert len(dice) >= 5
        for i, first in enumerate(dice):
            for second in dice[i + 1 :]:
                assert separated(first.box.footprint, second.box.footprint)
                gap = np.linalg.norm(first.box.center[:2] - second.box.center[:2])
                touching += gap < (first.box.half_extents[0] + second.box.half_extents[0]) * 1.1
    assert touching >= 5


def test_separated_tells_overlap_from_touching() -> None:
    square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    assert separated(square, square + np.array([1.0, 0.0]))
    assert not separated(square, square + np.array([0.9, 0.5]))
    diamond = np.array([[1.5, -0.2], [2.2, 0.5], [1.5, 1.2], [0.8, 0.5]])
    assert not separated(square, diamond)


def test_dice_stand_out_from_the_table_where_labelled() -> None:
    """The top face's pixels differ from the table just outside the die: an accuracy floor over many dice."""
    config = SceneConfig(
        width=320, height=320, dice_count=(1, 4), die_size_px=(30, 60), distractor_count=(0, 0)
    )
    distinct = total = 0
    for scene in scenes(config, 10, seed=11):
        image = scene.image.astype(np.float32)
        for die in scene.dice:
            if die.visible_fraction < 0.99:
                continue
            inside = np.zeros(image.shape[:2], np.uint8)
            cv2.fillConvexPoly(inside, np.round(die.top_face).astype(np.int32), 1)
            inside = cv2.erode(inside, np.ones((5, 5), np.uint8))
            hull = np.zeros_like(inside)
            cv2.fillConvexPoly(hull, np.round(die.outline).astype(np.int32), 1)
            ring = cv2.dilate(hull, np.ones((9, 9), np.uint8)) - cv2.dilate(hull, np.ones((3, 3), np.uint8))
            if not inside.any() or not ring.any():
                continue
            total += 1
            die_colour = image[inside > 0].mean(axis=0)
            table_colour = np.median(image[ring > 0], axis=0)
            distinct += np.abs(die_colour - table_colour).max() > 12
    assert total >= 10
    assert distinct / total >= 0.85


def test_an_unoccluded_die_seen_from_straight_above_is_fully_visible() -> None:
    config = SceneConfig(
        width=256,
        height=256,
        dice_count=(1, 1),
        max_tilt_deg=0.0,
        distractor_count=(0, 0),
        die_size_px=(30, 50),
    )
    for scene in scenes(config, 3):
        (die,) = scene.dice
        assert die.visible_fraction > 0.97


def test_occluded_dice_report_less_than_full_visibility() -> None:
    config = SceneConfig(
        width=320,
        height=320,
        dice_count=(12, 12),
        die_size_px=(30, 50),
        cluster_probability=0.9,
        mixed_sizes_probability=1.0,
        max_tilt_deg=35.0,
    )
    fractions = [die.visible_fraction for scene in scenes(config, 6) for die in scene.dice]
    assert min(fractions) < 0.98
    assert np.median(fractions) > 0.9


@pytest.mark.parametrize("kind", BACKGROUND_KINDS)
def test_every_background_kind_renders(kind: str) -> None:
    config = SceneConfig(width=160, height=160, dice_count=(1, 2), die_size_px=(20, 40), backgrounds=(kind,))
    scene = render_scene(config, np.random.default_rng(5))
    assert scene.image.std() > 1.0


def test_colour_sets_restrict_the_labels() -> None:
    config = SceneConfig(
        width=256, height=256, dice_count=(4, 6), die_size_px=(20, 40), colors=COLOR_SETS["sagrada"]
    )
    labels = {die.color for scene in scenes(config, 4) for die in scene.dice}
    assert labels <= set(COLOR_SETS["sagrada"])
    assert len(labels) >= 3


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("colors", ("red", "pink")),
        ("backgrounds", ("lava",)),
        ("dice_count", (5, 2)),
        ("translucent_probability", 1.5),
        ("max_tilt_deg", 80.0),
    ],
)
def test_config_errors_name_the_field(field: str, value: object) -> None:
    with pytest.raises(SceneConfigError, match=field):
        SceneConfig(**{field: value})  # type: ignore[arg-type]


def test_every_sampled_die_has_pips_that_stand_out_from_its_body() -> None:
    # Coloured pips on any body and dark pips often would otherwise give gold on yellow or dark on black.
    config = SceneConfig(colored_pips_probability=0.5, dark_pips_probability=0.5, marbled_probability=0.2)
    rng = np.random.default_rng(11)
    gaps = []
    for _ in range(400):
        look, _label = sample_die_look(DIE_COLORS[int(rng.integers(len(DIE_COLORS)))], config, rng)
        gaps.append(abs(lightness(look.pip) - lightness(look.body)))
    assert min(gaps) >= MIN_PIP_LIGHTNESS_GAP


def test_readable_pip_keeps_pips_that_stand_out_and_replaces_the_rest() -> None:
    gold, yellow, black = (0.2, 0.8, 0.9), (0.1, 0.85, 0.95), (0.1, 0.1, 0.1)
    assert readable_pip(gold, black) == gold
    replaced = readable_pip(gold, yellow)
    assert replaced != gold
    assert lightness(replaced) < 20  # black pips on a yellow die
    assert lightness(readable_pip(black, black)) > 80  # white pips on a black die


def test_die_colors_are_the_agreed_names() -> None:
    assert DIE_COLORS == ("red", "yellow", "green", "blue", "purple", "orange", "white", "black")


def test_dice_cut_by_the_frame_count_the_cut_part_as_hidden() -> None:
    config = SceneConfig(
        width=256,
        height=256,
        dice_count=(6, 6),
        die_size_px=(40, 60),
        edge_dice_probability=1.0,
        cluster_probability=0.0,
        distractor_count=(0, 0),
    )
    cut = 0
    for scene in scenes(config, 6):
        for die in scene.dice:
            assert 0 <= die.center[0] <= 255 and 0 <= die.center[1] <= 255
            frame = np.array([[-0.5, -0.5], [255.5, -0.5], [255.5, 255.5], [-0.5, 255.5]], np.float32)
            inside, _ = cv2.intersectConvexConvex(die.top_face, frame)
            share = inside / cv2.contourArea(die.top_face)
            if share < 0.9:
                cut += 1
                assert die.visible_fraction <= share + 0.08
    assert cut >= 3


def test_dice_stay_whole_in_view_by_default() -> None:
    for scene in scenes(SMALL, 6):
        for die in scene.dice:
            assert die.outline.min() >= 0 and die.outline[:, 0].max() <= SMALL.width - 1
            assert die.outline[:, 1].max() <= SMALL.height - 1


def test_stacked_dice_rest_on_others_and_hide_their_tops() -> None:
    config = SceneConfig(
        width=320,
        height=320,
        dice_count=(6, 6),
        die_size_px=(30, 50),
        stack_probability=0.6,
        max_tilt_deg=0.0,
        distractor_count=(0, 0),
    )
    rng = np.random.default_rng(8)
    stacked = 0
    for _ in range(4):
        camera = sample_camera(config, rng)
        dice = place_dice(config, camera, rng)
        for upper in (d for d in dice if d.level > 0):
            stacked += 1
            lower = min(
                (d for d in dice if d.level == upper.level - 1),
                key=lambda d: np.linalg.norm(d.box.center[:2] - upper.box.center[:2]),
            )
            top_of_lower = lower.box.center[2] + lower.box.half_extents[2]
            assert upper.box.center[2] - upper.box.half_extents[2] == pytest.approx(top_of_lower)
            assert np.linalg.norm(upper.box.center[:2] - lower.box.center[:2]) < lower.box.half_extents[0]
    assert stacked >= 3
    hidden = [
        die.visible_fraction
        for scene in scenes(config, 4, seed=8)
        for die in scene.dice
        if die.level == 0 and any(other.level == 1 for other in scene.dice)
    ]
    assert min(hidden) < 0.3


@settings(max_examples=12, deadline=None)
@given(
    width=st.integers(48, 200),
    height=st.integers(48, 200),
    low=st.floats(8, 40),
    spread=st.floats(1.0, 2.5),
    tilt=st.floats(0, 45),
    knobs=st.lists(st.floats(0, 1), min_size=6, max_size=6),
    kind=st.sampled_from(BACKGROUND_KINDS),
    seed=st.integers(0, 2**16),
)
def test_any_valid_config_renders_with_labels_in_range(
    width: int, height: int, low: float, spread: float, tilt: float, knobs: list[float], kind: str, seed: int
) -> None:
    config = SceneConfig(
        width=width,
        height=height,
        dice_count=(0, 8),
        die_size_px=(low, low * spread),
        max_tilt_deg=tilt,
        backgrounds=(kind,),
        translucent_probability=knobs[0],
        marbled_probability=knobs[1],
        cluster_probability=knobs[2],
        stack_probability=knobs[3],
        edge_dice_probability=knobs[4],
        motion_blur_probability=knobs[5],
    )
    scene = render_scene(config, np.random.default_rng(seed))
    assert scene.image.shape == (height, width, 3)
    for die in scene.dice:
        assert 1 <= die.value <= 6
        assert 0.0 <= die.visible_fraction <= 1.0
        assert np.isfinite(die.top_face).all()
        assert 0 <= die.center[0] <= width - 1 and 0 <= die.center[1] <= height - 1


@pytest.mark.parametrize("color", [color for color in DIE_COLORS if color not in ("white", "black")])
def test_translucent_dice_pass_light_of_their_own_hue(color: str) -> None:
    # A tint that strays from the body's hue renders a blue die teal or a purple one red under its label.
    config = SceneConfig(translucent_probability=1.0, marbled_probability=0.0)
    rng = np.random.default_rng(3)
    for _ in range(200):
        look, _label = sample_die_look(color, config, rng)
        body_hue, body_saturation, _ = colorsys.rgb_to_hsv(*look.body[::-1])
        tint_hue, tint_saturation, _ = colorsys.rgb_to_hsv(*look.tint[::-1])
        hue_gap = abs(body_hue - tint_hue) * 360
        assert min(hue_gap, 360 - hue_gap) <= 0.5
        assert tint_saturation <= body_saturation + 1e-9
