"""Synthetic photos of the Run Buster mat: the printed sheet on a table, dice in its zones, exactly labelled.

The sheet is drawn by `vision.runbuster.printable` and laid flat on the table; the camera looks at it from
either player's side, tilted and turned a little, close enough that the whole sheet is in view. Dice stand
wholly inside their zones at random places and turns. The table, light, shadows, dice and photo effects are
the dice scene's (`vision.synth.scene`), so a seed reproduces a photo exactly.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from vision.runbuster.mat import DIE_EDGE, MAT_HEIGHT, MAT_WIDTH, ZONE_KEYS, ZONES, Paper, Side, Zone
from vision.runbuster.printable import draw_mat
from vision.synth.camera import Camera, look_at_table
from vision.synth.demos import demo_main, write_jpeg
from vision.synth.dice import die_box, die_rotation
from vision.synth.scene import (
    Placed,
    RenderedDie,
    SceneConfig,
    SceneConfigError,
    cast_shadows,
    draw_objects,
    fits,
    lay_print,
    paint_table,
    photograph,
    sample_die_look,
    sample_lighting,
)

FloatArray = NDArray[np.float64]
Image = NDArray[np.float32]


@dataclass(frozen=True)
class MatSceneConfig:
    """What a rendered mat photo may contain; `scene` supplies the image size, table, camera tilt, die looks
    and photo effects (its dice counts, die sizes and distractors are not used). By default no photo is
    shaken: a smeared photo of the mat is one the players retake, and `locate_mat` says so."""

    scene: SceneConfig = field(
        default_factory=lambda: SceneConfig(
            width=1280, height=960, max_tilt_deg=35.0, jpeg_quality=(60, 95), motion_blur_probability=0.0
        )
    )
    paper: Paper = Paper.A3
    mat_share: tuple[float, float] = (0.6, 0.92)
    """The sheet's width as a share of the image width, before the tilt foreshortens it."""
    dice_per_zone: tuple[int, int] = (0, 6)
    view_jitter_deg: float = 15.0
    """How far the camera strays from straight across the table, seen from above, and turns the image."""
    white_dice_probability: float = 0.3
    """Per scene: both players play white dice (the single-colour variant) instead of red and blue."""

    def __post_init__(self) -> None:
        low, high = self.mat_share
        if not 0.2 <= low <= high <= 1.0:
            raise SceneConfigError(f"mat_share must be a range within 0.2-1, got {self.mat_share}")
        low_dice, high_dice = self.dice_per_zone
        if not 0 <= low_dice <= high_dice <= 6:
            raise SceneConfigError(f"dice_per_zone must be a range within 0-6, got {self.dice_per_zone}")
        if not 0 <= self.white_dice_probability <= 1:
            raise SceneConfigError(
                f"white_dice_probability must be within 0-1, got {self.white_dice_probability}"
            )


@dataclass(frozen=True)
class MatDie:
    """A die's label: its zone, where its footprint's centre lies on the mat (mat units), and the die as
    the dice scene labels it (image pixels)."""

    zone: str
    mat_point: tuple[float, float]
    die: RenderedDie


@dataclass(frozen=True)
class MatScene:
    image: NDArray[np.uint8]
    dice: tuple[MatDie, ...]
    mat_corners: NDArray[np.float32]
    """The sheet's corners in the image: top-left, top-right, bottom-right, bottom-left as printed."""

    def values(self, zone_key: str) -> tuple[int, ...]:
        """The values of the dice in one zone, sorted."""
        return tuple(sorted(d.die.value for d in self.dice if d.zone == zone_key))


@dataclass(frozen=True)
class _Sheet:
    """Mat units to world units (die edges): the sheet lies centred on the origin, printed top towards +y."""

    units_per_die: float

    def to_world(self, points: FloatArray) -> FloatArray:
        x = (points[:, 0] - MAT_WIDTH / 2) / self.units_per_die
        y = (MAT_HEIGHT / 2 - points[:, 1]) / self.units_per_die
        return np.column_stack((x, y))

    def to_mat(self, world: FloatArray) -> FloatArray:
        return np.column_stack(
            (
                world[:, 0] * self.units_per_die + MAT_WIDTH / 2,
                MAT_HEIGHT / 2 - world[:, 1] * self.units_per_die,
            )
        )

    @property
    def corners(self) -> FloatArray:
        return self.to_world(np.array([[0, 0], [MAT_WIDTH, 0], [MAT_WIDTH, MAT_HEIGHT], [0, MAT_HEIGHT]]))

    @property
    def mat_to_world(self) -> FloatArray:
        """`to_world` as a homography of (x, y, 1)."""
        unit = self.units_per_die
        return np.array(
            [[1 / unit, 0, -MAT_WIDTH / 2 / unit], [0, -1 / unit, MAT_HEIGHT / 2 / unit], [0, 0, 1]],
            np.float64,
        )


def _camera(config: MatSceneConfig, sheet: _Sheet, rng: np.random.Generator) -> Camera:
    """A phone held by one of the players, the whole sheet in view."""
    scene = config.scene
    corners = np.column_stack((sheet.corners, np.zeros(4)))
    share = rng.uniform(*config.mat_share)
    side = float(rng.integers(2)) * 180.0
    sheet_width = MAT_WIDTH / sheet.units_per_die
    camera = None
    for _attempt in range(60):
        distance = rng.uniform(28.0, 70.0)
        camera = look_at_table(
            width=scene.width,
            height=scene.height,
            focal=share * scene.width * distance / sheet_width,
            tilt_deg=rng.uniform(0.0, scene.max_tilt_deg),
            azimuth_deg=side + rng.normal(0.0, config.view_jitter_deg / 2),
            roll_deg=rng.uniform(-config.view_jitter_deg, config.view_jitter_deg) / 2,
            distance=distance,
            principal_offset=tuple(rng.normal(0, 0.01, 2) * np.array([scene.width, scene.height])),
        )
        pixels = camera.project(corners)
        inside = (pixels.min(axis=0) >= 4).all() and (pixels < [scene.width - 4, scene.height - 4]).all()
        if inside:
            return camera
        share *= 0.95
    assert camera is not None
    return camera


