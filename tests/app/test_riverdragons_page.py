"""The River Dragons page: a new game, hidden planning, decisions checked by the engine, take-backs, the board
drawing and a game played through to a win."""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import pairwise

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion_app import history
from companion_app.db import get_db
from companion_app.riverdragons_page import board_drawing, describe, group_moves
from engine.riverdragons.board import default_board
from engine.riverdragons.game import Phase, RiverDragons, State
from engine.riverdragons.moves import Lay, Lose, Move, PlaceStone, Plan, RemovePlank, RemoveStone, Walk
from tests.app.conftest import CSRF, start_game

ANN_PLAN = ("stone2", "stone1", "plank2", "plank1", "move2")
BO_PLAN = ("stone2", "stone1", "plank2", "plank1", "remove")


def start(client: FlaskClient, **fields: str) -> str:
    form = {"csrf_token": CSRF, "name_1": "Ann", "name_2": "Bo", **fields}
    response = client.post("/new/river-dragons", data=form)
    assert response.status_code == 303, response.text
    return response.headers["Location"]


def phone(app: Flask) -> FlaskClient:
    """Another phone at the table: its own session."""
    client = app.test_client()
    with client.session_transaction() as session:
        session["csrf_token"] = CSRF
    return client


def be(client: FlaskClient, page: str, seat: str) -> None:
    """Tell the page which player this phone is ("" for the shared phone)."""
    response = client.post(f"{page}/seat", data={"csrf_token": CSRF, "seat": seat})
    assert response.status_code == 303, response.text


def form_keys(client: FlaskClient, page: str) -> dict[str, str]:
    """The one-time submission key and the change the move forms were drawn at."""
    body = client.get(page).text
    submission = re.search(r'name="submission" value="([^"]+)"', body)
    seen = re.search(r'name="seen" value="(\d+)"', body)
    assert submission is not None and seen is not None, "the page offers no move form"
    return {"submission": submission.group(1), "seen": seen.group(1)}


def play(client: FlaskClient, page: str, move: str, **fields: str) -> int:
    data = {"csrf_token": CSRF, **form_keys(client, page), "move": move, **fields}
    response = client.post(f"{page}/moves", data=data)
    return int(response.status_code)


def play_all(client: FlaskClient, page: str, moves: list[str]) -> None:
    for move in moves:
        assert play(client, page, move) == 303, move


def stored(app: Flask, page: str) -> tuple[list[str], list[str]]:
    """The moves stored and the game's event summaries, straight from the store."""
    with app.app_context():
        game = history.game_by_token(page.split("/")[2])
        assert game is not None
        moves = [capture.reading["move"] for capture in history.captures(game)]
        return moves, [event.summary for event in history.events_after(game, 0)]


def program_row(body: str, seat: int) -> list[str]:
    """The cells of a player's program as a page shows them (a card, ? face down, – not planned)."""
    row = re.search(rf'<tr class="program" data-seat="{seat}">(.*?)</tr>', body, re.S)
    assert row is not None
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td>(.*?)</td>", row.group(1))]


def undo_form_capture(body: str, form_class: str) -> str:
    found = re.search(rf'class="inline {form_class}">.*?name="capture" value="(\d+)"', body, re.S)
    assert found is not None
    return found.group(1)


# --- a new game ---------------------------------------------------------------------------------------------


def test_the_front_page_offers_river_dragons(client: FlaskClient) -> None:
    assert 'href="/new/river-dragons"' in client.get("/").text
    form = client.get("/new/river-dragons").text
    assert all(f'name="name_{seat}"' in form for seat in range(1, 7)) and 'name="start"' in form


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name_2": ""}, "River Dragons is for 2 to 6 players; 1 named"),
        ({"name_2": " ann "}, "the same name"),
        ({"name_1": "x" * 41}, "at most 40 characters"),
        ({"start": "3"}, "the start player must be a seat with a name, not seat &#39;3&#39;"),
        ({"start": "first"}, "not seat &#39;first&#39;"),
    ],
)
def test_a_bad_new_game_form_says_what_is_wrong(
    app: Flask, client: FlaskClient, fields: dict[str, str], message: str
) -> None:
    response = client.post(
        "/new/river-dragons", data={"csrf_token": CSRF, "name_1": "Ann", "name_2": "Bo", **fields}
    )
    assert response.status_code == 400 and message in response.text
    assert 'name="name_1"' in response.text  # the form again, to fix
    with app.app_context():
        assert get_db().execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0


