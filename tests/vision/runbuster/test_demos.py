"""The demo photos shipped with the companion show the mat and the tables their names promise."""

from __future__ import annotations

from pathlib import Path

import cv2

from vision.runbuster.locate import locate_mat
from vision.runbuster.position import TableDice, read_turn
from vision.synth.mat import DEMO_TABLES

DEMO_FOLDER = Path(__file__).parents[3] / "companion_app" / "demo" / "runbuster"


def test_every_demo_photo_shows_the_whole_mat() -> None:
    assert sorted(p.name for p in DEMO_FOLDER.glob("*.jpg")) == sorted(DEMO_TABLES)
    for name in DEMO_TABLES:
        image = cv2.imread(str(DEMO_FOLDER / name))
        assert image is not None and image.shape == (960, 1280, 3)
        assert len(locate_mat(image).markers) == 6


def test_the_demo_tables_are_the_rule_texts_examples() -> None:
    said = {name: read_turn(TableDice.from_zones(table)).sentences for name, table in DEMO_TABLES.items()}
    assert said["runbuster-2-extend.jpg"] == ("Red must extend: 3-4-5 or 3-4-5-6 or 4-5-6",)
    assert said["runbuster-3-bust.jpg"][0] == (
        "Blue's roll 1,5,6,6 busts Red's 2-3-4: Red's hand goes back to the cup"
    )
    assert said["runbuster-4-win.jpg"] == ("Blue completes 1-6 and wins",)
