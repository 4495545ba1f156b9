"""The Cubist page: a new game, workrooms from typed top views and photos, the rules' verdict, the cards
a workroom can be, column fixes, confirmed heights and undo; the score sheet (installations completed,
museum dice) and the end of the game."""

from __future__ import annotations

import re
import secrets
from io import BytesIO
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion_app import cubist_page
from companion_app.cubist_page import TypedError, format_heights, parse_heights, parse_top_view
from engine.cubist.cards import bundled_cards
from engine.cubist.topview import TopView, column_heights
from tests.app.conftest import CSRF, huge_png, png_bytes, start_game, submission_key
from vision.decode import DecodedImage
from vision.errors import ModelUnavailable
from vision.synth.cubist import DEMO_WORKROOMS

PLAYERS = {"name_1": "Ann", "colour_1": "blue", "name_2": "Bo", "colour_2": "orange"}


def start(client: FlaskClient, **overrides: str) -> str:
    response = client.post("/new/cubist", data={"csrf_token": CSRF, **PLAYERS, **overrides})
    assert response.status_code == 303, response.text
    return response.headers["Location"]


def send(client: FlaskClient, page: str, **fields: Any) -> Any:
    data = {"csrf_token": CSRF, "submission": submission_key(client, page), "seat": "1", **fields}
    return client.post(f"{page}/captures", data=data, content_type="multipart/form-data")


def capture_url(client: FlaskClient, page: str) -> str:
    """The newest capture's URL."""
    match = re.search(r'id="capture-(\d+)"', client.get(page).text)
    assert match is not None
    return f"{page}/captures/{match.group(1)}"


def workroom_text(client: FlaskClient, page: str) -> str:
    """The newest workroom's card, tags stripped and spaces squeezed, for asserting what a player reads."""
    body = client.get(page).text
    card = body[body.index('class="card workroom"') :]
    return " ".join(re.sub(r"<[^>]+>", " ", card.split("</article>")[0]).split())


def test_the_front_page_offers_cubist(client: FlaskClient) -> None:
    page = client.get("/").text
    assert 'href="/new/cubist"' in page
    form = client.get("/new/cubist").text
    assert 'name="name_4"' in form and ">purple</option>" in form


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name_2": ""}, "Cubist is for 2 to 4 players"),
        ({"name_2": "ann"}, "the same name"),
        ({"colour_2": "blue"}, "the same colour"),
        ({"colour_2": "red"}, "choose a colour of Cubist&#39;s dice"),
        ({"name_2": "B" * 41}, "at most 40 characters"),
    ],
)
def test_a_bad_new_game_form_says_what_is_wrong(
    client: FlaskClient, fields: dict[str, str], message: str
) -> None:
    response = client.post("/new/cubist", data={"csrf_token": CSRF, **PLAYERS, **fields})
    assert response.status_code == 400 and message in response.text


def test_a_typed_installation_is_matched_and_confirmed_by_its_heights(client: FlaskClient) -> None:
    page = start(client)
    assert "No workroom yet" in client.get(page).text
    assert send(client, page, top="345").status_code == 303
    text = workroom_text(client, page)
    assert "Ann's workroom" in text and "Every placement rule the top view shows is kept" in text
    # 3 4 5 in a row is installation-17 (5 and 4 stacked two high) seen from above.
    assert "installation-17 (6 points): heights 0,0:1 1,0:2 2,0:2" in text
    response = client.post(
        f"{capture_url(client, page)}/heights", data={"csrf_token": CSRF, "heights": "0,0:1 1,0:2 2,0:2"}
    )
    assert response.status_code == 303
    text = workroom_text(client, page)
    assert "With these heights it is installation-17 (6 points)" in text
    assert "Ann : 3 columns (photo 1), every rule kept ; is installation-17" in " ".join(
        re.sub(r"<[^>]+>", " ", client.get(page).text).split()
    )


def fix(client: FlaskClient, url: str, column: str, value: str) -> int:
    return client.post(
        f"{url}/columns", data={"csrf_token": CSRF, "column": column, "value": value}
    ).status_code


