"""The Run Buster page: a new game, turns from typed dice and photos, the rules' verdict, fixes and undo."""

from __future__ import annotations

import re
from io import BytesIO
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion_app import runbuster_page
from tests.app.conftest import CSRF, png_bytes, start_game, submission_key
from vision.decode import DecodedImage
from vision.errors import ModelUnavailable
from vision.runbuster.mat import Paper
from vision.synth.mat import DEMO_TABLES


def start(client: FlaskClient, **overrides: str) -> str:
    form = {"csrf_token": CSRF, "name_red": "Ann", "name_blue": "Bo", "paper": "a3", **overrides}
    response = client.post("/new/runbuster", data=form)
    assert response.status_code == 303, response.text
    return response.headers["Location"]


def send(client: FlaskClient, page: str, **fields: Any) -> Any:
    data = {"csrf_token": CSRF, "submission": submission_key(client, page), **fields}
    return client.post(f"{page}/captures", data=data, content_type="multipart/form-data")


def test_the_front_page_offers_run_buster(client: FlaskClient) -> None:
    page = client.get("/").text
    assert 'href="/new/runbuster"' in page
    form = client.get("/new/runbuster").text
    assert 'name="name_red"' in form and 'name="name_blue"' in form and 'value="a4"' in form


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name_blue": ""}, "give both a name"),
        ({"name_blue": "ann"}, "the same name"),
        ({"name_red": "x" * 41}, "at most 40 characters"),
        ({"paper": "letter"}, "A3 or A4, not &#39;letter&#39;"),
    ],
)
def test_a_bad_new_game_form_says_what_is_wrong(
    client: FlaskClient, fields: dict[str, str], message: str
) -> None:
    form = {"csrf_token": CSRF, "name_red": "Ann", "name_blue": "Bo", "paper": "a3", **fields}
    response = client.post("/new/runbuster", data=form)
    assert response.status_code == 400 and message in response.text


def test_the_game_link_opens_the_run_buster_page(client: FlaskClient) -> None:
    page = start(client)
    token = page.split("/")[2]
    assert client.get(f"/g/{token}").headers["Location"] == page
    body = client.get(page).text
    assert "Ann (red) v Bo (blue)" in body and "No photo yet" in body


def test_a_typed_roll_gets_the_rules_verdict_and_the_advice(client: FlaskClient) -> None:
    page = start(client)
    assert send(client, page, red_hand="45", blue_hand="23", red_roll="3446").status_code == 303
    body = client.get(page).text
    assert "Ann must extend: 3-4-5 or 3-4-5-6 or 4-5-6" in body
    assert "Ann's choices, best first" in body and "<td>3,6</td><td>3-4-5-6</td>" in body
    assert body.count('<tr class="best">') == 1 and "3-4-5-6" in body


def test_a_bust_is_announced_and_the_next_photo_checked_against_it(client: FlaskClient) -> None:
    page = start(client)
    send(client, page, red_hand="234", blue_hand="45", blue_roll="1566")
    body = client.get(page).text
    assert "Bo&#39;s roll 1,5,6,6 busts Ann&#39;s 2-3-4: Ann&#39;s hand goes back to the cup" in body
    assert 'class="bust"' in body
    # Next photo: Ann's busted hand is still there and Bo kept 4-5-6; Ann rolls.
    send(client, page, red_hand="234", blue_hand="456", red_roll="112233")
    body = client.get(page).text
    assert "Ann&#39;s hand was busted and belongs in the cup, but 2-3-4 is still on the mat" in body
    send(client, page, red_hand="", blue_hand="46", red_roll="111111")
    body = client.get(page).text
    assert "Bo&#39;s hand is 4-6, but" not in body  # a fresh roll is judged against the photo before it


