"""Cubist's cards as data: museum blueprints, installations and artists, loaded and checked.

The printed card contents are not published, so the bundled file `engine/data/cubist_cards.json` is an
illustrative set (marked so in the file) and a table can load its own cards with `load_cards`, which
rejects a card set the game cannot use with `InvalidData` naming the card and the problem.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache
from importlib import resources
from typing import Any

from engine.core import JSON, InvalidData
from engine.cubist.structures import FACES, Blueprint, Structure, format_position

PLAYER_COUNTS = (2, 3, 4)
ARTIST_DICE = (2, 3)


@dataclass(frozen=True)
class MuseumCard:
    """A museum card: the player count it is for and the blueprint of the museum at that count."""

    id: str
    players: int
    blueprint: Blueprint


@dataclass(frozen=True)
class InstallationCard:
    """An installation: the structure to build, its points, and the values each bonus cell allows."""

    id: str
    points: int
    structure: Structure
    bonus: tuple[tuple[int, ...], ...]


class Effect(Enum):
    """What an artist does when activated; the card's own parameters say with which values."""

    GAIN = "gain"  # a die from the supply into the storeroom, showing one of the card's values
    REMOVE = "remove"  # one die from one of your workrooms back to your supply (Juan Gris)
    MOVE = "move"  # one die moved within or between your workrooms (Jules Pascin)
    CHANGE = "change"  # a storeroom or bonus die changed by one of the card's amounts
    TAKE = "take"  # an opponent's stored die back to them, the same value from your supply to you


@dataclass(frozen=True)
class ArtistCard:
    """An artist card: the dice it needs (2 or 3 equal ones), its effect, and the effect's values."""

    id: str
    artist: str
    dice: int
    effect: Effect
    values: tuple[int, ...] = ()
    changes: tuple[int, ...] = ()


@dataclass(frozen=True)
class CardSet:
    """Every card a game can use, by id, and whether the set is the illustrative one."""

    museums: Mapping[str, MuseumCard]
    installations: Mapping[str, InstallationCard]
    artists: Mapping[str, ArtistCard]
    illustrative: bool

    def __hash__(self) -> int:
        return hash((tuple(self.museums), tuple(self.installations), tuple(self.artists)))

    def museums_for(self, players: int) -> tuple[str, ...]:
        return tuple(card.id for card in self.museums.values() if card.players == players)


def load_cards(data: JSON) -> CardSet:
    """Read and check a card set in the bundled file's format."""
    if not isinstance(data, dict):
        raise InvalidData("a card set is a JSON object with museums, installations and artists")
    museums = [_museum(m, i) for i, m in enumerate(_list(data, "museums"))]
    installations = [_installation(c, i) for i, c in enumerate(_list(data, "installations"))]
    artists = [_artist(a, i) for i, a in enumerate(_list(data, "artists"))]
    ids = [m.id for m in museums] + [c.id for c in installations] + [a.id for a in artists]
    doubled = sorted({i for i in ids if ids.count(i) > 1})
    if doubled:
        raise InvalidData(f"card ids must be unique; repeated: {', '.join(doubled)}")
    if not installations:
        raise InvalidData("a card set needs at least one installation card")
    return CardSet(
        museums={m.id: m for m in museums},
        installations={c.id: c for c in installations},
        artists={a.id: a for a in artists},
        illustrative=data.get("illustrative") is True,
    )


@cache
def bundled_cards() -> CardSet:
    """The illustrative card set shipped with the engine."""
    text = resources.files("engine").joinpath("data/cubist_cards.json").read_text("utf-8")
    return load_cards(json.loads(text))