def test_a_broken_rule_is_named_and_a_column_fix_mends_it(client: FlaskClient) -> None:
    page = start(client)
    send(client, page, top="35")
    assert "differ-by-one" in workroom_text(client, page)
    url = capture_url(client, page)
    assert fix(client, url, "1,0", "4") == 303
    text = workroom_text(client, page)
    assert "differ-by-one" not in text
    assert "installation-01" in text and "installation-20" in text  # 3 4 flat, or both three high
    assert fix(client, url, "0,0", "") == 303
    assert "Its top view matches no installation card" in workroom_text(client, page)  # a lone 4
    assert client.post(f"{url}/undo", data={"csrf_token": CSRF}).status_code == 303
    assert client.post(f"{url}/undo", data={"csrf_token": CSRF}).status_code == 303
    assert "differ-by-one" in workroom_text(client, page)
    refused = client.post(f"{url}/undo", data={"csrf_token": CSRF})
    assert refused.status_code == 409 and "Nothing to undo" in refused.text


def test_heights_confirmed_before_a_column_was_added_no_longer_apply(client: FlaskClient) -> None:
    page = start(client)
    send(client, page, top="34")
    url = capture_url(client, page)
    client.post(f"{url}/heights", data={"csrf_token": CSRF, "heights": "0,0:1 1,0:1"})
    assert "With these heights it is installation-01" in workroom_text(client, page)
    fix(client, url, "2,0", "5")
    text = workroom_text(client, page)
    assert "With these heights" not in text and "installation-03" not in text
    assert "installation-17" in text  # 3 4 5 from above: the card's heights are offered again


def test_a_stack_higher_than_its_neighbour_is_checked_in_three_dimensions(client: FlaskClient) -> None:
    page = start(client)
    send(client, page, top="5/4")
    url = capture_url(client, page)
    client.post(f"{url}/heights", data={"csrf_token": CSRF, "heights": "0,0:2 0,1:3"})
    text = workroom_text(client, page)
    assert "Every placement rule is kept" in text and "×3" in text


@pytest.mark.parametrize(
    ("fields", "status", "message"),
    [
        ({}, 400, "Choose a photo of the workroom or type its top view"),
        ({"top": "3x4"}, 400, "a top view holds digits 1-6"),
        ({"top": "..."}, 400, "holds no die"),
        ({"top": "34", "seat": "7"}, 400, "This game has no player in seat &#39;7&#39;"),
        ({"demo": "nothing.jpg"}, 400, "There is no demo photo called"),
        ({"photo": (BytesIO(b"not an image"), "x.jpg")}, 400, "was not accepted"),
        ({"photo": (BytesIO(b""), "empty.jpg")}, 400, "the photo is empty"),
        ({"photo": (BytesIO(huge_png()), "huge.png")}, 400, "was not accepted"),
    ],
)
def test_bad_captures_are_refused_with_a_reason(
    client: FlaskClient, fields: dict[str, Any], status: int, message: str
) -> None:
    page = start(client)
    response = send(client, page, **fields)
    assert response.status_code == status and message in response.text
    assert "No workroom yet" in client.get(page).text  # nothing was stored


def test_bad_fixes_and_unknown_captures_are_refused(client: FlaskClient) -> None:
    page = start(client)
    send(client, page, top="34")
    url = capture_url(client, page)
    for fields, message in [
        ({"column": "a,b", "value": "3"}, "a column is written x,y"),
        ({"column": "0,0", "value": "7"}, "A die shows 1 to 6"),
        ({"column": "9,9", "value": "3"}, "Column 9,9 is neither in the workroom nor beside it"),
    ]:
        response = client.post(f"{url}/columns", data={"csrf_token": CSRF, **fields})
        assert response.status_code == 400 and message in response.text
    for heights, message in [
        ("0,0:1", "heights must cover the columns exactly"),
        ("0,0:0 1,0:1", "a height is written x,y:h"),
        ("0,0 1,0", "a height is written x,y:h"),
    ]:
        response = client.post(f"{url}/heights", data={"csrf_token": CSRF, "heights": heights})
        assert response.status_code == 400 and message in response.text
    assert client.post(f"{page}/captures/999/columns", data={"csrf_token": CSRF}).status_code == 404
    assert client.post(f"{url}/columns", data={"column": "0,0", "value": "3"}).status_code == 403
    assert "Undo last fix" not in client.get(page).text  # no refused fix was stored
    for column in ("0,0", "1,0"):
        assert fix(client, url, column, "") == 303
    empty = client.post(f"{url}/heights", data={"csrf_token": CSRF, "heights": ""})
    assert empty.status_code == 400 and "holds no die yet" in empty.text


