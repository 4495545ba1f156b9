"""River Dragons / Dragon Delta at the table: the phones play the engine's moves on a shared game page.

The game is the sequence of moves from the engine's initial state. Each accepted move is stored as a capture
with no photo (`reading = {"move": "<notation>"}`, filed under the mover's player row), and the table now is
the replay of the captures still in force. A move is checked against that table before it is stored, so the
store never holds an illegal one: moves are checked and stored one at a time, and a form drawn before the
game last changed is refused, so two phones cannot both answer the same position.

Taking a move back uses the store's append-only corrections: the last move in force gets the correction
cell "move" set to None ("this move is not there"), and a capture with that correction in force is left out
of the replay. Undoing a take-back is `undo_last_correction` on that capture, offered only while the
take-back is the game's latest change: nothing has been played since, so the move returns to the very
position it was played in.

Planning is hidden at the table: each phone says whose it is (kept in the session, as the Sagrada page
does), sees its own planned cards and only the count of the others'; once resolution starts, the cards up
to the position being resolved are face up for everyone. A phone that names nobody is the table's shared
phone and plays for whoever is to move.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from flask import Blueprint, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from companion_app import history
from companion_app.history import Capture, Event, Game, Player
from companion_app.pages import (
    SeatingError,
    forget_seat,
    join_url,
    load_game_of_kind,
    player_in_seat,
    refuse_if_ended,
    remember_seat,
    remembered_seat,
    seated_names,
    submission_key,
)
from engine.core import IllegalMove, ParseError
from engine.riverdragons.game import (
    PLAYER_COUNTS,
    PROGRAM_SIZE,
    TEXT,
    TWO_EFFECT_CARDS,
    Phase,
    RiverDragons,
    State,
    rules_named,
)
from engine.riverdragons.moves import (
    COLOURS,
    Jump,
    Lay,
    Lose,
    Move,
    PlaceStone,
    Plan,
    RemovePlank,
    RemoveStone,
    Walk,
    place_ends,
    plank_place,
)

bp = Blueprint("riverdragons", __name__)

KIND = "river-dragons"
SEATS = range(1, max(PLAYER_COUNTS) + 1)
MOVE_CELL = "move"  # the correction cell that takes a move back
BUTTONS_UP_TO = 8  # a group of more moves is offered as a list to pick from, except the cards to plan
PLAN_TITLE = "Plan your next card"
LEGAL_LISTED_UP_TO = 6  # an error lists the legal moves when there are no more than this
RECENT_MOVES = 8
PIECE_COLOURS = {
    "red": "#c8312b",
    "yellow": "#f2c230",
    "green": "#2f8f4e",
    "blue": "#2d63c8",
    "purple": "#7b3fa0",
    "white": "#ffffff",
}
VILLAGE_RADIUS = 11.0
PAWN_RADIUS = 5.0
BOARD_MARGIN = 6.0

# A move is checked against the replayed table and stored under this lock, so two phones sending at the same
# moment cannot both be stored against the same position (the server is one process of threads).
_MOVES_LOCK = threading.Lock()


# --- a new game ---------------------------------------------------------------------------------------------


@bp.get("/new/river-dragons")
def new_game() -> str:
    return _setup_form(error=None)


@bp.post("/new/river-dragons")
def create_game() -> Response | tuple[str, int]:
    try:
        names, start = seating(request.form)
    except SeatingError as error:
        return _setup_form(error=str(error)), 400
    players = [
        history.NewPlayer(name, colour, {}) for name, colour in zip(names, COLOURS[: len(names)], strict=True)
    ]
    game = history.create_game(KIND, {"rules": TEXT.name, "start_player": start}, players)
    return redirect(url_for("riverdragons.game", token=game.token), code=303)


def seating(form: Mapping[str, str]) -> tuple[list[str], int]:
    """The players' names in seating order (blank seats skipped) and the index of the one who starts."""
    seated = seated_names(form, SEATS)
    if len(seated) not in PLAYER_COUNTS:
        raise SeatingError(
            f"River Dragons is for {PLAYER_COUNTS[0]} to {PLAYER_COUNTS[-1]} players; "
            f"{len(seated)} named: give each player at the table a name"
        )
    seats = [seat for seat, _ in seated]
    start = form.get("start", "") or str(seats[0])
    if not start.isdigit() or int(start) not in seats:
        raise SeatingError(f"the start player must be a seat with a name, not seat {start!r}")
    return [name for _, name in seated], seats.index(int(start))


