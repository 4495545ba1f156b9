"""Every tool card: its effect when used well, and each way of using it wrongly, named by rule id.

Card 1 on the table is the card under test (tools are set up in the order given to `started`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

import pytest

from engine.sagrada.game import HeldStage, SagradaGame, SagradaState
from engine.sagrada.moves import ChooseValue, Draw, PlaceHeld, Roll, UseTool
from engine.sagrada.rules import OFFICIAL, TEXT, Rules
from engine.sagrada.tools import TOOL_CARDS, TOOL_SETS, Tool, tool_cost
from engine.sagrada.window import BLANK_PATTERN, Cell, Color, Die, Pattern
from tests.engine.sagrada.test_game import FULL_WINDOW, dice, finished, play, rule_of, started, table

# r1c1 takes only blue, r1c2 only a 1; the rest is blank
WORKBENCH = Pattern.from_rows("Workbench", 4, ["b1...", ".....", ".....", "....."])


def with_tool(
    tool: Tool,
    rules: Rules = OFFICIAL,
    pattern: Pattern = WORKBENCH,
    *,
    pool: str = "",
    windows: Mapping[int, str] | None = None,
    track: Sequence[str] = (),
    tokens: Mapping[int, int] | None = None,
) -> tuple[SagradaGame, SagradaState]:
    """A two-player game with `tool` as card 1, both players on `pattern`, in the position given."""
    game = SagradaGame(2, rules)
    others = [t for t in TOOL_SETS[rules.tool_set] if t is not tool][:2]
    state = started(game, tools=[tool, *others], patterns=[pattern, pattern])
    return game, table(state, pool=pool, windows=windows, track=track, tokens=tokens)


def at(state: SagradaState, player: int, cell: str) -> Die | None:
    return state.players[player].window[Cell.parse(cell)]


# ---- what every card shares: cost, one per turn, arguments -------------------------------------------------


def test_official_cost_is_one_token_on_a_bare_card_then_two() -> None:
    game, state = with_tool(Tool.GRINDING_STONE, pool="r2 y3 g4 b5 p6", tokens={0: 3, 1: 3})
    state = play(game, state, "tool 1 draft 1 r1c3")
    assert state.players[0].favor_tokens == 2 and state.tools[0].tokens == 1
    state = play(game, state, "tool 1 draft 1 r1c3")
    assert state.players[1].favor_tokens == 1 and state.tools[0].tokens == 3
    assert rule_of(game, state, "tool 1 draft 1 r1c4") == "favor-tokens"  # player 2 again: 2 needed, 1 left
    assert [tool_cost(OFFICIAL, tokens, uses) for tokens, uses in ((0, 0), (1, 1), (5, 3))] == [1, 2, 2]


def test_text_cost_rises_by_one_with_every_use_and_the_last_user_takes_the_tokens() -> None:
    game, state = with_tool(Tool.ADJUST_VALUE, TEXT, pool="r2 y3 g4 b5 p1")
    assert [p.favor_tokens for p in state.players] == [7, 7]
    state = play(game, state, "tool 1 draft 1 +1 r1c3")
    state = play(game, state, "tool 1 draft 1 +1 r1c3")
    assert [p.favor_tokens for p in state.players] == [6, 5]
    assert (state.tools[0].tokens, state.tools[0].uses, state.tools[0].last_user) == (3, 2, 1)
    assert tool_cost(TEXT, 3, 2) == 3
    score = game.score(finished(game, state))
    assert score.players[1].favor_tokens == 5 + 3 and score.players[0].favor_tokens == 6


def test_one_tool_per_turn_and_only_the_cards_on_the_table() -> None:
    game, state = with_tool(Tool.EGLOMISE_BRUSH, pool="r2 y3", windows={0: "r2c1=g5 r2c2=r3"})
    assert rule_of(game, state, "tool 4 move r2c2 r1c1") == "no-such-tool"
    used = play(game, state, "tool 1 move r2c2 r1c1")
    assert rule_of(game, used, "tool 2") == "one-tool-per-turn"
    assert rule_of(game, state, "tool 1 draft 1 r1c3") == "tool-arguments"
    assert rule_of(game, state, "tool 1 move r2c2 r1c1 move r2c1 r3c1") == "tool-arguments"
    broke = table(state, pool="r2 y3", windows={0: "r2c1=g5 r2c2=r3"}, tokens={0: 0})
    assert rule_of(game, broke, "tool 1 move r2c2 r1c1") == "favor-tokens"


def test_every_official_and_generic_card_is_described() -> None:
    assert len(TOOL_SETS[OFFICIAL.tool_set]) == 12 and len(TOOL_SETS[TEXT.tool_set]) == 5
    assert [TOOL_CARDS[t].number for t in TOOL_SETS[OFFICIAL.tool_set]] == list(range(1, 13))
    assert Tool.parse("Cork-backed Straightedge") is Tool.CORK_BACKED_STRAIGHTEDGE
    assert Tool.parse("tap-wheel") is Tool.TAP_WHEEL


# ---- 1 Grozing Pliers / generic Adjust Value ---------------------------------------------------------------


@pytest.mark.parametrize(("tool", "rules"), [(Tool.GROZING_PLIERS, OFFICIAL), (Tool.ADJUST_VALUE, TEXT)])
def test_grozing_pliers_raise_or_lower_the_drafted_die_by_one(tool: Tool, rules: Rules) -> None:
    game, state = with_tool(tool, rules, pool="r2 y6 g1", windows={0: "r1c3=b4"})
    up = play(game, state, "tool 1 draft 1 +1 r1c4")
    assert at(up, 0, "r1c4") == Die(Color.RED, 3) and up.pool == dice("y6 g1")
    assert game.current_player(up) == 1  # drafted and used a tool: nothing is left of the turn
    down = play(game, state, "tool 1 draft 2 -1 r1c4")
    assert at(down, 0, "r1c4") == Die(Color.YELLOW, 5)
    assert rule_of(game, state, "tool 1 draft 2 +1 r1c4") == "value-range"  # no 6 to 7
    assert rule_of(game, state, "tool 1 draft 3 -1 r1c4") == "value-range"  # no 1 to 0
    assert rule_of(game, state, "tool 1 draft 1 +1 r1c2") == "space-value"  # r1c2 takes a 1, not a 3
    assert rule_of(game, state, "tool 1 draft 1 r1c4") == "tool-arguments"
    drafted = play(game, state, "draft 1 r1c4")
    assert rule_of(game, drafted, "tool 1 draft 1 +1 r1c5") == "one-draft-per-turn"


# ---- 2 Eglomise Brush, 3 Copper Foil Burnisher -------------------------------------------------------------


def test_eglomise_brush_moves_a_die_ignoring_colour_restrictions_only() -> None:
    game, state = with_tool(Tool.EGLOMISE_BRUSH, pool="p6", windows={0: "r2c1=g5 r2c2=r3"})
    assert rule_of(game, state, "tool 1 move r2c2 r1c2") == "space-value"  # r1c2 still wants a 1
    moved = play(game, state, "tool 1 move r2c2 r1c1")  # a red die on the blue space
    assert at(moved, 0, "r1c1") == Die(Color.RED, 3) and at(moved, 0, "r2c2") is None
    assert game.violations(moved) == []
    assert moved.players[0].exemptions[0].cell == Cell(0, 0)
    score = game.score(finished(game, moved)).players[0]
    assert score.illegal_dice == () and score.private_points == 3  # the red die still scores for red
    assert not moved.drafted and game.current_player(moved) == 0  # the turn's draft is still to come


def test_copper_foil_burnisher_moves_a_die_ignoring_value_restrictions_only() -> None:
    game, state = with_tool(Tool.COPPER_FOIL_BURNISHER, pool="p6", windows={0: "r2c1=g5 r2c2=r3"})
    assert rule_of(game, state, "tool 1 move r2c2 r1c1") == "space-color"
    moved = play(game, state, "tool 1 move r2c2 r1c2")  # a 3 on the space of 1
    assert at(moved, 0, "r1c2") == Die(Color.RED, 3)
    assert game.violations(moved) == []


@pytest.mark.parametrize("tool", [Tool.EGLOMISE_BRUSH, Tool.COPPER_FOIL_BURNISHER])
def test_moving_tools_keep_every_other_rule(tool: Tool) -> None:
    game, state = with_tool(tool, pool="p6", windows={0: "r2c1=g5 r2c2=r3 r2c3=b1 r3c1=p4 r4c1=y3"})
    assert rule_of(game, state, "tool 1 move r1c3 r1c4") == "no-die"
    assert rule_of(game, state, "tool 1 move r2c2 r2c2") == "move-nowhere"
    assert rule_of(game, state, "tool 1 move r2c2 r2c5") == "must-touch"
    assert rule_of(game, state, "tool 1 move r2c2 r2c1") == "occupied"
    assert rule_of(game, state, "tool 1 move r4c1 r3c2") == "neighbour-value"  # y3 under r3
    assert rule_of(game, state, "tool 1 move r2c2 r1c4") == "move-breaks-window"  # b1 on r2c3 left alone


# ---- 4 Lathekin --------------------------------------------------------------------------------------------


def test_lathekin_moves_exactly_two_dice_obeying_all_rules() -> None:
    game, state = with_tool(Tool.LATHEKIN, pool="p6", windows={0: "r3c1=g5 r3c2=r3 r3c3=b1"})
    moved = play(game, state, "tool 1 move r3c3 r4c3 move r3c2 r4c2")
    assert [str(c) for c, _ in moved.players[0].window.placed()] == ["r3c1", "r4c2", "r4c3"]
    assert game.violations(moved) == []
    assert rule_of(game, state, "tool 1 move r3c3 r4c3") == "tool-arguments"
    assert rule_of(game, state, "tool 1 move r3c3 r4c3 move r4c3 r4c4") == "same-die"
    assert rule_of(game, state, "tool 1 move r3c3 r4c3 move r3c2 r2c1") == "move-breaks-window"
    assert rule_of(game, state, "tool 1 move r3c3 r2c3 move r3c2 r1c1") == "space-color"


# ---- 5 Lens Cutter -----------------------------------------------------------------------------------------


def test_lens_cutter_swaps_the_drafted_die_with_one_on_the_round_track() -> None:
    game, state = with_tool(Tool.LENS_CUTTER, pool="r2 y3 b5", track=["g4 p1", "g6"])
    swapped = play(game, state, "tool 1 draft 1 swap g6 r1c3")
    assert at(swapped, 0, "r1c3") == Die(Color.GREEN, 6)
    assert swapped.round_track == (dice("g4 p1"), dice("r2")) and swapped.pool == dice("y3 b5")
    assert game.violations(swapped) == []
    assert rule_of(game, state, "tool 1 draft 1 swap b3 r1c3") == "not-on-track"
    assert rule_of(game, state, "tool 1 draft 1 swap g4 r2c2") == "first-die-edge"
    assert rule_of(game, state, "tool 1 draft 1 r1c3") == "tool-arguments"


# ---- 6 Flux Brush ------------------------------------------------------------------------------------------


def test_flux_brush_rerolls_the_drafted_die_then_it_must_be_placed() -> None:
    game, state = with_tool(Tool.FLUX_BRUSH, pool="r2 y3 b5")
    held = play(game, state, "tool 1 draft 1")
    assert game.is_chance_node(held) and held.held is not None and held.held.stage is HeldStage.ROLL
    outcomes = game.chance_outcomes(held)
    assert [o.move for o in outcomes] == [Roll((Die(Color.RED, v),)) for v in range(1, 7)]
    assert all(o.probability == Fraction(1, 6) for o in outcomes)
    assert rule_of(game, held, "roll b4") == "roll-color"
    rolled = play(game, held, "roll r6")
    assert set(game.legal_moves(rolled)) == {
        PlaceHeld(c) for c in game.legal_placements(rolled, Die(Color.RED, 6))
    }
    assert rule_of(game, rolled, "pass") == "place-held"
    assert rule_of(game, rolled, "place r2c2") == "first-die-edge"
    placed = play(game, rolled, "place r1c3")
    assert at(placed, 0, "r1c3") == Die(Color.RED, 6)
    assert game.current_player(placed) == 1  # drafted and used a tool: the turn is over
    assert game.violations(placed) == []


def test_flux_brush_returns_a_die_that_cannot_be_placed_to_the_pool() -> None:
    game, state = with_tool(Tool.FLUX_BRUSH, pattern=BLANK_PATTERN, pool="r2 y3 b5", windows={0: FULL_WINDOW})
    back = play(game, state, "tool 1 draft 1", "roll r4")
    assert back.held is None and back.pool == dice("r4 y3 b5")
    assert game.current_player(back) == 1 and game.violations(back) == []


# ---- 7 Glazing Hammer --------------------------------------------------------------------------------------


def test_glazing_hammer_rerolls_the_pool_on_a_second_turn_before_drafting() -> None:
    game, state = with_tool(Tool.GLAZING_HAMMER, pool="r2 y3 g4 b5 p6")
    assert rule_of(game, state, "tool 1") == "second-turn-only"
    second = play(game, state, "pass", "pass")  # player 2's second turn follows their first
    assert game.current_player(second) == 1
    lifted = play(game, second, "tool 1")
    assert lifted.pool == () and sorted(c.value for c in lifted.to_roll) == sorted("rygbp")
    assert all(o.probability == Fraction(1, 6) for o in game.chance_outcomes(lifted))
    assert rule_of(game, lifted, "roll r1 r1") == "roll-color"
    rolled = play(game, lifted, "roll p1 b1 g1 y1 r1")
    assert rolled.pool == dice("r1 y1 g1 b1 p1") and game.current_player(rolled) == 1 and not rolled.drafted
    drafted = play(game, second, "draft 4 r1c1")
    assert rule_of(game, drafted, "tool 1") == "before-drafting"


# ---- 8 Running Pliers --------------------------------------------------------------------------------------


def test_running_pliers_draft_a_second_die_on_the_first_turn_and_skip_the_second() -> None:
    game, state = with_tool(Tool.RUNNING_PLIERS, pool="r2 y3 g4 b5 p6")
    assert rule_of(game, state, "tool 1 draft 1 r1c3") == "after-drafting"
    first = play(game, state, "draft 1 r1c3")
    both = play(game, first, "tool 1 draft 1 r1c4")
    assert at(both, 0, "r1c4") == Die(Color.YELLOW, 3) and both.skipping == (0,)
    assert game.current_player(both) == 1
    after = play(game, both, "draft 1 r1c3", "pass", "pass")  # player 2's two turns; player 1's is skipped
    assert after.round == 2 and after.round_track == (dice("b5 p6"),)
    second = play(game, state, "pass", "pass")
    assert (
        rule_of(game, play(game, second, "pass", "draft 1 r1c3"), "tool 1 draft 1 r1c4") == "first-turn-only"
    )


# ---- 9 Cork-backed Straightedge ----------------------------------------------------------------------------


def test_cork_backed_straightedge_places_a_die_touching_no_other() -> None:
    game, state = with_tool(Tool.CORK_BACKED_STRAIGHTEDGE, pool="r2 y3", windows={0: "r1c3=g5"})
    apart = play(game, state, "tool 1 draft 1 r3c3")
    assert at(apart, 0, "r3c3") == Die(Color.RED, 2)
    assert game.violations(apart) == []
    assert game.score(finished(game, apart)).players[0].illegal_dice == ()
    assert rule_of(game, state, "tool 1 draft 1 r2c4") == "not-touching"
    assert rule_of(game, state, "tool 1 draft 1 r1c2") == "space-value"


# ---- 10 Grinding Stone -------------------------------------------------------------------------------------


def test_grinding_stone_turns_the_die_to_its_opposite_face() -> None:
    game, state = with_tool(Tool.GRINDING_STONE, pool="r2 y3 b6")
    flipped = play(game, state, "tool 1 draft 3 r1c2")  # b6 becomes b1, the value r1c2 wants
    assert at(flipped, 0, "r1c2") == Die(Color.BLUE, 1)
    assert rule_of(game, state, "tool 1 draft 1 r1c2") == "space-value"  # r2 becomes r5
    assert rule_of(game, state, "tool 1 draft 1 +1 r1c3") == "tool-arguments"


# ---- 11 Flux Remover ---------------------------------------------------------------------------------------


def test_flux_remover_returns_the_die_draws_another_and_lets_the_player_choose_its_value() -> None:
    game, state = with_tool(Tool.FLUX_REMOVER, pool="r2 y3 b5")
    drawing = play(game, state, "tool 1 draft 1")
    assert drawing.bag[0] == 18  # the red die went back to the bag
    outcomes = game.chance_outcomes(drawing)
    total = sum(drawing.bag)
    assert {o.move: o.probability for o in outcomes} == {
        Draw(c): Fraction(n, total) for c, n in zip(Color, drawing.bag, strict=True)
    }
    assert rule_of(game, drawing, "roll g3") == "not-rolling"
    choosing = play(game, drawing, "draw g")
    assert list(game.legal_moves(choosing)) == [ChooseValue(v) for v in range(1, 7)]
    assert rule_of(game, choosing, "place r1c3") == "choose-value"
    placing = play(game, choosing, "value 1")
    assert placing.held is not None and placing.held.stage is HeldStage.PLACE
    placed = play(game, placing, "place r1c2")
    assert at(placed, 0, "r1c2") == Die(Color.GREEN, 1) and game.violations(placed) == []


def test_flux_remover_returns_the_drawn_die_to_the_pool_when_it_fits_nowhere() -> None:
    game, state = with_tool(
        Tool.FLUX_REMOVER, pattern=BLANK_PATTERN, pool="r2 y3 b5", windows={0: FULL_WINDOW}
    )
    back = play(game, state, "tool 1 draft 1", "draw p", "value 6")
    assert back.held is None and back.pool == dice("y3 b5 p6") and game.current_player(back) == 1
    assert game.violations(back) == []


# ---- 12 Tap Wheel ------------------------------------------------------------------------------------------


def test_tap_wheel_moves_up_to_two_dice_of_a_colour_on_the_round_track() -> None:
    window = "r1c3=b5 r1c4=g2 r2c5=b1"
    game, state = with_tool(Tool.TAP_WHEEL, pool="p6", windows={0: window}, track=["b3"])
    one = play(game, state, "tool 1 move r2c5 r2c4")
    assert at(one, 0, "r2c4") == Die(Color.BLUE, 1)
    two = play(game, state, "tool 1 move r2c5 r1c5 move r1c3 r2c3")
    assert at(two, 0, "r1c5") == Die(Color.BLUE, 1) and at(two, 0, "r2c3") == Die(Color.BLUE, 5)
    assert game.violations(two) == []
    assert rule_of(game, state, "tool 1 move r2c5 r1c5 move r1c4 r2c4") == "tap-wheel-color"
    no_blue = table(state, pool="p6", windows={0: window}, track=["r3"])
    assert rule_of(game, no_blue, "tool 1 move r2c5 r2c4") == "tap-wheel-track"
    no_track = table(state, pool="p6", windows={0: window})
    assert rule_of(game, no_track, "tool 1 move r2c5 r2c4") == "tap-wheel-track"


# ---- the rule text's generic cards -------------------------------------------------------------------------


def test_change_colour_makes_the_drafted_die_count_as_another_colour() -> None:
    game, state = with_tool(Tool.CHANGE_COLOR, TEXT, pool="r2 y3")
    blue = play(game, state, "tool 1 draft 1 as b r1c1")  # a blue space now takes the recoloured die
    assert at(blue, 0, "r1c1") == Die(Color.BLUE, 2) and game.violations(blue) == []
    assert rule_of(game, state, "tool 1 draft 1 as r r1c3") == "same-color"
    assert rule_of(game, state, "tool 1 draft 1 as g r1c1") == "space-color"


def test_ignore_adjacency_lets_a_die_sit_next_to_its_colour_and_value() -> None:
    game, state = with_tool(Tool.IGNORE_ADJACENCY, TEXT, pool="r3 y4", windows={0: "r2c1=r4"})
    assert rule_of(game, state, "draft 1 r3c1") == "neighbour-color"
    beside = play(game, state, "tool 1 draft 1 r3c1")
    assert at(beside, 0, "r3c1") == Die(Color.RED, 3) and game.violations(beside) == []
    score = game.score(finished(game, beside)).players[0]
    assert score.illegal_dice == () and score.private_points == 7
    assert rule_of(game, state, "tool 1 draft 1 r4c4") == "must-touch"  # only adjacency is waived
    assert rule_of(game, state, "tool 1 draft 2 r1c1") == "space-color"


def test_reroll_rerolls_one_pool_die_and_leaves_the_draft_to_come() -> None:
    game, state = with_tool(Tool.REROLL_DIE, TEXT, pool="r2 y3 b5")
    lifted = play(game, state, "tool 1 reroll 2")
    assert lifted.pool == dice("r2 b5") and lifted.to_roll == (Color.YELLOW,)
    assert [o.move for o in game.chance_outcomes(lifted)] == [
        Roll((Die(Color.YELLOW, v),)) for v in range(1, 7)
    ]
    rolled = play(game, lifted, "roll y6")
    assert rolled.pool == dice("r2 y6 b5") and not rolled.drafted and game.current_player(rolled) == 0
    assert rule_of(game, state, "tool 1 reroll 4") == "no-such-die"


def test_extra_draft_adds_a_die_to_the_turns_own_draft() -> None:
    game, state = with_tool(Tool.EXTRA_DRAFT, TEXT, pool="r2 y3 b5")
    extra_first = play(game, state, "tool 1 draft 1 r1c3")
    assert not extra_first.drafted and game.current_player(extra_first) == 0
    both = play(game, extra_first, "draft 1 r1c4")
    assert both.players[0].window.count == 2 and game.current_player(both) == 1
    drafted = play(game, state, "draft 1 r1c3")
    after = play(game, drafted, "tool 1 draft 1 r1c4")
    assert after.players[0].window.count == 2 and game.current_player(after) == 1
    game, full = with_tool(Tool.EXTRA_DRAFT, TEXT, BLANK_PATTERN, pool="r2 y3", windows={0: FULL_WINDOW})
    assert game.violations(full) == []
    assert not any(isinstance(m, UseTool) for m in game.legal_moves(full))
    assert rule_of(game, full, "tool 1 draft 1 r1c3") == "occupied"


def test_generic_cards_are_not_official_cards() -> None:
    game = SagradaGame(2, TEXT)
    assert all(TOOL_CARDS[t].color is None for t in TOOL_SETS[TEXT.tool_set])
    with pytest.raises(Exception, match="tool set"):
        started(game, tools=[Tool.LATHEKIN, Tool.ADJUST_VALUE, Tool.EXTRA_DRAFT])
