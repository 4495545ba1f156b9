"""Synthetic photos of a Cubist workroom: one player's dice built edge to edge and stacked, exactly labelled.

A workroom is a small structure (1-8 dice, up to three levels) that keeps Cubist's placement rules: dice
side by side differ by exactly 1 and a stacked die equals the one below, so each column shows one value
from above. Structures are grown at random from the rules (`random_workroom`) or taken from the installation
cards, whose shapes are the ones a player builds towards. The dice share one look (one player's set), stand
on a square lattice a hair wider than a die, each a little off its place and askew as hands leave them,
and the whole structure lies at any yaw on the table. Camera, table, light, shadows and the camera's
degradations are the dice scene's (`vision.synth.scene`), so these photos differ from the detector's
training scenes only in what matters here: dice touching on all sides and stacked.

Labels are per column: its (x, y) in the structure, value, height, and where its top face's centre and
corners lie in the image, which is what a reader of the workroom from above can be asked to find.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from engine.cubist.cards import CardSet, bundled_cards
from engine.cubist.structures import FACES, Column, Structure, parse_structure
from engine.cubist.topview import TopView, column_heights
from vision.synth.camera import Camera
from vision.synth.demos import demo_main, write_jpeg
from vision.synth.dice import die_box, die_rotation
from vision.synth.scene import (
    Placed,
    SceneConfig,
    SceneConfigError,
    cast_shadows,
    draw_objects,
    paint_table,
    photograph,
    place_distractors,
    sample_camera,
    sample_die_look,
    sample_lighting,
)

FloatArray = NDArray[np.float64]

PLAYER_COLORS: tuple[str, ...] = ("blue", "purple", "orange", "green")
"""The four players' dice colours (the red die is the museum's cornerstone, never in a workroom)."""

MAX_LEVELS = 3
MAX_CAMERA_TRIES = 300


@dataclass(frozen=True)
class CubistSceneConfig:
    """What a rendered workroom photo may hold; `scene` gives the camera's, table's and photo's ranges."""

    scene: SceneConfig = field(
        default_factory=lambda: SceneConfig(
            width=960,
            height=720,
            die_size_px=(36.0, 100.0),
            colors=PLAYER_COLORS,
            max_tilt_deg=33.0,
            translucent_probability=0.2,
            distractor_count=(0, 2),
        )
    )
    dice_count: tuple[int, int] = (1, 8)
    card_probability: float = 0.3
    """Per photo: the structure of a bundled installation card instead of one grown at random."""
    stack_probability: float = 0.3
    """Per die grown at random: it goes on top of a column rather than beside one, where the rules allow."""
    gap: tuple[float, float] = (0.0, 0.06)
    """Room between neighbouring dice, in die edges: dice pushed together, or left a hair apart."""
    jitter: float = 0.015
    """Standard deviation of each die's offset from its lattice place, in die edges."""
    twist_deg: float = 2.0
    """Standard deviation of each die's turn away from the structure's axes."""


@dataclass(frozen=True)
class RenderedColumn:
    """One column of the workroom as the photo shows it: `top_face` corners and `center` in image pixels."""

    column: Column
    value: int
    height: int
    center: tuple[float, float]
    top_face: NDArray[np.float32]


@dataclass(frozen=True)
class WorkroomScene:
    image: NDArray[np.uint8]
    structure: Structure
    color: str
    columns: tuple[RenderedColumn, ...]
    camera: Camera
    die_px: float
    """The mean edge of the top faces in the image: how big the photo shows one die."""


def random_workroom(count: int, rng: np.random.Generator, stack_probability: float = 0.3) -> Structure:
    """A legal structure of `count` dice, up to `MAX_LEVELS` high, grown one rule-abiding die at a time."""
    structure = Structure({(0, 0, 0): int(rng.integers(1, 7))})
    while len(structure) < count:
        spots = [s for s in structure.candidate_positions() if s[2] < MAX_LEVELS]
        upward = [s for s in spots if s[2] > 0]
        pool = upward if upward and rng.random() < stack_probability else [s for s in spots if s[2] == 0]
        options = [
            (spot, value)
            for spot in pool
            for value in FACES
            if structure.refusal(spot, value, "workroom") is None
        ]
        if not options:
            # Every free place beside the dice is boxed in by two neighbours that no value suits: stack.
            options = [
                (spot, value)
                for spot in spots
                for value in FACES
                if structure.refusal(spot, value, "workroom") is None
            ]
        spot, value = options[int(rng.integers(len(options)))]
        structure = structure.with_die(spot, value)
    return structure


def choose_structure(
    config: CubistSceneConfig, rng: np.random.Generator, cards: CardSet | None = None
) -> Structure:
    """A card's structure (with `card_probability`, among those within `dice_count`) or a random one."""
    low, high = config.dice_count
    shapes = [
        card.structure
        for card in (cards or bundled_cards()).installations.values()
        if low <= len(card.structure) <= high
    ]
    if shapes and rng.random() < config.card_probability:
        return shapes[int(rng.integers(len(shapes)))]
    return random_workroom(int(rng.integers(low, high + 1)), rng, config.stack_probability)