def _setup_form(error: str | None) -> str:
    return render_template(
        "riverdragons/new.html", form=request.form, error=error, seats=SEATS, colours=COLOURS
    )


# --- the table: a replay of the moves in force --------------------------------------------------------------


@dataclass(frozen=True)
class PlayedMove:
    """A stored move and who played it."""

    capture: Capture
    player: Player
    move: Move

    @property
    def summary(self) -> str:
        return describe(self.player.name, self.move)


@dataclass(frozen=True)
class Table:
    """A game as it stands: its players, the engine, the moves in force and the state they lead to.

    `taken_back` is the move whose take-back is the game's latest change, the one that can be put back.
    """

    game: Game
    players: tuple[Player, ...]
    engine: RiverDragons
    state: State
    played: tuple[PlayedMove, ...]
    taken_back: PlayedMove | None
    last_event_id: int

    def name(self, player: int) -> str:
        return self.players[player].name


def replay(game: Game) -> Table:
    players = tuple(history.players(game))
    engine = RiverDragons(
        len(players), rules=rules_named(game.setup["rules"]), colours=tuple(p.colour for p in players)
    )
    state = engine.initial_state(game.setup["start_player"])
    by_id = {p.id: p for p in players}
    played: list[PlayedMove] = []
    withdrawn: dict[int, PlayedMove] = {}
    for capture in history.captures(game):
        move = PlayedMove(capture, by_id[capture.player_id], engine.parse_move(capture.reading["move"]))
        if MOVE_CELL in capture.corrected_cells():
            withdrawn[capture.id] = move
        else:
            state = engine.apply(state, move.move)
            played.append(move)
    latest = _latest_event(game)
    taken_back = None
    if latest is not None and latest.kind == "correction" and latest.subject_id is not None:
        taken_back = withdrawn.get(latest.subject_id)
    last_event_id = latest.id if latest is not None else 0
    return Table(game, players, engine, state, tuple(played), taken_back, last_event_id)


def _latest_event(game: Game) -> Event | None:
    """The game's newest event (event ids are shared by all games, so the one before may be another's)."""
    newest = history.events_after(game, history.last_event_id(game) - 1)
    return newest[-1] if newest else None


def describe(name: str, move: Move) -> str:
    """A move in words for the game's feed, which every phone sees: a planned card stays hidden."""
    match move:
        case Plan():
            return f"{name} planned a card"
        case PlaceStone(island):
            return f"{name} put a stone on {island}"
        case Lay(plank, ends):
            return f"{name} laid {plank} {plank_place(ends)}"
        case Lose(plank):
            return f"{name} lost {plank}: it fits nowhere"
        case RemovePlank(ends):
            return f"{name} took back the plank on {plank_place(ends)}"
        case RemoveStone(island):
            return f"{name} took back the stone on {island}"
        case Walk(path):
            return f"{name} moved to {' then '.join(path)}"
        case Jump(over, landing):
            return f"{name} jumped over {plank_place(over)} to {landing}"


# --- what the page shows ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardView:
    """One position of a program: its card when this phone may see it (None: face down or not planned)."""

    position: int
    face: str | None
    planned: bool
    cancelled: bool
    current: bool


@dataclass(frozen=True)
class ProgramView:
    player: Player
    cards: tuple[CardView, ...]

    @property
    def planned(self) -> int:
        return sum(card.planned for card in self.cards)


