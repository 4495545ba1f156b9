"""Solo Sagrada: one player named on the form plays the solo game (two private objectives, 1 to 5 tools, no
favor tokens, 3 points lost per empty space) and the score sheet sets the score against the round track."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from engine.sagrada.objectives import public_objectives
from engine.sagrada.rules import OFFICIAL
from engine.sagrada.scoring import score_window
from engine.sagrada.window import Color, Window, find_pattern
from tests.app.conftest import CSRF, FINISHED_WINDOW, sagrada_form, start_game, submission_key

SOLO = {
    "name_2": "",
    "pattern_1": "Aurorae Magnificus",  # the finished window breaks none of its rules: 27 points
    "public_objective": ["Row Color Variety", "Light Shades"],
    "tool": ["Grozing Pliers"],
    "private_1": "red",
    "private_solo": "blue",
}

SIX_TOOLS = ["Grozing Pliers", "Lathekin", "Tap Wheel", "Lens Cutter", "Flux Brush", "Running Pliers"]


def send(client: FlaskClient, game: str, **fields: str) -> Any:
    data = {"csrf_token": CSRF, "submission": submission_key(client, game), "player": "1", **fields}
    return client.post(f"{game}/captures", data=data)


def expected_total() -> int:
    score = score_window(
        Window.parse(FINISHED_WINDOW),
        find_pattern("Aurorae Magnificus"),
        objectives=public_objectives(SOLO["public_objective"]),
        private=[Color.RED, Color.BLUE],
        favor_tokens=0,
        empty_space_penalty=OFFICIAL.solo_empty_space_penalty,
    )
    return score.total


def test_the_new_game_form_offers_solo_play(client: FlaskClient) -> None:
    page = client.get("/new/sagrada").text
    assert "Solo play" in page and 'name="private_solo"' in page


def test_a_solo_game_scores_the_better_private_objective_and_no_favor_tokens(client: FlaskClient) -> None:
    game = start_game(client, **SOLO)
    page = client.get(game).text
    assert "Shades of Red or Shades of Blue" in page and 'name="round_track"' in page
    assert 'name="favor_tokens"' not in page
    assert send(client, game, window=FINISHED_WINDOW).status_code == 303
    page = client.get(game).text
    assert f'<td class="score-total">{expected_total()}</td>' in page
    assert "Favor tokens" not in page
    assert "Type the round track's total with a capture" in page


@pytest.mark.parametrize(("target", "beaten"), [(26, True), (27, False)])
def test_the_score_sheet_sets_the_score_against_the_round_track(
    client: FlaskClient, target: int, beaten: bool
) -> None:
    game = start_game(client, **SOLO)
    assert send(client, game, window=FINISHED_WINDOW, round_track=str(target)).status_code == 303
    total = expected_total()
    assert (total > target) is beaten
    sheet = client.get(f"{game}/scores").text
    verdict = f"{total} beats the target {target}: a win." if beaten else f"{total} does not beat the target"
    assert verdict in sheet
    scores = client.get(f"{game}/scores.json").json
    assert scores is not None
    assert scores["solo"] == {"target": target, "beaten": beaten}
    assert scores["standings"][0]["private_objective"] == "Shades of Red or Shades of Blue"


def test_a_two_player_game_has_no_solo_result(client: FlaskClient) -> None:
    game = start_game(client)
    assert 'name="round_track"' not in client.get(game).text
    scores = client.get(f"{game}/scores.json").json
    assert scores is not None and scores["solo"] is None


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("forty", "must be a whole number, got &#39;forty&#39;"),
        ("241", "at most 240 points of dice, not 241"),
    ],
)
def test_a_malformed_round_track_total_is_refused(client: FlaskClient, target: str, message: str) -> None:
    game = start_game(client, **SOLO)
    response = send(client, game, window=FINISHED_WINDOW, round_track=target)
    assert response.status_code == 400
    assert message in response.text


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"tool": []}, "solo play uses 1 to 5 tool cards (fewer is harder), 0 chosen"),
        ({"tool": SIX_TOOLS}, "solo play uses 1 to 5 tool cards (fewer is harder), 6 chosen"),
        ({"private_solo": "red"}, "two private objectives must be of different colours"),
        ({"private_solo": "gold"}, "second private objective: unknown private objective"),
    ],
)
def test_bad_solo_setups_are_refused(client: FlaskClient, overrides: dict[str, object], message: str) -> None:
    response = client.post("/new/sagrada", data=sagrada_form(**(SOLO | overrides)))
    assert response.status_code == 400
    assert message in response.text
