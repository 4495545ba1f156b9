"""The game's history in the store: games, players, captures, corrections and events, appended, never changed.

Every write adds rows in one transaction together with the event that announces it, so the live feed and
the timeline can never miss or repeat a change.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from companion_app.db import get_db, write

TOKEN_BYTES = 24


class HistoryError(ValueError):
    """A request named a capture or correction this game does not hold, or one already taken back."""


@dataclass(frozen=True)
class Game:
    id: int
    token: str
    kind: str
    setup: dict[str, Any]
    created_at: str


@dataclass(frozen=True)
class Player:
    id: int
    seat: int
    name: str
    colour: str
    setup: dict[str, Any]


@dataclass(frozen=True)
class NewPlayer:
    name: str
    colour: str
    setup: dict[str, Any]


@dataclass(frozen=True)
class Correction:
    id: int
    cell: str
    die: str | None  # None marks the space empty
    created_at: str


@dataclass(frozen=True)
class Capture:
    id: int
    player_id: int
    photo_file: str | None
    photo_width: int | None
    photo_height: int | None
    reading: dict[str, Any]
    created_at: str
    corrections: tuple[Correction, ...]  # the ones still in force, oldest first

    def corrected_cells(self) -> dict[str, str | None]:
        """Each corrected space and the die the players say lies there now (the latest correction wins)."""
        return {c.cell: c.die for c in self.corrections}


@dataclass(frozen=True)
class Event:
    id: int
    kind: str
    subject_id: int | None
    summary: str
    created_at: str


def create_game(kind: str, setup: dict[str, Any], players: Sequence[NewPlayer]) -> Game:
    token = secrets.token_urlsafe(TOKEN_BYTES)
    with write() as db:
        game_id = db.execute(
            "INSERT INTO games (token, kind, setup) VALUES (?, ?, ?)", (token, kind, json.dumps(setup))
        ).lastrowid
        for seat, player in enumerate(players, start=1):
            db.execute(
                "INSERT INTO players (game_id, seat, name, colour, setup) VALUES (?, ?, ?, ?, ?)",
                (game_id, seat, player.name, player.colour, json.dumps(player.setup)),
            )
        names = ", ".join(p.name for p in players)
        _add_event(db, _require_id(game_id), "created", None, f"Game started with {names}")
    game = game_by_token(token)
    assert game is not None
    return game


def game_by_token(token: str) -> Game | None:
    row = get_db().execute("SELECT * FROM games WHERE token = ?", (token,)).fetchone()
    if row is None:
        return None
    return Game(row["id"], row["token"], row["kind"], json.loads(row["setup"]), row["created_at"])


def players(game: Game) -> list[Player]:
    rows = get_db().execute("SELECT * FROM players WHERE game_id = ? ORDER BY seat", (game.id,))
    return [Player(r["id"], r["seat"], r["name"], r["colour"], json.loads(r["setup"])) for r in rows]


def add_capture(
    game: Game,
    player: Player,
    submission: str,
    reading: dict[str, Any],
    summary: str,
    photo: tuple[str, int, int] | None = None,
) -> tuple[int, bool]:
    """Store a capture once per form submission: (its id, whether this call added it)."""
    photo_file, width, height = photo if photo is not None else (None, None, None)
    with write() as db:
        existing = db.execute(
            "SELECT id FROM captures WHERE game_id = ? AND submission = ?", (game.id, submission)
        ).fetchone()
        if existing is not None:
            return int(existing["id"]), False
        capture_id = _require_id(
            db.execute(
                "INSERT INTO captures (game_id, player_id, submission, photo_file, photo_width, photo_height,"
                " reading) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game.id, player.id, submission, photo_file, width, height, json.dumps(reading)),
            ).lastrowid
        )
        _add_event(db, game.id, "capture", capture_id, summary)
    return capture_id, True


def captures(game: Game) -> list[Capture]:
    """Every capture of the game, oldest first, each with the corrections still in force."""
    db = get_db()
    rows = db.execute("SELECT * FROM captures WHERE game_id = ? ORDER BY id", (game.id,)).fetchall()
    in_force = _corrections_in_force(db, game.id)
    return [
        Capture(
            id=r["id"],
            player_id=r["player_id"],
            photo_file=r["photo_file"],
            photo_width=r["photo_width"],
            photo_height=r["photo_height"],
            reading=json.loads(r["reading"]),
            created_at=r["created_at"],
            corrections=tuple(in_force.get(r["id"], ())),
        )
        for r in rows
    ]


def capture(game: Game, capture_id: int) -> Capture:
    for found in captures(game):
        if found.id == capture_id:
            return found
    raise HistoryError(f"this game has no capture {capture_id}")


def add_correction(game: Game, capture_id: int, cell: str, die: str | None, summary: str) -> int:
    with write() as db:
        _require_capture(db, game, capture_id)
        correction_id = _require_id(
            db.execute(
                "INSERT INTO corrections (capture_id, cell, die) VALUES (?, ?, ?)", (capture_id, cell, die)
            ).lastrowid
        )
        _add_event(db, game.id, "correction", capture_id, summary)
    return correction_id


def undo_last_correction(game: Game, capture_id: int, summarise: Callable[[Correction], str]) -> Correction:
    """Take back the newest correction of a capture still in force, by adding a row that reverts it."""
    with write() as db:
        _require_capture(db, game, capture_id)
        in_force = _corrections_in_force(db, game.id).get(capture_id, [])
        if not in_force:
            raise HistoryError(f"capture {capture_id} has no correction left to undo")
        last = in_force[-1]
        db.execute("INSERT INTO corrections (capture_id, reverts) VALUES (?, ?)", (capture_id, last.id))
        _add_event(db, game.id, "undo", capture_id, summarise(last))
    return last


def end_game(game: Game) -> None:
    with write() as db:
        if not _has_ended(db, game):
            _add_event(db, game.id, "ended", None, "Game ended")


def has_ended(game: Game) -> bool:
    return _has_ended(get_db(), game)


def events_after(game: Game, after_id: int) -> list[Event]:
    rows = get_db().execute(
        "SELECT * FROM events WHERE game_id = ? AND id > ? ORDER BY id", (game.id, after_id)
    )
    return [Event(r["id"], r["kind"], r["subject_id"], r["summary"], r["created_at"]) for r in rows]


def last_event_id(game: Game) -> int:
    row = get_db().execute("SELECT MAX(id) FROM events WHERE game_id = ?", (game.id,)).fetchone()
    return int(row[0] or 0)


def _has_ended(db: sqlite3.Connection, game: Game) -> bool:
    found = db.execute("SELECT 1 FROM events WHERE game_id = ? AND kind = 'ended'", (game.id,)).fetchone()
    return found is not None


def _require_capture(db: sqlite3.Connection, game: Game, capture_id: int) -> None:
    found = db.execute(
        "SELECT 1 FROM captures WHERE id = ? AND game_id = ?", (capture_id, game.id)
    ).fetchone()
    if found is None:
        raise HistoryError(f"this game has no capture {capture_id}")


def _corrections_in_force(db: sqlite3.Connection, game_id: int) -> dict[int, list[Correction]]:
    """Per capture, its corrections that no later row has reverted, oldest first."""
    rows = db.execute(
        "SELECT c.* FROM corrections c JOIN captures k ON k.id = c.capture_id"
        " WHERE k.game_id = ? ORDER BY c.id",
        (game_id,),
    ).fetchall()
    reverted = {r["reverts"] for r in rows if r["reverts"] is not None}
    in_force: dict[int, list[Correction]] = {}
    for r in rows:
        if r["reverts"] is None and r["id"] not in reverted:
            correction = Correction(r["id"], r["cell"], r["die"], r["created_at"])
            in_force.setdefault(r["capture_id"], []).append(correction)
    return in_force


def _add_event(db: sqlite3.Connection, game_id: int, kind: str, subject_id: int | None, summary: str) -> None:
    db.execute(
        "INSERT INTO events (game_id, kind, subject_id, summary) VALUES (?, ?, ?, ?)",
        (game_id, kind, subject_id, summary),
    )


def _require_id(row_id: int | None) -> int:
    if row_id is None:
        raise sqlite3.DatabaseError("INSERT returned no row id")
    return row_id
