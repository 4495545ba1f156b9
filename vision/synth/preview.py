"""Write sample rendered scenes with their labels drawn, to look at: `python -m vision.synth.preview OUT_DIR`.

Each scene is saved twice: `scene_NNN.jpg` as rendered and `scene_NNN_labels.png` with each die's outline
(green), top face (yellow, first corner marked), value, colour and visible fraction.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.synth.scene import Scene, SceneConfig, render_scene


def draw_labels(scene: Scene) -> NDArray[np.uint8]:
    """A copy of the scene's image with its labels drawn over it."""
    canvas = scene.image.copy()
    for die in scene.dice:
        cv2.polylines(canvas, [np.round(die.outline).astype(np.int32)], True, (0, 255, 0), 1, cv2.LINE_AA)
        cv2.polylines(canvas, [np.round(die.top_face).astype(np.int32)], True, (0, 255, 255), 1, cv2.LINE_AA)
        first = np.round(die.top_face[0]).astype(int)
        cv2.circle(canvas, (int(first[0]), int(first[1])), 2, (0, 0, 255), -1)
        text = f"{die.value} {die.color[:3]} {die.visible_fraction:.2f}"
        origin = (int(die.box[0]), max(int(die.box[1]) - 3, 8))
        cv2.putText(canvas, text, origin, cv2.FONT_HERSHEY_SIMPLEX, 0.35, (0, 0, 0), 2, cv2.LINE_AA)
        cv2.putText(canvas, text, origin, cv2.FONT_HERSHEY_SIMPLEX, 0.35, (255, 255, 255), 1, cv2.LINE_AA)
    return canvas


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--n", type=int, default=8, help="how many scenes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=640, help="image width and height in pixels")
    args = parser.parse_args(argv)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    config = SceneConfig(width=args.size, height=args.size, marbled_probability=0.05)
    for index in range(args.n):
        scene = render_scene(config, rng)
        cv2.imwrite(str(args.out_dir / f"scene_{index:03d}.jpg"), scene.image)
        cv2.imwrite(str(args.out_dir / f"scene_{index:03d}_labels.png"), draw_labels(scene))
    print(f"wrote {args.n} scenes to {args.out_dir}")


if __name__ == "__main__":
    main()
