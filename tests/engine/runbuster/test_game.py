"""The Run Buster rules, one by one, with the rule text's examples; the multi-player variant; playouts."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import IllegalMove, InvalidData, ParseError, random_playout, sample_chance
from engine.runbuster.game import (
    MULTIPLAYER,
    PUBLISHED,
    TEXT,
    FirstPlayer,
    Keep,
    Phase,
    Roll,
    Rules,
    RunBuster,
    State,
    rules_named,
)
from engine.runbuster.straights import Dice

GAME = RunBuster()


def rolling(
    hands: tuple[Dice, ...], to_move: int = 0, starter: int = 0, finished: tuple[int, ...] = ()
) -> State:
    """A table where `to_move` is about to roll."""
    return State(hands=hands, phase=Phase.ROLL, to_move=to_move, round_starter=starter, finished=finished)


def new_hands(game: RunBuster, state: State, roll: str) -> set[Dice]:
    """The hands the roller may end the turn with after `roll`."""
    after = game.apply(state, game.parse_move(roll))
    hand = after.hands[after.mover]
    return {tuple(sorted(hand + move.dice)) for move in game.legal_moves(after) if isinstance(move, Keep)}


# --- set-up and the first turn ------------------------------------------------------------------------


def test_the_first_player_is_a_fair_chance_move() -> None:
    state = GAME.initial_state()
    assert GAME.is_chance_node(state)
    outcomes = GAME.chance_outcomes(state)
    assert [o.move for o in outcomes] == [FirstPlayer(0), FirstPlayer(1)]
    assert all(o.probability == Fraction(1, 2) for o in outcomes)
    assert GAME.apply(state, FirstPlayer(1)).to_move == 1


def test_in_the_rule_texts_two_player_game_red_starts() -> None:
    game = RunBuster(2, TEXT)
    state = game.initial_state()
    assert state.phase is Phase.ROLL and state.to_move == 0 and state.round_starter == 0
    assert rules_named("text") is TEXT


def test_a_player_with_an_empty_hand_rolls_six_dice_462_ways() -> None:
    state = GAME.start(0)
    outcomes = GAME.chance_outcomes(state)
    assert len(outcomes) == 462
    assert sum(o.probability for o in outcomes) == 1
    assert all(isinstance(o.move, Roll) and len(o.move.dice) == 6 for o in outcomes)


def test_roll_2_2_4_5_5_6_offers_the_texts_seven_straights() -> None:
    expected = {(2,), (4,), (4, 5), (4, 5, 6), (5,), (5, 6), (6,)}
    assert new_hands(GAME, GAME.start(0), "roll 224556") == expected


def test_unused_dice_go_back_and_the_turn_passes() -> None:
    state = GAME.apply(GAME.apply(GAME.start(0), Roll((2, 2, 4, 5, 5, 6))), Keep((4, 5, 6)))
    assert state.hands == ((4, 5, 6), ())
    assert state.phase is Phase.ROLL
    assert state.to_move == 1
    assert GAME.dice_to_roll(state) == 6
    assert GAME.dice_to_roll(rolling(state.hands, to_move=0)) == 3


def test_an_opening_1_to_6_wins_at_once_with_probability_5_in_324() -> None:
    state = GAME.start(0)
    winning = Fraction(0)
    for outcome in GAME.chance_outcomes(state):
        after = GAME.apply(state, outcome.move)
        if Keep((1, 2, 3, 4, 5, 6)) in set(GAME.legal_moves(after)):
            winning += outcome.probability
    assert winning == Fraction(5, 324)
    won = GAME.apply(GAME.apply(state, Roll((6, 5, 4, 3, 2, 1))), Keep((1, 2, 3, 4, 5, 6)))
    outcome = GAME.outcome(won)
    assert outcome is not None and outcome.winners == (0,) and outcome.ranking == (0, 1)
    assert list(GAME.legal_moves(won)) == []
    assert not GAME.is_chance_node(won)


# --- busting ------------------------------------------------------------------------------------------


def test_a_roll_showing_the_complement_busts_the_opponent_back_to_the_cup() -> None:
    state = rolling(((2, 3, 4), (5,)), to_move=1)
    after = GAME.apply(state, Roll((1, 1, 5, 6, 2)))
    assert after.hands == ((), (5,))
    assert GAME.busted_by(state, (1, 1, 5, 6, 2)) == (0,)


def test_a_roll_missing_one_complement_value_does_not_bust() -> None:
    state = rolling(((2, 3, 4), (5,)), to_move=1)
    assert GAME.apply(state, Roll((1, 1, 5, 5, 2))).hands == ((2, 3, 4), (5,))


def test_an_empty_hand_cannot_be_busted() -> None:
    state = rolling(((), ()), to_move=1)
    assert GAME.busted_by(state, (1, 2, 3, 4, 5, 6)) == ()


def test_the_busted_player_rolls_six_dice_next_turn() -> None:
    state = rolling(((2, 3, 4), ()), to_move=1)
    after = GAME.apply(GAME.apply(state, Roll((1, 5, 6, 6, 6, 6))), Keep((5, 6)))
    assert after.to_move == 0 and after.hands == ((), (5, 6))
    assert GAME.dice_to_roll(after) == 6


# --- extending ----------------------------------------------------------------------------------------


def test_hand_4_5_with_roll_3_4_4_6_may_become_3_4_5_or_3_4_5_6_or_4_5_6() -> None:
    state = rolling(((4, 5), ()))
    assert new_hands(GAME, state, "roll 3446") == {(3, 4, 5), (3, 4, 5, 6), (4, 5, 6)}


def test_hand_4_5_with_roll_1_2_4_5_cannot_extend_and_keeps_nothing() -> None:
    state = rolling(((4, 5), ()))
    after = GAME.apply(state, Roll((1, 2, 4, 5)))
    assert list(GAME.legal_moves(after)) == [Keep(())]
    passed = GAME.apply(after, Keep(()))
    assert passed.hands == ((4, 5), ()) and passed.to_move == 1


def test_a_player_must_extend_when_they_can() -> None:
    after = GAME.apply(rolling(((4, 5), ())), Roll((3, 4, 4, 6)))
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(after, Keep(()))
    assert caught.value.rule == "must-extend"
    assert str(caught.value) == "must extend with at least one rolled die: 3-4-5 is possible"


def test_an_empty_hand_must_keep_a_straight() -> None:
    after = GAME.apply(GAME.start(0), Roll((2, 2, 4, 5, 5, 6)))
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(after, Keep(()))
    assert caught.value.rule == "must-keep"
    assert "2 is possible" in str(caught.value)


def test_a_hand_that_is_not_a_straight_is_refused() -> None:
    after = GAME.apply(rolling(((3, 4), ())), Roll((1, 2, 6, 6)))
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(after, Keep((6,)))
    assert caught.value.rule == "straight"
    assert str(caught.value) == "hand 3-4-6 is not a straight"


def test_a_die_already_in_the_hand_cannot_be_added_again() -> None:
    after = GAME.apply(rolling(((4, 5), ())), Roll((3, 4, 4, 6)))
    with pytest.raises(IllegalMove, match="hand 3-4-4-5 is not a straight"):
        GAME.apply(after, Keep((3, 4)))


def test_only_rolled_dice_may_be_kept() -> None:
    after = GAME.apply(rolling(((4, 5), ())), Roll((3, 4, 4, 6)))
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(after, Keep((3, 6, 6)))
    assert caught.value.rule == "not-rolled"
    with pytest.raises(IllegalMove, match="has not enough 2"):
        GAME.apply(after, Keep((2, 3)))


def test_completing_1_to_6_after_extending_wins() -> None:
    state = rolling(((2, 3, 4), (5, 6)), to_move=0)
    after = GAME.apply(GAME.apply(state, Roll((1, 5, 6))), Keep((1, 5, 6)))
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (0,) and outcome.details["loser"] == 1
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(after, Roll((1,)))
    assert caught.value.rule == "game-over"


# --- turn order and bad moves -------------------------------------------------------------------------


def test_a_roll_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(rolling(((4, 5), ())), Roll((1, 2, 3)))
    assert caught.value.rule == "roll-size"
    assert "rolls 4 dice (hand 4-5), got 3" in str(caught.value)


def test_moves_out_of_turn_are_refused() -> None:
    state = rolling(((4, 5), ()))
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(state, Keep((3,)))
    assert caught.value.rule == "not-keeping"
    after = GAME.apply(state, Roll((3, 4, 4, 6)))
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(after, Roll((3, 4, 4, 6)))
    assert caught.value.rule == "not-rolling"
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(state, FirstPlayer(1))
    assert caught.value.rule == "first-player"
    with pytest.raises(IllegalMove, match="player 2 is not at this table"):
        GAME.apply(GAME.initial_state(), FirstPlayer(2))


def test_apply_never_changes_the_state_it_is_given() -> None:
    state = rolling(((4, 5), (2, 3)))
    before = GAME.state_to_json(state)
    GAME.apply(GAME.apply(state, Roll((1, 1, 2, 2))), Keep(()))
    assert GAME.state_to_json(state) == before


# --- notation and JSON --------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["first 1", "roll 3446", "keep 36", "keep -", "roll 111111"])
def test_move_notation_round_trips(text: str) -> None:
    move = GAME.parse_move(text)
    assert str(move) == text
    assert GAME.parse_move(str(move)) == move


def test_move_notation_reads_separators_and_sorts() -> None:
    assert GAME.parse_move("roll 6,4,4,3") == Roll((3, 4, 4, 6))
    assert str(GAME.parse_move("keep 6-3")) == "keep 36"


@pytest.mark.parametrize("text", ["", "roll", "keep", "jump 3", "first x", "roll 3479", "keep 3,,x"])
def test_malformed_moves_raise_parse_errors(text: str) -> None:
    with pytest.raises(ParseError):
        GAME.parse_move(text)


def test_state_json_round_trips() -> None:
    state = GAME.apply(rolling(((4, 5), (2, 3)), to_move=0), Roll((3, 4, 4, 6)))
    data = GAME.state_to_json(state)
    assert data["hands"] == [[4, 5], [2, 3]] and data["phase"] == "keep" and data["roll"] == [3, 4, 4, 6]
    assert GAME.state_from_json(data) == state


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rules": "multiplayer"}, "ruleset"),
        ({"hands": [[1]]}, "seats 1 players"),
        ({"hands": [[1], ["x"]]}, "list of integers"),
        ({"phase": "dance"}, "malformed"),
        ({"to_move": 5}, "outside"),
        ({"to_move": None}, "needs a player to move"),
        ({"finished": [0, 0]}, "finishes once"),
    ],
)
def test_malformed_state_json_is_rejected(change: dict[str, object], message: str) -> None:
    data = GAME.state_to_json(rolling(((4, 5), (2, 3))))
    data.update(change)
    with pytest.raises(InvalidData, match=message):
        GAME.state_from_json(data)


def test_score_lists_each_hand_and_what_busts_it() -> None:
    standings = GAME.score(rolling(((2, 3, 4), ())))
    assert standings[0].complement == (1, 5, 6) and standings[0].place is None
    assert standings[1].to_json() == {"player": 1, "hand": [], "complement": [], "place": None}


# --- violations of a table ----------------------------------------------------------------------------


def test_a_legal_table_has_no_violations() -> None:
    assert GAME.violations(GAME.apply(rolling(((4, 5), (2, 3))), Roll((1, 3, 4, 6)))) == []


def test_a_hand_that_is_not_a_straight_is_a_violation() -> None:
    found = GAME.violations(rolling(((3, 4, 6), ())))
    assert [(v.rule, v.cells) for v in found] == [("straight", ("p0.hand",))]
    assert "3-4-6 is not a straight" in found[0].message


def test_more_than_six_dice_is_a_violation() -> None:
    state = State(hands=((4, 5), ()), phase=Phase.KEEP, to_move=0, round_starter=0, roll=(1, 2, 3, 4, 5))
    assert [v.rule for v in GAME.violations(state)] == ["too-many-dice"]


def test_a_short_roll_and_values_outside_1_to_6_are_violations() -> None:
    state = State(hands=((4, 5), (7,)), phase=Phase.KEEP, to_move=0, round_starter=0, roll=(1, 2, 3))
    assert {v.rule for v in GAME.violations(state)} == {"die-value", "roll-size"}


def test_a_hand_left_on_the_table_after_a_bust_is_a_violation() -> None:
    state = State(hands=((2, 3, 4), (5,)), phase=Phase.KEEP, to_move=1, round_starter=0, roll=(1, 1, 2, 5, 6))
    found = GAME.violations(state)
    assert [(v.rule, v.cells) for v in found] == [("bust-not-applied", ("p0.hand",))]


def test_a_held_full_straight_in_a_running_game_is_a_violation() -> None:
    state = rolling(((1, 2, 3, 4, 5, 6), ()), to_move=1)
    assert [v.rule for v in GAME.violations(state)] == ["full-straight"]


def test_a_roll_outside_the_keep_step_is_a_violation() -> None:
    state = State(hands=((), ()), phase=Phase.ROLL, to_move=0, round_starter=0, roll=(1, 2))
    assert [v.rule for v in GAME.violations(state)] == ["roll-out-of-turn"]


# --- rules variants and the multi-player extension -----------------------------------------------------


def test_the_published_game_seats_exactly_two() -> None:
    assert rules_named("published") is PUBLISHED
    with pytest.raises(InvalidData, match="seats 2 to 2 players, not 3"):
        RunBuster(3)
    with pytest.raises(InvalidData, match="unknown Run Buster ruleset"):
        rules_named("house")
    with pytest.raises(InvalidData):
        RunBuster(1, MULTIPLAYER)


def test_one_roll_busts_every_opponent_showing_the_complement() -> None:
    game = RunBuster(4, MULTIPLAYER)
    state = rolling(((), (2, 3, 4, 5), (1, 2, 3, 4, 5), (2, 3)), to_move=0)
    after = game.apply(state, Roll((1, 6, 6, 2, 5, 1)))
    assert after.hands == ((), (), (), (2, 3))
    assert game.busted_by(state, (1, 6, 6, 2, 5, 1)) == (1, 2)


def test_the_round_winner_drops_out_and_the_next_round_starts_left_of_the_last_starter() -> None:
    game = RunBuster(4, MULTIPLAYER)
    state = rolling(((3, 4), (1, 2, 3, 4, 5), (2,), (5, 6)), to_move=1, starter=3)
    after = game.apply(game.apply(state, Roll((6,))), Keep((6,)))
    assert after.finished == (1,)
    assert game.outcome(after) is None
    assert after.hands == ((), (), (), ())
    assert after.round_starter == 0 and after.to_move == 0


def test_the_rotation_skips_players_who_have_finished() -> None:
    game = RunBuster(3, MULTIPLAYER)
    state = rolling(((), (1, 2, 3, 4, 5), ()), to_move=1, starter=2, finished=(0,))
    after = game.apply(game.apply(state, Roll((6,))), Keep((6,)))
    assert game.outcome(after) is not None  # two of three are out: the last one left loses


def test_turns_skip_finished_players_and_the_round_starter_rotates() -> None:
    game = RunBuster(3, MULTIPLAYER)
    state = rolling(((1, 2, 3, 4, 5), (), ()), to_move=0, starter=2)
    after = game.apply(game.apply(state, Roll((6,))), Keep((6,)))
    assert after.finished == (0,) and after.round_starter == 1 and after.to_move == 1
    turn = game.apply(game.apply(after, Roll((1, 1, 1, 1, 1, 1))), Keep((1,)))
    assert turn.to_move == 2
    turn = game.apply(game.apply(turn, Roll((2, 2, 2, 2, 2, 2))), Keep((2,)))
    assert turn.to_move == 1


def test_drop_out_order_is_the_ranking_and_the_last_player_loses() -> None:
    game = RunBuster(3, MULTIPLAYER)
    state = rolling(((), (1, 2, 3, 4, 5), ()), to_move=1, starter=1)
    state = game.apply(game.apply(state, Roll((6,))), Keep((6,)))
    assert state.to_move == 2
    state = game.apply(game.apply(state, Roll((1, 2, 3, 4, 5, 6))), Keep((1, 2, 3, 4, 5, 6)))
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome.winners == (1,) and outcome.ranking == (1, 2, 0) and outcome.details["loser"] == 0
    assert [s.place for s in game.score(state)] == [3, 1, 2]


# --- playouts and properties --------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [PUBLISHED, TEXT], ids=lambda r: r.name)
@pytest.mark.parametrize("seed", range(10))
def test_two_player_random_playouts_finish(rules: Rules, seed: int) -> None:
    game = RunBuster(2, rules)
    final = random_playout(game, game.initial_state(), random.Random(seed))
    outcome = game.outcome(final)
    assert outcome is not None
    assert sorted(outcome.ranking) == [0, 1]
    assert final.hands[outcome.winners[0]] == (1, 2, 3, 4, 5, 6)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("seed", range(5))
def test_multiplayer_random_playouts_finish_with_a_full_ranking(players: int, seed: int) -> None:
    game = RunBuster(players, MULTIPLAYER)
    final = random_playout(game, game.initial_state(), random.Random(seed))
    outcome = game.outcome(final)
    assert outcome is not None
    assert sorted(outcome.ranking) == list(range(players))
    assert outcome.winners == outcome.ranking[:1]


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 5), rng=st.randoms(use_true_random=False), steps=st.integers(1, 120))
def test_every_state_of_random_play_is_legal_and_every_legal_move_applies(
    players: int, rng: random.Random, steps: int
) -> None:
    game = RunBuster(players, MULTIPLAYER)
    state = game.initial_state()
    for _ in range(steps):
        assert game.violations(state) == [], game.state_to_json(state)
        assert game.state_from_json(game.state_to_json(state)) == state
        if game.outcome(state) is not None:
            break
        if game.is_chance_node(state):
            state = game.apply(state, sample_chance(game.chance_outcomes(state), rng))
            continue
        moves = list(game.legal_moves(state))
        assert moves
        successors = [game.apply(state, move) for move in moves]
        assert all(game.parse_move(str(move)) == move for move in moves)
        state = rng.choice(successors)
