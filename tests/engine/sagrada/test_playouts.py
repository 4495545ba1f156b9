"""Whole games: seeded random playouts for 1-4 players under both rulesets, and property tests that every
legal move applies, every state keeps every window legal, and states survive a JSON round trip."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import random_playout
from engine.sagrada.game import SagradaGame, SagradaState
from engine.sagrada.moves import parse_move
from engine.sagrada.rules import OFFICIAL, TEXT, Rules
from tests.engine.sagrada.test_game import random_steps

MOVES_CHECKED_PER_STATE = 40


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("rules", [OFFICIAL, TEXT], ids=["official", "text"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playouts_finish_with_a_valid_outcome(players: int, rules: Rules, seed: int) -> None:
    game = SagradaGame(players, rules)
    final = random_playout(game, game.deal(seed), random.Random(seed))
    outcome = game.outcome(final)
    assert outcome is not None
    assert len(final.round_track) == (rules.rounds if rules.leftover_to_round_track or players == 1 else 0)
    assert game.violations(final) == []
    assert sorted(outcome.ranking) == list(range(players))
    totals = game.score(final).totals
    if players == 1:
        target = game.score(final).solo_target
        assert target is not None and outcome.winners == ((0,) if totals[0] > target else ())
    else:
        assert outcome.winners and set(outcome.winners) <= {
            i for i, t in enumerate(totals) if t == max(totals)
        }
        assert [totals[i] for i in outcome.ranking] == sorted(totals, reverse=True)


def check_position(game: SagradaGame, state: SagradaState, pick: int) -> None:
    """Every legal move (a sample of at most 40) applies and leaves no violation; the notation round-trips."""
    moves = list(game.legal_moves(state))
    assert moves, "an unfinished game must offer a move"
    if len(moves) > MOVES_CHECKED_PER_STATE:
        moves = random.Random(pick).sample(moves, MOVES_CHECKED_PER_STATE)
    for move in moves:
        assert parse_move(str(move)) == move
        after = game.apply(state, move)
        assert game.violations(after) == [], f"{move} broke a rule"


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(1, 4),
    text_rules=st.booleans(),
    seed=st.integers(0, 2**32),
    warmup=st.integers(0, 400),
    picks=st.lists(st.integers(0, 2**32), min_size=1, max_size=12),
)
def test_legal_moves_apply_and_keep_every_window_legal(
    players: int, text_rules: bool, seed: int, warmup: int, picks: list[int]
) -> None:
    game = SagradaGame(players, TEXT if text_rules else OFFICIAL)
    state = game.deal(seed)
    state = random_steps(game, state, warmup, seed, stop_at_end=True)
    for pick in picks:
        if game.outcome(state) is not None:
            break
        if game.is_chance_node(state):
            outcomes = game.chance_outcomes(state)
            assert sum(o.probability for o in outcomes) == 1
            move = outcomes[pick % len(outcomes)].move
        else:
            check_position(game, state, pick)
            moves = list(game.legal_moves(state))
            move = moves[pick % len(moves)]
        state = game.apply(state, move)
        assert game.violations(state) == []
        assert game.state_from_json(json.loads(json.dumps(game.state_to_json(state)))) == state