def test_a_resent_form_counts_once(client: FlaskClient) -> None:
    page = start(client)
    data = {"csrf_token": CSRF, "submission": submission_key(client, page), "seat": "2", "top": "34"}
    for _ in range(2):
        assert client.post(f"{page}/captures", data=data).status_code == 303
    assert client.get(page).text.count('class="card workroom"') == 1


def test_another_game_kind_has_no_cubist_page(client: FlaskClient) -> None:
    token = start_game(client).split("/")[2]
    assert client.get(f"/g/{token}/cubist").status_code == 404
    assert client.get("/g/no-such-game/cubist").status_code == 404


def test_a_photo_is_read_by_the_games_photo_reader(app: Flask, client: FlaskClient) -> None:
    def reader(decoded: DecodedImage) -> dict[str, Any]:
        assert decoded.pixels.shape == (48, 64, 3)
        columns = [
            {"x": 0, "y": 0, "value": 3, "unsure": True},
            {"x": 1, "y": 0, "value": 4, "unsure": False},
        ]
        return {"columns": columns, "color": "purple", "unplaced": 1, "message": "1 dice seen apart"}

    app.config["PHOTO_READERS"]["cubist"] = reader
    page = start(client)
    assert send(client, page, photo=(BytesIO(png_bytes()), "room.png")).status_code == 303
    body = client.get(page).text
    assert "/preview" in body and "1 dice seen apart" in body and 'class="column unsure"' in body
    assert "These dice look purple, but Ann plays blue" in body
    assert "installation-01" in body
    # The phone is remembered as Ann's: the next form starts on her seat.
    assert '<option value="1" selected>' in body


def test_without_the_dice_models_the_photo_is_kept_unread(app: Flask, client: FlaskClient) -> None:
    def reader(_decoded: DecodedImage) -> dict[str, Any]:
        raise ModelUnavailable("models/cubist_tops.onnx is missing")

    app.config["PHOTO_READERS"]["cubist"] = reader
    page = start(client)
    send(client, page, photo=(BytesIO(png_bytes()), "room.png"))
    body = client.get(page).text
    assert cubist_page.NO_READER in body and "/preview" in body


def test_the_demo_photos_are_read_by_the_shipped_models(client: FlaskClient) -> None:
    """The real reader on the shipped demo photos (rendered workrooms), as a player without dice sees them."""
    demos = cubist_page.demo_photos()
    assert demos == sorted(DEMO_WORKROOMS)
    page = start(client)
    assert f'value="{demos[0]}"' in client.get(page).text
    served = client.get(f"/cubist/demo/{demos[0]}")
    assert served.status_code == 200 and served.data.startswith(b"\xff\xd8")
    assert client.get("/cubist/demo/secret.txt").status_code == 404
    send(client, page, demo=demos[1], seat="2")
    text = workroom_text(client, page)
    assert "Bo's workroom" in text and "installation-17" in text and "look" not in text
    annotated = re.search(r'src="(/g/[^"]+/annotated)"', client.get(page).text)
    assert annotated is not None  # the photo as read: each face's column and value drawn on it
    drawn = client.get(annotated.group(1))
    assert drawn.status_code == 200 and drawn.data.startswith(b"\xff\xd8")
    send(client, page, demo=demos[2], seat="2")
    assert "differ-by-one" in workroom_text(client, page)
    send(client, page, demo=demos[0], seat="1")
    text = workroom_text(client, page)
    assert "Ann's workroom" in text and "installation-07" in text and "look" not in text


def test_typed_notations_read_back_and_refuse_nonsense() -> None:
    assert parse_top_view("43/34") == {(0, 1): 4, (1, 1): 3, (0, 0): 3, (1, 0): 4}
    assert parse_top_view(" 5 .\n 4 3 ") == {(0, 1): 5, (0, 0): 4, (1, 0): 3}
    assert parse_heights("1,0:2 0,0:1") == {(1, 0): 2, (0, 0): 1}
    with pytest.raises(TypedError, match="at most 30 columns"):
        parse_top_view("6" * 31)
    with pytest.raises(TypedError, match="a column is written"):
        parse_heights("1;0:2")


