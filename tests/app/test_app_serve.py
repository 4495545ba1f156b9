"""`tablesight serve`: its command line, the address it prints, and freeing a departed phone's thread."""

from __future__ import annotations

import ipaddress
import re
import subprocess
import sys
import threading
import time
import traceback
import types
import urllib.request
from pathlib import Path

from click.testing import CliRunner
from flask import Flask

from companion_app import live
from companion_app.cli import main
from companion_app.commands.serve import lan_address, make_server, terminal_qr
from tests.app.browser import stop_serving
from tests.app.conftest import start_game

REPO = Path(__file__).resolve().parents[2]


def test_serve_help_lists_its_options() -> None:
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--db", "--threads"):
        assert option in result.output


def test_the_lan_address_is_an_ip_address() -> None:
    assert ipaddress.ip_address(lan_address()).version == 4


def test_terminal_qr_is_drawn_in_text() -> None:
    drawing = terminal_qr("http://192.168.1.20:8000")
    assert len(drawing.splitlines()) > 10
    assert set(drawing) <= set("█▀▄\xa0\n")


def test_serve_prints_its_address_and_serves_the_store_it_was_given(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite"
    command = [sys.executable, "-c", "from companion_app.cli import main; main()", "serve"]
    server = subprocess.Popen(
        [*command, "--host", "127.0.0.1", "--port", "0", "--db", str(database)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert server.stdout is not None
        first_line = server.stdout.readline()
        found = re.search(r"serving on (http://127\.0\.0\.1:\d+)", first_line)
        assert found, first_line
        with urllib.request.urlopen(found.group(1), timeout=10) as response:
            assert response.status == 200
            assert b"Start a game" in response.read()
        assert database.exists()
    finally:
        server.terminate()
        server.wait(timeout=10)


def streams_running(game_path: str) -> int:
    """How many server threads are inside a live stream of this game right now."""
    stream_code = next(
        c for c in live.events.__code__.co_consts if isinstance(c, types.CodeType) and c.co_name == "stream"
    )
    token = game_path.removeprefix("/g/")
    return sum(
        frame.f_code is stream_code and getattr(frame.f_locals.get("game"), "token", None) == token
        for top in sys._current_frames().values()
        for frame, _ in traceback.walk_stack(top)
    )


def settles_at(game_path: str, count: int, samples: int = 10, limit_s: float = 10.0) -> bool:
    """Whether the number of live streams of the game reaches `count` and stays there for `samples`
    looks in a row (a stream's frame is briefly off the stack while waitress sends what it yielded)."""
    deadline, streak = time.monotonic() + limit_s, 0
    while streak < samples and time.monotonic() < deadline:
        streak = streak + 1 if streams_running(game_path) == count else 0
        time.sleep(0.02)
    return streak == samples


def test_a_phone_that_leaves_frees_its_server_thread(app: Flask) -> None:
    app.config["LIVE_STREAM_SECONDS"] = 60.0
    client = app.test_client()
    with client.session_transaction() as session:
        session["csrf_token"] = "test-csrf-token"
    game = start_game(client)
    server = make_server(app, "127.0.0.1", 0, threads=4)
    threading.Thread(target=server.run, daemon=True).start()
    try:
        port = server.socket.getsockname()[1]
        phone = urllib.request.urlopen(f"http://127.0.0.1:{port}{game}/events", timeout=10)
        assert phone.readline().startswith(b"retry:")
        assert settles_at(game, 1)
        phone.close()
        assert settles_at(game, 0)
    finally:
        stop_serving(server)