def _build(
    structure: Structure, config: CubistSceneConfig, rng: np.random.Generator
) -> tuple[list[Placed], list[Column], str]:
    """The dice of `structure` as solids on the table, centred on the origin at a random yaw, and each
    die's column; all in one of the scene's colours and one look."""
    colors = config.scene.colors
    color = colors[int(rng.integers(len(colors)))]
    look, label = sample_die_look(color, config.scene, rng)
    size = rng.uniform(0.97, 1.03)
    pitch = size + rng.uniform(*config.gap)
    yaw = rng.uniform(0, 2 * math.pi)
    turn = np.array([[math.cos(yaw), -math.sin(yaw)], [math.sin(yaw), math.cos(yaw)]])
    columns = sorted(column_heights(structure))
    middle = np.mean(np.array(columns, np.float64), axis=0)
    placed: list[Placed] = []
    owners: list[Column] = []
    for (x, y, level), value in structure.dice.items():
        offset = rng.normal(0, config.jitter * (2 if level else 1), 2)
        centre = turn @ ((np.array([x, y], np.float64) - middle) * pitch + offset)
        twist = yaw + math.radians(rng.normal(0, config.twist_deg * (2 if level else 1)))
        box = die_box(centre[0], centre[1], size, die_rotation(value, twist), base=level * size)
        placed.append(Placed(box, look, value, label, level))
        owners.append((x, y))
    return placed, owners, color


def _in_view(camera: Camera, placed: list[Placed]) -> bool:
    corners = camera.project(np.vstack([p.box.corners for p in placed]))
    margin = 2.0
    return bool(
        corners.min() >= margin
        and corners[:, 0].max() <= camera.width - 1 - margin
        and corners[:, 1].max() <= camera.height - 1 - margin
    )


def render_workroom(
    config: CubistSceneConfig,
    rng: np.random.Generator,
    structure: Structure | None = None,
    cards: CardSet | None = None,
) -> WorkroomScene:
    """One labelled photo of a workroom (`structure`, else one chosen by `choose_structure`); deterministic
    for a given state of `rng`. A camera that would cut the structure is drawn again, and after 30 tries
    the structure is seen from further away; `SceneConfigError` when nothing fits after 300."""
    if structure is None:
        structure = choose_structure(config, rng, cards)
    placed, owners, color = _build(structure, config, rng)
    scene_config = config.scene
    camera = sample_camera(scene_config, rng)
    tries = 0
    while not _in_view(camera, placed):
        tries += 1
        if tries >= MAX_CAMERA_TRIES:
            raise SceneConfigError(
                f"scene: a {len(structure)}-die structure does not fit a {scene_config.width}x"
                f"{scene_config.height} photo even with dice of {scene_config.die_size_px[0]:.0f} px"
            )
        if tries % 30 == 0:
            low, high = scene_config.die_size_px
            low = max(low * 0.8, 4.0)
            scene_config = replace(scene_config, die_size_px=(low, max(high * 0.8, low)))
        camera = sample_camera(scene_config, rng)
    distractors = place_distractors(scene_config, camera, placed, rng)
    lighting = sample_lighting(rng)
    image = paint_table(scene_config, camera, rng)
    cast_shadows(image, camera, placed + distractors, lighting.direction, rng)
    labels = draw_objects(image, camera, placed + distractors, lighting, scene_config, rng)
    heights = column_heights(structure)
    values = TopView.of(structure).values
    tops: dict[Column, RenderedColumn] = {}
    edges = []
    for owner, die, label in zip(owners, placed, labels[: len(placed)], strict=True):
        if label is None:
            continue
        edges.append(float(np.linalg.norm(label.top_face[[1, 2, 3, 0]] - label.top_face, axis=1).mean()))
        if die.level == heights[owner] - 1:
            tops[owner] = RenderedColumn(owner, values[owner], heights[owner], label.center, label.top_face)
    return WorkroomScene(
        image=photograph(image, scene_config, rng),
        structure=structure,
        color=color,
        columns=tuple(tops[c] for c in sorted(tops)),
        camera=camera,
        die_px=float(np.mean(edges)),
    )


DEMO_WORKROOMS: dict[str, tuple[str, str]] = {
    "cubist-1-blue-checkers.jpg": ("blue", "0,0,0=3 0,1,0=4 1,0,0=4 1,1,0=3"),
    "cubist-2-orange-stairs.jpg": ("orange", "0,0,0=5 0,0,1=5 1,0,0=4 1,0,1=4 2,0,0=3"),
    "cubist-3-green-broken.jpg": ("green", "0,0,0=2 1,0,0=4 1,1,0=5"),
}
"""The demo photos shipped with the companion (companion_app/demo/cubist), by file name: the dice colour
and the structure. A flat installation, a stacked one, and a workroom whose first two dice differ by 2."""
DEMO_SEED = 900_000
"""Outside every seed range the finder trains on or is measured with, and one under which the shipped reader
reads all three photos right (tests/app/test_cubist_page.py checks it): a demo shows the page at work;
`bench/bench_cubist_read.py` measures how often a photo is read right."""


def write_demos(folder: Path, quality: int = 85) -> list[Path]:
    """Render every demo workroom from its own seed and save it as a JPEG in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for index, (name, (color, structure)) in enumerate(DEMO_WORKROOMS.items()):
        scene = replace(
            CubistSceneConfig().scene,
            width=1280,
            height=960,
            die_size_px=(90.0, 130.0),
            colors=(color,),
            max_tilt_deg=25.0,
            motion_blur_probability=0.0,
            distractor_count=(0, 0),
        )
        rng = np.random.default_rng(DEMO_SEED + index)
        rendered = render_workroom(CubistSceneConfig(scene=scene), rng, parse_structure(structure))
        written.append(write_jpeg(folder / name, rendered.image, quality))
    return written


def main(argv: list[str] | None = None) -> None:
    """`python -m vision.synth.cubist OUT_DIR`: write the demo photos of Cubist workrooms."""
    demo_main(write_demos, main.__doc__, argv)


if __name__ == "__main__":
    main()