def test_the_game_link_opens_the_page_and_the_chosen_player_starts(client: FlaskClient) -> None:
    page = start(client, name_2="", name_3="Bo", name_4="Cy", start="3")
    token = page.split("/")[2]
    assert page == f"/g/{token}/river-dragons"
    assert client.get(f"/g/{token}").headers["Location"] == page
    body = client.get(page).text
    assert "Ann (red), Bo (yellow), Cy (green)" in body
    assert "Bo starts" in body and "Bo is planning: card 1 of 5." in body
    assert body.count('class="pawn"') == 3 and "The table breaks no rule." in body


def test_other_games_and_unknown_links_have_no_river_dragons_page(client: FlaskClient) -> None:
    token = start_game(client).split("/")[2]
    other = client.get(f"/g/{token}/river-dragons")
    assert other.status_code == 404 and "not a River Dragons game" in other.text
    assert client.get("/g/nothing-here/river-dragons").status_code == 404


# --- planning -----------------------------------------------------------------------------------------------


def test_planning_a_round_shows_each_phone_only_its_own_cards(app: Flask, client: FlaskClient) -> None:
    page = start(client)
    bo = phone(app)
    be(client, page, "1")
    be(bo, page, "2")
    play_all(client, page, [f"plan {card}" for card in ANN_PLAN[:3]])

    assert program_row(client.get(page).text, 1) == ["stone2", "stone1", "plank2", "–", "–"]
    seen_by_bo = bo.get(page).text
    assert program_row(seen_by_bo, 1) == ["?", "?", "?", "–", "–"]
    assert "3 of 5 cards planned" in seen_by_bo and "Waiting for Ann; this phone is Bo's." in seen_by_bo
    assert "Plan your next card" not in seen_by_bo and "stone2" not in seen_by_bo
    assert "Ann planned a card" in seen_by_bo and "Ann planned a card" in bo.get(f"{page}/panel").text

    play_all(client, page, [f"plan {card}" for card in ANN_PLAN[3:]])
    play_all(bo, page, [f"plan {card}" for card in BO_PLAN])
    # Resolution: the cards at position 1 are face up for everyone, the rest only for their owner.
    seen_by_bo = bo.get(page).text
    assert program_row(seen_by_bo, 1) == ["stone2", "?", "?", "?", "?"]
    assert program_row(seen_by_bo, 2) == list(BO_PLAN)
    assert program_row(client.get(page).text, 2) == ["stone2", "?", "?", "?", "?"]
    assert (
        'Position 1: Ann\'s <strong class="card-being-resolved">stone2</strong> (first of two).' in seen_by_bo
    )
    _, events = stored(app, page)
    assert not any(card in event for event in events for card in (*ANN_PLAN, *BO_PLAN))


def test_a_phone_cannot_play_another_players_turn(app: Flask, client: FlaskClient) -> None:
    page = start(client)
    be(client, page, "2")
    keys = form_keys(phone(app), page)  # the form as the shared phone draws it
    response = client.post(f"{page}/moves", data={"csrf_token": CSRF, **keys, "move": "plan jump"})
    assert (
        response.status_code == 409 and "It is Ann&#39;s turn, and this phone is Bo&#39;s." in response.text
    )
    assert stored(app, page)[0] == []
    be(client, page, "")  # back to the shared phone: it plays for whoever is to move
    assert play(client, page, "plan jump") == 303
    assert stored(app, page)[0] == ["plan jump"]


# --- decisions and refusals ---------------------------------------------------------------------------------


def test_a_decision_is_offered_as_buttons_or_a_list_and_played(app: Flask, client: FlaskClient) -> None:
    page = start(client)
    play_all(client, page, [f"plan {card}" for card in (*ANN_PLAN, *BO_PLAN)])
    body = client.get(page).text
    assert '<select name="move">' in body and '<option value="stone i10">i10</option>' in body  # 27 islands
    assert play(client, page, "stone i10") == 303
    body = client.get(page).text
    assert 'Position 1: Ann\'s <strong class="card-being-resolved">stone2</strong> (second of two).' in body
    assert re.search(r'data-name="i10">\s*<circle[^>]*>\s*<circle class="stone"', body)
    assert "Ann put a stone on i10" in body and "Stones in the supply: 26" in body
    assert play(client, page, " stone   i2 ") == 303  # typed, with stray spaces
    assert stored(app, page)[0][-2:] == ["stone i10", "stone i2"]
    assert "Position 1: Bo's" in client.get(page).text


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("fly away", "malformed move &#39;fly away&#39;"),
        ("", "empty move"),
        ("stone v1", "a stone goes on an island, and v1 is not one"),
        ("lay red3 v1-i10", "player 0&#39;s card at position 1 is stone2"),
        ("stone i10", "island i10 already holds a stone"),
    ],
)
def test_a_bad_move_is_refused_and_nothing_is_stored(
    app: Flask, client: FlaskClient, move: str, message: str
) -> None:
    page = start(client)
    play_all(client, page, [f"plan {card}" for card in (*ANN_PLAN, *BO_PLAN)] + ["stone i10"])
    before = stored(app, page)
    response = client.post(
        f"{page}/moves", data={"csrf_token": CSRF, **form_keys(client, page), "move": move}
    )
    assert response.status_code == 400 and message in response.text
    assert "Ann is to play stone2: 26 moves are legal, such as &#39;stone i1&#39;." in response.text
    assert stored(app, page) == before


