"""`tablesight detect`: JSON lines in stored-image pixels, colour sets, annotation files, and bad inputs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import cv2
from click.testing import CliRunner

from companion_app.cli import main
from vision.colors import COLOR_SETS
from vision.evaluation import LabelledDie, load_labelled_photos
from vision.observation import box_centre

REAL_PHOTOS = Path(__file__).resolve().parents[1] / "data" / "dice_real"
PHOTO_NAME = "IMG_20191208_111304.jpg"
PHOTO = REAL_PHOTOS / "images" / PHOTO_NAME


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["detect", *args])
    return result.exit_code, result.stdout, result.stderr


def labelled_dice() -> tuple[LabelledDie, ...]:
    return load_labelled_photos(REAL_PHOTOS, [PHOTO_NAME])[0].dice


def nearest_distance(record: dict[str, Any], x: float, y: float) -> float:
    return min(((d["x"] - x) ** 2 + (d["y"] - y) ** 2) ** 0.5 for d in record["dice"])


def test_json_gives_the_dice_at_their_labelled_places() -> None:
    code, out, _ = run(str(PHOTO), "--json")
    assert code == 0
    record = json.loads(out)
    assert record["image"] == str(PHOTO)
    assert (record["width"], record["height"]) == (640, 640)
    assert {"decode", "detect", "read", "total"} <= set(record["timings_ms"])
    truth = labelled_dice()
    placed = right_value = 0
    for die in truth:
        cx, cy = box_centre(die.box)
        nearest = min(record["dice"], key=lambda d: (d["x"] - cx) ** 2 + (d["y"] - cy) ** 2)
        placed += nearest_distance(record, cx, cy) < 8
        right_value += nearest["value"] == die.value
    assert placed >= 0.95 * len(truth) and right_value >= 0.8 * len(truth)
    for die in record["dice"]:
        assert 1 <= die["value"] <= 6 and die["w"] > 0 and die["h"] > 0
        assert 0 <= die["value_confidence"] <= 1 and 0 <= die["color_confidence"] <= 1


def test_coordinates_are_in_stored_pixels_for_a_rotated_photo(tmp_path: Path) -> None:
    """A photo turned 90 degrees in its pixels (not by EXIF) is read in those pixels."""
    rotated = tmp_path / "rotated.jpg"
    cv2.imwrite(str(rotated), cv2.rotate(cv2.imread(str(PHOTO)), cv2.ROTATE_90_CLOCKWISE))
    _, out, _ = run(str(rotated), "--json")
    record = json.loads(out)
    truth = labelled_dice()
    placed = 0
    for die in truth:
        cx, cy = box_centre(die.box)
        placed += nearest_distance(record, 639 - cy, cx) < 8
    assert placed >= 0.95 * len(truth)


def test_colour_set_restricts_the_colours_reported() -> None:
    _, out, _ = run(str(PHOTO), "--json", "--colors", "sagrada")
    colors = {die["color"] for die in json.loads(out)["dice"]}
    assert colors <= {*COLOR_SETS["sagrada"], "other"}


def test_text_output_names_the_image_and_counts_the_dice() -> None:
    code, out, _ = run(str(PHOTO))
    assert code == 0
    assert re.fullmatch(rf"{re.escape(str(PHOTO))}: 640x640, \d+ dice", out.splitlines()[0])
    assert len(out.splitlines()) == 1 + int(out.splitlines()[0].split(", ")[1].split()[0])


def test_bad_files_get_a_one_line_error_and_the_others_are_still_read(tmp_path: Path) -> None:
    not_an_image = tmp_path / "notes.jpg"
    not_an_image.write_text("shopping list")
    missing = tmp_path / "missing.png"
    code, out, err = run(str(not_an_image), str(PHOTO), str(missing), "--json")
    assert code == 1
    assert [json.loads(line)["image"] for line in out.splitlines()] == [str(PHOTO)]
    errors = err.strip().splitlines()
    assert len(errors) == 2
    assert errors[0].startswith(f"error: {not_an_image}: not a JPEG, PNG, WebP or BMP image")
    assert errors[1].startswith(f"error: {missing}: cannot read the file")


def test_annotate_writes_one_file_per_image(tmp_path: Path) -> None:
    single = tmp_path / "single.png"
    assert run(str(PHOTO), "--annotate", str(single))[0] == 0
    assert cv2.imread(str(single)).shape == (640, 640, 3)
    several = tmp_path / "out.png"
    second = REAL_PHOTOS / "images" / "IMG_20191208_112426.jpg"
    assert run(str(PHOTO), str(second), "--annotate", str(several))[0] == 0
    written = sorted(p.name for p in tmp_path.glob("out-*.png"))
    assert written == ["out-1-IMG_20191208_111304.png", "out-2-IMG_20191208_112426.png"]
