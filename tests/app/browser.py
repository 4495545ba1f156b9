"""What the end-to-end tests share: a real waitress server in a thread and Debian's headless Chromium.

tests/app/conftest.py makes the fixtures available to every app test; test modules mark themselves with
`needs_chromium`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, ViewportSize, sync_playwright
from waitress.server import BaseWSGIServer

from companion_app import create_app
from companion_app.commands.serve import make_server

CHROMIUM = Path("/usr/bin/chromium")
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"
)
PHONE: ViewportSize = {"width": 390, "height": 844}
WAIT_MS = 5_000


@pytest.fixture(scope="module")
def e2e_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    """The app the module's server runs: a test may plug in its own photo reader for a while."""
    folder = tmp_path_factory.mktemp("e2e")
    return create_app(
        {
            "SECRET_KEY": "e2e",
            "DATABASE": str(folder / "store.sqlite"),
            "PHOTO_FOLDER": str(folder / "photos"),
            "LIVE_STREAM_SECONDS": 20.0,
        }
    )


@pytest.fixture(scope="module")
def server_url(e2e_app: Flask) -> Iterator[str]:
    server = make_server(e2e_app, "127.0.0.1", 0, threads=16)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.socket.getsockname()[1]}"
    stop_serving(server)


def stop_serving(server: BaseWSGIServer) -> None:
    """Close a server that runs in another thread from inside its own loop: closed from this thread, its
    sockets can vanish under the loop's select(), which then fails in the server's thread (EBADF)."""
    server.trigger.pull_trigger(server.close)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--use-fake-device-for-media-stream",  # a test pattern stands in for the phone camera
                "--use-fake-ui-for-media-stream",
            ],
        )
        yield browser
        browser.close()
