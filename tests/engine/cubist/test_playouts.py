"""Whole games and properties: random playouts end with a valid outcome, every legal move applies and
leaves a valid table, and moves and states survive their text and JSON forms."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import ParseError, random_playout, sample_chance
from engine.cubist.game import TEXT, Cubist, Phase, Rules, State
from engine.cubist.moves import parse_move
from tests.engine.cubist.helpers import CARDS, QUICK_CARDS

MOVES_CHECKED_PER_STATE = 30


def check_finished(game: Cubist, final: State) -> None:
    outcome = game.outcome(final)
    assert outcome is not None and final.phase is Phase.OVER
    assert game.violations(final) == []
    totals = [s.total for s in game.score(final)]
    assert sorted(outcome.ranking) == list(range(game.players))
    assert outcome.winners and all(totals[w] == max(totals) for w in outcome.winners)
    assert [totals[p] for p in outcome.ranking] == sorted(totals, reverse=True)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playouts_with_quick_cards_end_by_the_rules(players: int, seed: int) -> None:
    game = Cubist(players, cards=QUICK_CARDS)
    final = random_playout(game, game.initial_state(), random.Random(seed))
    assert final.ended_by in ("installations", "museum", "installations-run-out")
    check_finished(game, final)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_playouts_with_the_illustrative_cards_end_by_a_turn_limit(players: int, seed: int) -> None:
    """Random play rarely builds a 4-6 die installation, so these games run under a turn limit."""
    game = Cubist(players, Rules(name="simulation", turn_limit=60))
    final = random_playout(game, game.initial_state(), random.Random(seed))
    assert final.ended_by in ("installations", "museum", "installations-run-out", "turn-limit")
    check_finished(game, final)


def random_steps(game: Cubist, seed: int, steps: int) -> list[State]:
    """The states of one random game, up to `steps` moves in or its end."""
    rng = random.Random(seed)
    state = game.initial_state()
    states = [state]
    for _ in range(steps):
        if game.outcome(state) is not None:
            break
        if game.is_chance_node(state):
            move = sample_chance(game.chance_outcomes(state), rng)
        else:
            move = rng.choice(list(game.legal_moves(state)))
        state = game.apply(state, move)
        states.append(state)
    return states


def check_position(game: Cubist, state: State, pick: int) -> None:
    """Every legal move (a sample) round-trips its notation, applies, and leaves no violation."""
    if game.is_chance_node(state):
        outcomes = game.chance_outcomes(state)
        assert sum(o.probability for o in outcomes) == 1
        moves = [o.move for o in outcomes]
    else:
        moves = list(game.legal_moves(state))
        assert moves or game.outcome(state) is not None, "an unfinished game must offer a move"
    if len(moves) > MOVES_CHECKED_PER_STATE:
        moves = random.Random(pick).sample(moves, MOVES_CHECKED_PER_STATE)
    for move in moves:
        assert parse_move(str(move)) == move
        after = game.apply(state, move)
        assert game.violations(after) == [], f"{move} broke a rule"


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 4),
    quick=st.booleans(),
    text_rules=st.booleans(),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 250),
)
def test_every_legal_move_applies_and_keeps_the_table_valid(
    players: int, quick: bool, text_rules: bool, seed: int, steps: int
) -> None:
    game = Cubist(players, TEXT if text_rules else Rules(name="published"), QUICK_CARDS if quick else CARDS)
    state = random_steps(game, seed, steps)[-1]
    assert game.violations(state) == []
    check_position(game, state, seed)


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_states_survive_a_json_round_trip(players: int, seed: int) -> None:
    game = Cubist(players, cards=QUICK_CARDS)
    for state in random_steps(game, seed, 300)[::7]:
        data = json.loads(json.dumps(game.state_to_json(state)))
        assert game.state_from_json(data) == state


@pytest.mark.parametrize(
    "text",
    [
        "museum museum-2a",
        "cornerstone 4",
        "reveal installation-07",
        "first 2",
        "roll 35",
        "roll 6",
        "roll -",
        "place s3 w0 1,0,0",
        "place installation-04.1=5 museum 2,1,0",
        "place installation-04.0=6 w1 -1,2,1",
        "artist malevich-3 s4 s4",
        "artist marc-1 installation-04.0=6 s6 s6",
        "activate gris-1",
        "activate marc-1 gain 5",
        "activate gris-1 remove w0 1,0,0",
        "activate pascin-2 move w0 1,0,0 w1 0,0,0",
        "activate popova-plus change s3 +1",
        "activate fresnaye-minus change installation-02.0=6 -2",
        "activate rozanova-1 take p1 3",
        "complete w1 installation-07",
        "abandon w0",
        "abandon w0 gris-1=4 marc-1=2",
        "end",
        "end 3 5",
    ],
)
def test_the_notation_round_trips(text: str) -> None:
    assert str(parse_move(text)) == text


@pytest.mark.parametrize(
    "text",
    ["", "place s7 w0 0,0,0", "place s3 w2 0,0,0", "place s3 w0 0,0", "roll 7", "activate", "end x", "fly"],
)
def test_malformed_moves_are_refused(text: str) -> None:
    with pytest.raises(ParseError):
        parse_move(text)
