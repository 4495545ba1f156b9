"""Tables for the Cubist tests: the illustrative cards plus two test museums, and set-up by chance moves."""

from __future__ import annotations

import json
from dataclasses import replace
from importlib import resources
from typing import Any

from engine.cubist.cards import CardSet, load_cards
from engine.cubist.game import Board, Cubist, Phase, Rules, State, Taken
from engine.cubist.structures import Structure

RING = [[x, y, 1] for x in range(3) for y in range(3) if (x, y) != (1, 1)]


def card_data_with_test_museums() -> dict[str, Any]:
    """The bundled cards, plus a ring-shaped museum (where dead ends happen) and a two-die one."""
    data: dict[str, Any] = json.loads(
        resources.files("engine").joinpath("data/cubist_cards.json").read_text("utf-8")
    )
    data["museums"] += [
        {"id": "ring", "players": 2, "columns": RING, "cornerstone": [0, 0]},
        {"id": "pair", "players": 2, "columns": [[0, 0, 1], [1, 0, 1]], "cornerstone": [0, 0]},
    ]
    return data


CARDS: CardSet = load_cards(card_data_with_test_museums())
GAME = Cubist(2, cards=CARDS)
ARTISTS = ("marc-1", "gris-1", "pascin-2", "popova-plus")
INSTALLATIONS = ("installation-01", "installation-04", "installation-07")


def started(
    game: Cubist = GAME,
    museum: str = "museum-2a",
    cornerstone: int = 3,
    installations: tuple[str, ...] = INSTALLATIONS,
    artists: tuple[str, ...] = ARTISTS,
    first: int = 0,
) -> State:
    """A table just set up by the chance moves named, with `first` about to roll."""
    state = game.initial_state()
    moves = [
        f"museum {museum}",
        f"cornerstone {cornerstone}",
        *(f"reveal {c}" for c in installations),
        *(f"reveal {a}" for a in artists),
        *([f"first {first}"] if game.rules.first_player_drawn else []),
    ]
    for text in moves:
        assert game.is_chance_node(state), text
        state = game.apply(state, game.parse_move(text))
    return state


def acting(state: State, storeroom: tuple[int, ...] = ()) -> State:
    """The same table after the mover's roll, with `storeroom` in the storeroom."""
    return replace(state, phase=Phase.ACTION, storeroom=storeroom)


def with_board(state: State, player: int, **changes: Any) -> State:
    boards = tuple(replace(b, **changes) if p == player else b for p, b in enumerate(state.boards))
    return replace(state, boards=boards)


def with_workroom(state: State, player: int, index: int, dice: dict[tuple[int, int, int], int]) -> State:
    rooms = list(state.boards[player].workrooms)
    rooms[index] = Structure(dice)
    return with_board(state, player, workrooms=tuple(rooms))


def taking(state: State, player: int, card: str, bonus: tuple[int | None, ...]) -> State:
    """`player` holds installation `card` (taken from the deck) with these bonus dice on it."""
    deck = tuple(c for c in state.installation_deck if c != card)
    board: Board = state.boards[player]
    state = with_board(state, player, taken=(*board.taken, Taken(card, bonus)))
    return replace(state, installation_deck=deck)


def ruled(**changes: Any) -> Cubist:
    return Cubist(2, Rules(name="test", **changes), CARDS)


def quick_card_data() -> dict[str, Any]:
    """Cards random play finishes with: one- and two-die installations and three-column museums."""
    data = card_data_with_test_museums()
    data["museums"] = [
        {"id": f"row-{n}", "players": n, "columns": [[0, 0, 1], [1, 0, 1], [2, 0, 1]], "cornerstone": [1, 0]}
        for n in (2, 3, 4)
    ]
    data["installations"] = [
        {"id": f"single-{v}", "points": v, "dice": [[0, 0, 0, v]], "bonus": [[v], [1, 2, 3, 4, 5, 6]]}
        for v in range(1, 7)
    ] + [
        {"id": f"pair-{v}", "points": 3, "dice": [[0, 0, 0, v], [1, 0, 0, v + 1]], "bonus": [[v]]}
        for v in range(1, 6)
    ]
    return data


QUICK_CARDS: CardSet = load_cards(quick_card_data())