def _list(data: JSON, key: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        raise InvalidData(f"card set: {key!r} must be a list")
    return value


def _int(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidData(f"{what} must be an integer, got {value!r}")
    return value


def _ints(value: Any, what: str, length: int | None = None) -> tuple[int, ...]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        size = f"{length} " if length is not None else ""
        raise InvalidData(f"{what} must be a list of {size}integers, got {value!r}")
    return tuple(_int(v, what) for v in value)


def _id(card: Any, index: int, kind: str) -> str:
    if not isinstance(card, dict):
        raise InvalidData(f"{kind} card #{index} must be an object, got {card!r}")
    card_id = card.get("id")
    if not isinstance(card_id, str) or not card_id or not all(ch.isalnum() or ch in "-_" for ch in card_id):
        raise InvalidData(f"{kind} card #{index}: id must be letters, digits, '-' or '_', got {card_id!r}")
    return card_id


def _museum(card: Any, index: int) -> MuseumCard:
    card_id = _id(card, index, "museum")
    players = _int(card.get("players"), f"museum {card_id}: players")
    if players not in PLAYER_COUNTS:
        raise InvalidData(f"museum {card_id}: players must be 2, 3 or 4, got {players}")
    columns = card.get("columns")
    if not isinstance(columns, list):
        raise InvalidData(f"museum {card_id}: columns must be a list of [x, y, height]")
    heights: dict[tuple[int, int], int] = {}
    for column in columns:
        x, y, height = _ints(column, f"museum {card_id}: a column", 3)
        if (x, y) in heights:
            raise InvalidData(f"museum {card_id}: column {x},{y} is listed twice")
        heights[(x, y)] = height
    x, y = _ints(card.get("cornerstone"), f"museum {card_id}: cornerstone", 2)
    try:
        blueprint = Blueprint(heights, (x, y))
    except InvalidData as exc:
        raise InvalidData(f"museum {card_id}: {exc}") from None
    return MuseumCard(card_id, players, blueprint)


def _installation(card: Any, index: int) -> InstallationCard:
    card_id = _id(card, index, "installation")
    points = _int(card.get("points"), f"installation {card_id}: points")
    if points < 0:
        raise InvalidData(f"installation {card_id}: points must not be negative, got {points}")
    dice = card.get("dice")
    if not isinstance(dice, list) or not dice:
        raise InvalidData(f"installation {card_id}: dice must be a non-empty list of [x, y, level, value]")
    structure: dict[tuple[int, int, int], int] = {}
    for die in dice:
        x, y, level, value = _ints(die, f"installation {card_id}: a die", 4)
        if (x, y, level) in structure:
            raise InvalidData(f"installation {card_id}: two dice at {format_position((x, y, level))}")
        structure[(x, y, level)] = value
    built = Structure(structure)
    problems = built.problems()
    if problems:
        first = problems[0]
        where = " and ".join(format_position(p) for p in first.positions)
        raise InvalidData(f"installation {card_id}: cannot be built: {where}: {first.message}")
    bonus = card.get("bonus")
    if not isinstance(bonus, list) or not 1 <= len(bonus) <= 2:
        raise InvalidData(f"installation {card_id}: bonus must list 1 or 2 cells of allowed values")
    cells = tuple(_ints(cell, f"installation {card_id}: a bonus cell") for cell in bonus)
    for cell in cells:
        if not cell or any(v not in FACES for v in cell) or len(set(cell)) != len(cell):
            raise InvalidData(
                f"installation {card_id}: bonus cell {list(cell)} must list distinct values 1-6"
            )
    return InstallationCard(card_id, points, built, cells)


def _artist(card: Any, index: int) -> ArtistCard:
    card_id = _id(card, index, "artist")
    artist = card.get("artist")
    if not isinstance(artist, str) or not artist.strip():
        raise InvalidData(f"artist {card_id}: needs the artist's name")
    dice = _int(card.get("dice"), f"artist {card_id}: dice")
    if dice not in ARTIST_DICE:
        raise InvalidData(f"artist {card_id}: takes 2 or 3 dice, not {dice}")
    try:
        effect = Effect(card.get("effect"))
    except ValueError:
        kinds = ", ".join(e.value for e in Effect)
        raise InvalidData(
            f"artist {card_id}: effect must be one of {kinds}, got {card.get('effect')!r}"
        ) from None
    values = _ints(card.get("values", []), f"artist {card_id}: values")
    changes = _ints(card.get("changes", []), f"artist {card_id}: changes")
    if effect is Effect.GAIN and (not values or any(v not in FACES for v in values)):
        raise InvalidData(f"artist {card_id}: a gain effect lists the values 1-6 the new die may show")
    if effect is Effect.CHANGE and (not changes or any(c == 0 or abs(c) > 5 for c in changes)):
        raise InvalidData(f"artist {card_id}: a change effect lists non-zero amounts like [2] or [1, -1]")
    if effect is not Effect.GAIN and values:
        raise InvalidData(f"artist {card_id}: only a gain effect takes values")
    if effect is not Effect.CHANGE and changes:
        raise InvalidData(f"artist {card_id}: only a change effect takes amounts")
    return ArtistCard(card_id, artist.strip(), dice, effect, tuple(sorted(set(values))), changes)
