"""Sagrada photos read by the shipped reader: the demo photos read exactly, the player's window picked out of
several, and photos with no window kept with a clear notice."""

from __future__ import annotations

import io
import json
import sqlite3
from dataclasses import replace

import cv2
import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion_app.sagrada_photos import SagradaPhotoReader, WindowNotFound
from companion_app.table import DEMO_FOLDER, DemoPhoto, demo_photos
from engine.sagrada.window import ALL_CELLS, Window, find_pattern
from tests.app.conftest import CSRF, start_game, submission_key
from vision.decode import DecodedImage, decode_image
from vision.sagrada.reader import SagradaReader, annotate
from vision.synth.sagrada import SagradaConfig, render_window_scene

DEMOS = demo_photos()
ANA, BO = (next(d for d in DEMOS if d.caption.startswith(f"{name}'s")) for name in ("Ana", "Bo"))
VIOLATION = next(d for d in DEMOS if d.file == "sagrada-4-bo-round5.jpg")


@pytest.fixture(scope="module")
def reader() -> SagradaPhotoReader:
    return SagradaPhotoReader()


@pytest.fixture(scope="module")
def window_reader() -> SagradaReader:
    return SagradaReader()


def demo_pixels(demo: DemoPhoto) -> np.ndarray:
    return decode_image(DEMO_FOLDER / demo.file).pixels


def as_photo(pixels: np.ndarray) -> DecodedImage:
    ok, encoded = cv2.imencode(".png", pixels)
    assert ok
    return decode_image(encoded.tobytes())


def test_every_demo_photo_is_read_exactly(reader: SagradaPhotoReader) -> None:
    assert len(DEMOS) == 6 and {d.pattern for d in DEMOS} == {"Bellesguard", "Fractal Drops"}
    for demo in DEMOS:
        answer = reader(decode_image(DEMO_FOLDER / demo.file), find_pattern(demo.pattern), 1)
        assert answer["window"] == demo.window, demo.file
        assert answer["message"] == f"Read the {demo.pattern} window.", demo.file
        assert answer["annotated"].shape == (768, 1024, 3)


@pytest.mark.parametrize(
    ("demo", "card"),
    [*((demo, demo.pattern) for demo in DEMOS), (ANA, "Firelight")],
    ids=[*(demo.file for demo in DEMOS), "another card"],
)
def test_the_answer_is_the_window_readers_reading_knowing_the_card(
    reader: SagradaPhotoReader, window_reader: SagradaReader, demo: DemoPhoto, card: str
) -> None:
    decoded = decode_image(DEMO_FOLDER / demo.file)
    pattern = find_pattern(card)
    knowing_the_card = window_reader.read_decoded(decoded, pattern)
    [window] = knowing_the_card.windows
    answer = reader(decoded, pattern, 1)
    assert answer["window"] == str(window.window)
    assert answer["unsure"] == [str(space.cell) for space in window.uncertain]
    assert answer["alternatives"] == {str(space.cell): list(space.alternatives) for space in window.uncertain}
    # Drawn the same way up, with the same score: another card's window is read as the player's in place.
    assert np.array_equal(answer["annotated"], annotate(knowing_the_card))


def test_the_players_window_is_picked_out_of_two_by_its_pattern(reader: SagradaPhotoReader) -> None:
    both = as_photo(np.hstack([demo_pixels(VIOLATION), demo_pixels(ANA)]))
    for demo in (VIOLATION, ANA):
        answer = reader(both, find_pattern(demo.pattern), 1)
        assert answer["message"] == f"Read the {demo.pattern} window (the photo shows 1 other window)."
        # Half the size it is in its own photo, a die may be read less surely: those are asked about.
        read, shown = Window.parse(answer["window"]), Window.parse(demo.window)
        differ = {str(cell) for cell in ALL_CELLS if read[cell] != shown[cell]}
        assert differ <= set(answer["unsure"]), demo.file


def test_a_card_on_the_players_mat_is_theirs_whatever_its_print(
    reader: SagradaPhotoReader, window_reader: SagradaReader
) -> None:
    """Two cards on seat 1's and seat 2's window mats: seat 2's player gets the card on mat 2."""
    config = SagradaConfig(windows=(2, 2), window_px=(150.0, 190.0), mat_probability=1.0)
    config = replace(config, scene=replace(config.scene, width=1280, height=960, motion_blur_probability=0.0))
    scene = render_window_scene(config, np.random.default_rng(9102))
    assert sorted(window.mat_seat for window in scene.windows) == [1, 2]
    decoded = as_photo(scene.image)
    pattern = find_pattern("Firelight")
    answer = reader(decoded, pattern, 2)
    assert answer["message"] == "Read the window on mat 2 (the photo shows 1 other window)."
    [on_mat_2] = [
        window for window in window_reader.read_decoded(decoded).windows if window.lattice.mat_seat == 2
    ]
    assert answer["window"] == str(on_mat_2.read_as(pattern).window)


def test_a_window_of_another_pattern_is_read_as_the_players_and_the_page_says_so(
    reader: SagradaPhotoReader,
) -> None:
    answer = reader(as_photo(demo_pixels(ANA)), find_pattern("Firelight"), 1)
    assert answer["message"].startswith("The window in the photo looks like Bellesguard, not Firelight")
    # The same dice, though Firelight's print may turn the card the other way up.
    assert dice_of(answer["window"]) == dice_of(ANA.window)