def test_a_keep_that_the_roll_did_not_allow_is_flagged(client: FlaskClient) -> None:
    page = start(client)
    send(client, page, red_hand="45", red_roll="3446")
    send(client, page, red_hand="2345", blue_roll="111111")
    body = client.get(page).text
    assert "Ann&#39;s hand is 2-3-4-5, but the roll allowed only 3-4-5 or 3-4-5-6 or 4-5-6" in body


def test_completing_the_straight_shows_the_winner(client: FlaskClient) -> None:
    page = start(client)
    send(client, page, red_hand="2345", red_roll="16", blue_hand="3")
    body = client.get(page).text
    assert "<strong>Ann wins</strong>" in body and "Ann completes 1-6 and wins" in body


def test_a_zone_fix_changes_the_verdict_and_undo_takes_it_back(client: FlaskClient) -> None:
    page = start(client)
    send(client, page, red_hand="45", red_roll="1245")
    assert "Ann cannot extend 4-5" in client.get(page).text
    capture = re.search(r'id="capture-(\d+)"', client.get(page).text)
    assert capture is not None
    fix = {"csrf_token": CSRF, "zone": "red.roll", "dice": "1,2,3,5"}
    assert client.post(f"{page}/captures/{capture.group(1)}/zones", data=fix).status_code == 303
    body = client.get(page).text
    assert "Ann must extend: 1-2-3-4-5 or 2-3-4-5 or 3-4-5" in body and "Undo last fix (red.roll)" in body
    assert (
        client.post(f"{page}/captures/{capture.group(1)}/undo", data={"csrf_token": CSRF}).status_code == 303
    )
    assert "Ann cannot extend 4-5" in client.get(page).text
    again = client.post(f"{page}/captures/{capture.group(1)}/undo", data={"csrf_token": CSRF})
    assert again.status_code == 409


def test_an_impossible_table_is_named(client: FlaskClient) -> None:
    page = start(client)
    send(client, page, red_hand="24", red_roll="1234")
    send(client, page, red_roll="12", blue_roll="3")
    body = client.get(page).text
    assert "Ann&#39;s hand 2-4 is not a straight" in body
    assert "both roll zones hold dice" in body


@pytest.mark.parametrize(
    ("fields", "status", "message"),
    [
        ({}, 400, "Choose a photo or type the dice"),
        ({"red_roll": "37"}, 400, "The dice typed for red.roll could not be read"),
        ({"demo": "nothing.jpg"}, 400, "There is no demo photo called"),
        ({"photo": (BytesIO(b"not an image"), "x.jpg")}, 400, "was not accepted"),
    ],
)
def test_bad_captures_are_refused_with_a_reason(
    client: FlaskClient, fields: dict[str, Any], status: int, message: str
) -> None:
    page = start(client)
    response = send(client, page, **fields)
    assert response.status_code == status and message in response.text


def test_bad_fixes_and_unknown_captures_are_refused(client: FlaskClient) -> None:
    page = start(client)
    send(client, page, red_roll="123456")
    capture = re.search(r'id="capture-(\d+)"', client.get(page).text)
    assert capture is not None
    url = f"{page}/captures/{capture.group(1)}/zones"
    bad_zone = client.post(url, data={"csrf_token": CSRF, "zone": "red.cup", "dice": "1"})
    assert bad_zone.status_code == 400 and "no zone" in bad_zone.text
    bad_dice = client.post(url, data={"csrf_token": CSRF, "zone": "red.roll", "dice": "9"})
    assert bad_dice.status_code == 400 and "could not be read" in bad_dice.text
    missing = client.post(f"{page}/captures/999/zones", data={"csrf_token": CSRF, "zone": "red.roll"})
    assert missing.status_code == 404
    assert client.post(url, data={"zone": "red.roll", "dice": "1"}).status_code == 403


def test_a_sagrada_game_has_no_run_buster_page(client: FlaskClient) -> None:
    token = start_game(client).split("/")[2]
    assert client.get(f"/g/{token}/runbuster").status_code == 404


