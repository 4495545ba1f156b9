"""The web companion: phones at the table join a game by its link, send photos, fix readings, see scores.

`create_app` is the application factory (as in Flask's tutorial): configuration, the SQLite store, CSRF
protection, error pages and one blueprint per area.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from flask import Flask, Response


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True)
    instance = Path(app.instance_path)
    app.config.from_mapping(
        DATABASE=str(instance / "tablesight.sqlite"),
        PHOTO_FOLDER=str(instance / "photos"),
        MAX_CONTENT_LENGTH=25 * 1024 * 1024,
        MAX_IMAGE_PIXELS=50_000_000,
        PHOTO_READERS={},  # game key -> function from a decoded photo to that game's reading
        PUBLIC_URL=None,  # the LAN address phones reach the server by, for join links and QR codes
        LIVE_POLL_SECONDS=0.2,
        LIVE_STREAM_SECONDS=300.0,
        LIVE_HEARTBEAT_SECONDS=15.0,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(instance)
    Path(app.config["PHOTO_FOLDER"]).mkdir(parents=True, exist_ok=True)

    from companion_app import (
        camera,
        csrf,
        cubist_page,
        db,
        errors,
        home,
        live,
        results,
        riverdragons_page,
        runbuster_page,
        table,
    )

    db.init_app(app)
    csrf.init_app(app)
    errors.init_app(app)
    app.register_blueprint(home.bp)
    app.register_blueprint(table.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(results.bp)
    app.register_blueprint(runbuster_page.bp)
    app.register_blueprint(riverdragons_page.bp)
    app.register_blueprint(cubist_page.bp)
    app.register_blueprint(camera.bp)
    app.after_request(_protect_response)
    return app


# Pages load only their own scripts, styles and images; no other site may frame them; and a game's secret
# link never leaves in a Referer header.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


def _protect_response(response: Response) -> Response:
    for header, value in SECURITY_HEADERS.items():
        response.headers.setdefault(header, value)
    return response


def _instance_secret(instance: Path) -> str:
    """The session-signing key, kept in the instance folder so a restart does not log every phone out."""
    path = instance / "secret_key"
    if not path.exists():
        instance.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32), encoding="utf-8")
        path.chmod(0o600)
    return path.read_text(encoding="utf-8").strip()
