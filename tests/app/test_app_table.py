"""The game page and everything that changes a game: captures, corrections, undo, end, and every bad input."""

from __future__ import annotations

import io
import re
import sqlite3

import cv2
import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion_app import history
from companion_app.sagrada_photos import PlayerWindowReader
from engine.sagrada.objectives import public_objectives
from engine.sagrada.scoring import score_window
from engine.sagrada.window import Color, Pattern, Window, find_pattern
from tests.app.conftest import (
    CSRF,
    FINISHED_WINDOW,
    huge_png,
    png_bytes,
    send_window,
    start_game,
    submission_key,
)
from vision.decode import DecodedImage
from vision.errors import VisionError


@pytest.fixture
def game(client: FlaskClient) -> str:
    return start_game(client)


def capture_ids(app: Flask) -> list[int]:
    with sqlite3.connect(app.config["DATABASE"]) as db:
        return [row[0] for row in db.execute("SELECT id FROM captures ORDER BY id")]


def correct(client: FlaskClient, game: str, capture_id: int, **fields: str) -> int:
    data = {"csrf_token": CSRF, **fields}
    return client.post(f"{game}/captures/{capture_id}/corrections", data=data).status_code


def test_game_page_shows_the_join_link_and_a_qr_code(client: FlaskClient, game: str) -> None:
    page = client.get(game).text
    assert f"http://localhost{game}" in page
    svg = client.get(f"{game}/qr.svg")
    assert svg.mimetype == "image/svg+xml"
    assert svg.data.startswith(b"<?xml") and b"<svg" in svg.data


def test_join_link_uses_the_public_url_when_the_server_knows_it(
    app: Flask, client: FlaskClient, game: str
) -> None:
    app.config["PUBLIC_URL"] = "http://192.168.1.20:8000/"
    assert f"http://192.168.1.20:8000{game}" in client.get(game).text


def test_capture_form_asks_the_phone_camera_for_a_photo(client: FlaskClient, game: str) -> None:
    page = client.get(game).text
    assert re.search(r'<input type="file" name="photo" accept="image/\*" capture="environment">', page)


@pytest.mark.parametrize(
    "suffix", ["", "/panel", "/qr.svg", "/scores", "/scores.csv", "/scores.json", "/timeline"]
)
def test_a_forged_token_opens_nothing(client: FlaskClient, game: str, suffix: str) -> None:
    forged = game[:-4] + ("aaaa" if not game.endswith("aaaa") else "bbbb")
    response = client.get(forged + suffix)
    assert response.status_code == 404
    assert "No game has this link" in response.text
    assert "Traceback" not in response.text


def test_a_missing_token_is_a_404_page(client: FlaskClient) -> None:
    response = client.get("/g/")
    assert response.status_code == 404
    assert "Nothing here" in response.text


def test_posting_to_a_forged_game_is_a_404(client: FlaskClient, game: str) -> None:
    response = client.post("/g/not-a-game/captures", data={"csrf_token": CSRF, "window": FINISHED_WINDOW})
    assert response.status_code == 404


def test_typed_capture_shows_the_engine_score_and_violations(client: FlaskClient, game: str) -> None:
    assert send_window(client, game) == 303
    page = client.get(game).text
    expected = score_window(
        Window.parse(FINISHED_WINDOW),
        find_pattern("Firelight"),
        objectives=public_objectives(["Row Color Variety", "Light Shades", "Color Diagonals"]),
        private=Color.RED,
        favor_tokens=find_pattern("Firelight").difficulty,
    )
    assert expected.violations
    assert f'<td class="score-total">{expected.total}</td>' in page
    for violation in expected.violations:
        assert violation.message in page
    assert "Ana sent a typed window" in page


def test_typed_capture_takes_the_favor_tokens_left(client: FlaskClient, game: str) -> None:
    data = {"csrf_token": CSRF, "submission": submission_key(client, game), "player": "2"}
    data.update(window=FINISHED_WINDOW, favor_tokens="1")
    assert client.post(f"{game}/captures", data=data).status_code == 303
    score = client.get(f"{game}/scores.json").json
    assert score is not None
    bo = next(line for line in score["standings"] if line["player"] == "Bo")
    assert bo["score"]["favor_tokens"] == 1


