"""The SQLite store: schema and WAL on start, and phones writing at the same instant against a real file."""

from __future__ import annotations

import io
import sqlite3
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion_app.db import SCHEMA_VERSION, SchemaMismatch, init_db
from companion_app.photos import preview_name
from tests.app.conftest import CSRF, FINISHED_WINDOW, png_bytes, send_window, start_game

PHONES = 8


def test_start_applies_the_schema_in_wal_mode(app: Flask) -> None:
    with sqlite3.connect(app.config["DATABASE"]) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"games", "players", "captures", "corrections", "events"} <= tables


@pytest.mark.parametrize("table", ["games", "players", "captures", "corrections", "events"])
def test_the_store_refuses_to_rewrite_or_delete_history(app: Flask, client: FlaskClient, table: str) -> None:
    game = start_game(client)
    send_window(client, game)
    with sqlite3.connect(app.config["DATABASE"]) as db:
        [(capture_id,)] = db.execute("SELECT id FROM captures").fetchall()
    client.post(
        f"{game}/captures/{capture_id}/corrections", data={"csrf_token": CSRF, "cell": "r1c1", "absent": "1"}
    )
    with sqlite3.connect(app.config["DATABASE"]) as db:
        assert db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] > 0
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute(f"UPDATE {table} SET id = id")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute(f"DELETE FROM {table}")


def test_restarting_on_an_existing_file_keeps_its_games(app: Flask, client: FlaskClient) -> None:
    path = start_game(client)
    init_db(app.config["DATABASE"])
    assert client.get(path).status_code == 200


def test_a_file_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite"
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(SchemaMismatch, match="schema version 2"):
        init_db(path)


def phones_at_once(app: Flask, send: Sequence[Mapping[str, object]], path: str) -> list[int]:
    """Post each form from its own client and thread, all released at the same instant. A photo is given as
    bytes under "photo" and sent as a file upload."""
    barrier = threading.Barrier(len(send))
    statuses = [0] * len(send)

    def phone(index: int) -> None:
        client = app.test_client()
        with client.session_transaction() as session:
            session["csrf_token"] = CSRF
        form = dict(send[index])
        if isinstance(photo := form.get("photo"), bytes):
            form["photo"] = (io.BytesIO(photo), "table.png")
        barrier.wait()
        statuses[index] = client.post(f"{path}/captures", data=form).status_code

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(len(send))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def test_phones_uploading_at_the_same_instant_lose_and_duplicate_nothing(
    app: Flask, client: FlaskClient
) -> None:
    path = start_game(client)
    forms = [
        {"csrf_token": CSRF, "submission": f"phone-{i:02d}-submission-key", "player": str(1 + i % 2)}
        | {"window": FINISHED_WINDOW.replace("r5", f"r{1 + i % 6}", 1)}
        for i in range(PHONES)
    ]
    assert phones_at_once(app, forms, path) == [303] * PHONES
    with sqlite3.connect(app.config["DATABASE"]) as db:
        stored = db.execute("SELECT submission, reading FROM captures ORDER BY submission").fetchall()
        events = db.execute("SELECT COUNT(*) FROM events WHERE kind = 'capture'").fetchone()[0]
    assert [s for s, _ in stored] == sorted(f["submission"] for f in forms)
    assert events == PHONES
    for (_, reading), form in zip(stored, sorted(forms, key=lambda f: f["submission"]), strict=True):
        assert form["window"] in reading


def test_the_same_form_sent_twice_at_once_is_stored_once(app: Flask, client: FlaskClient) -> None:
    path = start_game(client)
    form = {
        "csrf_token": CSRF,
        "submission": "one-form-sent-twice-key",
        "player": "1",
        "window": FINISHED_WINDOW,
    }
    assert phones_at_once(app, [form] * PHONES, path) == [303] * PHONES
    with sqlite3.connect(app.config["DATABASE"]) as db:
        assert db.execute("SELECT COUNT(*) FROM captures").fetchone() == (1,)
        assert db.execute("SELECT COUNT(*) FROM events WHERE kind = 'capture'").fetchone() == (1,)


def test_phones_sending_the_same_photo_at_once_keep_one_file_and_every_capture(
    app: Flask, client: FlaskClient
) -> None:
    path = start_game(client)
    photo = png_bytes()
    forms = [
        {"csrf_token": CSRF, "submission": f"photo-{i:02d}-submission-key", "player": "1", "photo": photo}
        for i in range(PHONES)
    ]
    assert phones_at_once(app, forms, path) == [303] * PHONES
    with sqlite3.connect(app.config["DATABASE"]) as db:
        files = {row[0] for row in db.execute("SELECT photo_file FROM captures")}
        assert db.execute("SELECT COUNT(*) FROM captures").fetchone() == (PHONES,)
    assert len(files) == 1
    folder = Path(app.config["PHOTO_FOLDER"])
    assert sorted(p.name for p in folder.iterdir()) == sorted([*files, preview_name(next(iter(files)))])
    assert (folder / next(iter(files))).read_bytes() == photo
