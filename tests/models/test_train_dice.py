"""Training code: its targets decode back through the run-time detector, and a tiny run trains and exports
models the recognizer loads. Skipped where torch (the `train` extra) is not installed."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest

pytest.importorskip("torch")

from models.train_dice import (
    PIP_MAP_STRIDE,
    VALIDATION_SPLIT,
    TrainingScene,
    camera_blur,
    detector_targets,
    main,
    pip_map,
    reader_sample,
    real_training_scenes,
    top_face_pips,
    top_view_scene,
    training_scene,
    training_split_crops,
    varied_training_scene,
    veiling_light,
)
from vision.colors import COLOR_SETS
from vision.detect import DETECTOR_STRIDE, DetectorSettings, heatmap_peaks
from vision.evaluation import LabelledPhoto, load_labelled_photos, read_split
from vision.read import READER_INPUT_SIZE, DiceReader, crop_die
from vision.recognizer import DiceRecognizer
from vision.runbuster.mat import DIE_EDGE, Paper
from vision.runbuster.topdown import VIEW_SCALE
from vision.runbuster.zones import FACE_BOXES
from vision.sagrada.cells import READER_ZOOM, reader_cuts, space_centres
from vision.synth.mat import MatSceneConfig, render_mat_scene


def test_detector_targets_decode_to_the_same_boxes_at_run_time() -> None:
    boxes = np.array(
        [[10.0, 12.0, 40.0, 44.0], [100.0, 50.0, 130.5, 79.0], [60.0, 150.0, 70.0, 161.0]], np.float32
    )
    heat, regression = detector_targets(boxes, 192 // DETECTOR_STRIDE)
    prediction = np.concatenate([heat[None], regression[1:]]).astype(np.float32)
    found = heatmap_peaks(prediction, DetectorSettings(min_score=0.99))
    decoded = sorted(candidate.box for candidate in found)
    assert np.allclose(decoded, sorted(map(tuple, boxes.tolist())), atol=1e-3)


def test_a_tiny_training_run_exports_models_the_recognizer_loads(tmp_path: Path) -> None:
    detector, reader = tmp_path / "detector.onnx", tmp_path / "reader.onnx"
    main(
        [
            "--synthetic-scenes=2",
            "--reader-scenes=2",
            "--detector-steps=2",
            "--reader-steps=2",
            f"--detector={detector}",
            f"--reader={reader}",
            "--skip-validation",
        ]
    )
    recognizer = DiceRecognizer(detector_model=detector, reader_model=reader)
    observation = recognizer.recognize_pixels(np.full((64, 96, 3), 200, np.uint8))
    assert observation.width == 96 and observation.height == 64


def test_a_wider_reader_exports_more_weights_and_still_reads_crops(tmp_path: Path) -> None:
    def reader_of_width(width: float) -> Path:
        reader = tmp_path / f"reader-{width}.onnx"
        tiny = ["--synthetic-scenes=2", "--reader-scenes=2", "--reader-steps=2", "--skip-validation"]
        main([*tiny, "--reader-only", f"--reader-width={width}", f"--reader={reader}"])
        return reader

    base, wider = reader_of_width(1.0), reader_of_width(1.5)
    assert wider.stat().st_size > 1.8 * base.stat().st_size
    crops = [np.full((READER_INPUT_SIZE, READER_INPUT_SIZE, 3), 120, np.uint8)] * 3
    readings = DiceReader(model=wider).read_crops(crops, COLOR_SETS["all"])
    assert len(readings) == 3


def test_the_reader_input_size_is_the_exported_crop_side(tmp_path: Path) -> None:
    reader = tmp_path / "reader.onnx"
    tiny = ["--synthetic-scenes=2", "--reader-scenes=2", "--reader-steps=2", "--skip-validation"]
    main([*tiny, "--reader-only", "--reader-input-size=40", f"--reader={reader}"])
    small = DiceReader(model=reader)
    assert small.input_size == 40
    assert len(small.read_crops([np.full((40, 40, 3), 120, np.uint8)], COLOR_SETS["all"])) == 1


def test_a_reader_trained_under_bfloat16_exports_a_float32_graph_and_rebuilds_byte_for_byte(
    tmp_path: Path,
) -> None:
    def reader_trained(name: str, *options: str) -> Path:
        reader = tmp_path / name
        tiny = ["--synthetic-scenes=2", "--reader-scenes=2", "--reader-steps=3", "--skip-validation"]
        main([*tiny, "--reader-only", "--seed=7", f"--reader={reader}", *options])
        return reader

    mixed = reader_trained("mixed.onnx", "--reader-bfloat16")
    assert reader_trained("again.onnx", "--reader-bfloat16").read_bytes() == mixed.read_bytes()
    assert reader_trained("plain.onnx", "--no-reader-bfloat16").read_bytes() != mixed.read_bytes()
    import onnx  # the train extra's exporter, there wherever torch is

    (pixels,) = onnx.load(str(mixed)).graph.input
    assert pixels.type.tensor_type.elem_type == onnx.TensorProto.FLOAT
    crops = [np.full((READER_INPUT_SIZE, READER_INPUT_SIZE, 3), 120, np.uint8)] * 2
    readings = DiceReader(model=mixed).read_crops(crops, COLOR_SETS["all"])
    assert len(readings) == 2
    assert all(0.0 <= reading.die_probability <= 1.0 for reading in readings)


def test_detector_only_leaves_the_reader_file_alone(tmp_path: Path) -> None:
    detector, reader = tmp_path / "detector.onnx", tmp_path / "reader.onnx"
    reader.write_bytes(b"the shipped reader")
    main(
        [
            "--synthetic-scenes=2",
            "--detector-steps=2",
            "--detector-only",
            f"--detector={detector}",
            f"--reader={reader}",
            "--skip-validation",
        ]
    )
    assert detector.stat().st_size > 0
    assert reader.read_bytes() == b"the shipped reader"


def test_top_face_pips_follow_the_face_corners() -> None:
    face = np.array([[100, 100], [140, 100], [140, 140], [100, 140]], np.float32)
    assert top_face_pips(face, 1) == ((120.0, 120.0),)
    five = np.array(top_face_pips(face, 5))
    assert len(five) == 5 and five.min() == pytest.approx(110.0) and five.max() == pytest.approx(130.0)


PIPS = [(90.0, 95.0), (112.0, 104.0)]


def scene_with_pips(half: int) -> TrainingScene:
    """A dark table with two bright square pips (2 * `half` + 1 px) at `PIPS` and no labelled die."""
    image = np.full((200, 200, 3), 60, np.uint8)
    for x, y in PIPS:
        image[round(y) - half : round(y) + half + 1, round(x) - half : round(x) + half + 1] = 250
    return training_scene(image, ())


def test_reader_samples_carry_their_pips_through_the_crop_and_its_quarter_turns() -> None:
    scene = scene_with_pips(2)
    rng = np.random.default_rng(7)
    for _ in range(12):
        crop, points = reader_sample(scene, (80.0, 80.0, 120.0, 120.0), 48, rng, PIPS)
        assert points.shape == (2, 2)
        for x, y in points:
            assert crop[round(y), round(x)].mean() > 150, (x, y)
        peaks = pip_map(points, 48)
        assert peaks.shape == (48 // PIP_MAP_STRIDE,) * 2 and 0.5 < peaks.max() <= 1.0


def test_a_reader_crops_colour_cast_stays_within_the_plans_range() -> None:
    """On a coloured table with nothing neutral the white balance leaves the cast in place, so the crop's
    channel ratios move by the cast alone: within a narrow range's bounds, beyond them with the wide one."""
    image = np.zeros((200, 200, 3), np.uint8)
    image[:] = (40, 110, 200)
    scene = training_scene(image, ())

    def green_to_red_shifts(cast_range: tuple[float, float]) -> list[float]:
        rng = np.random.default_rng(11)
        shifts = []
        for _ in range(40):
            crop, _points = reader_sample(scene, (80.0, 80.0, 120.0, 120.0), 48, rng, cast_range=cast_range)
            _blue, green, red = crop.reshape(-1, 3).astype(np.float32).mean(axis=0)
            shifts.append(float(green / red) / (110 / 200))
        return shifts

    narrow = green_to_red_shifts((0.9, 1.1))
    assert min(narrow) > 0.9 / 1.1 - 0.03 and max(narrow) < 1.1 / 0.9 + 0.03
    wide = green_to_red_shifts((0.75, 1.3))
    assert min(wide) < 0.9 / 1.1 - 0.03 or max(wide) > 1.1 / 0.9 + 0.03