@pytest.mark.parametrize(
    ("window", "message"),
    [
        ("r5 g2 b1", "expected 4 rows"),
        ("r5 g2 b1 p3/p4 b6 p4 b5 y6/y6 p3 g6 r1 p3/b1 y6 p3 g2 r4", "row 1 has 4 cells"),
        ("r5 g2 b1 p3 x2/p4 b6 p4 b5 y6/y6 p3 g6 r1 p3/b1 y6 p3 g2 r4", "r1c5"),
        ("r5 g2 b1 p3 b9/p4 b6 p4 b5 y6/y6 p3 g6 r1 p3/b1 y6 p3 g2 r4", "r1c5"),
    ],
)
def test_a_malformed_typed_window_says_where(
    client: FlaskClient, game: str, window: str, message: str
) -> None:
    data = {"csrf_token": CSRF, "submission": submission_key(client, game), "player": "1", "window": window}
    response = client.post(f"{game}/captures", data=data)
    assert response.status_code == 400
    assert message in response.text


def test_favor_tokens_must_be_a_number(client: FlaskClient, game: str) -> None:
    data = {"csrf_token": CSRF, "submission": submission_key(client, game), "player": "1"}
    data.update(window=FINISHED_WINDOW, favor_tokens="lots")
    response = client.post(f"{game}/captures", data=data)
    assert response.status_code == 400
    assert "whole number" in response.text


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"player": "7"}, "no player in seat"),
        ({"player": ""}, "no player in seat"),
        ({"submission": ""}, "no submission key"),
        ({"submission": "short"}, "no submission key"),
        ({"window": ""}, "Choose a photo or type the window"),
    ],
)
def test_malformed_capture_forms_get_a_clear_400(
    client: FlaskClient, game: str, fields: dict[str, str], message: str
) -> None:
    data = {
        "csrf_token": CSRF,
        "submission": submission_key(client, game),
        "player": "1",
        "window": FINISHED_WINDOW,
    }
    data.update(fields)
    response = client.post(f"{game}/captures", data=data)
    assert response.status_code == 400
    assert message in response.text


def test_capture_without_csrf_is_forbidden_and_stores_nothing(
    app: Flask, client: FlaskClient, game: str
) -> None:
    data = {"submission": submission_key(client, game), "player": "1", "window": FINISHED_WINDOW}
    assert client.post(f"{game}/captures", data=data).status_code == 403
    assert capture_ids(app) == []


def test_a_resent_form_is_stored_once(app: Flask, client: FlaskClient, game: str) -> None:
    data = {
        "csrf_token": CSRF,
        "submission": submission_key(client, game),
        "player": "1",
        "window": FINISHED_WINDOW,
    }
    assert client.post(f"{game}/captures", data=data).status_code == 303
    assert client.post(f"{game}/captures", data=data).status_code == 303
    assert len(capture_ids(app)) == 1


def photo_form(client: FlaskClient, game: str, data: bytes, filename: str = "table.png") -> dict[str, object]:
    return {
        "csrf_token": CSRF,
        "submission": submission_key(client, game),
        "player": "1",
        "photo": (io.BytesIO(data), filename),
    }


def test_a_photo_is_kept_and_served_back(app: Flask, client: FlaskClient, game: str) -> None:
    photo = png_bytes()
    response = client.post(
        f"{game}/captures", data=photo_form(client, game, photo), content_type="multipart/form-data"
    )
    assert response.status_code == 303
    [capture_id] = capture_ids(app)
    served = client.get(f"{game}/captures/{capture_id}/photo")
    assert served.status_code == 200
    assert served.data == photo
    preview = client.get(f"{game}/captures/{capture_id}/preview")
    assert preview.mimetype == "image/jpeg"
    decoded = cv2.imdecode(np.frombuffer(preview.data, np.uint8), cv2.IMREAD_COLOR)
    assert decoded is not None and decoded.shape == (48, 64, 3)
    page = client.get(game).text
    assert f"/captures/{capture_id}/preview" in page
    assert "it could not be read (no Sagrada window was found in the photo" in page
    assert "Ana sent a photo" in page


def send_photo(client: FlaskClient, game: str) -> int:
    form = photo_form(client, game, png_bytes())
    return client.post(f"{game}/captures", data=form, content_type="multipart/form-data").status_code


