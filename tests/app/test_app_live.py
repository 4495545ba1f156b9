"""Server-sent events: every change to a game reaches the phones watching it, and only that game's."""

from __future__ import annotations

import threading

from flask import Flask
from flask.testing import FlaskClient

from tests.app.conftest import CSRF, send_window, start_game


def stream_text(client: FlaskClient, url: str, **headers: str) -> str:
    response = client.get(url, headers=headers)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    return response.get_data(as_text=True)


def test_the_stream_replays_events_after_the_one_given(client: FlaskClient) -> None:
    game = start_game(client)
    send_window(client, game)
    text = stream_text(client, f"{game}/events?after=0")
    assert text.startswith("retry: ")
    assert "event: change" in text
    assert "Game started with Ana, Bo" in text and "Ana sent a typed window" in text
    assert "id: 2\n" in text


def test_a_reconnecting_browser_resumes_after_its_last_event(client: FlaskClient) -> None:
    game = start_game(client)
    send_window(client, game)
    text = stream_text(client, f"{game}/events?after=0", **{"Last-Event-ID": "1"})
    assert "Game started" not in text
    assert "Ana sent a typed window" in text


def test_without_a_resume_point_only_new_events_are_sent(client: FlaskClient) -> None:
    game = start_game(client)
    send_window(client, game)
    assert "event: change" not in stream_text(client, f"{game}/events")


def test_a_change_made_while_a_phone_watches_reaches_it(app: Flask, client: FlaskClient) -> None:
    app.config["LIVE_STREAM_SECONDS"] = 5.0
    game = start_game(client)
    other = start_game(client)
    watcher = app.test_client()
    response = watcher.get(f"{game}/events", buffered=False)
    chunks = response.iter_encoded()
    assert next(chunks).startswith(b"retry: ")

    def another_phone() -> None:
        phone = app.test_client()
        with phone.session_transaction() as session:
            session["csrf_token"] = CSRF
        send_window(phone, other)
        send_window(phone, game, seat=2)

    threading.Thread(target=another_phone).start()
    received = b""
    while b"event: change" not in received:
        received += next(chunks)
    response.close()
    assert b"Bo sent a typed window" in received
    assert b"Ana sent" not in received


def test_the_stream_of_a_forged_game_is_a_404(client: FlaskClient) -> None:
    assert client.get("/g/forged-token/events").status_code == 404