def test_the_seed_decides_the_reader_a_run_exports(tmp_path: Path) -> None:
    """Same seed, same file byte for byte (the retrain command rebuilds what ships); another seed, another."""

    def reader_from(seed: int, name: str) -> bytes:
        reader = tmp_path / name
        tiny = ["--synthetic-scenes=2", "--reader-scenes=2", "--reader-steps=2", "--skip-validation"]
        main([*tiny, "--reader-only", f"--seed={seed}", f"--reader={reader}"])
        return reader.read_bytes()

    first = reader_from(7, "first.onnx")
    assert reader_from(7, "again.onnx") == first
    assert reader_from(8, "other.onnx") != first


def test_sagrada_flat_view_dice_are_cut_as_the_space_reader_cuts_them() -> None:
    scene = varied_training_scene("sagrada flat view", np.random.default_rng(11))
    assert scene.cut_as_read and scene.dice
    centres = space_centres(READER_ZOOM)
    unit = np.ones(3, np.float32)
    for die in scene.dice:
        x0, y0, x1, y1 = die.box
        space = int(np.argmin(np.linalg.norm(centres - ((x0 + x1) / 2, (y0 + y1) / 2), axis=1)))
        (run_time,) = reader_cuts(scene.image, np.arange(len(centres)) == space, 48)
        trained = crop_die(scene.image, die.box, unit, 48)
        assert np.abs(trained.astype(int) - run_time.astype(int)).mean() < 4
        pips = np.array(die.pips)
        assert np.all((pips >= (x0, y0)) & (pips <= (x1, y1)))