def test_a_plugged_in_photo_reader_fills_the_window_and_flags_unsure_dice(
    app: Flask, client: FlaskClient, game: str
) -> None:
    seen: list[tuple[DecodedImage, Pattern, int]] = []

    def reader(image: DecodedImage, pattern: Pattern, seat: int) -> dict[str, object]:
        seen.append((image, pattern, seat))
        return {"window": FINISHED_WINDOW, "unsure": ["r2c2", "R1C1"], "message": "Read the window."}

    app.config["PHOTO_READERS"] = {"sagrada": reader}
    assert send_photo(client, game) == 303
    assert [(image.stored_width, image.stored_height, p.name, seat) for image, p, seat in seen] == [
        (64, 48, "Firelight", 1)
    ]
    page = client.get(game).text
    assert "Read the window." in page
    assert 'class="score-total"' in page
    assert page.count(" unsure") == 2
    assert 'aria-label="r2c2: blue 6 (unsure: tap to confirm)"' in page
    [capture_id] = capture_ids(app)
    assert correct(client, game, capture_id, cell="r2c2", color="b", value="6") == 303
    assert client.get(game).text.count(" unsure") == 1


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ({"window": None}, "the photo reader gave no window"),
        ({"window": "r5 g2"}, "malformed reading: malformed window"),
        ({"window": FINISHED_WINDOW, "unsure": ["r9c9"]}, "outside the window"),
    ],
)
def test_a_photo_the_reader_cannot_use_is_kept_unread_with_the_reason(
    app: Flask, client: FlaskClient, game: str, answer: dict[str, object], message: str
) -> None:
    app.config["PHOTO_READERS"] = {"sagrada": lambda _image, _pattern, _seat: answer}
    assert send_photo(client, game) == 303
    assert len(capture_ids(app)) == 1
    assert message in client.get(game).text


def reader_raising(error: Exception) -> PlayerWindowReader:
    """A Sagrada photo reader that fails on every photo with `error`."""

    def reader(_image: DecodedImage, _pattern: Pattern, _seat: int) -> dict[str, object]:
        raise error

    return reader


def test_a_reader_that_finds_no_window_leaves_the_photo_to_the_players(
    app: Flask, client: FlaskClient, game: str
) -> None:
    app.config["PHOTO_READERS"] = {
        "sagrada": reader_raising(VisionError("no Sagrada window found in the photo"))
    }
    assert send_photo(client, game) == 303
    assert "could not be read (no Sagrada window found in the photo)" in client.get(game).text


def test_a_reader_that_crashes_keeps_the_photo_and_asks_for_the_window(
    app: Flask, client: FlaskClient, game: str
) -> None:
    crash = RuntimeError("INVALID_ARGUMENT: Got invalid dimensions for input")
    app.config["PHOTO_READERS"] = {"sagrada": reader_raising(crash)}
    assert send_photo(client, game) == 303
    assert len(capture_ids(app)) == 1
    page = client.get(game).text
    assert "The photo is kept, but the photo reader failed on it" in page
    assert "INVALID_ARGUMENT" not in page


def test_a_reading_whose_drawing_cannot_be_kept_is_still_scored(
    app: Flask, client: FlaskClient, game: str
) -> None:
    def reader(_image: DecodedImage, _pattern: Pattern, _seat: int) -> dict[str, object]:
        return {"window": FINISHED_WINDOW, "unsure": [], "annotated": np.zeros((0, 0, 3), np.uint8)}

    app.config["PHOTO_READERS"] = {"sagrada": reader}
    assert send_photo(client, game) == 303
    [capture_id] = capture_ids(app)
    assert 'class="score-total"' in client.get(game).text
    assert client.get(f"{game}/captures/{capture_id}/annotated").status_code == 404


def test_a_photo_with_its_window_typed_is_scored(app: Flask, client: FlaskClient, game: str) -> None:
    form = photo_form(client, game, png_bytes())
    form["window"] = FINISHED_WINDOW
    assert client.post(f"{game}/captures", data=form, content_type="multipart/form-data").status_code == 303
    assert 'class="score-total"' in client.get(game).text


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "the photo is empty"),
        (b"%PDF-1.4 this is not a picture", "not a JPEG, PNG, WebP or BMP image"),
        (png_bytes()[:40] + b"\x00" * 200, "corrupt or truncated"),
        (huge_png(), "20000x20000 is 400 MP, over the 50 MP limit"),
    ],
    ids=["empty", "not-an-image", "corrupt", "20000x20000"],
)
def test_unusable_photos_are_refused_with_the_reason(
    app: Flask, client: FlaskClient, game: str, data: bytes, message: str
) -> None:
    form = photo_form(client, game, data, filename="upload.png")
    response = client.post(f"{game}/captures", data=form, content_type="multipart/form-data")
    assert response.status_code == 400
    assert message in response.text
    assert "upload.png" in response.text
    assert capture_ids(app) == []


def test_a_50_mb_upload_gets_a_413_page(app: Flask, client: FlaskClient, game: str) -> None:
    form = photo_form(client, game, b"\xff\xd8" + b"\x00" * (50 * 1024 * 1024))
    response = client.post(f"{game}/captures", data=form, content_type="multipart/form-data")
    assert response.status_code == 413
    assert "limited to 25 MB" in response.text
    assert capture_ids(app) == []