def program_views(table: Table, viewer: int | None) -> list[ProgramView]:
    """Each program as this phone may see it: its own cards always, the others' once revealed."""
    state = table.state
    revealed_to = state.position if state.phase is not Phase.PLAN else 0
    views = []
    for player, program in enumerate(state.programs):
        cards = []
        for position in range(1, PROGRAM_SIZE + 1):
            planned = position <= len(program)
            face_up = planned and (player == viewer or position <= revealed_to)
            cards.append(
                CardView(
                    position=position,
                    face=program[position - 1] if face_up else None,
                    planned=planned,
                    cancelled=planned
                    and position <= revealed_to
                    and table.engine.cancelled(state, player, position),
                    current=state.phase is Phase.RESOLVE
                    and player == state.to_move
                    and position == state.position,
                )
            )
        views.append(ProgramView(table.players[player], tuple(cards)))
    return views


def effect_note(state: State) -> str:
    """Which of a two-effect card's placements is being made (stone2, plank2); empty for other cards."""
    if state.phase is not Phase.RESOLVE or state.card(state.mover, state.position) not in TWO_EFFECT_CARDS:
        return ""
    return "first of two" if state.effects_left > 1 else "second of two"


@dataclass(frozen=True)
class MoveOption:
    notation: str
    label: str


@dataclass(frozen=True)
class MoveGroup:
    """Moves offered together: a button each when few, else one list to pick from (a plank's many sites).
    The cards to plan are always buttons (13 at most), so the planner picks a card with one tap."""

    title: str
    options: tuple[MoveOption, ...]

    @property
    def as_buttons(self) -> bool:
        return self.title == PLAN_TITLE or len(self.options) <= BUTTONS_UP_TO


def group_moves(moves: Iterable[Move]) -> list[MoveGroup]:
    """The legal moves grouped by what they do (each plank its own group), in the engine's order."""
    groups: dict[str, list[MoveOption]] = {}
    for move in moves:
        title, label = _title_and_label(move)
        groups.setdefault(title, []).append(MoveOption(str(move), label))
    return [MoveGroup(title, tuple(options)) for title, options in groups.items()]


def _title_and_label(move: Move) -> tuple[str, str]:
    match move:
        case Plan(card):
            return PLAN_TITLE, card
        case PlaceStone(island):
            return "Put a stone on an island", island
        case Lay(plank, ends):
            return f"Lay {plank}", plank_place(ends)
        case Lose(plank):
            return "Lose a plank that fits nowhere", str(plank)
        case RemovePlank(ends):
            return "Take back a plank", plank_place(ends)
        case RemoveStone(island):
            return "Take back a stone", island
        case Walk(path):
            return "Move your pawn", " → ".join(path)
        case Jump(over, landing):
            return "Jump", f"over {plank_place(over)} to {landing}"


# --- the board as shapes for the page's SVG -----------------------------------------------------------------


@dataclass(frozen=True)
class SupportShape:
    """A village or an island, and whether a stone lies on it."""

    name: str
    x: float
    y: float
    r: float
    village: bool
    stone: bool


@dataclass(frozen=True)
class PlankShape:
    place: str
    plank: str
    x1: float
    y1: float
    x2: float
    y2: float
    colour: str
    length: int


@dataclass(frozen=True)
class PawnShape:
    name: str
    place: str
    x: float
    y: float
    r: float
    colour: str


@dataclass(frozen=True)
class GoalShape:
    """A ring round the village a player must reach, in the player's colour."""

    name: str
    village: str
    x: float
    y: float
    r: float
    colour: str


@dataclass(frozen=True)
class BoardDrawing:
    view_box: str
    stone_radius: float
    supports: tuple[SupportShape, ...]
    planks: tuple[PlankShape, ...]
    pawns: tuple[PawnShape, ...]
    goals: tuple[GoalShape, ...]


