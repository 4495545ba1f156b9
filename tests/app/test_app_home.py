"""The front page and the new-game form: choices come from the engine, bad set-ups get clear messages."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from engine.sagrada.objectives import PUBLIC_OBJECTIVES
from engine.sagrada.tools import TOOL_CARDS
from engine.sagrada.window import official_patterns
from tests.app.conftest import CSRF, sagrada_form, start_game


def test_front_page_lists_all_four_games_ready(client: FlaskClient) -> None:
    page = client.get("/").text
    for title in ("Sagrada", "Cubist", "Run Buster", "River Dragons / Dragon Delta"):
        assert title in page
    assert page.count(">coming<") == 0
    for kind in ("sagrada", "cubist", "runbuster", "river-dragons"):
        assert f'href="/new/{kind}"' in page


def test_new_game_form_offers_every_engine_pattern_objective_and_tool(client: FlaskClient) -> None:
    page = client.get("/new/sagrada").text
    for name in official_patterns():
        assert f'value="{name}"'.replace("'", "&#39;") in page
    for card in PUBLIC_OBJECTIVES:
        assert f'value="{card.name}"' in page
    for tool in TOOL_CARDS.values():
        assert tool.title in page
    assert "Shades of Purple" in page
    assert 'value="text"' in page


def test_unknown_game_is_a_clear_404(client: FlaskClient) -> None:
    response = client.get("/new/chess")
    assert response.status_code == 404
    assert "no game called &#39;chess&#39;" in response.text


def test_creating_a_game_redirects_to_its_secret_link(client: FlaskClient) -> None:
    path = start_game(client)
    token = path.removeprefix("/g/")
    assert len(token) >= 32
    page = client.get(path).text
    assert "Ana" in page and "Firelight" in page and "Shades of Blue" in page


def test_two_games_get_different_tokens(client: FlaskClient) -> None:
    assert start_game(client) != start_game(client)


def test_text_ruleset_takes_two_objectives_and_generic_tools(client: FlaskClient) -> None:
    path = start_game(
        client,
        ruleset="text",
        public_objective=["Light Shades", "Deep Shades"],
        tool=["Adjust value", "Change color", "Reroll die"],
    )
    assert client.get(path).status_code == 200


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"name_1": " ", "name_2": ""}, "Sagrada needs 1 to 4 players, got 0"),
        ({"name_2": ""}, "solo play uses 2 public objectives, 3 chosen"),
        ({"ruleset": "house"}, "unknown Sagrada ruleset"),
        ({"public_objective": ["Light Shades"]}, "3 public objectives, 1 chosen"),
        ({"public_objective": ["Light Shades", "Deep Shades", "Row Fun"]}, "unknown public objective"),
        ({"tool": ["Grozing Pliers"]}, "3 tool cards, 1 chosen"),
        ({"tool": ["Grozing Pliers", "Lathekin", "Adjust value"]}, "not part of the official rules"),
        ({"tool": ["Grozing Pliers", "Lathekin", "Spoon"]}, "unknown tool card"),
        ({"tool": ["Lathekin", "Lathekin", "Tap Wheel"]}, "chosen twice"),
        ({"pattern_2": "Firelight"}, "same window pattern"),
        ({"private_2": "red"}, "same private objective"),
        ({"pattern_1": "Nowhere"}, "player 1: unknown pattern"),
        ({"private_1": "orange"}, "player 1: unknown private objective"),
        ({"colour_1": "chartreuse"}, "player 1: choose a colour"),
        ({"name_1": "x" * 41}, "at most 40 characters"),
        ({"name_2": "ana"}, "same name"),
    ],
)
def test_bad_setups_are_refused_with_the_reason_and_the_form_kept(
    client: FlaskClient, overrides: dict[str, object], message: str
) -> None:
    response = client.post("/new/sagrada", data=sagrada_form(**overrides))
    assert response.status_code == 400
    assert message.replace("'", "&#39;") in response.text
    assert 'value="Ana"' in response.text or overrides.get("name_1")


def test_player_names_are_escaped_everywhere(client: FlaskClient) -> None:
    path = start_game(client, name_2="<script>alert(1)</script>")
    for page in ("", "/panel", "/scores", "/timeline"):
        text = client.get(path + page).text
        assert "<script>alert(1)</script>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in client.get(path).text


@pytest.mark.parametrize("token", [None, "", "forged"])
def test_new_game_without_the_session_csrf_token_is_forbidden(client: FlaskClient, token: str | None) -> None:
    form = sagrada_form()
    if token is None:
        del form["csrf_token"]
    else:
        form["csrf_token"] = token
    response = client.post("/new/sagrada", data=form)
    assert response.status_code == 403
    assert "Reload the page" in response.text


def test_csrf_token_in_a_header_is_accepted(client: FlaskClient) -> None:
    form = sagrada_form()
    del form["csrf_token"]
    response = client.post("/new/sagrada", data=form, headers={"X-CSRF-Token": CSRF})
    assert response.status_code == 303


def test_a_fresh_browser_gets_its_csrf_token_from_the_form(app: Flask) -> None:
    browser = app.test_client()
    page = browser.get("/new/sagrada").text
    token = page.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    assert browser.post("/new/sagrada", data=sagrada_form(csrf_token=token)).status_code == 303
    other = app.test_client()
    other.get("/")
    assert other.post("/new/sagrada", data=sagrada_form(csrf_token=token)).status_code == 403
