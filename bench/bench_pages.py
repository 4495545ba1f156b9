"""Median latency of the Cubist and River Dragons pages as a game grows, through Flask's test client (no
network: what the page itself costs). `python3 bench/bench_pages.py [--rounds 12 --players 4 --seed 1]`.

River Dragons keeps only the moves and replays them on every request, so the figures that matter are the
game page and a move's post after many rounds: the game is played with random legal moves (seeded) through
the page's own move form. Cubist: a page holding a workroom capture per player, and a demo photo sent and
read by the shipped models.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from flask.testing import FlaskClient

from companion_app import create_app
from companion_app.cubist_page import demo_photos

CSRF = "bench-csrf-token"
NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")


def client_for(folder: Path) -> FlaskClient:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "DATABASE": str(folder / "store.sqlite"),
            "PHOTO_FOLDER": str(folder),
        }
    )
    client = app.test_client()
    with client.session_transaction() as session:
        session["csrf_token"] = CSRF
    return client


def median_ms(action: Callable[[], object], times: int) -> float:
    samples = []
    for _ in range(times):
        started = time.perf_counter()
        action()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def form_fields(body: str) -> dict[str, str]:
    submission = re.search(r'name="submission" value="([^"]+)"', body)
    seen = re.search(r'name="seen" value="(\d+)"', body)
    if submission is None or seen is None:
        raise RuntimeError("the River Dragons page offers no move form")
    return {"csrf_token": CSRF, "submission": submission[1], "seen": seen[1]}


def river_dragons(client: FlaskClient, players: int, rounds: int, rng: random.Random) -> None:
    form = {"csrf_token": CSRF} | {f"name_{seat + 1}": NAMES[seat] for seat in range(players)}
    page = client.post("/new/river-dragons", data=form).headers["Location"]
    moves = 0
    post_ms: list[float] = []
    for round_number in range(1, rounds + 1):
        while True:
            body = client.get(page).text
            if f"Round {round_number} " not in body or 'class="card winner"' in body:
                break
            options = re.findall(r'name="move" value="([^"]+)"', body)
            for listed in re.findall(r'<select name="move">(.*?)</select>', body, re.S):
                options += re.findall(r'<option value="([^"]+)"', listed)
            if not options:
                break
            started = time.perf_counter()
            response = client.post(f"{page}/moves", data=form_fields(body) | {"move": rng.choice(options)})
            post_ms.append((time.perf_counter() - started) * 1000)
            if response.status_code != 303:
                raise RuntimeError(f"a legal move was refused: {response.text[:200]}")
            moves += 1
        page_ms = median_ms(lambda: client.get(page), 10)
        panel_ms = median_ms(lambda: client.get(f"{page}/panel"), 10)
        recent = statistics.median(post_ms[-20:]) if post_ms else float("nan")
        print(
            f"river dragons, {players} players, after round {round_number:2d} ({moves:4d} moves): "
            f"page {page_ms:6.1f} ms, panel {panel_ms:6.1f} ms, a move posted {recent:6.1f} ms"
        )
        if 'class="card winner"' in client.get(page).text:
            print("  the game was won")
            return


def cubist(client: FlaskClient) -> None:
    form = {"csrf_token": CSRF, "name_1": "Ann", "colour_1": "blue", "name_2": "Bo", "colour_2": "orange"}
    page = client.post("/new/cubist", data=form).headers["Location"]
    sent_ms = []
    for number, demo in enumerate(demo_photos() * 2):
        body = client.get(page).text
        submission = re.search(r'name="submission" value="([^"]+)"', body)
        assert submission is not None
        data = {"csrf_token": CSRF, "submission": submission[1], "seat": str(1 + number % 2), "demo": demo}
        started = time.perf_counter()
        if client.post(f"{page}/captures", data=data).status_code != 303:
            raise RuntimeError(f"the demo photo {demo} was refused")
        sent_ms.append((time.perf_counter() - started) * 1000)
    page_ms = median_ms(lambda: client.get(page), 10)
    print(
        f"cubist: a demo photo sent and read {statistics.median(sent_ms[1:]):.0f} ms (median of "
        f"{len(sent_ms) - 1}, after the first loads the models: {sent_ms[0]:.0f} ms); "
        f"page with {len(sent_ms)} workrooms {page_ms:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        client = client_for(Path(folder))
        with client.application.app_context():
            river_dragons(client, args.players, args.rounds, random.Random(args.seed))
            cubist(client)


if __name__ == "__main__":
    main()