def test_a_photo_without_the_mat_is_kept_and_explained(client: FlaskClient) -> None:
    """The page's own reader looks for the mat before reading any die."""
    page = start(client)
    response = send(client, page, photo=(BytesIO(png_bytes()), "table.png"))
    assert response.status_code == 303
    body = client.get(page).text
    assert "/preview" in body and "No roll on the mat" not in body
    assert (
        "The photo is kept, but the Run Buster mat needs 2 of its 6 corner markers in view, found 0" in body
    )


def test_a_photo_is_read_by_the_games_photo_reader(app: Flask, client: FlaskClient) -> None:
    def reader(decoded: DecodedImage, paper: Paper) -> dict[str, Any]:
        assert decoded.pixels.shape == (48, 64, 3) and paper is Paper.A3
        zones = {"red.hand": [4, 5], "red.roll": [3, 4, 4, 6], "blue.hand": [], "blue.roll": []}
        return {
            "zones": zones,
            "unsure": ["red.roll"],
            "outside": 1,
            "message": "1 dice lie outside the zones",
        }

    app.config["PHOTO_READERS"]["runbuster"] = reader
    page = start(client)
    assert send(client, page, photo=(BytesIO(png_bytes()), "mat.png")).status_code == 303
    body = client.get(page).text
    assert "Ann must extend: 3-4-5 or 3-4-5-6 or 4-5-6" in body
    assert '<span class="tag">check</span>' in body and "1 dice lie outside the zones" in body
    assert "/preview" in body


def test_without_the_dice_models_the_photo_is_kept_unread(app: Flask, client: FlaskClient) -> None:
    def reader(_decoded: DecodedImage, _paper: Paper) -> dict[str, Any]:
        raise ModelUnavailable("models/dice_reader.onnx is missing")

    app.config["PHOTO_READERS"]["runbuster"] = reader
    page = start(client)
    send(client, page, photo=(BytesIO(png_bytes()), "table.png"))
    assert runbuster_page.NO_READER in client.get(page).text


def test_demo_photos_are_offered_served_and_sent(app: Flask, client: FlaskClient) -> None:
    demos = runbuster_page.demo_photos()
    assert demos == sorted(DEMO_TABLES)
    seen: list[tuple[tuple[int, int], Paper]] = []

    def reader(decoded: DecodedImage, paper: Paper) -> dict[str, Any]:
        seen.append((decoded.pixels.shape[:2], paper))
        return {"zones": {}, "unsure": [], "outside": 0, "message": None}

    app.config["PHOTO_READERS"]["runbuster"] = reader
    page = start(client, paper="a4")
    assert f'value="{demos[0]}"' in client.get(page).text
    served = client.get(f"/runbuster/demo/{demos[0]}")
    assert served.status_code == 200 and served.data.startswith(b"\xff\xd8")
    assert client.get("/runbuster/demo/secret.txt").status_code == 404
    assert send(client, page, demo=demos[2]).status_code == 303
    assert seen == [((960, 1280), Paper.A4)]  # read on the paper the game was started with
    assert (
        f"Sent the demo photo &#39;{demos[2]}&#39;" in client.get(f"{page.rsplit('/', 1)[0]}/timeline").text
    )


def test_an_ended_game_refuses_every_change(client: FlaskClient) -> None:
    page = start(client)
    assert send(client, page, red_hand="45", blue_hand="23", red_roll="3446").status_code == 303
    url = re.findall(r"/captures/(\d+)/zones", client.get(page).text)[0]
    key = submission_key(client, page)
    client.post(f"{page.removesuffix('/runbuster')}/end", data={"csrf_token": CSRF})
    data = {"csrf_token": CSRF, "submission": key, "red_hand": "45", "blue_hand": "23", "red_roll": "3"}
    refused = client.post(f"{page}/captures", data=data)
    assert refused.status_code == 409 and "This game has ended" in refused.text
    for action in ("zones", "undo"):
        assert client.post(f"{page}/captures/{url}/{action}", data={"csrf_token": CSRF}).status_code == 409