def test_a_refused_plan_lists_the_legal_moves_when_few(app: Flask, client: FlaskClient) -> None:
    page = start(client)
    play_all(client, page, [f"plan {card}" for card in ANN_PLAN[:4]])
    response = client.post(
        f"{page}/moves", data={"csrf_token": CSRF, **form_keys(client, page), "move": "plan stone2"}
    )
    assert response.status_code == 400 and "player 0 has already planned stone2 this round" in response.text
    assert (
        "Ann may play: plan remove, plan move1, plan move2, plan jump, plan dragon-yellow." in response.text
    )
    assert len(stored(app, page)[0]) == 4


def test_a_stale_or_resent_form_is_refused(app: Flask, client: FlaskClient) -> None:
    page = start(client)
    keys = form_keys(client, page)
    assert (
        client.post(f"{page}/moves", data={"csrf_token": CSRF, **keys, "move": "plan jump"}).status_code
        == 303
    )
    again = client.post(f"{page}/moves", data={"csrf_token": CSRF, **keys, "move": "plan jump"})
    assert again.status_code == 409 and "The game changed since this page was drawn" in again.text
    no_key = client.post(
        f"{page}/moves", data={"csrf_token": CSRF, "seen": keys["seen"], "move": "plan move1"}
    )
    assert no_key.status_code == 400 and "no submission key" in no_key.text
    no_csrf = client.post(f"{page}/moves", data={**form_keys(client, page), "move": "plan move1"})
    assert no_csrf.status_code == 403
    assert stored(app, page)[0] == ["plan jump"]


def test_a_bad_seat_is_refused(client: FlaskClient) -> None:
    page = start(client)
    response = client.post(f"{page}/seat", data={"csrf_token": CSRF, "seat": "5"})
    assert response.status_code == 400 and "no player in seat &#39;5&#39;" in response.text


# --- take-backs ---------------------------------------------------------------------------------------------


def test_the_last_move_can_be_taken_back_and_put_back(app: Flask, client: FlaskClient) -> None:
    page = start(client)
    play_all(client, page, ["plan jump", "plan move1"])
    body = client.get(page).text
    assert "Take back: Ann planned a card" in body and "Put back" not in body
    last = undo_form_capture(body, "take-back")

    first = str(int(last) - 1)
    refused = client.post(f"{page}/take-back", data={"csrf_token": CSRF, "capture": first})
    assert refused.status_code == 409 and "Only the last move played can be taken back" in refused.text
    assert client.post(f"{page}/take-back", data={"csrf_token": CSRF, "capture": last}).status_code == 303
    body = client.get(page).text
    assert "Ann is planning: card 2 of 5." in body and "Put back: Ann planned a card" in body
    moves, events = stored(app, page)
    assert moves == ["plan jump", "plan move1"] and events[-1] == "Took back: Ann planned a card"

    assert undo_form_capture(body, "put-back") == last
    assert (
        client.post(f"{page}/take-back/undo", data={"csrf_token": CSRF, "capture": last}).status_code == 303
    )
    body = client.get(page).text
    assert "Ann is planning: card 3 of 5." in body and "Put back" not in body
    again = client.post(f"{page}/take-back/undo", data={"csrf_token": CSRF, "capture": last})
    assert again.status_code == 409 and "Only the latest take-back can be undone" in again.text


