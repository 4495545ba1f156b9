"""Write sample rendered scenes with their labels drawn, to look at: `python -m vision.synth.preview OUT_DIR`.

Each scene is saved twice: `scene_NNN.jpg` as rendered and `scene_NNN_labels.png` with each die's outline
(green), top face (yellow, first corner marked), value, colour and visible fraction. `--sagrada` renders
Sagrada windows instead, labelled with the grid's corners (r1c1 marked) and each space's die.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.colors import COLOR_SETS
from vision.synth.sagrada import SagradaConfig, WindowScene, render_window_scene
from vision.synth.scene import RenderedDie, Scene, SceneConfig, render_scene


def draw_labels(scene: Scene) -> NDArray[np.uint8]:
    """A copy of the scene's image with its labels drawn over it."""
    canvas = scene.image.copy()
    _draw_dice(canvas, scene.dice)
    return canvas


def draw_window_labels(scene: WindowScene) -> NDArray[np.uint8]:
    """A copy of the window scene's image with the grids, their first corner and every die's label."""
    canvas = scene.image.copy()
    for window in scene.windows:
        cv2.polylines(
            canvas, [np.round(window.corners).astype(np.int32)], True, (255, 0, 255), 1, cv2.LINE_AA
        )
        first = np.round(window.corners[0]).astype(int)
        cv2.circle(canvas, (int(first[0]), int(first[1])), 4, (0, 0, 255), -1)
        cv2.putText(canvas, window.pattern, (int(first[0]), int(first[1]) - 6), 0, 0.4, (255, 0, 255), 1)
        _draw_dice(canvas, [die for die in window.dice if die is not None])
    _draw_dice(canvas, scene.loose_dice)
    return canvas


def _draw_dice(canvas: NDArray[np.uint8], dice: Sequence[RenderedDie]) -> None:
    for die in dice:
        cv2.polylines(canvas, [np.round(die.outline).astype(np.int32)], True, (0, 255, 0), 1, cv2.LINE_AA)
        cv2.polylines(canvas, [np.round(die.top_face).astype(np.int32)], True, (0, 255, 255), 1, cv2.LINE_AA)
        first = np.round(die.top_face[0]).astype(int)
        cv2.circle(canvas, (int(first[0]), int(first[1])), 2, (0, 0, 255), -1)
        text = f"{die.value} {die.color[:3]} {die.visible_fraction:.2f}"
        origin = (int(die.box[0]), max(int(die.box[1]) - 3, 8))
        cv2.putText(canvas, text, origin, cv2.FONT_HERSHEY_SIMPLEX, 0.35, (0, 0, 0), 2, cv2.LINE_AA)
        cv2.putText(canvas, text, origin, cv2.FONT_HERSHEY_SIMPLEX, 0.35, (255, 255, 255), 1, cv2.LINE_AA)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--n", type=int, default=8, help="how many scenes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=640, help="image width and height in pixels")
    parser.add_argument("--sagrada", action="store_true", help="render Sagrada windows instead of loose dice")
    args = parser.parse_args(argv)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    scene_config = SceneConfig(width=args.size, height=args.size, marbled_probability=0.05)
    window_config = SagradaConfig(
        scene=replace(
            scene_config, colors=COLOR_SETS["sagrada"], translucent_probability=0.9, marbled_probability=0
        ),
        windows=(1, 2),
        window_px=(0.25 * args.size, 0.6 * args.size),
    )
    for index in range(args.n):
        if args.sagrada:
            windows = render_window_scene(window_config, rng)
            image, labelled = windows.image, draw_window_labels(windows)
        else:
            scene = render_scene(scene_config, rng)
            image, labelled = scene.image, draw_labels(scene)
        cv2.imwrite(str(args.out_dir / f"scene_{index:03d}.jpg"), image)
        cv2.imwrite(str(args.out_dir / f"scene_{index:03d}_labels.png"), labelled)
    print(f"wrote {args.n} scenes to {args.out_dir}")


if __name__ == "__main__":
    main()
