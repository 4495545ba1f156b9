"""Dice against print, space by space, on rendered windows seen through their true lattice."""

from __future__ import annotations

from engine.sagrada.window import ALL_CELLS, Color, official_patterns
from vision.sagrada.cells import PrintedSpace, flatten, look_at_spaces, nearest_printed_color, read_print
from vision.synth.sagrada import WindowScene

from .conftest import true_lattice


def test_dice_and_empty_spaces_are_told_apart(scenes: list[WindowScene]) -> None:
    wrong = total = windows_right = 0
    for scene in scenes:
        window = scene.windows[0]
        looks = look_at_spaces(flatten(scene.image, true_lattice(window)))
        misses = sum(look.has_die != (window.window[look.cell] is not None) for look in looks)
        wrong += misses
        total += len(looks)
        windows_right += misses == 0
    assert wrong <= 0.02 * total, f"{wrong} of {total} spaces misjudged"
    assert windows_right >= 0.7 * len(scenes), f"all 20 spaces right in {windows_right} of {len(scenes)}"


def test_empty_spaces_show_their_print(sparse_scenes: list[WindowScene]) -> None:
    right = total = 0
    for scene in sparse_scenes:
        window = scene.windows[0]
        pattern = official_patterns()[window.pattern]
        flat = flatten(scene.image, true_lattice(window))
        for look in look_at_spaces(flat):
            if window.window[look.cell] is not None or look.has_die:
                continue
            printed = pattern.restriction(look.cell)
            total += 1
            right += read_print(flat, look) == PrintedSpace(printed.color, printed.value)
    assert right >= 0.88 * total, f"print read right on {right} of {total} empty spaces"


def test_printed_hues_map_to_their_colours() -> None:
    assert nearest_printed_color(178.0) is Color.RED
    assert nearest_printed_color(3.0) is Color.RED
    assert nearest_printed_color(25.0) is Color.YELLOW
    assert nearest_printed_color(60.0) is Color.GREEN
    assert nearest_printed_color(110.0) is Color.BLUE
    assert nearest_printed_color(145.0) is Color.PURPLE
    assert len(ALL_CELLS) == 20
