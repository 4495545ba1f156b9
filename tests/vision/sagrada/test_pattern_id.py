"""Which pattern card a window is, from the print of its empty spaces."""

from __future__ import annotations

from engine.sagrada.window import ALL_CELLS, Cell, official_patterns
from vision.sagrada.cells import CellReader, PrintedSpace
from vision.sagrada.lattice import find_windows
from vision.sagrada.pattern_id import MIN_VISIBLE, PrintBelief, half_turn, identify_pattern
from vision.synth.sagrada import WindowScene

from .conftest import needs_cell_model
from .test_lattice import matching


def printed(pattern_name: str, cells: list[Cell]) -> dict[Cell, PrintBelief]:
    """The pattern's print on `cells`, read with certainty."""
    pattern = official_patterns()[pattern_name]
    return {cell: {PrintedSpace.of(pattern.restriction(cell)): 1.0} for cell in cells}


def test_every_pattern_is_named_from_its_full_print() -> None:
    for name in official_patterns():
        match = identify_pattern(printed(name, list(ALL_CELLS)), orientation_margin=0.0)
        assert match.pattern is not None and match.pattern.name == name
        assert not match.turned and match.confidence > 0.99


def test_a_card_seen_upside_down_is_named_and_turned() -> None:
    for name in official_patterns():
        seen = {half_turn(cell): space for cell, space in printed(name, list(ALL_CELLS)).items()}
        match = identify_pattern(seen, orientation_margin=0.0)
        assert match.pattern is not None and match.pattern.name == name and match.turned


def test_the_print_overrules_a_frame_that_looks_turned() -> None:
    seen = printed("Virtus", list(ALL_CELLS[:8]))
    match = identify_pattern(seen, orientation_margin=-0.8)
    assert match.pattern is not None and match.pattern.name == "Virtus" and not match.turned


def test_a_space_a_die_likely_hides_weighs_little() -> None:
    """Spaces read as dice still hold a little evidence, but a wrong print there cannot outweigh the print
    seen on the empty spaces."""
    seen = printed("Virtus", list(ALL_CELLS[:8]))
    hidden = {PrintedSpace(None, None): 0.02}
    seen.update({cell: hidden for cell in ALL_CELLS[8:]})
    match = identify_pattern(seen, orientation_margin=0.0)
    assert match.pattern is not None and match.pattern.name == "Virtus" and match.visible == 8


def test_too_little_print_names_no_pattern_but_a_given_one_is_accepted() -> None:
    few = printed("Virtus", list(ALL_CELLS[: MIN_VISIBLE - 1]))
    match = identify_pattern(few, orientation_margin=0.2)
    assert match.pattern is None and match.visible == MIN_VISIBLE - 1
    given = identify_pattern(few, 0.2, [official_patterns()["Virtus"]])
    assert given.pattern is not None and given.pattern.name == "Virtus"


@needs_cell_model
def test_rendered_windows_with_few_dice_are_identified(
    sparse_scenes: list[WindowScene], cell_reader: CellReader
) -> None:
    right = 0
    for scene in sparse_scenes:
        window = scene.windows[0]
        lattice = matching(find_windows(scene.image), window)
        if lattice is None:
            continue
        (spaces,) = cell_reader.read(scene.image, [lattice])
        prints = {space.cell: space.print_belief() for space in spaces}
        match = identify_pattern(prints, lattice.orientation_margin)
        right += match.pattern is not None and match.pattern.name == window.pattern
    assert right >= 0.925 * len(sparse_scenes), f"pattern named right in {right} of {len(sparse_scenes)}"
