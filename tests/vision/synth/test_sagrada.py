from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.sagrada.window import ALL_CELLS, Color, Die, Window, find_pattern, official_patterns
from vision.colors import COLOR_SETS
from vision.synth.real_dice import load_real_dice
from vision.synth.sagrada import (
    SagradaConfig,
    paint_card,
    paste_real_dice,
    random_window,
    render_window_scene,
)
from vision.synth.scene import SceneConfig, SceneConfigError

REAL_DICE = Path(__file__).resolve().parents[2] / "data" / "dice_real"
SMALL = SagradaConfig(
    scene=SceneConfig(width=384, height=384, colors=COLOR_SETS["sagrada"]), window_px=(150, 230)
)


def _inside(points: np.ndarray, width: int, height: int) -> bool:
    return bool(
        np.all(points >= 0) and np.all(points[:, 0] <= width - 1) and np.all(points[:, 1] <= height - 1)
    )


def test_the_same_seed_renders_the_same_windows() -> None:
    first = render_window_scene(SMALL, np.random.default_rng(9))
    second = render_window_scene(SMALL, np.random.default_rng(9))
    assert np.array_equal(first.image, second.image)
    assert [(w.pattern, str(w.window)) for w in first.windows] == [
        (w.pattern, str(w.window)) for w in second.windows
    ]


def test_labels_match_the_requested_contents_and_lie_in_the_image() -> None:
    pattern = find_pattern("Industria")
    window = Window.parse("r1 -- g3 -- --/-- -- -- -- --/-- b6 -- -- y2/-- -- -- p5 --")
    scene = render_window_scene(SMALL, np.random.default_rng(2), contents=[(pattern, window)])
    (rendered,) = scene.windows
    assert rendered.pattern == "Industria"
    assert rendered.window == window
    assert _inside(rendered.card_corners, 384, 384)
    assert _inside(rendered.corners, 384, 384)
    for cell, die_label in zip(ALL_CELLS, rendered.dice, strict=True):
        die = window[cell]
        if die is None:
            assert die_label is None
            continue
        assert die_label is not None
        assert (die_label.value, die_label.color) == (die.value, die.color.label)
        # The die stands in its space: its top face's centre is near the space's centre.
        space = rendered.cells[cell.index]
        pitch = np.linalg.norm(rendered.corners[1] - rendered.corners[0]) / 5
        assert np.linalg.norm(np.array(die_label.center) - space) < 0.6 * pitch


def test_grid_corners_run_row_one_first_around_the_grid() -> None:
    """r1c1 -> r1c5 -> r4c5 -> r4c1: cell centres interpolate the grid corners in that order."""
    for seed in range(3):
        scene = render_window_scene(SMALL, np.random.default_rng(seed))
        for rendered in scene.windows:
            grid = np.array([[0, 0], [5, 0], [5, 4], [0, 4]], np.float32)
            to_image = cv2.getPerspectiveTransform(grid, rendered.corners)
            expected = np.array([[c.col + 0.5, c.row + 0.5] for c in ALL_CELLS], np.float32)
            projected = cv2.perspectiveTransform(expected[None], to_image)[0]
            pitch = np.linalg.norm(rendered.corners[1] - rendered.corners[0]) / 5
            assert np.abs(projected - rendered.cells).max() < 0.1 * pitch


def test_space_colours_show_where_the_pattern_demands_a_colour() -> None:
    """An empty colour space's centre is that colour (hue), a plain space is light and unsaturated."""
    config = SagradaConfig(
        scene=SceneConfig(
            width=384,
            height=384,
            colors=COLOR_SETS["sagrada"],
            jpeg_probability=0.0,
            motion_blur_probability=0.0,
        ),
        window_px=(200, 240),
        fill=(0.0, 0.0),
        loose_dice=(0, 0),
        windows=(1, 1),
    )
    hues = {Color.RED: (0, 10), Color.YELLOW: (15, 35), Color.GREEN: (40, 85), Color.BLUE: (95, 125)}
    checked = correct = 0
    for seed in range(4):
        scene = render_window_scene(config, np.random.default_rng(seed))
        hsv = cv2.cvtColor(scene.image, cv2.COLOR_BGR2HSV).astype(int)
        (rendered,) = scene.windows
        restriction_of = official_patterns()[rendered.pattern].restriction
        for cell in ALL_CELLS:
            x, y = np.round(rendered.cells[cell.index]).astype(int)
            hue = hsv[y, x, 0]
            color = restriction_of(cell).color
            if color in hues:
                checked += 1
                low, high = hues[color]
                correct += low <= hue <= high or (color is Color.RED and hue >= 170)
    assert checked >= 10
    assert correct / checked >= 0.9


def test_random_window_follows_the_printed_restrictions_when_asked() -> None:
    pattern = find_pattern("Virtus")
    rng = np.random.default_rng(0)
    full = random_window(pattern, 1.0, 1.0, rng)
    assert full.count == 20
    for cell, die in full.placed():
        assert pattern.restriction(cell).allows(die)
    assert random_window(pattern, 0.0, 1.0, rng).count == 0


def test_card_shows_the_name_strip_and_coloured_spaces() -> None:
    card = paint_card(find_pattern("Kaleidoscopic Dream"), 40.0, np.random.default_rng(0))
    assert card.ndim == 3 and card.shape[1] > card.shape[0]
    saturation = cv2.cvtColor(card, cv2.COLOR_BGR2HSV)[..., 1]
    assert (saturation > 120).mean() > 0.05


def test_several_windows_do_not_overlap() -> None:
    config = SagradaConfig(
        scene=SceneConfig(width=640, height=480, colors=COLOR_SETS["sagrada"]),
        windows=(2, 3),
        window_px=(110, 150),
    )
    scene = render_window_scene(config, np.random.default_rng(4))
    assert len(scene.windows) >= 2
    names = [w.pattern for w in scene.windows]
    assert len(set(names)) == len(names)
    for i, first in enumerate(scene.windows):
        for second in scene.windows[i + 1 :]:
            overlap, _ = cv2.intersectConvexConvex(first.card_corners, second.card_corners)
            assert overlap < 1.0


def test_config_rejects_non_sagrada_colours() -> None:
    with pytest.raises(SceneConfigError, match=r"scene\.colors"):
        SagradaConfig(scene=SceneConfig(colors=("orange",)))


@pytest.mark.skipif(not REAL_DICE.is_dir(), reason="real dice photos not present")
def test_real_dice_crops_fill_empty_spaces_with_their_labels() -> None:
    crops = load_real_dice(REAL_DICE, COLOR_SETS["sagrada"])
    config = SagradaConfig(
        scene=SceneConfig(width=384, height=384, colors=COLOR_SETS["sagrada"]),
        fill=(0, 0),
        loose_dice=(0, 0),
        window_px=(200, 240),
    )
    empty = render_window_scene(config, np.random.default_rng(1))
    filled = paste_real_dice(empty, crops, np.random.default_rng(2), fill=0.7)
    (window,) = filled.windows
    assert 5 <= window.window.count <= 20
    changed = np.abs(filled.image.astype(int) - empty.image.astype(int)).max(axis=2)
    for cell, die in window.window.placed():
        label = window.dice[cell.index]
        assert label is not None and isinstance(die, Die)
        assert (label.value, label.color) == (die.value, die.color.label)
        x, y = np.round(label.center).astype(int)
        assert changed[y - 2 : y + 3, x - 2 : x + 3].max() > 20
