"""Rendered Cubist workrooms: legal structures, one player's dice on a square lattice, exact column labels."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from engine.cubist.cards import bundled_cards
from engine.cubist.structures import Structure, parse_structure
from engine.cubist.topview import TopView, column_heights
from vision.synth.cubist import (
    MAX_LEVELS,
    PLAYER_COLORS,
    CubistSceneConfig,
    WorkroomScene,
    choose_structure,
    random_workroom,
    render_workroom,
)
from vision.synth.scene import SceneConfig, SceneConfigError

CONFIG = CubistSceneConfig()


@pytest.fixture(scope="module")
def scenes() -> list[WorkroomScene]:
    return [render_workroom(CONFIG, np.random.default_rng(seed)) for seed in range(8)]


@pytest.mark.parametrize("seed", range(40))
def test_grown_workrooms_keep_the_rules(seed: int) -> None:
    rng = np.random.default_rng(seed)
    count = int(rng.integers(1, 9))
    structure = random_workroom(count, rng, stack_probability=0.5)
    assert len(structure) == count and structure.problems() == []
    assert max(level for _, _, level in structure.dice) < MAX_LEVELS


def test_some_workrooms_are_installation_cards_and_some_stack() -> None:
    rng = np.random.default_rng(3)
    shapes = [choose_structure(CONFIG, rng) for _ in range(200)]
    cards = {card.structure for card in bundled_cards().installations.values()}
    assert 30 <= sum(shape in cards for shape in shapes) <= 90
    assert sum(max(column_heights(shape).values()) > 1 for shape in shapes) >= 50
    assert all(1 <= len(shape) <= 8 for shape in shapes)


def test_each_column_is_labelled_with_its_top_value_and_height(scenes: list[WorkroomScene]) -> None:
    for scene in scenes:
        view = TopView.of(scene.structure)
        heights = column_heights(scene.structure)
        assert [c.column for c in scene.columns] == list(view.values)
        assert all(c.value == view.values[c.column] for c in scene.columns)
        assert all(c.height == heights[c.column] for c in scene.columns)
        assert scene.color in PLAYER_COLORS


def test_top_faces_are_in_view_and_their_centres_inside_them(scenes: list[WorkroomScene]) -> None:
    for scene in scenes:
        height, width = scene.image.shape[:2]
        assert (width, height) == (CONFIG.scene.width, CONFIG.scene.height)
        for column in scene.columns:
            face = column.top_face
            assert face.min() >= 0 and face[:, 0].max() < width and face[:, 1].max() < height
            assert cv2.pointPolygonTest(face.reshape(-1, 1, 2), column.center, False) > 0


def test_columns_stand_on_a_square_lattice_one_die_apart(scenes: list[WorkroomScene]) -> None:
    """Each top face's centre, taken back to the plane of its top, lies one die edge (and a hair) from the
    columns beside it, and a column's step in x is its step in y turned a quarter."""
    for scene in scenes:
        ground = {
            c.column: scene.camera.backproject(np.array([c.center]), float(c.height))[0]
            for c in scene.columns
        }
        steps: dict[tuple[int, int], list[np.ndarray]] = {(1, 0): [], (0, 1): []}
        for (x, y), place in ground.items():
            for step, found in steps.items():
                other = ground.get((x + step[0], y + step[1]))
                if other is not None:
                    found.append(other - place)
        for found in steps.values():
            for vector in found:
                assert 0.9 <= float(np.linalg.norm(vector)) <= 1.16
        if steps[(1, 0)] and steps[(0, 1)]:
            across, along = np.mean(steps[(1, 0)], axis=0), np.mean(steps[(0, 1)], axis=0)
            angle = math.degrees(math.atan2(along[1], along[0]) - math.atan2(across[1], across[0])) % 360
            assert angle == pytest.approx(90, abs=8)


def test_a_stacked_column_s_top_looks_bigger_than_the_table_level_ones() -> None:
    structure = parse_structure("0,0,0=3 1,0,0=4 1,0,1=4 1,0,2=4 2,0,0=5")
    scene = render_workroom(CONFIG, np.random.default_rng(5), structure)
    edges = {
        c.column: float(np.linalg.norm(c.top_face[[1, 2, 3, 0]] - c.top_face, axis=1).mean())
        for c in scene.columns
    }
    assert edges[(1, 0)] > 1.05 * max(edges[(0, 0)], edges[(2, 0)])
    assert [c.height for c in scene.columns] == [1, 3, 1]


def test_a_seed_renders_the_same_photo() -> None:
    first = render_workroom(CONFIG, np.random.default_rng(21))
    again = render_workroom(CONFIG, np.random.default_rng(21))
    assert np.array_equal(first.image, again.image) and first.structure == again.structure


def test_a_camera_that_cuts_the_structure_is_drawn_again() -> None:
    """Big dice in a small picture: the renderer backs off until the whole structure is in view."""
    tight = replace(CONFIG, scene=replace(CONFIG.scene, width=320, height=240, die_size_px=(60.0, 80.0)))
    long_row = parse_structure(" ".join(f"{x},0,0={1 + x % 2}" for x in range(8)))
    scene = render_workroom(tight, np.random.default_rng(2), long_row)
    assert len(scene.columns) == 8 and scene.die_px < 40


def test_a_structure_that_cannot_fit_the_photo_is_refused_not_drawn_forever() -> None:
    scene = SceneConfig(width=32, height=32, die_size_px=(12.0, 16.0), colors=PLAYER_COLORS)
    long_row = Structure({(x, 0, 0): 1 + x % 2 for x in range(20)})
    with pytest.raises(SceneConfigError, match="does not fit"):
        render_workroom(CubistSceneConfig(scene=scene), np.random.default_rng(0), long_row)
