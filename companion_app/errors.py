"""Error pages: every failure gets a page that says what went wrong in words, never a stack trace."""

from __future__ import annotations

from flask import Flask, current_app, render_template
from werkzeug.exceptions import HTTPException, InternalServerError

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
        message = "The server hit a problem and nothing was changed by it. Try again in a moment."
    else:
        message = error.description or ""
    return render_template("error.html", code=code, title=TITLES.get(code, error.name), message=message), code


def render_server_error(_error: InternalServerError) -> tuple[str, int]:
    return render_error(InternalServerError())


def _upload_limit_mb() -> int:
    return int(current_app.config["MAX_CONTENT_LENGTH"] // (1024 * 1024))


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, render_error)
    app.register_error_handler(InternalServerError, render_server_error)
