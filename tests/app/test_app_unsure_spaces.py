"""Spaces the photo reader was unsure of: the page asks about each, offering the reading and the reader's
alternatives as one-tap answers kept with the capture, and an answer is an ordinary, undoable correction."""

from __future__ import annotations

import io
import json
import sqlite3
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion_app import history
from tests.app.conftest import CSRF, FINISHED_WINDOW, png_bytes, start_game, submission_key

# FINISHED_WINDOW holds b6 on r2c2 and r4 on r4c5.
ANSWER = {
    "window": FINISHED_WINDOW,
    "unsure": ["r2c2", "r4c5"],
    "alternatives": {"r2c2": ["B5", "--", "p6", "b6"]},
    "message": "Read the window.",
}


@dataclass
class Answer:
    """One one-tap answer as the page shows it: its button's text and the fields its form posts."""

    action: str
    fields: dict[str, str] = field(default_factory=dict)
    text: str = ""


class Questions(HTMLParser):
    """The answer forms of every question on a page, by the space asked about."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.asked: dict[str, list[Answer]] = {}
        self._cell: str | None = None
        self._form: Answer | None = None
        self._in_button = False
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        classes = attributes.get("class", "").split()
        if tag == "div" and "question" in classes:
            self._cell = attributes["data-cell"]
            self.asked[self._cell] = []
        elif tag == "form" and "answer" in classes and self._cell is not None:
            self._form = Answer(attributes["action"])
            self.asked[self._cell].append(self._form)
        elif tag == "input" and self._form is not None:
            self._form.fields[attributes["name"]] = attributes["value"]
        elif tag == "button" and self._form is not None:
            self._in_button = True

    def handle_data(self, data: str) -> None:
        if self._in_button and self._form is not None:
            self._form.text += data.strip()

    def handle_endtag(self, tag: str) -> None:
        if tag == "button":
            self._in_button = False
        elif tag == "form":
            self._form = None


def answers_on(client: FlaskClient, game: str) -> dict[str, list[str]]:
    return {
        cell: [a.text for a in answers] for cell, answers in Questions(client.get(game).text).asked.items()
    }


def tap(client: FlaskClient, game: str, cell: str, text: str) -> int:
    """Submit the answer form a player taps, exactly as the page has it."""
    [answer] = [a for a in Questions(client.get(game).text).asked[cell] if a.text == text]
    return client.post(answer.action, data=answer.fields).status_code


def ana_window(client: FlaskClient, game: str) -> str:
    scores = client.get(f"{game}/scores.json").json
    assert scores is not None
    return str(next(s for s in scores["standings"] if s["player"] == "Ana")["window"])


def game_read_as(app: Flask, client: FlaskClient, answer: dict[str, object]) -> str:
    """A game whose first capture, Ana's photo, the plugged-in reader answers with `answer`."""
    app.config["PHOTO_READERS"] = {"sagrada": lambda _image, _pattern, _seat: answer}
    game = start_game(client)
    form = {
        "csrf_token": CSRF,
        "submission": submission_key(client, game),
        "player": "1",
        "photo": (io.BytesIO(png_bytes()), "table.png"),
    }
    assert client.post(f"{game}/captures", data=form, content_type="multipart/form-data").status_code == 303
    return game


@pytest.fixture
def game(app: Flask, client: FlaskClient) -> str:
    return game_read_as(app, client, ANSWER)


def test_each_unsure_space_offers_the_reading_its_alternatives_and_empty(
    client: FlaskClient, game: str
) -> None:
    assert answers_on(client, game) == {
        "r2c2": ["blue 6", "blue 5", "empty", "purple 6"],
        "r4c5": ["red 4", "empty"],
    }
    page = client.get(game).text
    assert "Is r2c2 a blue 6, as read? Tap what is there:" in page
    assert page.count('class="button fix-other" data-space=') == 2  # the dialog, for a die not offered


def test_the_answers_are_kept_with_the_capture_for_every_phone(
    app: Flask, client: FlaskClient, game: str
) -> None:
    with sqlite3.connect(app.config["DATABASE"]) as db:
        [reading] = [json.loads(row[0]) for row in db.execute("SELECT reading FROM captures")]
    assert reading["alternatives"] == {"r2c2": ["b5", "--", "p6", "b6"]}
    other_phone = app.test_client()
    assert answers_on(other_phone, game) == answers_on(client, game)


def test_tapping_an_answer_corrects_the_space_and_undo_asks_again(client: FlaskClient, game: str) -> None:
    assert tap(client, game, "r2c2", "blue 5") == 303
    assert ana_window(client, game).split("/")[1].split()[1] == "b5"
    assert answers_on(client, game) == {"r4c5": ["red 4", "empty"]}
    assert "Ana: r2c2 set to a blue 5" in client.get(game).text
    assert client.post(f"{game}/captures/1/undo", data={"csrf_token": CSRF}).status_code == 303
    assert ana_window(client, game) == FINISHED_WINDOW
    assert list(answers_on(client, game)) == ["r2c2", "r4c5"]


@pytest.mark.parametrize(("text", "now"), [("empty", "--"), ("red 4", "r4")])
def test_an_answer_of_empty_or_the_reading_itself_settles_the_question(
    client: FlaskClient, game: str, text: str, now: str
) -> None:
    assert tap(client, game, "r4c5", text) == 303
    assert ana_window(client, game).split()[-1] == now
    assert list(answers_on(client, game)) == ["r2c2"]


def test_an_ended_game_asks_nothing(client: FlaskClient, game: str) -> None:
    client.post(f"{game}/end", data={"csrf_token": CSRF})
    assert answers_on(client, game) == {}


@pytest.mark.parametrize(
    ("alternatives", "message"),
    [
        ({"r2c2": ["b"]}, "malformed reading: malformed die &#39;b&#39;"),
        ({"r9c1": ["b5"]}, "malformed reading: cell &#39;r9c1&#39; is outside the window"),
        ({"r1c1": ["b5"]}, "alternatives for r1c1, spaces it is sure of"),
    ],
)
def test_alternatives_the_page_cannot_offer_leave_the_photo_unread_with_the_reason(
    app: Flask, client: FlaskClient, alternatives: dict[str, list[str]], message: str
) -> None:
    answer = {"window": FINISHED_WINDOW, "unsure": ["r2c2"], "alternatives": alternatives}
    game = game_read_as(app, client, answer)
    assert message in client.get(game).text
    assert answers_on(client, game) == {}


def test_a_capture_stored_before_alternatives_were_kept_offers_the_reading_and_empty(
    app: Flask, client: FlaskClient
) -> None:
    game = start_game(client)
    older = {"source": "photo", "window": FINISHED_WINDOW, "favor_tokens": None, "unsure": ["r2c2"]}
    with app.app_context():
        stored = history.game_by_token(game.rsplit("/", 1)[-1])
        assert stored is not None
        history.add_capture(
            stored, history.players(stored)[0], "older-capture-key", older, "Ana sent a photo"
        )
    assert answers_on(client, game) == {"r2c2": ["blue 6", "empty"]}