def board_drawing(engine: RiverDragons, state: State, names: Sequence[str]) -> BoardDrawing:
    """The table in the board's own coordinates: supports, stones, planks, pawns (side by side when they
    share a place) and each player's goal."""
    board = engine.board
    stoned = set(state.stones)
    supports = [
        SupportShape(name, *board.point(name), VILLAGE_RADIUS, True, name in stoned)
        for name in board.village_names
    ] + [
        SupportShape(name, *board.point(name), board.island_radius, False, name in stoned)
        for name in board.island_names
    ]
    planks = [
        PlankShape(
            laid.place,
            str(laid.plank),
            *board.point(laid.ends[0]),
            *board.point(laid.ends[1]),
            PIECE_COLOURS[laid.plank.colour],
            laid.plank.length,
        )
        for laid in state.planks
    ]
    pawns = []
    for player, place in enumerate(state.pawns):
        x, y = _centre(engine, place)
        sharing = [p for p, there in enumerate(state.pawns) if there == place]
        x += (sharing.index(player) - (len(sharing) - 1) / 2) * 2 * PAWN_RADIUS
        pawns.append(
            PawnShape(names[player], place, x, y, PAWN_RADIUS, PIECE_COLOURS[engine.colours[player]])
        )
    goals = [
        GoalShape(
            names[player],
            engine.goal(player),
            *board.point(engine.goal(player)),
            VILLAGE_RADIUS + 3,
            PIECE_COLOURS[engine.colours[player]],
        )
        for player in range(state.players)
    ]
    edge = VILLAGE_RADIUS + BOARD_MARGIN
    left, top = min(s.x for s in supports) - edge, min(s.y for s in supports) - edge
    width, height = max(s.x for s in supports) + edge - left, max(s.y for s in supports) + edge - top
    view_box = f"{left:g} {top:g} {width:g} {height:g}"
    return BoardDrawing(
        view_box, board.stone_radius, tuple(supports), tuple(planks), tuple(pawns), tuple(goals)
    )


def _centre(engine: RiverDragons, place: str) -> tuple[float, float]:
    """Where a pawn stands: its village, or the middle of its plank."""
    ends = place_ends(place)
    if ends is None:
        return engine.board.point(place)
    (x1, y1), (x2, y2) = engine.board.point(ends[0]), engine.board.point(ends[1])
    return (x1 + x2) / 2, (y1 + y2) / 2


# --- the game page ------------------------------------------------------------------------------------------


def _load(token: str) -> Game:
    return load_game_of_kind(token, KIND, "River Dragons")


def _my_seat(token: str, players: Sequence[Player]) -> Player | None:
    """The player this phone said it is in this game, if any."""
    seat = remembered_seat(token)
    return next((p for p in players if p.seat == seat), None)


def page_context(game: Game) -> dict[str, object]:
    table = replay(game)
    state = table.state
    me = _my_seat(game.token, table.players)
    viewer = me.seat - 1 if me is not None else None
    may_act = state.to_move is not None and viewer in (None, state.to_move)
    outcome = table.engine.outcome(state)
    return {
        "game": game,
        "table": table,
        "state": state,
        "players": table.players,
        "me": me,
        "may_act": may_act,
        "move_groups": group_moves(table.engine.legal_moves(state)) if may_act else [],
        "programs": program_views(table, viewer),
        "program_size": PROGRAM_SIZE,
        "effect_note": effect_note(state),
        "standings": table.engine.score(state),
        "violations": table.engine.violations(state),
        "winners": [table.name(p) for p in outcome.winners] if outcome else [],
        "drawing": board_drawing(table.engine, state, [p.name for p in table.players]),
        "recent": table.played[::-1][:RECENT_MOVES],
        "last_event_id": table.last_event_id,
        "submission": secrets.token_urlsafe(24),
    }


@bp.get("/g/<token>/river-dragons")
def game(token: str) -> str:
    game = _load(token)
    return render_template("riverdragons/game.html", join_url=join_url(game), **page_context(game))


@bp.get("/g/<token>/river-dragons/panel")
def panel(token: str) -> str:
    """The live part of the page alone, fetched again whenever the game changes."""
    return render_template("riverdragons/_panel.html", **page_context(_load(token)))


@bp.post("/g/<token>/river-dragons/seat")
def choose_seat(token: str) -> Response:
    """Say which player this phone is (nobody: the table's shared phone)."""
    game = _load(token)
    seat = request.form.get("seat", "")
    if not seat:
        forget_seat(token)
    else:
        remember_seat(token, player_in_seat(game, seat).seat)
    return redirect(url_for("riverdragons.game", token=token), code=303)


# --- moves and take-backs -----------------------------------------------------------------------------------


