"""One game at the table, reached only through its secret link: the live page, captures, corrections, end.

Every route takes the game's token from the URL; a token no game holds is a 404, so a link is the only
key to a game. State changes answer with a redirect back to the game page (post/redirect/get).
"""

from __future__ import annotations

import io
import json
import secrets
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import qrcode
import qrcode.image.svg
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from flask.blueprints import BlueprintSetupState
from werkzeug.wrappers import Response as BaseResponse

from companion_app import history, sagrada_table
from companion_app.history import Game, Player
from companion_app.home import game_kind
from companion_app.pages import (
    capture_of,
    join_url,
    kept_drawing,
    load_game,
    owner_of,
    player_in_seat,
    refuse_if_ended,
    remember_seat,
    remembered_seat,
    sent_photo,
    submission_key,
    undo_last_fix,
)
from companion_app.photos import keep_photo, preview_name
from companion_app.sagrada_photos import PlayerWindowReader, SagradaPhotoReader
from engine.sagrada.window import Color, find_pattern
from vision.decode import DecodedImage
from vision.errors import VisionError

bp = Blueprint("table", __name__, url_prefix="/g/<token>")

DEMO_FOLDER = Path(__file__).parent / "demo" / "sagrada"


@bp.record_once
def _plug_in_reader(state: BlueprintSetupState) -> None:
    """Read Sagrada photos with the shipped window reader unless the app was given another reader."""
    state.app.config["PHOTO_READERS"].setdefault(sagrada_table.KIND, SagradaPhotoReader())


@dataclass(frozen=True)
class DemoPhoto:
    """A rendered photo shipped with the app, so a new user sees the whole flow with no camera: the window
    it shows is listed in the demo folder's demos.json, where the tests check the reader still reads it."""

    file: str
    pattern: str
    window: str
    caption: str


@cache
def demo_photos() -> tuple[DemoPhoto, ...]:
    manifest = DEMO_FOLDER / "demos.json"
    if not manifest.is_file():
        return ()
    return tuple(DemoPhoto(**photo) for photo in json.loads(manifest.read_text(encoding="utf-8")))


def demo_photo_named(name: str) -> DemoPhoto | None:
    return next((demo for demo in demo_photos() if demo.file == name), None)


def load_sagrada_game(token: str) -> Game:
    """The Sagrada game this link opens; a link to another game's table is a 404 on Sagrada's pages."""
    game = load_game(token)
    if game.kind != sagrada_table.KIND:
        abort(404, description=f"This link opens a {game_kind(game.kind).title} game, not a Sagrada one.")
    return game


def page_context(game: Game) -> dict[str, object]:
    """What the game page and its live panel show."""
    players = history.players(game)
    captures = history.captures(game)
    windows = sagrada_table.player_windows(game.setup, players, captures)
    return {
        "game": game,
        "players": players,
        "windows": windows,
        "solo": sagrada_table.solo_result(windows, captures),
        "ended": history.has_ended(game),
        "last_event_id": history.last_event_id(game),
        "recent_events": history.events_after(game, 0)[-8:][::-1],
        "die_colors": tuple(Color),
    }


@bp.get("/demo/<name>")
def demo_photo(token: str, name: str) -> BaseResponse:
    load_game(token)
    if demo_photo_named(name) is None:
        abort(404, description=f"There is no Sagrada demo photo called {name!r}.")
    return send_from_directory(DEMO_FOLDER, name, max_age=86400)


@bp.get("")
def game(token: str) -> str | BaseResponse:
    """Every game's join link: a Sagrada game's page here, any other game's on its own page."""
    game = load_game(token)
    kind = game_kind(game.kind)
    if kind.page != "table.game":
        return redirect(url_for(kind.page, token=token))
    return render_template(
        "game.html",
        join_url=join_url(game),
        submission=secrets.token_urlsafe(24),
        my_seat=remembered_seat(token),
        demos=demo_photos(),
        **page_context(game),
    )


@bp.get("/panel")
def panel(token: str) -> str:
    """The live part of the game page alone, fetched again whenever the game changes."""
    return render_template("_panel.html", **page_context(load_sagrada_game(token)))


