"""What every game's page does alike: open its game by the secret link, find a capture or a seat, check a
form's one-time key, remember which player a phone is, and take the photo sent (an upload or a bundled
demo) within the app's limits. Each answers a bad request with the page's error and a message that says
what to do, so no page writes these checks again."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from flask import abort, current_app, request, send_from_directory, session, url_for
from werkzeug.wrappers import Response

from companion_app import history
from companion_app.history import Capture, Correction, Game, HistoryError, Player
from companion_app.photos import PhotoRejected, decode_photo, keep_drawn
from vision.decode import BGRImage, DecodedImage, DecodeLimits

MAX_NAME_LENGTH = 40
Seat = TypeVar("Seat", int, str)  # a seat's number, or its side's name (Run Buster's "red" and "blue")

SUBMISSION_KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")
SEATS_KEY = "seats"  # session: game token -> the seat this phone last acted for
REMEMBERED_GAMES = 8


class SeatingError(ValueError):
    """A new-game form's players break what every game asks of them; the message says what to change."""


def seated_names(form: Mapping[str, str], seats: Iterable[Seat]) -> list[tuple[Seat, str]]:
    """(seat, name) for each seat whose `name_<seat>` field holds a name (spaces squeezed), in seat order;
    blank seats are skipped. SeatingError for a name too long or two names alike."""
    seated: list[tuple[Seat, str]] = []
    for seat in seats:
        name = " ".join(form.get(f"name_{seat}", "").split())
        if not name:
            continue
        if len(name) > MAX_NAME_LENGTH:
            raise SeatingError(f"player {seat}: a name is at most {MAX_NAME_LENGTH} characters")
        seated.append((seat, name))
    folded = [name.casefold() for _, name in seated]
    if len(set(folded)) != len(folded):
        raise SeatingError("two players have the same name; give each a different one")
    return seated


def load_game(token: str) -> Game:
    """The game this link opens, or a 404 page that says the link is wrong."""
    game = history.game_by_token(token)
    if game is None:
        abort(
            404, description="No game has this link. Check the whole link was copied, or scan the QR again."
        )
    return game


def join_url(game: Game) -> str:
    """The link a phone at the table opens: on the LAN address when the server knows it."""
    public: str | None = current_app.config.get("PUBLIC_URL")
    if not public:
        return url_for("table.game", token=game.token, _external=True)
    return public.rstrip("/") + url_for("table.game", token=game.token)


def load_game_of_kind(token: str, kind: str, title: str) -> Game:
    """The game this link opens when it is a `kind` game; a link to another game is a 404 on this page."""
    game = load_game(token)
    if game.kind != kind:
        abort(404, description=f"This is not a {title} game; open it from its own link.")
    return game


def submission_key() -> str:
    """The form's one-time key, which lets the store keep a resent form once."""
    submission = request.form.get("submission", "")
    if not SUBMISSION_KEY.fullmatch(submission):
        abort(400, description="The form has no submission key. Reload the game page and send again.")
    return submission


def refuse_if_ended(game: Game) -> None:
    """A 409 for any change to a game that has ended: its history stays as it was when it ended."""
    if history.has_ended(game):
        abort(409, description="This game has ended; its history can be viewed but no longer changed.")


def capture_of(game: Game, capture_id: int) -> Capture:
    try:
        return history.capture(game, capture_id)
    except HistoryError as error:
        abort(404, description=f"{str(error).capitalize()}.")


def player_in_seat(game: Game, seat: str) -> Player:
    for player in history.players(game):
        if str(player.seat) == seat:
            return player
    abort(400, description=f"This game has no player in seat {seat!r}. Pick a player from the list.")


def owner_of(game: Game, capture: Capture) -> Player:
    return next(p for p in history.players(game) if p.id == capture.player_id)


def remember_seat(token: str, seat: int) -> None:
    """This phone's player in this game, so the next form starts on them (a few games kept)."""
    seats = {t: s for t, s in session.get(SEATS_KEY, {}).items() if t != token}
    session[SEATS_KEY] = dict(list(seats.items())[-(REMEMBERED_GAMES - 1) :]) | {token: seat}


def forget_seat(token: str) -> None:
    """This phone is nobody's in this game any more (the table's shared phone)."""
    session[SEATS_KEY] = {t: s for t, s in session.get(SEATS_KEY, {}).items() if t != token}


def remembered_seat(token: str) -> int | None:
    """The seat this phone last acted for in this game, if any."""
    seat = session.get(SEATS_KEY, {}).get(token)
    return seat if isinstance(seat, int) else None


@dataclass(frozen=True)
class SentPhoto:
    """A photo's bytes as sent, and whether it is one of the app's demo photos."""

    data: bytes
    name: str
    demo: bool

    @property
    def label(self) -> str:
        """How an error or the game's feed names it."""
        return f"the {'demo ' if self.demo else ''}photo {self.name!r}"

    def decoded(self, target_long_side: int = DecodeLimits.target_long_side) -> DecodedImage:
        """Its pixels within the app's byte and pixel limits, at least `target_long_side` long where the
        photo is (what the game's reader needs), or a 400 that says what is wrong."""
        config = current_app.config
        limits = config["MAX_CONTENT_LENGTH"], config["MAX_IMAGE_PIXELS"]
        try:
            return decode_photo(self.data, *limits, target_long_side)
        except PhotoRejected as error:
            abort(400, description=f"{self.label.capitalize()} was not accepted: {error}.")


def sent_photo(demo_folder: Path, demos: Collection[str]) -> SentPhoto | None:
    """The demo photo whose button was pressed, else the upload, else None (nothing was chosen)."""
    demo = request.form.get("demo", "")
    if demo:
        if demo not in demos:
            abort(400, description=f"There is no demo photo called {demo!r}.")
        return SentPhoto((demo_folder / demo).read_bytes(), demo, demo=True)
    upload = request.files.get("photo")
    if upload is not None and upload.filename:
        return SentPhoto(upload.read(), upload.filename, demo=False)
    return None


def demo_files(folder: Path) -> list[str]:
    """The demo photos shipped in `folder`, by file name."""
    return sorted(p.name for p in folder.glob("*.jpg")) if folder.is_dir() else []


def send_demo(folder: Path, name: str) -> Response:
    """One of the demo photos in `folder`, for the page's demo list; any other name is a 404."""
    if name not in demo_files(folder):
        abort(404, description=f"There is no demo photo called {name!r}.")
    return send_from_directory(folder, name, max_age=86400)


def undo_last_fix(game: Game, capture: Capture, summarise: Callable[[Correction], str]) -> None:
    """Take back the capture's latest fix still in force, or a 409 when it has none."""
    try:
        history.undo_last_correction(game, capture.id, summarise)
    except HistoryError as error:
        abort(409, description=f"Nothing to undo: {error}.")


def kept_drawing(pixels: BGRImage) -> str | None:
    """A picture the server drew (a photo annotated with what was read), kept beside the photos: its file
    name, or None when it could not be kept (the reading stands without it; the log says why)."""
    try:
        return keep_drawn(pixels, Path(current_app.config["PHOTO_FOLDER"]))
    except OSError:
        current_app.logger.exception("the annotated photo could not be kept")
        return None