def test_a_typed_capture_has_no_photo(app: Flask, client: FlaskClient, game: str) -> None:
    send_window(client, game)
    [capture_id] = capture_ids(app)
    for kind in ("photo", "preview"):
        response = client.get(f"{game}/captures/{capture_id}/{kind}")
        assert response.status_code == 404
        assert "has no photo" in response.text


def test_correcting_a_die_rescores_and_undo_brings_it_back(
    app: Flask, client: FlaskClient, game: str
) -> None:
    send_window(client, game)
    [capture_id] = capture_ids(app)
    before = client.get(f"{game}/scores.json").json
    assert before is not None
    assert correct(client, game, capture_id, cell="r1c1", color="g", value="3") == 303
    after = client.get(f"{game}/scores.json").json
    assert after is not None
    ana_before, ana_after = (next(s for s in d["standings"] if s["player"] == "Ana") for d in (before, after))
    assert ana_before["window"].startswith("r5 g2")
    assert ana_after["window"].startswith("g3 g2")
    assert "Ana: r1c1 set to a green 3" in client.get(game).text
    assert client.post(f"{game}/captures/{capture_id}/undo", data={"csrf_token": CSRF}).status_code == 303
    undone = client.get(f"{game}/scores.json").json
    assert undone is not None
    assert next(s for s in undone["standings"] if s["player"] == "Ana") == ana_before


def test_marking_a_die_absent_empties_its_space(app: Flask, client: FlaskClient, game: str) -> None:
    send_window(client, game)
    [capture_id] = capture_ids(app)
    assert correct(client, game, capture_id, cell="r4c5", absent="1") == 303
    score = client.get(f"{game}/scores.json").json
    assert score is not None
    ana = next(s for s in score["standings"] if s["player"] == "Ana")
    assert ana["window"].endswith("g2 --")


def test_corrections_and_undos_are_appended_never_overwritten(
    app: Flask, client: FlaskClient, game: str
) -> None:
    send_window(client, game)
    [capture_id] = capture_ids(app)
    correct(client, game, capture_id, cell="r1c1", color="g", value="3")
    correct(client, game, capture_id, cell="r1c1", color="b", value="4")
    client.post(f"{game}/captures/{capture_id}/undo", data={"csrf_token": CSRF})
    with sqlite3.connect(app.config["DATABASE"]) as db:
        rows = db.execute("SELECT id, cell, die, reverts FROM corrections ORDER BY id").fetchall()
    assert rows == [(1, "r1c1", "g3", None), (2, "r1c1", "b4", None), (3, None, None, 2)]
    score = client.get(f"{game}/scores.json").json
    assert score is not None
    assert next(s for s in score["standings"] if s["player"] == "Ana")["window"].startswith("g3 g2")


def test_undo_with_nothing_to_undo_is_a_409(app: Flask, client: FlaskClient, game: str) -> None:
    send_window(client, game)
    [capture_id] = capture_ids(app)
    response = client.post(f"{game}/captures/{capture_id}/undo", data={"csrf_token": CSRF})
    assert response.status_code == 409
    assert "no correction left to undo" in response.text


def test_an_unread_photo_can_be_filled_in_by_corrections(app: Flask, client: FlaskClient, game: str) -> None:
    client.post(
        f"{game}/captures", data=photo_form(client, game, png_bytes()), content_type="multipart/form-data"
    )
    [capture_id] = capture_ids(app)
    assert correct(client, game, capture_id, cell="r1c1", color="y", value="3") == 303
    score = client.get(f"{game}/scores.json").json
    assert score is not None
    assert next(s for s in score["standings"] if s["player"] == "Ana")["window"].startswith("y3 --")


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"cell": "r5c1", "color": "r", "value": "3"}, "outside the window"),
        ({"cell": "", "color": "r", "value": "3"}, "malformed cell"),
        ({"cell": "r1c1", "color": "orange", "value": "3"}, "unknown colour"),
        ({"cell": "r1c1", "color": "r", "value": "7"}, "die value must be 1-6"),
        ({"cell": "r1c1", "color": "r", "value": ""}, "needs a value from 1 to 6"),
    ],
)
def test_malformed_corrections_get_a_clear_400(
    app: Flask, client: FlaskClient, game: str, fields: dict[str, str], message: str
) -> None:
    send_window(client, game)
    [capture_id] = capture_ids(app)
    response = client.post(f"{game}/captures/{capture_id}/corrections", data={"csrf_token": CSRF, **fields})
    assert response.status_code == 400
    assert message in response.text


