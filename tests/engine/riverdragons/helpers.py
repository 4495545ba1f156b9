"""Tables for the River Dragons tests: positions built by hand, and rounds planned from text programs."""

from __future__ import annotations

from dataclasses import replace

from engine.riverdragons.game import STONES, LaidPlank, Phase, RiverDragons, State
from engine.riverdragons.moves import Plan, parse_ends, parse_plank

GAME = RiverDragons()
# Red's own six planks bridge v1 to v4 on the default board: v1-i10-i2-i3-i4-i18-v4.
BRIDGE = {
    "v1-i10": "red3",
    "i2-i10": "red4",
    "i2-i3": "red1",
    "i3-i4": "red2",
    "i4-i18": "red6",
    "v4-i18": "red5",
}
BRIDGE_ISLANDS = ("i10", "i2", "i3", "i4", "i18")


def table(
    game: RiverDragons = GAME,
    stones: tuple[str, ...] = (),
    planks: dict[str, str] | None = None,
    pawns: dict[int, str] | None = None,
    reserves: dict[int, str] | None = None,
) -> State:
    """The opening position of `game` with `stones` placed, `planks` laid ({"v1-i10": "red3"}, taken
    from their owners' reserves), some pawns moved and some reserves replaced ({0: "red1 green2"})."""
    state = game.initial_state()
    laid = tuple(LaidPlank(parse_ends(on), parse_plank(p)) for on, p in (planks or {}).items())
    used = {p.plank for p in laid}
    hands = [tuple(p for p in reserve if p not in used) for reserve in state.reserves]
    for player, text in (reserves or {}).items():
        hands[player] = tuple(parse_plank(p) for p in text.split())
    places = list(state.pawns)
    for player, place in (pawns or {}).items():
        places[player] = place
    return replace(
        state,
        stones=stones,
        supply=STONES - len(stones),
        planks=laid,
        reserves=tuple(hands),
        pawns=tuple(places),
    )


def bridged(game: RiverDragons = GAME, pawns: dict[int, str] | None = None) -> State:
    """Red's finished bridge from v1 to v4 (red's reserve is empty)."""
    return table(game, stones=BRIDGE_ISLANDS, planks=BRIDGE, pawns=pawns)


def planned(game: RiverDragons, state: State, *programs: str) -> State:
    """Every player's program (in seating order, as text) planned from the start player round the table;
    the result is the first decision of the resolution, or whatever the automatic steps lead to."""
    assert state.phase is Phase.PLAN and all(not p for p in state.programs)
    for offset in range(game.players):
        player = (state.start_player + offset) % game.players
        for card in programs[player].split():
            assert state.to_move == player
            state = game.apply(state, Plan(card))
    return state


def play(game: RiverDragons, state: State, *moves: str) -> State:
    """Apply moves written in the notation, one after another."""
    for text in moves:
        state = game.apply(state, game.parse_move(text))
    return state


ACTION_ORDER = ("stone1", "stone2", "plank1", "plank2", "remove", "move1", "move2", "jump")
# A program for the other players that stops for a decision at once (their reserves are not empty), so a
# test sees the effect of one card alone.
WAITING = "plank1 plank2 stone1 stone2 remove"


def program(*cards: str) -> str:
    """`cards` in positions 1, 2, ..., the remaining positions filled with other action cards."""
    fillers = [c for c in ACTION_ORDER if c not in cards]
    return " ".join([*cards, *fillers][:5])
