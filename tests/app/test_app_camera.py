"""The table camera: one picture per still scene, sent as a capture of the window it is aimed at."""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Iterator
from dataclasses import replace

import numpy as np
import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from companion_app.camera import Aim, CameraUnavailable, Frame, StillDetector, TableCamera, attach
from companion_app.commands.serve import serve
from tests.app.conftest import CSRF, start_game
from vision.synth.sagrada import SagradaConfig, render_window_scene

STEP_S = 0.1  # the fake camera's frame interval


def moving(count: int, seed: int = 0) -> list[Frame]:
    rng = np.random.default_rng(seed)
    return [rng.integers(0, 256, size=(120, 160, 3), dtype=np.uint8) for _ in range(count)]


def still(count: int, level: int = 90) -> list[Frame]:
    scene = np.full((120, 160, 3), level, np.uint8)
    scene[40:80, 60:100] = (30, 30, 200)  # a red die on the table
    noise = np.random.default_rng(1)
    return [
        np.clip(scene + noise.integers(-2, 3, scene.shape), 0, 255).astype(np.uint8) for _ in range(count)
    ]


def fake_clock() -> Iterator[float]:
    return (i * STEP_S for i in itertools.count())


def takes(frames: list[Frame], detector: StillDetector) -> list[int]:
    clock = fake_clock()
    return [i for i, frame in enumerate(frames) if detector.look(frame, next(clock))]


def test_one_picture_per_still_scene_after_the_table_settles() -> None:
    detector = StillDetector(still_seconds=1.0)
    frames = moving(5) + still(30) + moving(5, seed=2) + still(30, level=120)
    taken = takes(frames, detector)
    assert len(taken) == 2
    first, second = taken
    assert 5 + 9 <= first <= 5 + 11  # about a second of stillness after the hand left
    assert 40 + 9 <= second <= 40 + 11


def test_a_table_that_never_settles_gives_no_picture() -> None:
    assert takes(moving(60), StillDetector(still_seconds=1.0)) == []


def camera_for(app: Flask, frames: list[Frame]) -> TableCamera:
    def source() -> Iterator[Frame]:
        yield from frames

    clock = fake_clock()
    return TableCamera(app, source, StillDetector(still_seconds=1.0), clock=lambda: next(clock))


def captures(app: Flask) -> list[tuple[int, str | None]]:
    with sqlite3.connect(app.config["DATABASE"]) as db:
        return db.execute("SELECT player_id, photo_file FROM captures ORDER BY id").fetchall()


def test_the_camera_sends_still_scenes_to_the_window_it_is_aimed_at(app: Flask, client: FlaskClient) -> None:
    game = start_game(client)
    camera = camera_for(app, moving(3) + still(20))
    camera.aim_at(Aim(game.removeprefix("/g/"), 2))
    camera.watch()
    [(player_id, photo_file)] = captures(app)
    assert player_id == 2 and photo_file is not None
    page = client.get(game).text
    assert "The table camera sent a photo of Bo&#39;s window" in page
    assert "no Sagrada window was found in the photo" in page


def test_the_camera_aimed_at_every_mat_sends_each_player_their_own_window(
    app: Flask, client: FlaskClient
) -> None:
    """An overhead view of two cards on the window mats of seats 1 and 2: one photo, a capture for each."""
    config = SagradaConfig(windows=(2, 2), window_px=(150.0, 190.0), mat_probability=1.0)
    config = replace(config, scene=replace(config.scene, width=1280, height=960, motion_blur_probability=0.0))
    table = render_window_scene(config, np.random.default_rng(9102)).image
    game = start_game(client)
    camera = camera_for(app, [np.roll(table, shift, axis=1) for shift in (0, 40, 80)] + [table] * 20)
    camera.aim_at(Aim(game.removeprefix("/g/"), None))
    camera.watch()
    taken = captures(app)
    assert [player for player, _ in taken] == [1, 2] and taken[0][1] == taken[1][1] is not None
    page = client.get(game).text
    assert "Read the window on mat 1" in page and "Read the window on mat 2" in page


def test_the_camera_aimed_at_every_mat_sends_nothing_without_one(app: Flask, client: FlaskClient) -> None:
    game = start_game(client)
    camera = camera_for(app, moving(3) + still(20))
    camera.aim_at(Aim(game.removeprefix("/g/"), None))
    camera.watch()
    assert captures(app) == [] and camera.aim is not None


def test_an_unaimed_camera_sends_nothing(app: Flask, client: FlaskClient) -> None:
    start_game(client)
    camera_for(app, moving(3) + still(20)).watch()
    assert captures(app) == []


def test_an_ended_game_takes_no_more_pictures_and_frees_the_camera(app: Flask, client: FlaskClient) -> None:
    game = start_game(client)
    client.post(f"{game}/end", data={"csrf_token": CSRF})
    camera = camera_for(app, moving(3) + still(20))
    camera.aim_at(Aim(game.removeprefix("/g/"), 1))
    camera.watch()
    assert captures(app) == []
    assert camera.aim is None


def test_a_camera_that_stops_says_why_on_the_game_page(app: Flask, client: FlaskClient) -> None:
    def broken() -> Iterator[Frame]:
        yield from still(2)
        raise CameraUnavailable("camera 0 stopped giving frames")

    camera = TableCamera(app, broken)
    attach(app, camera)
    camera.watch()
    game = start_game(client)
    assert "camera 0 stopped giving frames" in client.get(game).text


def test_players_aim_the_camera_from_the_game_page(app: Flask, client: FlaskClient) -> None:
    game = start_game(client)
    assert "Table camera" not in client.get(game).text
    assert client.post(f"{game}/camera", data={"csrf_token": CSRF, "seat": "1"}).status_code == 404
    camera = camera_for(app, [])
    attach(app, camera)
    assert "Table camera" in client.get(game).text
    assert client.post(f"{game}/camera", data={"csrf_token": CSRF, "seat": "2"}).status_code == 303
    assert camera.aim == Aim(game.removeprefix("/g/"), 2)
    assert "the camera sends a photo of Bo's window" in client.get(game).text
    assert client.post(f"{game}/camera", data={"csrf_token": CSRF, "seat": "mats"}).status_code == 303
    assert camera.aim == Aim(game.removeprefix("/g/"), None)
    assert "the camera sends each player whose card lies on their printed window mat" in client.get(game).text
    assert client.post(f"{game}/camera", data={"csrf_token": CSRF, "stop": "1"}).status_code == 303
    assert camera.aim is None


@pytest.mark.parametrize(
    ("form", "status"),
    [({"csrf_token": CSRF, "seat": "9"}, 400), ({"csrf_token": CSRF}, 400), ({"seat": "1"}, 403)],
)
def test_aiming_at_no_player_or_without_csrf_is_refused(
    app: Flask, client: FlaskClient, form: dict[str, str], status: int
) -> None:
    game = start_game(client)
    camera = camera_for(app, [])
    attach(app, camera)
    assert client.post(f"{game}/camera", data=form).status_code == status
    assert camera.aim is None
    assert client.post("/g/forged/camera", data={"csrf_token": CSRF, "seat": "1"}).status_code == 404


def test_serve_refuses_a_camera_it_cannot_open() -> None:
    result = CliRunner().invoke(serve, ["--port", "0", "--camera", "97"])
    assert result.exit_code == 2
    assert "--camera 97: camera 97 could not be opened" in result.output
