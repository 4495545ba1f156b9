"""Each action card's effect, its refusals, and what happens when it has nothing to act on."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core import IllegalMove
from engine.riverdragons.board import load_board
from engine.riverdragons.game import LaidPlank, Phase, RiverDragons, Rules, State
from engine.riverdragons.moves import Plank, Walk
from tests.engine.riverdragons.helpers import GAME, WAITING, bridged, planned, play, program, table

THREE = RiverDragons(3)


def red_plays(state: State, card: str, game: RiverDragons = GAME) -> State:
    """Red (the start player) resolves `card` first; the others wait on a decision of their own."""
    others = [WAITING] * (game.players - 1)
    return planned(game, state, program(card), *others)


def legal(state: State, game: RiverDragons = GAME) -> set[str]:
    return {str(m) for m in game.legal_moves(state)}


def refused(state: State, move: str, game: RiverDragons = GAME) -> str:
    """The rule a move breaks."""
    with pytest.raises(IllegalMove) as caught:
        game.apply(state, game.parse_move(move))
    assert caught.value.message
    return caught.value.rule


def waiting_on_yellow(state: State) -> bool:
    """Red's card is done: yellow's card at position 1 waits on yellow."""
    return state.phase is Phase.RESOLVE and state.to_move == 1 and state.position == 1


# --- stones -------------------------------------------------------------------------------------------


def test_stone1_takes_a_stone_from_the_supply_onto_a_free_island() -> None:
    state = red_plays(table(stones=("i5",)), "stone1")
    assert legal(state) == {f"stone i{n}" for n in range(1, 28) if n != 5}
    after = play(GAME, state, "stone i7")
    assert after.stones == ("i5", "i7") and after.supply == 25
    assert waiting_on_yellow(after)


def test_one_stone_per_island_and_none_on_a_village() -> None:
    state = red_plays(table(stones=("i5",)), "stone1")
    assert refused(state, "stone i5") == "one-stone-per-island"
    assert refused(state, "stone v2") == "stone-island"
    assert refused(state, "stone i28") == "stone-island"


def test_stone1_with_an_empty_supply_has_no_effect() -> None:
    state = red_plays(replace(table(), supply=0), "stone1")
    assert waiting_on_yellow(state) and state.stones == ()


def test_stone1_with_every_island_taken_has_no_effect() -> None:
    state = red_plays(table(stones=GAME.board.island_names), "stone1")
    assert waiting_on_yellow(state) and state.supply == 0


def test_stone2_places_two_stones_one_at_a_time() -> None:
    state = red_plays(table(), "stone2")
    first = play(GAME, state, "stone i1")
    assert first.to_move == 0 and first.effects_left == 1 and "stone i1" not in legal(first)
    second = play(GAME, first, "stone i2")
    assert second.stones == ("i1", "i2") and second.supply == 25 and waiting_on_yellow(second)


def test_stone2_places_only_the_one_stone_the_supply_still_holds() -> None:
    state = red_plays(replace(table(stones=("i5",)), supply=1), "stone2")
    after = play(GAME, state, "stone i1")
    assert after.supply == 0 and waiting_on_yellow(after)


# --- planks -------------------------------------------------------------------------------------------


def test_a_plank_rests_on_a_stone_and_a_village_when_long_enough() -> None:
    state = red_plays(table(stones=("i10",)), "plank1")
    assert legal(state) == {"lay red3 v1-i10", "lay red4 v1-i10", "lay red5 v1-i10", "lay red6 v1-i10"} | {
        "lose red1",
        "lose red2",
    }
    after = play(GAME, state, "lay red3 i10-v1")
    assert [(p.place, str(p.plank)) for p in after.planks] == [("v1-i10", "red3")]
    assert Plank("red", 3) not in after.reserves[0] and waiting_on_yellow(after)


def test_a_plank_rests_on_two_stones() -> None:
    state = red_plays(table(stones=("i2", "i3")), "plank1")
    assert "lay red1 i2-i3" in legal(state)
    assert play(GAME, state, "lay red1 i3-i2").planks[0].place == "i2-i3"


def test_a_plank_needs_a_stone_under_each_island_end() -> None:
    state = red_plays(table(stones=("i2",)), "plank1")
    assert refused(state, "lay red6 v1-i10") == "plank-support"
    assert refused(state, "lay red6 i2-i3") == "plank-support"
    assert refused(state, "lay red6 i2-i99") == "unknown-support"


def test_a_plank_too_short_for_the_gap_is_refused() -> None:
    state = red_plays(table(stones=("i10",)), "plank1")
    assert refused(state, "lay red2 v1-i10") == "plank-length"


def test_a_plank_does_not_join_two_villages_unless_the_rules_allow() -> None:
    state = red_plays(table(stones=("i10",)), "plank1")
    assert refused(state, "lay red6 v1-v2") == "plank-supports"
    lenient = RiverDragons(rules=Rules("lenient", village_to_village=True))
    state = red_plays(table(lenient, stones=("i10",)), "plank1", lenient)
    assert refused(state, "lay red6 v1-v2", lenient) == "plank-length"  # 100 apart: no plank is that long


def test_one_plank_between_two_supports() -> None:
    state = red_plays(table(stones=("i10",), planks={"v1-i10": "yellow3"}), "plank1")
    assert refused(state, "lay red6 v1-i10") == "plank-doubled"


def test_only_a_plank_of_the_own_reserve_is_laid() -> None:
    state = red_plays(table(stones=("i10",)), "plank1")
    assert refused(state, "lay yellow6 v1-i10") == "plank-in-reserve"
    assert refused(state, "lose yellow1") == "plank-in-reserve"


SPOKES = {"i1-i2": "yellow2", "i1-i4": "yellow3", "i1-i6": "yellow4"}


def test_a_stone_holds_at_most_three_planks() -> None:
    state = red_plays(table(stones=("i1", "i2", "i4", "i6", "i8"), planks=SPOKES), "plank1")
    assert refused(state, "lay red2 i1-i8") == "support-limit"
    four = RiverDragons(rules=Rules("four", planks_per_support=4))
    state = red_plays(table(four, stones=("i1", "i2", "i4", "i6", "i8"), planks=SPOKES), "plank1", four)
    assert play(four, state, "lay red2 i1-i8").planks[-1].place == "i1-i8"


def test_a_village_counts_towards_the_support_limit_too() -> None:
    """Only three islands lie within a plank of a village on the default board: a limit of 2 shows it."""
    two = RiverDragons(rules=Rules("two", planks_per_support=2))
    start = table(two, stones=("i10", "i11", "i27"), planks={"v1-i10": "yellow3", "v1-i11": "yellow5"})
    assert refused(red_plays(start, "plank1", two), "lay red6 v1-i27", two) == "support-limit"


def test_planks_may_not_cross_unless_the_rules_allow() -> None:
    stones = ("i2", "i3", "i8", "i9")
    state = red_plays(table(stones=stones, planks={"i3-i9": "yellow5"}), "plank1")
    assert refused(state, "lay red5 i2-i8") == "plank-crossing"
    assert "lay red1 i2-i3" in legal(state)  # sharing a support end to end is fine
    crossing = RiverDragons(rules=Rules("crossing", planks_may_cross=True))
    state = red_plays(table(crossing, stones=stones, planks={"i3-i9": "yellow5"}), "plank1", crossing)
    assert "lay red5 i2-i8" in legal(state, crossing)


def test_a_plank_may_not_lie_along_another_from_a_shared_stone() -> None:
    data = GAME.board.to_json() | {"name": "a row", "islands": [[0, 0], [20, 0], [40, 0]]}
    row = RiverDragons(board=load_board(data))
    state = red_plays(table(row, stones=("i1", "i2", "i3"), planks={"i1-i3": "yellow4"}), "plank1", row)
    assert refused(state, "lay red1 i1-i2", row) == "plank-crossing"


def test_a_plank_that_fits_nowhere_leaves_the_game() -> None:
    state = red_plays(table(), "plank1")
    assert legal(state) == {f"lose red{n}" for n in range(1, 7)}
    after = play(GAME, state, "lose red3")
    assert after.lost == (Plank("red", 3),) and len(after.reserves[0]) == 5 and waiting_on_yellow(after)


def test_a_plank_that_fits_somewhere_must_be_laid() -> None:
    state = red_plays(table(stones=("i10",)), "plank1")
    assert refused(state, "lose red3") == "plank-fits"


def test_plank2_checks_each_plank_separately() -> None:
    state = red_plays(table(stones=("i10",)), "plank2")
    first = play(GAME, state, "lose red1")
    assert first.to_move == 0 and first.effects_left == 1
    second = play(GAME, first, "lay red3 v1-i10")
    assert second.lost == (Plank("red", 1),) and len(second.planks) == 1 and waiting_on_yellow(second)


def test_a_plank_card_with_an_empty_reserve_has_no_effect() -> None:
    state = red_plays(table(stones=("i10",), reserves={0: ""}), "plank2")
    assert waiting_on_yellow(state) and state.planks == ()


# --- remove -------------------------------------------------------------------------------------------


def test_remove_takes_a_plank_of_any_colour_into_the_reserve() -> None:
    state = red_plays(
        table(stones=("i10",), planks={"v1-i10": "yellow3"}, reserves={0: "red1 red2"}), "remove"
    )
    assert legal(state) == {"remove plank v1-i10"}  # the stone holds the plank
    after = play(GAME, state, "remove plank v1-i10")
    assert after.planks == () and [str(p) for p in after.reserves[0]] == ["red1", "red2", "yellow3"]


def test_an_occupied_plank_stays() -> None:
    start = table(
        stones=("i5", "i10"), planks={"v1-i10": "yellow3"}, reserves={0: "red1"}, pawns={1: "v1-i10"}
    )
    state = red_plays(start, "remove")
    assert refused(state, "remove plank v1-i10") == "plank-occupied"
    assert legal(state) == {"remove stone i5"}


def test_a_reserve_takes_no_second_plank_of_a_length() -> None:
    start = table(stones=("i5", "i10"), planks={"v1-i10": "yellow3"}, reserves={0: "red3"})
    assert refused(red_plays(start, "remove"), "remove plank v1-i10") == "reserve-lengths"
    loose = RiverDragons(rules=Rules("loose", distinct_reserve_lengths=False))
    start = table(loose, stones=("i5", "i10"), planks={"v1-i10": "yellow3"}, reserves={0: "red3"})
    assert "remove plank v1-i10" in legal(red_plays(start, "remove", loose), loose)


def test_a_reserve_holds_at_most_two_colours() -> None:
    three = RiverDragons(3)
    start = table(three, stones=("i5", "i10"), planks={"v1-i10": "yellow3"}, reserves={0: "red1 green2"})
    assert refused(red_plays(start, "remove", three), "remove plank v1-i10", three) == "reserve-colours"
    wide = RiverDragons(3, Rules("wide", reserve_colours=3))
    start = table(wide, stones=("i5", "i10"), planks={"v1-i10": "yellow3"}, reserves={0: "red1 green2"})
    assert "remove plank v1-i10" in legal(red_plays(start, "remove", wide), wide)


def test_remove_returns_a_free_stone_to_the_supply_but_not_one_holding_a_plank() -> None:
    state = red_plays(table(stones=("i5", "i10"), planks={"v1-i10": "red3"}), "remove")
    assert legal(state) == {"remove plank v1-i10", "remove stone i5"}
    assert refused(state, "remove stone i10") == "stone-holds-plank"
    assert refused(state, "remove stone i6") == "remove-missing"
    assert refused(state, "remove plank i2-i3") == "remove-missing"
    after = play(GAME, state, "remove stone i5")
    assert after.stones == ("i10",) and after.supply == 26


def test_remove_with_nothing_to_remove_has_no_effect() -> None:
    assert waiting_on_yellow(red_plays(table(), "remove"))


# --- moving -------------------------------------------------------------------------------------------


def test_move1_steps_from_a_village_onto_a_plank_resting_on_it() -> None:
    state = red_plays(bridged(), "move1")
    assert legal(state) == {"move v1-i10"}
    assert play(GAME, state, "move v1-i10").pawns[0] == "v1-i10"


def test_from_a_plank_a_pawn_steps_to_planks_sharing_a_support_or_a_village_at_its_end() -> None:
    assert legal(red_plays(bridged(pawns={0: "v1-i10"}), "move1")) == {"move i2-i10", "move v1"}
    assert legal(red_plays(bridged(pawns={0: "i2-i3"}), "move1")) == {"move i2-i10", "move i3-i4"}


def test_a_step_must_go_to_a_neighbour() -> None:
    assert refused(red_plays(bridged(), "move1"), "move i3-i4") == "move-adjacent"


def test_a_plank_holds_one_pawn() -> None:
    state = red_plays(bridged(pawns={0: "v1-i10", 1: "i2-i10"}), "move1")
    assert legal(state) == {"move v1"}
    assert refused(state, "move i2-i10") == "plank-occupied"


def test_a_village_holds_any_number_of_pawns() -> None:
    start = table(THREE, stones=("i10",), planks={"v1-i10": "red3"}, pawns={0: "v1-i10", 2: "v1"})
    after = play(THREE, red_plays(start, "move1", THREE), "move v1")
    assert after.pawns[0] == after.pawns[2] == "v1"


def test_any_colour_of_plank_carries_any_pawn() -> None:
    state = planned(GAME, bridged(), WAITING, program("move1"))  # red's reserve is empty: no effect
    assert state.to_move == 1 and legal(state) == {"move v4-i18"}


def test_a_pawn_with_nowhere_to_step_falls_in_and_returns_to_its_village() -> None:
    start = table(stones=("i2", "i3"), planks={"i2-i3": "red1"}, pawns={0: "i2-i3"})
    state = red_plays(start, "move1")
    assert state.pawns[0] == "v1" and waiting_on_yellow(state)


def test_move1_takes_one_step() -> None:
    state = red_plays(bridged(), "move1")
    assert refused(state, "move v1-i10 i2-i10") == "move-steps"


def test_move2_takes_one_or_two_steps() -> None:
    state = red_plays(bridged(), "move2")
    assert legal(state) == {"move v1-i10", "move v1-i10 i2-i10", "move v1-i10 v1"}
    assert play(GAME, state, "move v1-i10 i2-i10").pawns[0] == "i2-i10"
    assert play(GAME, state, "move v1-i10").pawns[0] == "v1-i10"
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(state, Walk(("v1-i10", "i2-i10", "i2-i3")))
    assert caught.value.rule == "move-steps"


def test_move2_may_turn_back_to_the_plank_it_started_on() -> None:
    state = red_plays(bridged(pawns={0: "i2-i10"}), "move2")
    assert play(GAME, state, "move i2-i3 i2-i10").pawns[0] == "i2-i10"


def test_entering_a_village_ends_the_move() -> None:
    state = red_plays(bridged(pawns={0: "v1-i10"}), "move2")
    assert "move v1 v1-i10" not in legal(state)
    assert refused(state, "move v1 v1-i10") == "village-ends-move"


def test_move2_does_not_pass_through_an_occupied_plank() -> None:
    state = red_plays(bridged(pawns={0: "v1-i10", 1: "i2-i10"}), "move2")
    assert refused(state, "move i2-i10 i2-i3") == "plank-occupied"
    assert legal(state) == {"move v1"}


def test_move2_with_no_step_at_all_falls_in() -> None:
    start = table(stones=("i2", "i3"), planks={"i2-i3": "red1"}, pawns={0: "i2-i3"})
    assert red_plays(start, "move2").pawns[0] == "v1"


# --- jumping ------------------------------------------------------------------------------------------


def test_jump_crosses_a_pawn_on_a_neighbouring_plank_onto_a_free_plank() -> None:
    state = red_plays(bridged(pawns={0: "v1-i10", 1: "i2-i10"}), "jump")
    assert legal(state) == {"jump i2-i10 i2-i3"}
    assert play(GAME, state, "jump i2-i10 i2-i3").pawns == ("i2-i3", "i2-i10")


def test_jump_may_land_on_a_village() -> None:
    state = red_plays(bridged(pawns={0: "i2-i10", 1: "v1-i10"}), "jump")
    assert "jump v1-i10 v1" in legal(state)


def test_a_jump_does_not_land_back_where_it_started() -> None:
    state = red_plays(bridged(pawns={0: "v1-i10", 1: "i2-i10"}), "jump")
    assert refused(state, "jump i2-i10 v1-i10") == "jump-back"


def test_a_jump_goes_over_a_pawn_on_a_neighbouring_plank() -> None:
    state = red_plays(bridged(pawns={0: "v1-i10", 1: "i2-i10"}), "jump")
    assert refused(state, "jump i3-i4 i4-i18") == "jump-adjacent"
    state = red_plays(bridged(pawns={0: "i2-i3", 1: "i2-i10"}), "jump")
    assert refused(state, "jump i3-i4 i4-i18") == "jump-over"


def test_a_jump_lands_only_on_a_free_plank() -> None:
    start = bridged(THREE, pawns={0: "v1-i10", 1: "i2-i10", 2: "i2-i3"})
    start = replace(start, stones=(*start.stones, "i9"), supply=start.supply - 1)
    start = replace(start, planks=(*start.planks, LaidPlank(("i2", "i9"), Plank("green", 1))))
    state = red_plays(start, "jump", THREE)
    assert legal(state, THREE) == {"jump i2-i10 i2-i9"}
    assert refused(state, "jump i2-i10 i2-i3", THREE) == "plank-occupied"


def test_a_jump_with_no_landing_falls_in() -> None:
    start = bridged(THREE, pawns={0: "v1-i10", 1: "i2-i10", 2: "i2-i3"})
    assert red_plays(start, "jump", THREE).pawns[0] == "v1"


def test_a_jump_with_no_pawn_to_jump_over_falls_in() -> None:
    assert red_plays(bridged(pawns={0: "i3-i4"}), "jump").pawns[0] == "v1"


# --- winning ------------------------------------------------------------------------------------------


def test_reaching_the_opposite_village_wins_at_once_mid_round() -> None:
    state = red_plays(bridged(pawns={0: "v4-i18"}), "move2")
    won = play(GAME, state, "move v4")
    outcome = GAME.outcome(won)
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "arrived"
    assert won.phase is Phase.OVER and won.position == 1  # yellow's card at position 1 never came
    assert list(GAME.legal_moves(won)) == []
    assert refused(won, "stone i5") == "game-over"
    assert GAME.violations(won) == []


def test_the_goal_is_the_village_opposite_the_start() -> None:
    state = red_plays(bridged(pawns={0: "v1-i10"}), "move1")
    back_home = play(GAME, state, "move v1")
    assert back_home.phase is Phase.RESOLVE and GAME.outcome(back_home) is None