@bp.post("/g/<token>/river-dragons/moves")
def play(token: str) -> Response:
    """One decision of the player to move, from a button, a list or typed; checked before it is stored."""
    game = _load(token)
    refuse_if_ended(game)
    submission = submission_key()
    text = " ".join(request.form.get("move", "").split())
    with _MOVES_LOCK:
        table = replay(game)
        _refuse_if_stale(table)
        state = table.state
        if state.to_move is None:
            abort(409, description="The game is over; no more moves can be played.")
        mover = table.players[state.to_move]
        me = _my_seat(token, table.players)
        if me is not None and me != mover:
            abort(
                409,
                description=f"It is {mover.name}'s turn, and this phone is {me.name}'s. Pass the phone to "
                f"{mover.name}, or set it to nobody to play for whoever is to move.",
            )
        move = _legal_move(table, text)
        after = table.engine.apply(state, move)
        summary = describe(mover.name, move)
        if after.winner is not None:
            summary += f"; {mover.name} wins"
        history.add_capture(game, mover, submission, {"move": str(move)}, summary)
    return redirect(url_for("riverdragons.game", token=token), code=303)


def _legal_move(table: Table, text: str) -> Move:
    """The move `text` names when it is legal now; a 400 that says why, and what is expected, when not."""
    state = table.state
    legal = list(table.engine.legal_moves(state))
    expected = _expected(table, legal)
    try:
        move = table.engine.parse_move(text)
    except ParseError as error:
        abort(400, description=f"{error}. {expected}")
    if move not in legal:
        try:
            table.engine.apply(state, move)
            reason = "it is not one of the moves open now"
        except IllegalMove as error:
            reason = str(error)
        abort(400, description=f"{text!r} cannot be played now: {reason}. {expected}")
    return move


def _expected(table: Table, legal: Sequence[Move]) -> str:
    """What the player to move may do, for an error: every move when few, else the kind and an example."""
    state = table.state
    name = table.name(state.mover)
    if len(legal) <= LEGAL_LISTED_UP_TO:
        return f"{name} may play: {', '.join(str(m) for m in legal)}."
    doing = "plan a card" if state.phase is Phase.PLAN else f"play {state.card(state.mover, state.position)}"
    return f"{name} is to {doing}: {len(legal)} moves are legal, such as '{legal[0]}'."


def _refuse_if_stale(table: Table) -> None:
    """A form drawn before the game last changed answers a position that is gone."""
    seen = request.form.get("seen", "")
    if not seen.isdigit():
        abort(400, description="The form does not say which turn it was drawn for. Reload the game page.")
    if int(seen) != table.last_event_id:
        abort(
            409,
            description="The game changed since this page was drawn (a move here or on another phone), "
            "so this was not stored. The game page shows what is expected now.",
        )


@bp.post("/g/<token>/river-dragons/take-back")
def take_back(token: str) -> Response:
    """Take back the last move in force: a correction of its capture, so the history keeps it."""
    game = _load(token)
    refuse_if_ended(game)
    with _MOVES_LOCK:
        table = replay(game)
        last = table.played[-1] if table.played else None
        if last is None or request.form.get("capture", "") != str(last.capture.id):
            abort(409, description="Only the last move played can be taken back, and this is not it.")
        history.add_correction(game, last.capture.id, MOVE_CELL, None, f"Took back: {last.summary}")
    return redirect(url_for("riverdragons.game", token=token), code=303)


@bp.post("/g/<token>/river-dragons/take-back/undo")
def undo_take_back(token: str) -> Response:
    """Put back the move just taken back, while nothing else has happened since."""
    game = _load(token)
    refuse_if_ended(game)
    with _MOVES_LOCK:
        table = replay(game)
        restored = table.taken_back
        if restored is None or request.form.get("capture", "") != str(restored.capture.id):
            abort(
                409,
                description="Only the latest take-back can be undone, before any other move is played.",
            )
        history.undo_last_correction(game, restored.capture.id, lambda _: f"Put back: {restored.summary}")
    return redirect(url_for("riverdragons.game", token=token), code=303)