def test_a_capture_of_another_game_cannot_be_corrected(app: Flask, client: FlaskClient, game: str) -> None:
    other = start_game(client)
    send_window(client, other)
    [capture_id] = capture_ids(app)
    assert correct(client, game, capture_id, cell="r1c1", color="g", value="3") == 404
    assert client.get(f"{game}/captures/{capture_id}/photo").status_code == 404
    assert client.post(f"{game}/captures/{capture_id}/undo", data={"csrf_token": CSRF}).status_code == 404


def test_correction_without_csrf_is_forbidden(app: Flask, client: FlaskClient, game: str) -> None:
    send_window(client, game)
    [capture_id] = capture_ids(app)
    response = client.post(f"{game}/captures/{capture_id}/corrections", data={"cell": "r1c1", "absent": "1"})
    assert response.status_code == 403


def test_ending_freezes_the_game(app: Flask, client: FlaskClient, game: str) -> None:
    send_window(client, game)
    [capture_id] = capture_ids(app)
    response = client.post(f"{game}/end", data={"csrf_token": CSRF})
    assert response.status_code == 303
    assert response.headers["Location"] == f"{game}/scores"
    late = {"csrf_token": CSRF, "submission": "k" * 24, "player": "1", "window": FINISHED_WINDOW}
    assert client.post(f"{game}/captures", data=late).status_code == 409
    assert correct(client, game, capture_id, cell="r1c1", absent="1") == 409
    assert 'id="capture-form"' not in client.get(game).text
    assert client.post(f"{game}/end", data={"csrf_token": CSRF}).status_code == 303
    with sqlite3.connect(app.config["DATABASE"]) as db:
        assert db.execute("SELECT COUNT(*) FROM events WHERE kind = 'ended'").fetchone() == (1,)


def test_wrong_method_gets_a_405_page(client: FlaskClient, game: str) -> None:
    response = client.get(f"{game}/captures")
    assert response.status_code == 405
    assert "Not allowed this way" in response.text


def test_a_server_fault_shows_a_plain_500_page(
    app: Flask, client: FlaskClient, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(history, "captures", broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    response = client.get(game)
    assert response.status_code == 500
    assert "Something went wrong" in response.text
    assert "disk on fire" not in response.text and "Traceback" not in response.text


def test_pages_forbid_framing_foreign_scripts_and_leaking_the_link(client: FlaskClient, game: str) -> None:
    headers = client.get(game).headers
    assert "script-src" not in headers["Content-Security-Policy"]  # falls back to default-src 'self'
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Content-Type-Options"] == "nosniff"


def test_an_error_in_a_game_links_back_to_it_and_a_forged_one_does_not(
    client: FlaskClient, game: str
) -> None:
    bad = client.post(f"{game}/captures", data={"csrf_token": CSRF, "player": "9"})
    assert bad.status_code == 400
    assert f'href="{game}">Back to the game' in bad.text
    forged = client.get("/g/forged-token")
    assert "Back to the game" not in forged.text


def test_a_link_to_another_games_table_opens_none_of_the_sagrada_pages(
    app: Flask, client: FlaskClient
) -> None:
    with app.app_context():
        other = history.create_game("cubist", {}, [history.NewPlayer("Cy", "red", {})])
    path = f"/g/{other.token}"
    assert client.get(path).headers["Location"] == f"{path}/cubist"
    for suffix in ("/panel", "/hints?seat=1&color=r&value=1", "/scores", "/scores.csv", "/scores.json"):
        response = client.get(path + suffix)
        assert response.status_code == 404, suffix
        assert "opens a Cubist game, not a Sagrada one" in response.text
    sent = client.post(
        f"{path}/captures", data={"csrf_token": CSRF, "player": "1", "window": FINISHED_WINDOW}
    )
    assert sent.status_code == 404
    assert client.get(f"{path}/timeline").status_code == 200
    ended = client.post(f"{path}/end", data={"csrf_token": CSRF})
    assert ended.status_code == 303 and ended.headers["Location"] == path


def test_the_capture_form_starts_on_the_player_this_phone_last_sent_for(
    client: FlaskClient, game: str
) -> None:
    assert '<option value="2" selected>' not in client.get(game).text
    send_window(client, game, seat=2)
    assert '<option value="2" selected>' in client.get(game).text
    other = start_game(client)
    assert '<option value="2" selected>' not in client.get(other).text
