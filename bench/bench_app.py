"""Requests per second and median latency of `tablesight serve` on loopback, with concurrent phones:
posting a 12 MP photo of a Sagrada window (read by the shipped reader), and fetching a game page.
`python bench/bench_app.py [--clients 4 --requests 40]`.

The server runs as its own process (the `serve` command, waitress); each client is a thread with its own
HTTP session, as each phone has its own. Every photo gets a distinct JPEG comment so none is deduplicated.
The photo is a demo photo enlarged to 4000x3000 with sensor-like noise; the last reading is checked against
the window the demo shows.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cv2
import numpy as np
import requests

from companion_app.table import DEMO_FOLDER, demo_photo_named

SERVE = [sys.executable, "-c", "from companion_app.cli import main; main()", "serve"]


DEMO_PHOTO = "sagrada-4-bo-round5.jpg"  # Bo's Fractal Drops, player 2's pattern below
DEMO_SEAT = 2


def twelve_megapixel_jpeg(seed: int = 0) -> bytes:
    """The demo photo at 4000x3000 with sensor-like noise: about the size a phone sends."""
    rng = np.random.default_rng(seed)
    small = cv2.imread(str(DEMO_FOLDER / DEMO_PHOTO))
    if small is None:
        raise RuntimeError(f"the demo photo {DEMO_FOLDER / DEMO_PHOTO} cannot be read")
    base = cv2.resize(small, (4000, 3000), interpolation=cv2.INTER_CUBIC).astype(np.float32)
    noisy = base + rng.normal(0, 6, size=(3000, 4000, 3)).astype(np.float32)
    ok, encoded = cv2.imencode(
        ".jpg", np.clip(noisy, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 92]
    )
    if not ok:
        raise RuntimeError("OpenCV could not encode the benchmark photo")
    return encoded.tobytes()


def with_comment(jpeg: bytes) -> bytes:
    """The same picture with a random JPEG comment segment, so every upload has distinct bytes."""
    comment = secrets.token_bytes(16)
    return jpeg[:2] + b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment + jpeg[2:]


def start_server(folder: Path) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [*SERVE, "--host", "127.0.0.1", "--port", "0", "--db", str(folder / "bench.sqlite")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    for line in process.stdout:
        found = re.search(r"serving on (http://\S+)", line)
        if found:
            return process, found.group(1)
    raise RuntimeError("tablesight serve exited before printing its address")


def new_game(base: str) -> tuple[requests.Session, str, str]:
    session = requests.Session()
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', session.get(f"{base}/new/sagrada").text)
    assert csrf is not None
    form = {
        "csrf_token": csrf.group(1),
        "ruleset": "official",
        **{f"name_{s}": f"Player {s}" for s in (1, 2, 3, 4)},
        **dict(zip((f"colour_{s}" for s in (1, 2, 3, 4)), ("red", "blue", "green", "yellow"), strict=True)),
        **dict(
            zip(
                (f"pattern_{s}" for s in (1, 2, 3, 4)),
                ("Bellesguard", "Fractal Drops", "Gravitas", "Industria"),
                strict=True,
            )
        ),
        **dict(zip((f"private_{s}" for s in (1, 2, 3, 4)), ("red", "blue", "green", "yellow"), strict=True)),
        "public_objective": ["Row Color Variety", "Light Shades", "Color Diagonals"],
        "tool": ["Grozing Pliers", "Lathekin", "Tap Wheel"],
    }
    response = session.post(f"{base}/new/sagrada", data=form, allow_redirects=False)
    if response.status_code != 303:
        raise RuntimeError(f"creating the game failed with {response.status_code}")
    return session, csrf.group(1), base + response.headers["Location"]


def read_window(session: requests.Session, game: str) -> str:
    standings = session.get(f"{game}/scores.json").json()["standings"]
    return str(next(line["window"] for line in standings if line["player"] == f"Player {DEMO_SEAT}"))


def demo_window() -> str:
    demo = demo_photo_named(DEMO_PHOTO)
    if demo is None:
        raise RuntimeError(f"{DEMO_PHOTO} is not listed in {DEMO_FOLDER / 'demos.json'}")
    return demo.window


def run_clients(
    clients: int, requests_total: int, one_request: Callable[[requests.Session, int], int]
) -> None:
    """Spread the requests over `clients` threads; print requests/s and latency percentiles."""
    sessions: list[requests.Session] = []
    latencies: list[float] = []
    failures: list[int] = []
    lock = threading.Lock()
    local = threading.local()

    def task(index: int) -> None:
        if not hasattr(local, "session"):
            local.session = requests.Session()
            with lock:
                sessions.append(local.session)
        started = time.perf_counter()
        status = one_request(local.session, index)
        elapsed = time.perf_counter() - started
        with lock:
            latencies.append(elapsed)
            if status >= 400:
                failures.append(status)

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=clients) as pool:
        list(pool.map(task, range(requests_total)))
    wall = time.perf_counter() - started
    for session in sessions:
        session.close()
    latencies.sort()
    p90 = latencies[int(0.9 * (len(latencies) - 1))]
    print(
        f"  {requests_total / wall:.1f} requests/s, median {statistics.median(latencies) * 1000:.0f} ms, "
        f"p90 {p90 * 1000:.0f} ms, {len(failures)} failed"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--requests", type=int, default=40, help="photo posts; page fetches are 5x this")
    args = parser.parse_args()
    photo = twelve_megapixel_jpeg()
    with tempfile.TemporaryDirectory() as folder:
        process, base = start_server(Path(folder))
        try:
            owner, csrf, game = new_game(base)

            def post_photo(session: requests.Session, index: int) -> int:
                session.cookies.update(owner.cookies)  # the owner's session holds the CSRF token
                data = {
                    "csrf_token": csrf,
                    "submission": secrets.token_urlsafe(24),
                    "player": str(DEMO_SEAT),
                }
                files = {"photo": ("table.jpg", with_comment(photo), "image/jpeg")}
                return session.post(
                    f"{game}/captures", data=data, files=files, allow_redirects=False
                ).status_code

            def get_page(session: requests.Session, _index: int) -> int:
                return session.get(game).status_code

            print(f"server: tablesight serve at {base}; {args.clients} concurrent clients")
            print(f"POST a 12 MP photo ({len(photo) / 1e6:.1f} MB JPEG), {args.requests} requests:")
            run_clients(args.clients, args.requests, post_photo)
            print(f"GET the game page ({args.requests} captures in it), {5 * args.requests} requests:")
            run_clients(args.clients, 5 * args.requests, get_page)
            print(f"the photos read as: {read_window(owner, game)}")
            print(f"the demo's window:  {demo_window()}")
        finally:
            process.terminate()
            process.wait(timeout=10)


if __name__ == "__main__":
    main()