def test_a_take_back_cannot_be_undone_once_another_move_is_played(app: Flask, client: FlaskClient) -> None:
    page = start(client)
    play_all(client, page, ["plan jump"])
    taken = undo_form_capture(client.get(page).text, "take-back")
    client.post(f"{page}/take-back", data={"csrf_token": CSRF, "capture": taken})
    play_all(client, page, ["plan move2"])
    assert "Put back" not in client.get(page).text
    refused = client.post(f"{page}/take-back/undo", data={"csrf_token": CSRF, "capture": taken})
    assert refused.status_code == 409
    assert program_row(client.get(page).text, 1)[:2] == ["?", "–"]  # the shared phone sees no card
    be(client, page, "1")
    assert program_row(client.get(page).text, 1)[:2] == ["move2", "–"]


# --- the board ----------------------------------------------------------------------------------------------


def test_the_board_drawing_places_supports_stones_planks_and_pawns() -> None:
    engine = RiverDragons(2)
    state = engine.initial_state()
    drawing = board_drawing(engine, state, ["Ann", "Bo"])
    board = default_board()
    assert len(drawing.supports) == 6 + len(board.island_names)
    assert not any(s.stone for s in drawing.supports) and drawing.planks == ()
    assert [(p.name, p.x, p.y) for p in drawing.pawns] == [("Ann", 0.0, -100.0), ("Bo", 0.0, 100.0)]
    assert [(g.name, g.village, g.colour) for g in drawing.goals] == [
        ("Ann", "v4", "#c8312b"),
        ("Bo", "v1", "#f2c230"),
    ]

    for move in ("stone i10", "lay red3 v1-i10", "move v1-i10"):
        state = _resolved(engine, state, move)
    drawing = board_drawing(engine, state, ["Ann", "Bo"])
    assert [s.name for s in drawing.supports if s.stone] == ["i10"]
    [plank] = drawing.planks
    assert (plank.place, plank.x1, plank.y1, plank.x2, plank.y2) == ("v1-i10", 0.0, -100.0, 0.0, -65.0)
    assert (plank.colour, plank.length) == ("#c8312b", 3)
    assert (drawing.pawns[0].place, drawing.pawns[0].y) == ("v1-i10", -82.5)


def test_pawns_on_one_village_stand_side_by_side() -> None:
    engine = RiverDragons(2)
    state = replace(engine.initial_state(), pawns=("v4", "v4"))
    left, right = board_drawing(engine, state, ["Ann", "Bo"]).pawns
    assert left.y == right.y == 100.0 and left.x < 0 < right.x


def test_the_page_draws_stones_planks_pawns_and_goals(client: FlaskClient) -> None:
    page = start(client)
    play_all(client, page, _winning_moves()[:23])  # round 1: stones, planks and Ann's first walk
    body = client.get(page).text
    assert body.count('class="stone"') == 6 and body.count('class="goal"') == 2
    assert '<g class="plank" data-place="v1-i10">' in body and "<title>red3 on v1-i10</title>" in body
    assert "<title>Ann on i2-i10</title>" in body and "<title>Bo on v4</title>" in body
    assert "<title>yellow1 on i22-i23</title>" in body  # Bo's planks, in the west


def test_moves_are_grouped_by_what_they_do() -> None:
    engine = RiverDragons(2)
    lays = [
        Lay(plank, ends)
        for plank in engine.initial_state().reserves[0][:2]
        for ends in (("v1", "i10"), ("v1", "i11"))
    ]
    stones = [PlaceStone(f"i{n}") for n in range(1, 11)]
    groups = group_moves([*lays, *stones, Lose(lays[0].plank)])
    assert [(g.title, [o.label for o in g.options], g.as_buttons) for g in groups[:2]] == [
        ("Lay red1", ["v1-i10", "v1-i11"], True),
        ("Lay red2", ["v1-i10", "v1-i11"], True),
    ]
    assert (groups[2].title, len(groups[2].options), groups[2].as_buttons) == (
        "Put a stone on an island",
        10,
        False,
    )
    assert groups[3].options[0].notation == "lose red1"
    [cards] = group_moves(engine.legal_moves(engine.initial_state()))
    assert len(cards.options) == 9 and cards.as_buttons  # the planner taps a card, even among many


def test_a_planned_card_is_never_described() -> None:
    assert describe("Ann", Walk(("v1-i10", "i2-i10"))) == "Ann moved to v1-i10 then i2-i10"
    assert describe("Ann", RemoveStone("i5")) == "Ann took back the stone on i5"
    assert describe("Ann", RemovePlank(("i10", "v1"))) == "Ann took back the plank on v1-i10"
    assert describe("Bo", Plan("dragon-yellow")) == "Bo planned a card"


# --- a whole game -------------------------------------------------------------------------------------------