# --- the score sheet: installations completed, museum dice, the end ----------------------------------------


def typed_card(card_id: str) -> tuple[str, str]:
    """An installation card's top view as typed on the page and the heights that make it the card."""
    card = bundled_cards().installations[card_id]
    values = TopView.of(card.structure).values
    width = max(x for x, _ in values) + 1
    rows = [
        "".join(str(values.get((x, y), ".")) for x in range(width))
        for y in range(max(y for _, y in values), -1, -1)
    ]
    return "/".join(rows), format_heights(column_heights(card.structure))


def build(client: FlaskClient, page: str, card_id: str, seat: str = "1") -> str:
    """Send a workroom that is exactly `card_id` and confirm its heights; the capture's URL."""
    top, heights = typed_card(card_id)
    assert send(client, page, top=top, seat=seat).status_code == 303
    url = capture_url(client, page)
    assert client.post(f"{url}/heights", data={"csrf_token": CSRF, "heights": heights}).status_code == 303
    return url


def complete(client: FlaskClient, url: str, card_id: str) -> Any:
    return client.post(f"{url}/complete", data={"csrf_token": CSRF, "card": card_id})


def score_text(client: FlaskClient, page: str) -> str:
    body = client.get(page).text
    card = body[body.index('id="score"') :].split("</section>")[0]
    return " ".join(re.sub(r"<[^>]+>", " ", card).split())


def count_museum_dice(client: FlaskClient, page: str, seat: str, dice: str) -> Any:
    data = {"csrf_token": CSRF, "submission": secrets.token_urlsafe(24), "seat": seat, "dice": dice}
    return client.post(f"{page}/museum", data=data)


def test_a_workroom_that_is_a_card_is_completed_once_for_its_points(client: FlaskClient) -> None:
    page = start(client)
    assert "Ann 0 0 0 Bo 0 0 0" in score_text(client, page) and "Ahead now" not in score_text(client, page)
    url = build(client, page, "installation-17")
    assert "Complete installation-17 (6 points)" in workroom_text(client, page)
    refused = complete(client, url, "installation-01")
    assert refused.status_code == 400 and "it is installation-17" in refused.text
    assert complete(client, url, "installation-17").status_code == 303
    assert "Completed as installation-17 (6 points for Ann)" in workroom_text(client, page)
    assert "Ahead now: Ann" in score_text(client, page)
    assert "Ann 1: installation-17 (6) 0 6 Bo 0 0 0" in score_text(client, page)
    again = complete(client, url, "installation-17")
    assert again.status_code == 409 and "already completed as installation-17" in again.text
    # The same card built in Bo's workroom cannot be completed a second time.
    other = build(client, page, "installation-17", seat="2")
    assert "installation-17 is already completed" in workroom_text(client, page)
    taken = complete(client, other, "installation-17")
    assert taken.status_code == 409 and "each installation card is taken once" in taken.text
    # Undone, the card is free again and the points go.
    assert client.post(f"{url}/undo", data={"csrf_token": CSRF}).status_code == 303
    assert "Ann 0 0 0" in score_text(client, page)
    assert complete(client, other, "installation-17").status_code == 303
    assert "Ahead now: Bo" in score_text(client, page)


def test_a_completion_lapses_when_a_fix_makes_the_workroom_another_structure(client: FlaskClient) -> None:
    page = start(client)
    url = build(client, page, "installation-01")
    complete(client, url, "installation-01")
    assert "Ann 1: installation-01 (2)" in score_text(client, page)
    assert fix(client, url, "2,0", "5") == 303  # a third column: the heights and the card no longer hold
    assert "Ann 0 0 0" in score_text(client, page)
    assert "Completed as" not in workroom_text(client, page)


