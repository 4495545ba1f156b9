"""The companion's Sagrada demo photos: two players' windows photographed as a game goes on.

Ana plays Bellesguard and Bo Fractal Drops (the first two patterns of the new-game form). Their dice are
drafted at random and placed by the rules, two per round, from fixed seeds; Bo breaks a rule in round 5
(a die beside one of its colour), which stays on his window. Each photo is rendered from its own seed,
chosen so the shipped reader reads it exactly; `companion_app/demo/sagrada/demos.json` lists what each shows.

    python -m vision.synth.sagrada_demos companion_app/demo/sagrada
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from engine.sagrada.window import Cell, Color, Die, Pattern, Window, find_pattern, legal_placements
from vision.colors import COLOR_SETS
from vision.synth.demos import demo_main, write_jpeg
from vision.synth.sagrada import SagradaConfig, render_window_scene
from vision.synth.scene import SceneConfig

PLAYERS = {"Ana": "Bellesguard", "Bo": "Fractal Drops"}
GAME_SEED = 2026
DICE_PER_ROUND = 2
ILLEGAL_ROUND = 5
"""The round in which Bo places a die beside one of its own colour."""
ILLEGAL_PLAYER = "Bo"


@dataclass(frozen=True)
class DemoShot:
    """One demo photo: whose windows it shows, after which round, and the seed it is rendered from."""

    file: str
    player: str
    after_round: int
    seed: int

    def caption(self) -> str:
        return f"{self.player}'s {PLAYERS[self.player]} after round {self.after_round}"


SHOTS = (
    DemoShot("sagrada-1-ana-round2.jpg", "Ana", 2, 12),
    DemoShot("sagrada-2-bo-round2.jpg", "Bo", 2, 23),
    DemoShot("sagrada-3-ana-round5.jpg", "Ana", 5, 34),
    DemoShot("sagrada-4-bo-round5.jpg", "Bo", 5, 41),
    DemoShot("sagrada-5-ana-round8.jpg", "Ana", 8, 51),
    DemoShot("sagrada-6-bo-round8.jpg", "Bo", 8, 64),
)


def play(rounds: int, seed: int = GAME_SEED) -> dict[str, list[Window]]:
    """Each player's window after every round (index 0: after round 1), the dice drafted at random."""
    rng = np.random.default_rng(seed)
    colors = list(Color)
    history: dict[str, list[Window]] = {name: [] for name in PLAYERS}
    windows = {name: Window() for name in PLAYERS}
    for round_number in range(1, rounds + 1):
        for name, pattern_name in PLAYERS.items():
            pattern = find_pattern(pattern_name)
            for placement in range(DICE_PER_ROUND):
                illegal = name == ILLEGAL_PLAYER and round_number == ILLEGAL_ROUND and placement == 1
                die = Die(colors[int(rng.integers(len(colors)))], int(rng.integers(1, 7)))
                place = _beside_its_colour if illegal else _legal_space
                placed = place(windows[name], pattern, die, rng)
                if placed is not None:
                    windows[name] = windows[name].with_die(*placed)
            history[name].append(windows[name])
    return history


def _legal_space(
    window: Window, pattern: Pattern, die: Die, rng: np.random.Generator
) -> tuple[Cell, Die] | None:
    """A random space where `die` may go (None: nowhere, so the die is not placed)."""
    spaces = list(legal_placements(window, pattern, die))
    return (spaces[int(rng.integers(len(spaces)))], die) if spaces else None


def _beside_its_colour(
    window: Window, pattern: Pattern, die: Die, rng: np.random.Generator
) -> tuple[Cell, Die] | None:
    """`die` recoloured to match a neighbour, on a space where that one neighbour is the only rule broken."""
    for cell in sorted(window.empty_cells(), key=lambda _: rng.random()):
        need = pattern.restriction(cell)
        neighbours = [n for n in (window[other] for other in cell.orthogonal()) if n is not None]
        for neighbour in neighbours:
            wrong = Die(neighbour.color, die.value)
            if need.color not in (None, wrong.color) or need.value not in (None, wrong.value):
                continue
            alike = sum(n.color == wrong.color for n in neighbours)
            if alike == 1 and all(n.value != wrong.value for n in neighbours):
                return cell, wrong
    return None


def render(shot: DemoShot, windows: dict[str, list[Window]]) -> NDArray[np.uint8]:
    config = SagradaConfig(
        scene=SceneConfig(
            width=1024,
            height=768,
            colors=COLOR_SETS["sagrada"],
            translucent_probability=0.9,
            max_tilt_deg=25.0,
            motion_blur_probability=0.0,
            glare_probability=0.3,
        ),
        window_px=(380.0, 440.0),
        loose_dice=(0, 2),
    )
    window = windows[shot.player][shot.after_round - 1]
    contents = [(find_pattern(PLAYERS[shot.player]), window)]
    return render_window_scene(config, np.random.default_rng(shot.seed), contents).image


def write_demos(folder: Path, quality: int = 82) -> list[Path]:
    """Render every demo photo into `folder` with demos.json, the manifest the companion's page reads."""
    folder.mkdir(parents=True, exist_ok=True)
    windows = play(max(shot.after_round for shot in SHOTS))
    manifest = []
    written = []
    for shot in SHOTS:
        path = folder / shot.file
        write_jpeg(path, render(shot, windows), quality)
        written.append(path)
        pattern = PLAYERS[shot.player]
        window = str(windows[shot.player][shot.after_round - 1])
        manifest.append({"file": shot.file, "pattern": pattern, "window": window, "caption": shot.caption()})
    (folder / "demos.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return written


def main(argv: list[str] | None = None) -> None:
    """`python -m vision.synth.sagrada_demos OUT_DIR`: write the Sagrada demo photos and their manifest."""
    demo_main(write_demos, main.__doc__, argv)


if __name__ == "__main__":
    main()