def test_run_buster_top_view_dice_are_boxed_round_their_top_faces() -> None:
    scene = varied_training_scene("run buster top view", np.random.default_rng(12))
    assert scene.cut_as_read and scene.dice
    face_side = DIE_EDGE / Paper.A3.scale * VIEW_SCALE
    for die in scene.dice:
        x0, y0, x1, y1 = die.box
        assert min(abs((x1 - x0) / face_side - share) for share in FACE_BOXES) < 1e-6
        pips = np.array(die.pips)
        assert np.all((pips >= (x0, y0)) & (pips <= (x1, y1)))
        assert np.linalg.norm(pips.mean(axis=0) - ((x0 + x1) / 2, (y0 + y1) / 2)) < 0.15 * face_side


def test_a_run_buster_top_view_where_no_die_shows_holds_no_dice() -> None:
    config = MatSceneConfig()
    photo = render_mat_scene(config, np.random.default_rng(12)).image
    scene = top_view_scene(photo, [], config.paper, np.random.default_rng(0))
    assert scene.cut_as_read and scene.dice == ()


def test_real_dice_laid_on_tables_come_only_from_photos_outside_the_validation_split() -> None:
    crops = training_split_crops()
    photos = {crop.source.split("#")[0] for crop in crops}
    assert len(photos) >= 60 and not photos & set(read_split(VALIDATION_SPLIT))
    scene = varied_training_scene("real dice on a table", np.random.default_rng(4))
    assert scene.dice and all(die.readable and not die.pips for die in scene.dice)


def test_a_training_photo_with_a_die_its_labels_leave_out_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    def with_one_left_out(folder: Path, names: list[str]) -> list[LabelledPhoto]:
        first, *rest = load_labelled_photos(folder, names)
        return [replace(first, unlabelled=((1.0, 1.0, 20.0, 20.0),)), *rest]

    assert len(real_training_scenes()) == 70
    monkeypatch.setattr("models.train_dice.load_labelled_photos", with_one_left_out)
    with pytest.raises(ValueError, match="leave out"):
        real_training_scenes()


def sharpness(image: npt.NDArray[np.uint8]) -> float:
    return float(cv2.Laplacian(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.CV_32F).var())


def test_camera_blur_softens_in_proportion_to_the_die() -> None:
    image = np.full((96, 96, 3), 60, np.uint8)
    image[40:56, 40:56] = 240
    rng = np.random.default_rng(3)
    small = [sharpness(camera_blur(image, 10.0, rng)) for _ in range(20)]
    large = [sharpness(camera_blur(image, 60.0, rng)) for _ in range(20)]
    assert max(small) < sharpness(image) and np.median(large) < np.median(small)
    blurred = camera_blur(image, 40.0, rng)
    assert blurred.shape == image.shape and blurred.dtype == np.uint8
    assert abs(float(blurred.mean()) - float(image.mean())) < 2  # light is spread, not lost


SAMPLED_BOX = (80.0, 80.0, 120.0, 120.0)


@pytest.mark.parametrize("option", ["blur", "veil"])
def test_a_reader_sample_option_left_at_zero_draws_nothing(option: str) -> None:
    scene = scene_with_pips(3)
    plain = reader_sample(scene, SAMPLED_BOX, 48, np.random.default_rng(5), PIPS)
    off = reader_sample(scene, SAMPLED_BOX, 48, np.random.default_rng(5), PIPS, **{option: 0.0})
    assert np.array_equal(plain[0], off[0])  # the shipped runs' streams are unchanged


def test_blurred_reader_samples_keep_their_pips() -> None:
    scene = scene_with_pips(3)
    plain, _ = reader_sample(scene, SAMPLED_BOX, 48, np.random.default_rng(5), PIPS)
    crop, points = reader_sample(scene, SAMPLED_BOX, 48, np.random.default_rng(5), PIPS, blur=1.0)
    assert sharpness(crop) < sharpness(plain)
    for x, y in points:
        assert crop[round(y), round(x)].mean() > 90, (x, y)


def test_veiling_light_fades_colours_and_lifts_blacks() -> None:
    image = np.zeros((32, 32, 3), np.uint8)
    image[:, :16] = (30, 30, 200)  # a red die's face beside a black pip
    rng = np.random.default_rng(4)
    for _ in range(20):
        veiled = veiling_light(image, rng).astype(int)
        assert veiled.shape == image.shape
        assert veiled[0, 20].min() >= 6  # black lifted by the thinnest veil at least (5% of 0.5 x 255)
        red, blue = veiled[0, 0, 2], veiled[0, 0, 0]
        assert 0 < red - blue < 170  # still red, less so


def test_veiled_reader_samples_lose_contrast() -> None:
    scene = scene_with_pips(3)
    contrast = [
        [
            float(
                reader_sample(scene, SAMPLED_BOX, 48, np.random.default_rng(seed), PIPS, veil=veil)[0].std()
            )
            for seed in range(12)
        ]
        for veil in (0.0, 1.0)
    ]
    assert np.median(contrast[1]) < np.median(contrast[0])