def dice_of(window: str) -> list[str]:
    return sorted(str(die) for _, die in Window.parse(window).placed())


@pytest.mark.parametrize(
    ("level", "reason"),
    [(8, "the photo is too dark to find a window in"), (180, "no Sagrada window was found in the photo")],
)
def test_a_photo_with_no_window_says_why(reader: SagradaPhotoReader, level: int, reason: str) -> None:
    blank = np.full((480, 640, 3), level, np.uint8)
    with pytest.raises(WindowNotFound, match=reason):
        reader(as_photo(blank), find_pattern("Bellesguard"), 1)


def capture_readings(app: Flask) -> list[dict[str, object]]:
    with sqlite3.connect(app.config["DATABASE"]) as db:
        return [json.loads(row[0]) for row in db.execute("SELECT reading FROM captures ORDER BY id")]


def send_demo(client: FlaskClient, game: str, demo: str, seat: int) -> int:
    data = {"csrf_token": CSRF, "submission": submission_key(client, game), "player": str(seat), "demo": demo}
    return client.post(f"{game}/captures", data=data).status_code


@pytest.fixture
def game(client: FlaskClient) -> str:
    """A game set up with the new-game form's first two patterns, the demo photos' windows."""
    return start_game(client, pattern_1=ANA.pattern, pattern_2=BO.pattern)


def test_the_game_page_offers_the_demo_photos(client: FlaskClient, game: str) -> None:
    page = client.get(game).text
    assert "Try a demo photo" in page
    for demo in DEMOS:
        assert f'name="demo" value="{demo.file}"' in page
        served = client.get(f"{game}/demo/{demo.file}")
        assert served.status_code == 200 and served.mimetype == "image/jpeg"
    assert client.get(f"{game}/demo/secret.sqlite").status_code == 404


def test_a_demo_photo_is_read_scored_annotated_and_its_violation_shown(
    app: Flask, client: FlaskClient, game: str
) -> None:
    assert send_demo(client, game, BO.file, seat=2) == 303
    assert send_demo(client, game, VIOLATION.file, seat=2) == 303
    first, second = capture_readings(app)
    assert first["window"] == BO.window and second["window"] == VIOLATION.window
    page = client.get(game).text
    assert "Bo sent the demo photo sagrada-4-bo-round5.jpg" in page
    assert "Read the Fractal Drops window." in page
    assert 'class="score-total"' in page
    assert "g2 on r2c4 and g4 on r2c5 share an edge and are both green" in page
    assert "6 new dice since Bo&#39;s previous capture" in page
    capture_id = 2  # the game's second capture
    annotated = client.get(f"{game}/captures/{capture_id}/annotated")
    assert annotated.status_code == 200 and annotated.mimetype == "image/jpeg"
    assert f"/captures/{capture_id}/annotated" in page
    assert f"/captures/{capture_id}/annotated" in client.get(f"{game}/timeline").text
    sent = client.get(f"{game}/captures/{capture_id}/photo").data
    assert sent == (DEMO_FOLDER / VIOLATION.file).read_bytes()


def test_an_unknown_demo_photo_is_refused(app: Flask, client: FlaskClient, game: str) -> None:
    response = client.post(
        f"{game}/captures",
        data={"csrf_token": CSRF, "submission": submission_key(client, game), "player": "1", "demo": "../x"},
    )
    assert response.status_code == 400
    assert "There is no demo photo called &#39;../x&#39;" in response.text
    assert capture_readings(app) == []


def send_photo(client: FlaskClient, game: str, pixels: np.ndarray, name: str, seat: int) -> int:
    """Post `pixels` as the JPEG photo `name` of the player at `seat`; the response's status code."""
    ok, encoded = cv2.imencode(".jpg", pixels)
    assert ok
    form = {
        "csrf_token": CSRF,
        "submission": submission_key(client, game),
        "player": str(seat),
        "photo": (io.BytesIO(encoded.tobytes()), name),
    }
    return client.post(f"{game}/captures", data=form, content_type="multipart/form-data").status_code


def test_a_dark_photo_is_kept_with_a_notice(app: Flask, client: FlaskClient, game: str) -> None:
    assert send_photo(client, game, np.full((480, 640, 3), 5, np.uint8), "night.jpg", seat=1) == 303
    [reading] = capture_readings(app)
    assert reading["window"] is None
    page = client.get(game).text
    assert "The photo is kept, but it could not be read (the photo is too dark" in page
    assert client.get(f"{game}/captures/1/annotated").status_code == 404


def test_a_greyscale_photo_is_kept_and_the_page_asks_for_one_in_colour(
    app: Flask, client: FlaskClient, game: str
) -> None:
    grey = cv2.cvtColor(cv2.imread(str(DEMO_FOLDER / BO.file)), cv2.COLOR_BGR2GRAY)
    assert send_photo(client, game, grey, "night-mode.jpg", seat=2) == 303
    [reading] = capture_readings(app)
    assert reading["window"] is None
    page = client.get(game).text
    assert "could not be read (the photo is greyscale" in page
    assert "take the photo in colour" in page
