"""The bundled illustrative card set, and the checks a user's own card set goes through on load."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from engine.core import InvalidData
from engine.cubist.cards import Effect, bundled_cards, load_cards

NAMED_ARTISTS = {
    "Franz Marc",
    "Umberto Boccioni",
    "Kazimir Malevich",
    "Juan Gris",
    "Jules Pascin",
    "Roger de La Fresnaye",
    "Lyubov Popova",
    "Olga Rozanova",
}


def bundled_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        resources.files("engine").joinpath("data/cubist_cards.json").read_text("utf-8")
    )
    return data


def test_the_bundled_set_is_labelled_illustrative() -> None:
    data = bundled_data()
    assert data["illustrative"] is True
    assert "ILLUSTRATIVE" in data["note"]
    assert bundled_cards().illustrative


def test_the_bundled_set_has_the_games_card_counts() -> None:
    cards = bundled_cards()
    assert len(cards.museums) == 9
    assert all(len(cards.museums_for(n)) == 3 for n in (2, 3, 4))
    assert len(cards.installations) == 23
    assert len(cards.artists) == 25


def test_installations_are_small_3d_shapes_worth_2_to_8() -> None:
    for card in bundled_cards().installations.values():
        assert 2 <= len(card.structure) <= 6
        assert 2 <= card.points <= 8
        assert 1 <= len(card.bonus) <= 2
        assert card.structure.problems() == []
    assert any(z > 0 for c in bundled_cards().installations.values() for (_, _, z) in c.structure.dice)


def test_the_eight_named_artists_and_their_parameters() -> None:
    artists = bundled_cards().artists.values()
    assert {a.artist for a in artists} == NAMED_ARTISTS
    assert all(a.dice in (2, 3) for a in artists)
    by_name = {a.artist: a for a in artists}
    assert by_name["Franz Marc"].values == (1, 2, 3, 4, 5, 6)
    assert all(len(a.values) == 2 for a in artists if a.artist == "Umberto Boccioni")
    assert all(len(a.values) == 1 for a in artists if a.artist == "Kazimir Malevich")
    assert {c for a in artists if a.artist == "Roger de La Fresnaye" for c in a.changes} == {2, -2}
    assert {c for a in artists if a.artist == "Lyubov Popova" for c in a.changes} == {1, -1}
    assert by_name["Juan Gris"].effect is Effect.REMOVE
    assert by_name["Jules Pascin"].effect is Effect.MOVE
    assert by_name["Olga Rozanova"].effect is Effect.TAKE


def test_a_user_card_set_loads() -> None:
    data = bundled_data()
    data["installations"] = data["installations"][:1]
    data["illustrative"] = False
    cards = load_cards(data)
    assert len(cards.installations) == 1 and not cards.illustrative


def set_path(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("installations", 0, "dice", 1, 3), 6, "installation-01: cannot be built: 0,0,0 and 1,0,0"),
        (("installations", 0, "dice", 1), [5, 5, 1, 2], "installation-01: cannot be built"),
        (("installations", 0, "dice", 1), [0, 0, 0, 4], "installation-01: two dice at 0,0,0"),
        (("installations", 0, "bonus"), [], "installation-01: bonus must list 1 or 2"),
        (("installations", 0, "bonus"), [[7]], "bonus cell [7]"),
        (("installations", 1, "id"), "installation-01", "repeated: installation-01"),
        (("installations", 0, "points"), "many", "installation-01: points must be an integer"),
        (("artists", 0, "dice"), 4, "marc-1: takes 2 or 3 dice, not 4"),
        (("artists", 0, "effect"), "paint", "marc-1: effect must be one of"),
        (("artists", 0, "values"), [], "marc-1: a gain effect lists"),
        (("artists", -1, "changes"), [1], "only a change effect takes amounts"),
        (("museums", 0, "players"), 5, "museum-2a: players must be 2, 3 or 4"),
        (("museums", 0, "cornerstone"), [9, 9], "museum-2a: the cornerstone column"),
        (("museums", 0, "columns", 0), [7, 7, 1], "museum-2a: the blueprint's footprint"),
        (("museums",), "none", "'museums' must be a list"),
    ],
)
def test_a_broken_card_set_is_refused_naming_the_card(
    path: tuple[Any, ...], value: Any, message: str
) -> None:
    data = bundled_data()
    set_path(data, path, value)
    with pytest.raises(InvalidData) as caught:
        load_cards(data)
    assert message in str(caught.value)