@cache
def _printed(px_per_unit: float) -> NDArray[np.float32]:
    return draw_mat(px_per_unit).astype(np.float32) * np.float32(1 / 255)


def random_contents(config: MatSceneConfig, rng: np.random.Generator) -> dict[str, tuple[int, ...]]:
    """Random values in every zone, any number within `dice_per_zone` (not necessarily a legal position)."""
    low, high = config.dice_per_zone
    return {
        key: tuple(int(v) for v in rng.integers(1, 7, int(rng.integers(low, high + 1)))) for key in ZONE_KEYS
    }


def _place_in_zone(
    zone: Zone,
    values: Sequence[int],
    sheet: _Sheet,
    camera: Camera,
    placed: list[Placed],
    looks: Mapping[Side, tuple[str, SceneConfig]],
    rng: np.random.Generator,
) -> list[tuple[str, Placed]]:
    color, scene = looks[zone.side]
    corners = sheet.to_world(np.array([[zone.left, zone.top], [zone.right, zone.bottom]]))
    low, high = corners.min(axis=0), corners.max(axis=0)
    standing: list[tuple[str, Placed]] = []
    for value in values:
        size = rng.uniform(0.95, 1.05)
        margin = size * 0.72
        for _attempt in range(80):
            x, y = rng.uniform(low + margin, high - margin)
            box = die_box(float(x), float(y), size, die_rotation(value, rng.uniform(0, 2 * math.pi)))
            if fits(camera, box, placed):
                look, label = sample_die_look(color, scene, rng)
                die = Placed(box, look, value, label)
                placed.append(die)
                standing.append((zone.key, die))
                break
        else:
            raise SceneConfigError(f"no room left in zone {zone.key} for {len(values)} dice")
    return standing


def render_mat_scene(
    config: MatSceneConfig,
    rng: np.random.Generator,
    contents: Mapping[str, Sequence[int]] | None = None,
) -> MatScene:
    """Render one labelled photo of the mat; `contents` gives each zone's dice values (zone key -> values,
    missing zones empty), by default `random_contents`. Deterministic for a given state of `rng`."""
    if contents is None:
        contents = random_contents(config, rng)
    unknown = sorted(set(contents) - set(ZONE_KEYS))
    if unknown:
        raise SceneConfigError(f"contents name zones the mat lacks: {unknown}; its zones are {ZONE_KEYS}")
    sheet = _Sheet(DIE_EDGE / config.paper.scale)
    camera = _camera(config, sheet, rng)
    scene = config.scene
    white = rng.random() < config.white_dice_probability
    looks = {side: ("white" if white else side.label, scene) for side in Side}
    placed: list[Placed] = []
    standing = [
        die
        for zone in ZONES
        for die in _place_in_zone(zone, contents.get(zone.key, ()), sheet, camera, placed, looks, rng)
    ]
    lighting = sample_lighting(rng)
    image = paint_table(scene, camera, rng)
    lay_print(image, camera, sheet.mat_to_world, MAT_WIDTH, _printed, lighting, rng)
    dice = [die for _, die in standing]
    cast_shadows(image, camera, dice, lighting.direction, rng)
    labels = draw_objects(image, camera, dice, lighting, scene, rng)
    mat_dice = []
    for (zone_key, die), label in zip(standing, labels, strict=True):
        assert label is not None
        point = sheet.to_mat(die.box.center[None, :2])[0]
        mat_dice.append(MatDie(zone_key, (float(point[0]), float(point[1])), label))
    corners = camera.project(np.column_stack((sheet.corners, np.zeros(4)))).astype(np.float32)
    return MatScene(photograph(image, scene, rng), tuple(mat_dice), corners)


DEMO_TABLES: dict[str, dict[str, tuple[int, ...]]] = {
    "runbuster-1-opening.jpg": {"red.roll": (2, 2, 4, 5, 5, 6)},
    "runbuster-2-extend.jpg": {"red.hand": (4, 5), "blue.hand": (2, 3), "red.roll": (3, 4, 4, 6)},
    "runbuster-3-bust.jpg": {"red.hand": (2, 3, 4), "blue.hand": (3, 4), "blue.roll": (1, 5, 6, 6)},
    "runbuster-4-win.jpg": {"red.hand": (3, 4), "blue.hand": (2, 3, 4, 5), "blue.roll": (1, 6)},
}
"""The demo photos shipped with the companion (companion_app/demo/runbuster): the rule text's examples."""
DEMO_SEED = 2026


def write_demos(folder: Path, quality: int = 85) -> list[Path]:
    """Render every demo table from its own seed and save it as a JPEG in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    config = MatSceneConfig(
        scene=SceneConfig(
            width=1280, height=960, max_tilt_deg=30.0, motion_blur_probability=0.0, glare_probability=0.3
        ),
        white_dice_probability=0.0,
    )
    written = []
    for index, (name, contents) in enumerate(DEMO_TABLES.items()):
        scene = render_mat_scene(config, np.random.default_rng(DEMO_SEED + index), contents)
        written.append(write_jpeg(folder / name, scene.image, quality))
    return written


def main(argv: list[str] | None = None) -> None:
    """`python -m vision.synth.mat OUT_DIR`: write the demo photos of the Run Buster mat."""
    demo_main(write_demos, main.__doc__, argv)


if __name__ == "__main__":
    main()
