"""The score sheet (page, CSV, JSON) with the tie-breakers, and the timeline of the game's history."""

from __future__ import annotations

import csv
import io
import sqlite3
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from engine.sagrada.objectives import public_objectives
from engine.sagrada.scoring import score_window
from engine.sagrada.window import Color, Window, find_pattern
from tests.app.conftest import CSRF, FINISHED_WINDOW, send_window, start_game

OBJECTIVES = ["Row Color Variety", "Light Shades", "Color Diagonals"]
SMALL_WINDOW = "r1 -- -- -- --/-- -- -- -- --/-- -- -- -- --/-- -- -- -- --"


def expected_total(window: str, pattern: str, private: Color, tokens: int) -> int:
    return score_window(
        Window.parse(window),
        find_pattern(pattern),
        objectives=public_objectives(OBJECTIVES),
        private=private,
        favor_tokens=tokens,
    ).total


def test_json_sheet_ranks_players_by_the_engine_totals(client: FlaskClient) -> None:
    game = start_game(client)
    send_window(client, game, FINISHED_WINDOW, seat=1)
    send_window(client, game, SMALL_WINDOW, seat=2)
    sheet = client.get(f"{game}/scores.json").json
    assert sheet is not None
    assert sheet["setup"]["public_objectives"] == OBJECTIVES
    by_name = {line["player"]: line for line in sheet["standings"]}
    ana = expected_total(FINISHED_WINDOW, "Firelight", Color.RED, find_pattern("Firelight").difficulty)
    bo = expected_total(SMALL_WINDOW, "Sun Catcher", Color.BLUE, find_pattern("Sun Catcher").difficulty)
    assert by_name["Ana"]["score"]["total"] == ana
    assert by_name["Bo"]["score"]["total"] == bo
    assert [line["player"] for line in sheet["standings"]] == (["Ana", "Bo"] if ana > bo else ["Bo", "Ana"])
    assert [line["place"] for line in sheet["standings"]] == [1, 2]


def test_a_player_with_no_capture_is_listed_with_no_score(client: FlaskClient) -> None:
    game = start_game(client)
    send_window(client, game, FINISHED_WINDOW, seat=1)
    sheet = client.get(f"{game}/scores.json").json
    assert sheet is not None
    bo = next(line for line in sheet["standings"] if line["player"] == "Bo")
    assert bo["score"] is None and bo["window"] is None


TIED_WINDOW = "-- -- -- -- y1/-- -- -- -- --/-- -- -- -- --/-- -- -- -- --"


def tied_game(client: FlaskClient, **overrides: object) -> list[dict[str, Any]]:
    """Both players score the same, have no private points and the same tokens left: only seats differ."""
    game = start_game(client, private_1="green", private_2="purple", **overrides)
    send_window(client, game, TIED_WINDOW, seat=1, favor_tokens="2")
    send_window(client, game, TIED_WINDOW, seat=2, favor_tokens="2")
    sheet = client.get(f"{game}/scores.json").json
    assert sheet is not None
    standings: list[dict[str, Any]] = sheet["standings"]
    parts = {(s["score"]["total"], s["score"]["private"], s["score"]["favor_tokens"]) for s in standings}
    assert len(parts) == 1
    return standings


def test_official_ties_go_to_the_later_seat_in_the_final_round(client: FlaskClient) -> None:
    standings = tied_game(client)
    # Ten rounds with two players: seat 2 starts round 10, so seat 1 plays later in it and wins the tie.
    assert [line["player"] for line in standings] == ["Ana", "Bo"]
    assert [line["place"] for line in standings] == [1, 2]


def test_text_rules_share_a_tied_place(client: FlaskClient) -> None:
    text_rules = {"ruleset": "text", "public_objective": ["Light Shades", "Deep Shades"]}
    standings = tied_game(client, **text_rules, tool=["Adjust value", "Change color", "Reroll die"])
    assert [line["place"] for line in standings] == [1, 1]


def test_csv_sheet_has_a_column_per_objective_and_defuses_formulas(client: FlaskClient) -> None:
    game = start_game(client, name_2="=HYPERLINK(1)")
    send_window(client, game, FINISHED_WINDOW, seat=1)
    response = client.get(f"{game}/scores.csv")
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0] == [
        "place",
        "player",
        "pattern",
        *OBJECTIVES,
        "private objective",
        "favor tokens",
        "empty spaces",
        "total",
    ]
    by_name = {row[1]: row for row in rows[1:]}
    assert "'=HYPERLINK(1)" in by_name
    ana = expected_total(FINISHED_WINDOW, "Firelight", Color.RED, find_pattern("Firelight").difficulty)
    assert by_name["Ana"][-1] == str(ana)


def test_score_sheet_page_names_the_tie_breakers(client: FlaskClient) -> None:
    game = start_game(client)
    send_window(client, game)
    page = client.get(f"{game}/scores").text
    assert "game still on" in page
    assert "later in the final round" in page
    client.post(f"{game}/end", data={"csrf_token": CSRF})
    assert "game still on" not in client.get(f"{game}/scores").text


def test_timeline_lists_every_capture_and_correction_in_order(app: Flask, client: FlaskClient) -> None:
    game = start_game(client)
    send_window(client, game)
    with sqlite3.connect(app.config["DATABASE"]) as db:
        [(capture_id,)] = db.execute("SELECT id FROM captures").fetchall()
    fix = {"csrf_token": CSRF, "cell": "r1c1", "color": "g", "value": "3"}
    client.post(f"{game}/captures/{capture_id}/corrections", data=fix)
    client.post(f"{game}/captures/{capture_id}/undo", data={"csrf_token": CSRF})
    page = client.get(f"{game}/timeline").text
    lines = [
        "Game started with Ana, Bo",
        "Ana sent a typed window",
        "Ana: r1c1 set to a green 3",
        "Ana: undid r1c1",
    ]
    positions = [page.index(line) for line in lines]
    assert positions == sorted(positions)
    assert FINISHED_WINDOW in page
