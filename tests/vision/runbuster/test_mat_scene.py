"""The mat scene renderer: dice where the contents say, exact labels, reproducible."""

from __future__ import annotations

import numpy as np
import pytest

from vision.runbuster.mat import ZONES, zone_named
from vision.synth.mat import MatSceneConfig, render_mat_scene
from vision.synth.scene import SceneConfig, SceneConfigError

SMALL = MatSceneConfig(scene=SceneConfig(width=640, height=480, motion_blur_probability=0.0))


def test_contents_are_placed_wholly_inside_their_zones() -> None:
    contents = {"red.hand": (4, 5, 6), "blue.roll": (1, 1, 2, 3, 5, 6)}
    scene = render_mat_scene(SMALL, np.random.default_rng(3), contents)
    assert scene.values("red.hand") == (4, 5, 6) and scene.values("blue.roll") == (1, 1, 2, 3, 5, 6)
    assert scene.values("red.roll") == () and scene.image.shape == (480, 640, 3)
    for die in scene.dice:
        zone = zone_named(die.zone)
        assert (
            zone.contains(*die.mat_point)
            and min(die.mat_point[0] - zone.left, zone.right - die.mat_point[0]) >= 0.7 * 16 * 0.95
        )
    corners = scene.mat_corners
    assert (corners >= 0).all() and (corners[:, 0] < 640).all() and (corners[:, 1] < 480).all()


def test_a_seed_reproduces_the_photo() -> None:
    first = render_mat_scene(SMALL, np.random.default_rng(11))
    second = render_mat_scene(SMALL, np.random.default_rng(11))
    assert np.array_equal(first.image, second.image)
    assert [(d.zone, d.mat_point, d.die.value, d.die.box) for d in first.dice] == [
        (d.zone, d.mat_point, d.die.value, d.die.box) for d in second.dice
    ]


def test_random_contents_stay_within_the_configured_counts() -> None:
    config = MatSceneConfig(scene=SMALL.scene, dice_per_zone=(1, 2))
    scene = render_mat_scene(config, np.random.default_rng(5))
    for zone in ZONES:
        assert 1 <= len(scene.values(zone.key)) <= 2


def test_bad_configurations_name_the_field() -> None:
    with pytest.raises(SceneConfigError, match="mat_share"):
        MatSceneConfig(mat_share=(0.9, 0.5))
    with pytest.raises(SceneConfigError, match="dice_per_zone"):
        MatSceneConfig(dice_per_zone=(0, 7))
    with pytest.raises(SceneConfigError, match="white_dice_probability"):
        MatSceneConfig(white_dice_probability=2.0)
    with pytest.raises(SceneConfigError, match=r"green\.hand"):
        render_mat_scene(SMALL, np.random.default_rng(1), {"green.hand": (1,)})