@bp.get("/qr.svg")
def join_qr(token: str) -> Response:
    game = load_game(token)
    image = qrcode.make(join_url(game), image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    buffer = io.BytesIO()
    image.save(buffer)
    return Response(buffer.getvalue(), mimetype="image/svg+xml")


@bp.get("/hints")
def hints(token: str) -> dict[str, object]:
    """Every empty space of a player's window where a die from the draft pool may go now."""
    game = load_sagrada_game(token)
    player = player_in_seat(game, request.args.get("seat", ""))
    try:
        die = sagrada_table.pool_die(request.args.get("color", ""), request.args.get("value", ""))
    except sagrada_table.ReadingError as error:
        abort(400, description=f"No hint for that die: {error}.")
    [view] = sagrada_table.player_windows(game.setup, [player], history.captures(game))
    return {"die": str(die), "cells": sagrada_table.legal_spaces(view.window, view.pattern, die)}


@bp.post("/captures")
def add_capture(token: str) -> BaseResponse:
    """A photo (uploaded or a demo), a typed window, or both, for one player's window; a resent form is
    stored only once."""
    game = load_sagrada_game(token)
    refuse_if_ended(game)
    player = player_in_seat(game, request.form.get("player", ""))
    submission = submission_key()
    typed = request.form.get("window", "").strip()
    sent = sent_photo(DEMO_FOLDER, {demo.file for demo in demo_photos()})
    if sent is None and not typed:
        abort(400, description="Choose a photo or type the window, then send again.")
    if typed:
        try:
            reading = sagrada_table.typed_reading(typed, request.form.get("favor_tokens", ""))
        except sagrada_table.ReadingError as error:
            abort(400, description=f"The typed window could not be read: {error}.")
    try:
        target = sagrada_table.round_track_total(request.form.get("round_track", ""))
    except sagrada_table.ReadingError as error:
        abort(400, description=f"The solo target could not be read: {error}.")
    photo = None
    if sent is not None:
        decoded = sent.decoded()
        if not typed:
            reading = read_photo(player, decoded)
        name = keep_photo(sent.data, decoded, Path(current_app.config["PHOTO_FOLDER"]))
        photo = (name, decoded.stored_width, decoded.stored_height)
    if target is not None and len(history.players(game)) == 1:
        reading["round_track_total"] = target
    if sent is None:
        summary = f"{player.name} sent a typed window"
    else:
        sent_what = f"the demo photo {sent.name}" if sent.demo else "a photo"
        summary = f"{player.name} sent {sent_what}{' and its window' if typed else ''}"
    history.add_capture(game, player, submission, reading, summary, photo)
    remember_seat(token, player.seat)
    return redirect(url_for("table.game", token=token, _anchor=f"seat-{player.seat}"), code=303)


def read_photo(player: Player, decoded: DecodedImage) -> dict[str, Any]:
    """What the photo shows of `player`'s window, with the annotated photo kept beside it, or an unread
    reading that says why; the photo itself is kept either way."""
    read = _read(player, decoded)
    if isinstance(read, str):
        return _unread(f"The photo is kept, but {read}: type or tap in the window.")
    return _with_drawing(*read)


def read_photo_on_mat(player: Player, decoded: DecodedImage) -> dict[str, Any] | None:
    """What the photo shows of `player`'s window when it lies on their seat's printed mat, else None: the
    table camera watching every mat sends nothing for a player whose mat it does not see."""
    read = _read(player, decoded)
    if isinstance(read, str) or read[1].get("mat") != player.seat:
        return None
    return _with_drawing(*read)


def _read(player: Player, decoded: DecodedImage) -> tuple[dict[str, Any], dict[str, Any]] | str:
    """The checked reading of `player`'s window and the reader's answer it came from, or why there is none."""
    try:
        answer = _answer(player, decoded)
        return sagrada_table.photo_reading(answer), answer
    except (VisionError, sagrada_table.ReadingError) as error:
        return f"it could not be read ({error})"
    except Exception:
        # A fault inside the recognition models (an onnxruntime error, say) must not lose the upload: the
        # photo is kept, the players type or tap the window, and the server log has the traceback.
        current_app.logger.exception("the Sagrada photo reader failed")
        return "the photo reader failed on it"


def _answer(player: Player, decoded: DecodedImage) -> dict[str, Any]:
    """The plugged-in photo reader's answer for `player`'s window."""
    reader: PlayerWindowReader = current_app.config["PHOTO_READERS"][sagrada_table.KIND]
    return reader(decoded, find_pattern(player.setup["pattern"]), player.seat)


def _with_drawing(reading: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
    """`reading` with the reader's annotated photo kept beside it, when it drew one."""
    annotated = answer.get("annotated")
    kept = kept_drawing(annotated) if annotated is not None else None
    if kept is not None:
        reading["annotated"] = kept
    return reading


def _unread(message: str) -> dict[str, Any]:
    return {"source": "photo", "window": None, "favor_tokens": None, "message": message}


@bp.get("/captures/<int:capture_id>/photo")
def capture_photo(token: str, capture_id: int) -> BaseResponse:
    """The photo as it was sent."""
    return _send_photo(token, capture_id, preview=False)


@bp.get("/captures/<int:capture_id>/preview")
def capture_preview(token: str, capture_id: int) -> BaseResponse:
    """A small JPEG of the photo, for phones to show without loading megabytes."""
    return _send_photo(token, capture_id, preview=True)


@bp.get("/captures/<int:capture_id>/annotated")
def capture_annotated(token: str, capture_id: int) -> BaseResponse:
    """The photo as read: each die's reading written on it, the rules it breaks outlined in red."""
    capture = capture_of(load_game(token), capture_id)
    annotated = capture.reading.get("annotated")
    if not annotated:
        abort(404, description=f"Capture {capture_id} has no annotated photo: nothing was read from it.")
    return send_from_directory(current_app.config["PHOTO_FOLDER"], str(annotated), max_age=86400)


def _send_photo(token: str, capture_id: int, preview: bool) -> BaseResponse:
    capture = capture_of(load_game(token), capture_id)
    if capture.photo_file is None:
        abort(404, description=f"Capture {capture_id} was typed, so it has no photo.")
    name = preview_name(capture.photo_file) if preview else capture.photo_file
    return send_from_directory(current_app.config["PHOTO_FOLDER"], name, max_age=86400)


@bp.post("/captures/<int:capture_id>/corrections")
def correct(token: str, capture_id: int) -> BaseResponse:
    game = load_sagrada_game(token)
    refuse_if_ended(game)
    capture = capture_of(game, capture_id)
    try:
        cell, die = sagrada_table.checked_correction(
            request.form.get("cell", ""),
            request.form.get("color", ""),
            request.form.get("value", ""),
            absent="absent" in request.form,
        )
    except sagrada_table.ReadingError as error:
        abort(400, description=f"The correction could not be used: {error}.")
    owner = owner_of(game, capture)
    summary = f"{owner.name}: {cell} set to {sagrada_table.describe_die(die)}"
    history.add_correction(game, capture.id, cell, die, summary)
    return redirect(url_for("table.game", token=token, _anchor=f"seat-{owner.seat}"), code=303)


@bp.post("/captures/<int:capture_id>/undo")
def undo(token: str, capture_id: int) -> BaseResponse:
    game = load_sagrada_game(token)
    refuse_if_ended(game)
    capture = capture_of(game, capture_id)
    owner = owner_of(game, capture)

    def summary(undone: history.Correction) -> str:
        return f"{owner.name}: undid {undone.cell} set to {sagrada_table.describe_die(undone.die)}"

    undo_last_fix(game, capture, summary)
    return redirect(url_for("table.game", token=token, _anchor=f"seat-{owner.seat}"), code=303)


@bp.post("/end")
def end(token: str) -> BaseResponse:
    """End any game for every phone; a Sagrada game then shows its score sheet, another game its page."""
    game = load_game(token)
    history.end_game(game)
    after = "results.score_sheet" if game.kind == sagrada_table.KIND else "table.game"
    return redirect(url_for(after, token=token), code=303)
