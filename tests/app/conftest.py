"""App fixtures: a fresh app on a temporary SQLite file, a client whose session holds a known CSRF token,
and helpers that start a Sagrada game the way the new-game form does (browser fixtures: browser.py)."""

from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion_app import create_app
from tests.app.browser import browser, e2e_app, server_url  # noqa: F401  (end-to-end fixtures for every test here)

CSRF = "test-csrf-token"
FINISHED_WINDOW = "r5 g2 b1 p3 b2/p4 b6 p4 b5 y6/y6 p3 g6 r1 p3/b1 y6 p3 g2 r4"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE": str(tmp_path / "store.sqlite"),
            "PHOTO_FOLDER": str(tmp_path / "photos"),
            "LIVE_POLL_SECONDS": 0.01,
            "LIVE_STREAM_SECONDS": 0.3,
        }
    )
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    client = app.test_client()
    with client.session_transaction() as session:
        session["csrf_token"] = CSRF
    return client


def sagrada_form(**overrides: Any) -> dict[str, Any]:
    form: dict[str, Any] = {
        "csrf_token": CSRF,
        "ruleset": "official",
        "name_1": "Ana",
        "colour_1": "red",
        "pattern_1": "Firelight",
        "private_1": "red",
        "name_2": "Bo",
        "colour_2": "blue",
        "pattern_2": "Sun Catcher",
        "private_2": "blue",
        "public_objective": ["Row Color Variety", "Light Shades", "Color Diagonals"],
        "tool": ["Grozing Pliers", "Lathekin", "Tap Wheel"],
    }
    form.update(overrides)
    return form


def start_game(client: FlaskClient, **overrides: Any) -> str:
    """Create a game through the form and return its page's path, /g/<token>."""
    response = client.post("/new/sagrada", data=sagrada_form(**overrides))
    assert response.status_code == 303, response.text
    return response.headers["Location"]


def submission_key(client: FlaskClient, game_path: str) -> str:
    match = re.search(r'name="submission" value="([^"]+)"', client.get(game_path).text)
    assert match is not None
    return match.group(1)


def send_window(
    client: FlaskClient, game_path: str, window: str = FINISHED_WINDOW, seat: int = 1, favor_tokens: str = ""
) -> int:
    """Send a typed capture; returns the HTTP status."""
    data = {"csrf_token": CSRF, "submission": submission_key(client, game_path), "player": str(seat)}
    data.update(window=window, favor_tokens=favor_tokens)
    return client.post(f"{game_path}/captures", data=data).status_code


def png_bytes(width: int = 64, height: int = 48) -> bytes:
    ok, encoded = cv2.imencode(".png", np.full((height, width, 3), 200, np.uint8))
    assert ok
    return encoded.tobytes()


def huge_png(width: int = 20_000, height: int = 20_000) -> bytes:
    """A genuine, valid 1-bit PNG of the given size: tiny on disk, enormous once decoded."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    row = b"\x00" * (1 + (width + 7) // 8)
    compressor = zlib.compressobj(9)
    pixels = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