def test_museum_dice_count_two_points_each_and_break_a_tie(client: FlaskClient) -> None:
    page = start(client)
    complete(client, build(client, page, "installation-01"), "installation-01")  # Ann: 2 points
    assert count_museum_dice(client, page, "2", "1").status_code == 303  # Bo: 2 points, 1 museum die
    assert "Ahead now: Bo" in score_text(client, page) and "Bo 0 1 2" in score_text(client, page)
    assert count_museum_dice(client, page, "2", "3").status_code == 303  # the latest count stands
    assert "Bo 0 3 6" in score_text(client, page)
    assert "Bo: 3 dice in the museum" in client.get(f"{page.removesuffix('/cubist')}/timeline").text
    for dice, message in [("-1", "0 to 20"), ("21", "0 to 20"), ("two", "0 to 20"), ("", "0 to 20")]:
        response = count_museum_dice(client, page, "1", dice)
        assert response.status_code == 400 and message in response.text
    assert count_museum_dice(client, page, "9", "1").status_code == 400
    assert "Ann 1: installation-01 (2) 0 2" in score_text(client, page)  # nothing refused was counted
    assert client.get(page).text.count('class="card workroom"') == 1  # a count is not a workroom
    tally = int(re.findall(r"/captures/(\d+)", client.get(page).text)[-1]) + 1
    assert client.post(f"{page}/captures/{tally}/columns", data={"csrf_token": CSRF}).status_code == 404


def test_a_fifth_installation_ends_the_game_at_once(client: FlaskClient) -> None:
    page = start(client)
    count_museum_dice(client, page, "2", "9")  # Bo: 18 points, but the game ends on Ann's fifth card
    cards = ["installation-01", "installation-02", "installation-03", "installation-05", "installation-06"]
    for card in cards:
        assert complete(client, build(client, page, card), card).status_code == 303
    text = score_text(client, page)
    assert "Game over: Bo wins (Ann completed 5 installations)" in text
    assert "Ann 5:" in text and "15" in text and "Bo 0 9 18" in text
    body = client.get(page).text
    assert 'name="top"' not in body and "Fix a column" not in body and "End the game" not in body
    data = {"csrf_token": CSRF, "submission": secrets.token_urlsafe(24), "seat": "1", "top": "34"}
    refused = client.post(f"{page}/captures", data=data)
    assert refused.status_code == 409 and "This game has ended" in refused.text
    assert count_museum_dice(client, page, "1", "1").status_code == 409
    url = capture_url(client, page)
    for action in ("undo", "complete", "heights", "columns"):
        assert client.post(f"{url}/{action}", data={"csrf_token": CSRF}).status_code == 409
    assert "Ann 5:" in score_text(client, page)  # nothing changed


def test_the_players_end_the_game_when_the_museum_is_complete(client: FlaskClient) -> None:
    page = start(client)
    assert "End the game (museum complete)" in client.get(page).text
    complete(client, build(client, page, "installation-01"), "installation-01")
    count_museum_dice(client, page, "2", "1")
    ended = client.post(f"{page.removesuffix('/cubist')}/end", data={"csrf_token": CSRF})
    assert ended.status_code == 303
    assert "Game over: Bo wins (ended at the table)" in score_text(
        client, client.get(ended.headers["Location"]).headers["Location"]
    )


def test_a_whole_structure_lists_where_each_value_may_go_next(client: FlaskClient) -> None:
    page = start(client)
    send(client, page, top="34")
    assert "data-may=" not in client.get(page).text  # from above alone the heights are unknown
    url = capture_url(client, page)
    client.post(f"{url}/heights", data={"csrf_token": CSRF, "heights": "0,0:1 1,0:2"})
    cells = dict(re.findall(r'title="column (-?\d,-?\d)" data-may="([^"]*)"', client.get(page).text))
    assert cells["0,0"] == "3"  # on top: only its equal, which the 4 beside it at that level allows
    assert cells["1,0"] == "4" and cells["2,0"] == "3 5" and cells["-1,0"] == "2 4"
    assert cells["0,1"] == "2 4" and cells["1,1"] == "3 5" and cells["-1,1"] == ""  # diagonal: no touch
    assert "Where may a die go next?" in client.get(page).text
    fix(client, url, "2,0", "5")  # a column added since: its heights must be confirmed again first
    assert "data-may=" not in client.get(page).text
    client.post(f"{url}/heights", data={"csrf_token": CSRF, "heights": "0,0:1 1,0:2 2,0:1"})
    assert 'data-may="' in client.get(page).text
    fix(client, url, "2,0", "6")
    client.post(f"{url}/heights", data={"csrf_token": CSRF, "heights": "0,0:1 1,0:2 2,0:1"})
    assert "differ-by-one" in workroom_text(client, page) and "data-may=" not in client.get(page).text
