"""What the companion tells players between two captures of a window, and the placement hints."""

from __future__ import annotations

import sqlite3

from flask import Flask
from flask.testing import FlaskClient

from companion_app.sagrada_table import changes_since, legal_spaces
from engine.sagrada.window import Cell, Die, Window, find_pattern, legal_placements
from tests.app.conftest import CSRF, send_window, start_game

EMPTY = Window()
FIRELIGHT = find_pattern("Firelight")  # rows 3415. / .62.y / ...yr / 5.yr6


def window(**dice: str) -> Window:
    placed = EMPTY
    for cell, die in dice.items():
        placed = placed.with_die(Cell.parse(cell), Die.parse(die))
    return placed


def test_a_legal_first_die_is_reported_as_placed() -> None:
    [change] = changes_since(EMPTY, window(r1c1="g3"), FIRELIGHT, "Ana")
    assert change.text == "Ana placed a green 3 on r1c1"
    assert change.problem is None


def test_a_die_breaking_its_space_names_the_rule() -> None:
    [change] = changes_since(EMPTY, window(r1c1="g4"), FIRELIGHT, "Ana")
    assert change.problem == "space r1c1 needs a 3, got g4"


def test_new_dice_are_checked_in_the_order_that_could_have_been_legal() -> None:
    # In reading order r2c2 would come first, but it is off the edge; r3c1 first makes both legal.
    changes = changes_since(EMPTY, window(r2c2="b6", r3c1="g3"), FIRELIGHT, "Bo")
    assert [c.text for c in changes] == ["Bo placed a green 3 on r3c1", "Bo placed a blue 6 on r2c2"]
    assert [c.problem for c in changes] == [None, None]


def test_new_dice_are_checked_against_the_dice_already_there() -> None:
    changes = changes_since(window(r1c5="p2"), window(r1c5="p2", r2c5="y2"), FIRELIGHT, "Bo")
    assert [c.problem for c in changes] == ["y2 on r2c5 would share its value with p2 on r1c5"]


def test_a_die_that_changed_or_vanished_is_flagged() -> None:
    before = window(r1c1="g3", r1c2="b4")
    changes = changes_since(before, window(r1c1="y3"), FIRELIGHT, "Ana")
    assert [c.text for c in changes] == ["g3 on r1c1 changed to y3", "b4 on r1c2 was taken away"]
    assert all(c.problem for c in changes)


def test_many_new_dice_are_summed_up_and_left_to_the_audit() -> None:
    after = window(r1c1="g3", r1c2="b4", r1c3="p1", r1c4="g5", r1c5="r2")
    [change] = changes_since(None, after, FIRELIGHT, "Ana")
    assert change.text == "5 new dice in Ana's first capture: see the audit below"
    assert change.problem is None and not change.checked
    [change] = changes_since(
        window(r4c1="y5"), after.with_die(Cell.parse("r4c1"), Die.parse("y5")), FIRELIGHT, "Ana"
    )
    assert change.text == "5 new dice since Ana's previous capture: see the audit below"


def test_legal_spaces_match_the_engine() -> None:
    current = window(r1c1="g3")
    die = Die.parse("b6")
    assert legal_spaces(current, FIRELIGHT, die) == [
        str(c) for c in legal_placements(current, FIRELIGHT, die)
    ]
    assert legal_spaces(None, FIRELIGHT, die) == [str(c) for c in legal_placements(EMPTY, FIRELIGHT, die)]


def test_the_game_page_reports_the_dice_placed_since_the_last_capture(
    app: Flask, client: FlaskClient
) -> None:
    game = start_game(client)
    send_window(client, game, "g3 -- -- -- --/-- -- -- -- --/-- -- -- -- --/-- -- -- -- --")
    send_window(client, game, "g3 -- -- -- --/-- b2 -- -- --/-- -- -- -- --/-- -- -- -- --")
    page = client.get(game).text
    assert "Ana placed a blue 2 on r2c2: <strong>space r2c2 needs a 6, got b2</strong>" in page
    with sqlite3.connect(app.config["DATABASE"]) as db:
        first, _ = (row[0] for row in db.execute("SELECT id FROM captures ORDER BY id"))
    fix = {"csrf_token": CSRF, "cell": "r1c1", "absent": "1"}
    client.post(f"{game}/captures/{first}/corrections", data=fix)
    assert "Ana placed a green 3 on r1c1 ✓" in client.get(game).text


def test_hints_list_the_spaces_a_pool_die_may_take(client: FlaskClient) -> None:
    game = start_game(client)
    send_window(client, game, "g3 -- -- -- --/-- -- -- -- --/-- -- -- -- --/-- -- -- -- --")
    answer = client.get(f"{game}/hints?seat=1&color=b&value=6").json
    assert answer == {"die": "b6", "cells": legal_spaces(window(r1c1="g3"), FIRELIGHT, Die.parse("b6"))}
    assert answer["cells"]
    empty_bo = client.get(f"{game}/hints?seat=2&color=r&value=1").json
    assert empty_bo is not None
    assert all(Cell.parse(cell).on_edge for cell in empty_bo["cells"])


def test_hints_refuse_a_die_that_does_not_exist(client: FlaskClient) -> None:
    game = start_game(client)
    for query, message in [
        ("seat=1&color=b&value=9", "die value must be 1-6"),
        ("seat=1&color=x&value=2", "unknown colour"),
        ("seat=1&color=b&value=", "needs a value from 1 to 6"),
        ("seat=5&color=b&value=2", "no player in seat"),
    ]:
        response = client.get(f"{game}/hints?{query}")
        assert response.status_code == 400
        assert message in response.text
    assert client.get("/g/forged/hints?seat=1&color=b&value=2").status_code == 404
