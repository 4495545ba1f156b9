"""Solo Sagrada: two private and two public objectives, no favor tokens, tools paid with a pool die and used
once, four dice and two turns a round, -3 per empty space, and a win only above the round track's sum."""

from __future__ import annotations

import pytest

from engine.core import InvalidData
from engine.sagrada.game import SagradaGame
from engine.sagrada.moves import UseTool
from engine.sagrada.tools import TOOL_CARDS, TOOL_SETS, Tool
from engine.sagrada.window import BLANK_PATTERN, Color
from tests.engine.sagrada.test_game import FULL_WINDOW, dice, play, rule_of, started, table


def test_solo_deal_has_two_privates_two_publics_and_one_to_five_tools() -> None:
    game = SagradaGame(1)
    for count in (1, 5):
        state = game.deal(4, solo_tool_cards=count)
        assert len(state.tools) == count
        assert len(state.players[0].private) == 2 and len(state.public_objectives) == 2
    with pytest.raises(InvalidData, match="tool cards"):
        game.setup(
            [[BLANK_PATTERN]],
            [[Color.RED, Color.BLUE]],
            TOOL_SETS[game.rules.tool_set][:6],
            ["Light Shades", "Deep Shades"],
        )
    with pytest.raises(InvalidData, match="private"):
        game.setup([[BLANK_PATTERN]], [[Color.RED]], [Tool.LATHEKIN], ["Light Shades", "Deep Shades"])


def test_solo_has_no_favor_tokens_four_dice_and_two_turns_a_round() -> None:
    game = SagradaGame(1)
    state = started(game)
    assert state.players[0].favor_tokens == 0 and state.to_draw == 4
    state = play(game, state, "roll r1 y2 g3 b4")
    state = play(game, state, "draft 1 r1c1", "pass")
    assert game.current_player(state) == 0 and state.turn == 1 and state.round == 1
    state = play(game, state, "draft 1 r1c2", "pass")
    assert state.round == 2 and state.round_track == (dice("g3 b4"),) and state.to_draw == 4


def test_solo_tools_are_paid_with_a_pool_die_of_their_colour_and_used_once() -> None:
    game = SagradaGame(1)
    assert TOOL_CARDS[Tool.GROZING_PLIERS].color is Color.PURPLE
    state = table(started(game, tools=[Tool.GROZING_PLIERS, Tool.LATHEKIN]), pool="r2 y3 g4 p5")
    assert rule_of(game, state, "tool 1 draft 1 +1 r1c1") == "solo-payment"
    assert rule_of(game, state, "tool 1 pay 2 draft 1 +1 r1c1") == "solo-payment-color"
    assert rule_of(game, state, "tool 1 pay 4 draft 4 +1 r1c1") == "same-die"
    paid = [m for m in game.legal_moves(state) if isinstance(m, UseTool) and m.card == 1]
    assert paid and all(m.pay == 4 for m in paid)  # only the purple die pays for Grozing Pliers
    used = play(game, state, "tool 1 pay 4 draft 1 +1 r1c1")
    assert used.players[0].window.count == 1 and used.set_aside == dice("p5") and used.pool == dice("y3 g4")
    assert used.turn == 1 and used.players[0].favor_tokens == 0
    refill = table(used, pool="y3 g4 p6")
    assert rule_of(game, refill, "tool 1 pay 3 draft 1 -1 r1c2") == "tool-used-up"
    assert not any(isinstance(m, UseTool) and m.card == 1 for m in game.legal_moves(refill))
    assert game.violations(used) == []


def test_solo_running_pliers_take_the_second_turn_at_once() -> None:
    game = SagradaGame(1)
    state = table(started(game, tools=[Tool.RUNNING_PLIERS]), pool="r2 y3 g4 b5")
    state = play(game, state, "draft 2 r1c1", "tool 1 pay 1 draft 2 r1c2")
    assert state.round == 2 and state.round_track == (dice("b5"),) and state.set_aside == dice("r2")


def test_solo_score_counts_the_better_private_no_tokens_and_minus_three_per_empty_space() -> None:
    game = SagradaGame(1)
    state = started(game, publics=("Row Color Variety", "Column Color Variety"))  # privates: red, yellow
    state = table(state, windows={0: "r1c1=r5 r1c2=y6"}, track=["g2"] * 10)
    score = game.score(state)
    # red 5 against yellow 6: yellow counts; no complete row or column; 18 empty spaces at -3
    assert score.players[0].private_points == 6 and score.players[0].favor_tokens == 0
    assert score.players[0].total == 6 - 18 * 3
    assert score.solo_target == 20


@pytest.mark.parametrize(("last_round", "target", "won"), [("b1", 63, False), ("", 62, True)])
def test_solo_wins_only_above_the_sum_of_the_round_track(last_round: str, target: int, won: bool) -> None:
    game = SagradaGame(1)
    state = started(game, publics=("Row Color Variety", "Column Color Variety"))
    track = ["b6 b6"] * 5 + ["b1", "b1"] + [""] * 2 + [last_round]  # 62 pips, plus the last round's
    state = table(state, windows={0: FULL_WINDOW}, track=track)
    assert game.is_over(state)
    # FULL_WINDOW: every row has 5 colours (4 x 6 = 24) and every column 4 colours (5 x 5 = 25);
    # red dice 4+3+2+1 = 10, yellow 6+5+2+1 = 14, so yellow counts: 24 + 25 + 14 = 63
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome.details == {"scores": [63], "target": target}
    assert outcome.winners == ((0,) if won else ())