def test_a_game_played_to_a_win(app: Flask, client: FlaskClient) -> None:
    page = start(client)
    moves = _winning_moves()
    play_all(client, page, moves)
    body = client.get(page).text
    assert "<strong>Ann wins</strong>: the pawn reached its goal in round 3." in body
    assert 'class="move-group"' not in body and 'class="typed-move"' not in body
    assert "Take back: Ann moved to v4" in body
    assert stored(app, page)[1][-1] == "Ann moved to v4; Ann wins"
    over = client.post(
        f"{page}/moves", data={"csrf_token": CSRF, "submission": "k" * 20, "seen": "0", "move": "x"}
    )
    assert over.status_code == 409
    assert len(stored(app, page)[0]) == len(moves)


# Ann crosses on the east of the default board; Bo keeps to the west and never moves, so nothing blocks her.
ROUTE = ("v1", "i10", "i2", "i3", "i4", "i18", "v4")
ROUTE_PLANKS = ("red3", "red4", "red1", "red2", "red6", "red5")
PROGRAMS = {
    (0, 1): ANN_PLAN,
    (0, 2): ("stone2", "plank2", "plank1", "move2", "stone1"),
    (0, 3): ("move2", "move1", "stone1", "stone2", "plank1"),
    (1, 1): BO_PLAN,
    (1, 2): ("stone2", "stone1", "plank2", "plank1", "dragon-red"),
    (1, 3): BO_PLAN,
}
BO_STONES = ("stone i22", "stone i23", "stone i24", "stone i25")


def _winning_moves() -> list[str]:
    """A game Ann wins in round 3: she builds her route and walks it; Bo builds harmlessly in the west."""
    engine = RiverDragons(2)
    state = engine.initial_state()
    moves = []
    while state.phase is not Phase.OVER:
        move = _choice(engine, state)
        moves.append(move)
        state = engine.apply(state, engine.parse_move(move))
    assert state.winner == 0
    return moves


def _choice(engine: RiverDragons, state: State) -> str:
    player = state.mover
    if state.phase is Phase.PLAN:
        return f"plan {PROGRAMS[player, state.round][len(state.programs[player])]}"
    legal = list(engine.legal_moves(state))
    notations = [str(m) for m in legal]
    if player == 0:
        for (a, b), plank in zip(pairwise(ROUTE), ROUTE_PLANKS, strict=True):
            for wanted in (f"stone {b}", f"lay {plank} {a}-{b}", f"lay {plank} {b}-{a}"):
                if wanted in notations:
                    return wanted
        walks = [m for m in legal if isinstance(m, Walk)]
        if walks:
            return str(max(walks, key=lambda walk: _progress(walk.path[-1])))
    for move in sorted(legal, key=lambda m: str(m) not in BO_STONES):
        if isinstance(move, Lose) or _in_the_west(move):
            return str(move)
    raise AssertionError(f"no harmless move for player {player} in {notations}")


def _in_the_west(move: Move) -> bool:
    match move:
        case PlaceStone(island) | RemoveStone(island):
            supports: tuple[str, ...] = (island,)
        case Lay(_, ends) | RemovePlank(ends):
            supports = ends
        case _:
            return False
    return all(default_board().point(support)[0] < -20 for support in supports)


def _progress(place: str) -> int:
    return max(ROUTE.index(end) if end in ROUTE else -1 for end in place.split("-"))


def _resolved(engine: RiverDragons, state: State, move: str) -> State:
    """`state` with Ann's next card made to play `move` at once (a test shortcut past planning)."""
    card = {"stone": "stone1", "lay": "plank1", "move": "move1"}[move.split()[0]]
    programs = ((card, *ANN_PLAN[:4]), BO_PLAN)
    ready = replace(state, programs=programs, phase=Phase.RESOLVE, to_move=0, position=1, effects_left=1)
    return engine.apply(ready, engine.parse_move(move))


def test_an_ended_game_refuses_every_change(app: Flask, client: FlaskClient) -> None:
    page = start(client)
    keys = form_keys(client, page)
    client.post(f"{page.removesuffix('/river-dragons')}/end", data={"csrf_token": CSRF})
    refused = client.post(f"{page}/moves", data={"csrf_token": CSRF, **keys, "move": ANN_PLAN[0]})
    assert refused.status_code == 409 and "This game has ended" in refused.text
    for action in ("take-back", "take-back/undo"):
        assert client.post(f"{page}/{action}", data={"csrf_token": CSRF}).status_code == 409
    assert stored(app, page)[0] == []
