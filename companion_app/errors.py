"""Error pages: every failure gets a page that says what went wrong in words, never a stack trace."""

from __future__ import annotations

import sqlite3

from flask import Flask, current_app, render_template, request, url_for
from werkzeug.exceptions import HTTPException, InternalServerError

from companion_app import history

TITLES = {
    400: "That request could not be used",
    403: "Not allowed",
    404: "Nothing here",
    405: "Not allowed this way",
    409: "Too late for that",
    413: "That upload is too large",
    500: "Something went wrong on the server",
}


def render_error(error: HTTPException) -> tuple[str, int]:
    code = error.code or 500
    if code == 413:
        limit_mb = _upload_limit_mb()
        message = f"Uploads are limited to {limit_mb} MB. Send a smaller photo."
    elif code == 500:
        message = "The server hit a problem with this request. Try again in a moment."
    else:
        message = error.description or ""
    title = TITLES.get(code, error.name)
    return render_template("error.html", code=code, title=title, message=message, back_url=_game_url()), code


def render_server_error(_error: InternalServerError) -> tuple[str, int]:
    return render_error(InternalServerError())


def _game_url() -> str | None:
    """The game page to go back to, when the failed request belongs to a game that exists."""
    token = (request.view_args or {}).get("token")
    if not isinstance(token, str) or _is_unknown_game(token):
        return None
    return url_for("table.game", token=token)


def _is_unknown_game(token: str) -> bool:
    try:
        return history.game_by_token(token) is None
    except sqlite3.Error:
        return True


def _upload_limit_mb() -> int:
    return int(current_app.config["MAX_CONTENT_LENGTH"] // (1024 * 1024))


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, render_error)
    app.register_error_handler(InternalServerError, render_server_error)
