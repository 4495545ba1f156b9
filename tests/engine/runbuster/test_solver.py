"""The two-player solver: the shipped table against a fresh exact solve, the engine's rules, hand-derived
values, symmetry, and the advice for a roll."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import IllegalMove, sample_chance
from engine.runbuster.game import Keep, Phase, Roll, RunBuster, State
from engine.runbuster.solver import (
    DATA_FILE,
    HANDS,
    POSITIONS,
    Position,
    ValueTable,
    advise,
    bust_probability,
    completion_probability,
    extension_probability,
    opening_full_straight_probability,
    solve,
    value_table,
)
from engine.runbuster.straights import FACES, FULL_STRAIGHT, Dice

GAME = RunBuster()


@pytest.fixture(scope="module")
def exact() -> dict[Position, Fraction]:
    return solve()


def reflect(hand: Dice) -> Dice:
    """The same hand with every face v read as 7 - v: the game cannot tell them apart."""
    return tuple(sorted(7 - v for v in hand))


def one_turn_by_the_engine(mine: Dice, theirs: Dice, value: dict[Position, float]) -> tuple[float, float]:
    """The roller's and the opponent's chances, from one turn played through the engine's rules (every roll
    and every legal keep) and the table for the position the opponent then rolls from."""
    state = State(hands=(mine, theirs), phase=Phase.ROLL, to_move=0, round_starter=0)
    roller = opponent = 0.0
    for chance in GAME.chance_outcomes(state):
        rolled = GAME.apply(state, chance.move)
        best = 0.0
        for move in GAME.legal_moves(rolled):
            after = GAME.apply(rolled, move)
            win = 1.0 if GAME.outcome(after) is not None else 1 - value[after.hands[1], after.hands[0]]
            best = max(best, win)
        roller += float(chance.probability) * best
        opponent += float(chance.probability) * (1 - best)
    return roller, opponent


# --- the solve ----------------------------------------------------------------------------------------


def test_the_shipped_table_is_a_fresh_exact_solve(exact: dict[Position, Fraction]) -> None:
    shipped = json.loads(resources.files("engine").joinpath(DATA_FILE).read_text("utf-8"))
    assert ValueTable.from_json(shipped) == ValueTable.from_exact(exact)
    assert value_table() == ValueTable.from_exact(exact)
    assert len(exact) == len(POSITIONS) == 21 * 21


def test_policy_iteration_from_naive_play_reaches_the_same_values(exact: dict[Position, Fraction]) -> None:
    assert solve(warm_start=False) == exact


def test_exact_values_are_probabilities(exact: dict[Position, Fraction]) -> None:
    assert all(0 < v < 1 for v in exact.values())


def test_both_holding_1_to_5_the_roller_wins_6_in_11(exact: dict[Position, Fraction]) -> None:
    # The roller needs a 6 (1/6); any other face cannot extend and passes the same position over, so
    # V = 1/6 + 5/6 * (1 - V), V = 6/11. A 6 also busts the opponent, but the roller has already won.
    assert exact[(1, 2, 3, 4, 5), (1, 2, 3, 4, 5)] == Fraction(6, 11)
    assert exact[(2, 3, 4, 5, 6), (2, 3, 4, 5, 6)] == Fraction(6, 11)


def test_the_exact_values_satisfy_the_optimality_equation_through_the_engine(
    exact: dict[Position, Fraction],
) -> None:
    for mine, theirs in [((), ()), ((4, 5), (2, 3)), ((1, 2, 3, 4, 5), ()), ((3,), (1, 2, 3, 4))]:
        state = State(hands=(mine, theirs), phase=Phase.ROLL, to_move=0, round_starter=0)
        total = Fraction(0)
        for chance in GAME.chance_outcomes(state):
            rolled = GAME.apply(state, chance.move)
            options = []
            for move in GAME.legal_moves(rolled):
                after = GAME.apply(rolled, move)
                done = GAME.outcome(after) is not None
                options.append(Fraction(1) if done else 1 - exact[after.hands[1], after.hands[0]])
            total += chance.probability * max(options)
        assert total == exact[mine, theirs]


def test_values_are_unchanged_by_reading_faces_upside_down(exact: dict[Position, Fraction]) -> None:
    for mine, theirs in POSITIONS:
        assert exact[mine, theirs] == exact[reflect(mine), reflect(theirs)]


def test_moving_first_is_an_edge_and_holding_1_to_5_beats_an_empty_hand() -> None:
    table = value_table()
    assert 0.5 < table.win_probability((), ()) < 0.52
    assert table.win_probability((1, 2, 3, 4, 5), ()) > 1 - table.win_probability((), (1, 2, 3, 4, 5))


@settings(max_examples=60, deadline=None)
@given(mine=st.sampled_from(HANDS), theirs=st.sampled_from(HANDS))
def test_the_two_players_chances_sum_to_one(mine: Dice, theirs: Dice) -> None:
    values = dict(value_table().values)
    roller, opponent = one_turn_by_the_engine(mine, theirs, values)
    assert roller == pytest.approx(values[mine, theirs], abs=1e-12)
    assert roller + opponent == pytest.approx(1, abs=1e-12)


def test_a_malformed_table_is_rejected() -> None:
    data = value_table().to_json()
    del data["values"]["-|-"]
    with pytest.raises(ValueError, match="needs all 441 positions"):
        ValueTable.from_json(data)
    with pytest.raises(ValueError, match="malformed"):
        ValueTable.from_json({"values": {"-": 0.5}})


# --- advice -------------------------------------------------------------------------------------------


def test_the_roller_who_can_complete_must_win_at_once() -> None:
    advice = advise((1, 2, 3, 4, 5), (2, 3), (6,))
    assert advice.forced
    [only] = advice.options
    assert only.hand == FULL_STRAIGHT and only.win_probability == 1.0 and only.bust_risk == 0
    assert not advice.bust  # busting 2-3 takes a 1, 4, 5 and 6


def test_completing_beats_every_partial_keep() -> None:
    advice = advise((2, 3, 4, 5), (), (1, 6))
    assert advice.options[0].hand == FULL_STRAIGHT
    assert advice.options[0].win_probability == 1.0
    assert {o.hand for o in advice.options[1:]} == {(1, 2, 3, 4, 5), (2, 3, 4, 5, 6)}
    assert all(o.win_probability < 1 for o in advice.options[1:])


def test_the_texts_example_roll_lists_every_keep_best_first() -> None:
    advice = advise((4, 5), (2, 3), (3, 4, 4, 6))
    assert not advice.bust and not advice.forced
    assert {o.hand for o in advice.options} == {(3, 4, 5), (3, 4, 5, 6), (4, 5, 6)}
    chances = [o.win_probability for o in advice.options]
    assert chances == sorted(chances, reverse=True)
    table = value_table()
    for option in advice.options:
        assert option.win_probability == 1 - table.win_probability((2, 3), option.hand)
        # the opponent holds 2-3 and rolls four dice; the new hand is busted if they show its complement
        assert option.bust_risk == bust_probability(option.hand, 4)


def test_a_roll_that_busts_the_opponent_leaves_them_six_dice() -> None:
    advice = advise((), (2, 3, 4), (1, 1, 5, 6, 2, 2))
    assert advice.bust
    table = value_table()
    for option in advice.options:
        assert option.win_probability == 1 - table.win_probability((), option.hand)
        assert option.bust_risk == bust_probability(option.hand, 6)


def test_a_roll_that_cannot_extend_is_forced_to_keep_nothing() -> None:
    advice = advise((4, 5), (2, 3), (1, 2, 4, 5))
    assert advice.forced
    [only] = advice.options
    assert only.hand == (4, 5) and only.kept == ()
    assert only.to_json()["move"] == "keep -"


def test_advice_json_has_the_documented_fields() -> None:
    data = advise((4, 5), (2, 3), (3, 4, 4, 6)).to_json()
    assert data["bust"] is False and data["forced"] is False
    assert set(data["options"][0]) == {"hand", "move", "win_probability", "bust_risk"}
    assert advise((), (), (1, 1, 1, 1, 1, 1)).to_json()["options"][0]["hand"] == [1]


@pytest.mark.parametrize(
    ("hand", "opponent", "roll", "rule"),
    [
        ((4, 6), (), (1, 2, 3, 4), "straight"),
        ((), (1, 3), (1, 2, 3, 4, 5, 6), "straight"),
        ((4, 5), (), (1, 2, 3), "roll-size"),
        ((), (), (1, 2, 3, 4, 5, 6, 6), "roll-size"),
        ((4, 5), (), (1, 2, 3, 7), "die-value"),
        (FULL_STRAIGHT, (), (), "game-over"),
    ],
)
def test_bad_positions_and_rolls_are_refused(hand: Dice, opponent: Dice, roll: Dice, rule: str) -> None:
    with pytest.raises(IllegalMove) as caught:
        advise(hand, opponent, roll)
    assert caught.value.rule == rule


def test_advice_keeps_match_the_engines_legal_moves() -> None:
    state = State(hands=((4, 5), (2, 3)), phase=Phase.ROLL, to_move=0, round_starter=0)
    rolled = GAME.apply(state, GAME.parse_move("roll 3446"))
    legal = {move for move in GAME.legal_moves(rolled) if isinstance(move, Keep)}
    assert {Keep(o.kept) for o in advise((4, 5), (2, 3), (3, 4, 4, 6)).options} == legal


def test_following_the_advice_beats_random_keeps_in_seeded_games() -> None:
    rng = random.Random(7)
    games, wins = 300, 0
    for game_number in range(games):
        advised = game_number % 2
        state = GAME.start(rng.randrange(2))
        while GAME.outcome(state) is None:
            roller = state.mover
            before = state
            roll = sample_chance(GAME.chance_outcomes(state), rng)
            state = GAME.apply(state, roll)
            if roller == advised:
                assert isinstance(roll, Roll)
                best = advise(before.hands[roller], before.hands[1 - roller], roll.dice).options[0]
                state = GAME.apply(state, Keep(best.kept))
            else:
                state = GAME.apply(state, rng.choice(list(GAME.legal_moves(state))))
        outcome = GAME.outcome(state)
        assert outcome is not None
        wins += outcome.winners == (advised,)
    assert wins / games > 0.55  # about 0.63 over 1000 games; an even split would mean useless advice


# --- the probabilities people ask about --------------------------------------------------------------


def test_an_opening_1_to_6_has_probability_5_in_324() -> None:
    assert opening_full_straight_probability() == Fraction(5, 324)


def test_bust_probability_of_2_3_4_against_six_dice_by_inclusion_exclusion() -> None:
    expected = 1 - 3 * Fraction(5, 6) ** 6 + 3 * Fraction(4, 6) ** 6 - Fraction(3, 6) ** 6
    assert bust_probability((2, 3, 4)) == expected
    assert bust_probability((1, 2, 3, 4, 5), 1) == Fraction(1, 6)
    assert bust_probability(()) == 0 and bust_probability(FACES) == 0


def test_completion_and_extension_probabilities_by_hand() -> None:
    assert completion_probability((1, 2, 3, 4, 5)) == Fraction(1, 6)
    assert completion_probability((2, 3, 4, 5)) == Fraction(2, 36)
    assert extension_probability((4, 5)) == 1 - Fraction(4, 6) ** 4  # a 3 or a 6 among four dice
    assert extension_probability((1,)) == 1 - Fraction(5, 6) ** 5  # only a 2 extends 1
    assert extension_probability(()) == 1
