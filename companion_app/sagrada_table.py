"""Sagrada at the table: the set-up choices (all read from the engine) and each player's window as scored.

A Sagrada capture's reading is `{"window": <window notation> | null, "favor_tokens": int | null,
"unsure": [<cell>, ...], "message": <for the page> | null, "annotated": <photo file> | null}`, typed by a
player or given by the photo reader; the corrections in force are laid over it, and the engine audits and
scores the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from werkzeug.datastructures import MultiDict

from companion_app.history import Capture, Player
from engine.core import EngineError, IllegalMove, Violation
from engine.sagrada.objectives import PUBLIC_OBJECTIVES, PrivateObjective, public_objectives
from engine.sagrada.rules import PRESETS, Rules, rules_named
from engine.sagrada.scoring import ScoreBreakdown, ranking_key, score_window
from engine.sagrada.tools import TOOL_SETS, Tool
from engine.sagrada.window import (
    ALL_CELLS,
    COLS,
    Cell,
    Color,
    Die,
    Pattern,
    Window,
    find_pattern,
    legal_placements,
    official_patterns,
    placement_error,
)

KIND = "sagrada"
MIN_PLAYERS = 2
MAX_PLAYERS = 4


class SetupError(ValueError):
    """The new-game form asked for a set-up the rules do not allow; the message names the field."""


class ReadingError(ValueError):
    """A typed window or a correction could not be read; the message says where."""


@dataclass(frozen=True)
class SetupChoices:
    """Everything the new-game form offers, straight from the engine's data."""

    patterns: tuple[Pattern, ...]
    public_objectives: tuple[str, ...]
    private_objectives: tuple[PrivateObjective, ...]
    rulesets: tuple[Rules, ...]
    tools: tuple[tuple[Rules, tuple[Tool, ...]], ...]


def setup_choices() -> SetupChoices:
    rulesets = tuple(PRESETS.values())
    return SetupChoices(
        patterns=tuple(sorted(official_patterns().values(), key=lambda p: (p.difficulty, p.name))),
        public_objectives=tuple(card.name for card in PUBLIC_OBJECTIVES),
        private_objectives=tuple(PrivateObjective(color) for color in Color),
        rulesets=rulesets,
        tools=tuple((rules, TOOL_SETS[rules.tool_set]) for rules in rulesets),
    )


def read_setup(
    form: MultiDict[str, str], seats: Sequence[int]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The game's set-up and each seated player's, from the new-game form; raises SetupError."""
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise SetupError(f"Sagrada needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(seats)}")
    try:
        rules = rules_named(form.get("ruleset", ""))
    except EngineError as error:
        raise SetupError(str(error)) from None
    objectives = form.getlist("public_objective")
    if len(objectives) != rules.public_objectives:
        wanted = rules.public_objectives
        raise SetupError(f"the {rules.name} rules use {wanted} public objectives, {len(objectives)} chosen")
    tools = form.getlist("tool")
    allowed = TOOL_SETS[rules.tool_set]
    if len(tools) != rules.tool_cards:
        raise SetupError(f"the {rules.name} rules use {rules.tool_cards} tool cards, {len(tools)} chosen")
    try:
        cards = public_objectives(objectives)
        chosen_tools = [Tool.parse(name) for name in tools]
    except EngineError as error:
        raise SetupError(str(error)) from None
    for tool in chosen_tools:
        if tool not in allowed:
            raise SetupError(f"tool card {tool.card.title!r} is not part of the {rules.name} rules")
    if len(set(chosen_tools)) != len(chosen_tools):
        raise SetupError("a tool card is chosen twice")
    players = [_read_player_setup(form, seat, rules, len(seats)) for seat in seats]
    for field, what in (("pattern", "window pattern"), ("private_objective", "private objective")):
        taken = [p[field] for p in players]
        if len(set(taken)) != len(taken):
            raise SetupError(f"two players have the same {what}; each card is dealt once")
    game = {
        "ruleset": rules.name,
        "public_objectives": [card.name for card in cards],
        "tools": [tool.card.title for tool in chosen_tools],
    }
    return game, players


def _read_player_setup(
    form: MultiDict[str, str], seat: int, rules: Rules, player_count: int
) -> dict[str, Any]:
    try:
        pattern = find_pattern(form.get(f"pattern_{seat}", ""))
        private = PrivateObjective.parse(form.get(f"private_{seat}", ""))
    except EngineError as error:
        raise SetupError(f"player {seat}: {error}") from None
    return {
        "pattern": pattern.name,
        "private_objective": private.color.label,
        "favor_tokens": rules.favor_tokens(pattern.difficulty, player_count),
    }


def typed_reading(text: str, favor_tokens: str) -> dict[str, Any]:
    """A reading from a window typed in the engine's notation, with the favor tokens left."""
    try:
        window = Window.parse(text)
    except EngineError as error:
        raise ReadingError(str(error)) from None
    tokens: int | None = None
    if favor_tokens.strip():
        if not favor_tokens.strip().isdigit():
            raise ReadingError(f"favor tokens left must be a whole number, got {favor_tokens!r}")
        tokens = int(favor_tokens)
    return {"source": "typed", "window": str(window), "favor_tokens": tokens}


def photo_reading(answer: dict[str, Any]) -> dict[str, Any]:
    """A photo reader's answer, checked: `{"window": <notation>, "unsure": [<cell>, ...], "message": ...}`,
    where `unsure` names the spaces the reader is not sure of, for the players to confirm with a tap, and the
    optional `message` says which window of the photo was read.
    """
    notation = answer.get("window")
    if not isinstance(notation, str):
        raise ReadingError("the photo reader gave no window")
    try:
        window = Window.parse(notation)
        unsure = sorted({str(Cell.parse(str(cell))) for cell in answer.get("unsure", ())})
    except EngineError as error:
        raise ReadingError(f"the photo reader gave a malformed reading: {error}") from None
    message = answer.get("message")
    return {
        "source": "photo",
        "window": str(window),
        "favor_tokens": None,
        "unsure": unsure,
        "message": str(message) if message else None,
    }


def checked_correction(cell: str, color: str, value: str, absent: bool) -> tuple[str, str | None]:
    """A correction's space and die in the engine's notation (None: the space is empty)."""
    try:
        space = Cell.parse(cell)
    except EngineError as error:
        raise ReadingError(str(error)) from None
    return str(space), None if absent else str(pool_die(color, value))


def pool_die(color: str, value: str) -> Die:
    """A die named on a form by its colour and value."""
    if not value.isdigit():
        raise ReadingError(f"a die needs a value from 1 to 6, got {value!r}")
    try:
        return Die(Color.parse(color), int(value))
    except EngineError as error:
        raise ReadingError(str(error)) from None


def describe_die(die: str | None) -> str:
    if die is None:
        return "empty"
    parsed = Die.parse(die)
    return f"a {parsed.color.label} {parsed.value}"


@dataclass(frozen=True)
class Space:
    """One space as the page draws it: the die there (or the printed restriction) and what to flag."""

    cell: str
    die: Die | None
    restriction: str
    illegal: bool
    corrected: bool
    unsure: bool  # the photo reader was not sure of this space and no one has confirmed it since


@dataclass(frozen=True)
class PlayerWindow:
    """A player's window as last captured, corrections applied, audited and scored."""

    player: Player
    pattern: Pattern
    private_objective: PrivateObjective
    capture: Capture | None
    window: Window | None  # None until a capture holds a window
    message: str | None  # what the reader said of the latest capture, or why it holds no window
    score: ScoreBreakdown | None
    spaces: tuple[Space, ...]
    changes: tuple[Change, ...]  # since the player's previous capture

    @property
    def rows(self) -> list[tuple[Space, ...]]:
        return [self.spaces[r * COLS : (r + 1) * COLS] for r in range(len(self.spaces) // COLS)]

    @property
    def violations(self) -> tuple[Violation, ...]:
        return self.score.violations if self.score is not None else ()


def captured_window(capture: Capture) -> Window | None:
    """The window a capture shows, with its corrections in force; None when nothing was read or fixed."""
    notation = capture.reading.get("window")
    corrections = capture.corrected_cells()
    if notation is None and not corrections:
        return None
    window = Window.parse(notation) if notation is not None else Window()
    for cell, die in corrections.items():
        window = window.with_die(Cell.parse(cell), Die.parse(die) if die is not None else None)
    return window


def player_windows(
    setup: dict[str, Any], players: Sequence[Player], captures: Sequence[Capture]
) -> list[PlayerWindow]:
    """Every player's latest window, scored under the game's rules, with what changed since the one before."""
    rules = rules_named(setup["ruleset"])
    cards = public_objectives(setup["public_objectives"])
    views = []
    for player in players:
        pattern = find_pattern(player.setup["pattern"])
        private = PrivateObjective.parse(player.setup["private_objective"])
        own = [c for c in captures if c.player_id == player.id]
        capture = own[-1] if own else None
        window = captured_window(capture) if capture is not None else None
        score = None
        changes: tuple[Change, ...] = ()
        if window is not None and capture is not None:
            tokens = capture.reading.get("favor_tokens")
            score = score_window(
                window,
                pattern,
                objectives=cards,
                private=private.color,
                favor_tokens=player.setup["favor_tokens"] if tokens is None else tokens,
                rules=rules,
            )
            earlier = (w for c in reversed(own[:-1]) if (w := captured_window(c)) is not None)
            changes = changes_since(next(earlier, None), window, pattern, player.name)
        said = capture.reading.get("message") if capture is not None else None
        message = str(said) if said else None
        if capture is not None and window is None and message is None:
            message = "nothing was read from this capture"
        views.append(
            PlayerWindow(
                player=player,
                pattern=pattern,
                private_objective=private,
                capture=capture,
                window=window,
                message=message,
                score=score,
                spaces=_spaces(pattern, window, score, capture),
                changes=changes,
            )
        )
    return views


@dataclass(frozen=True)
class Change:
    """One difference from the player's previous window, and the rule it breaks (None: allowed)."""

    text: str
    problem: str | None
    checked: bool = True  # False for a summary the rules were not applied to one die at a time


MOST_PLACEMENTS_CHECKED = 4  # a round places at most two dice per player; beyond four, leave it to the audit


def changes_since(before: Window | None, after: Window, pattern: Pattern, name: str) -> tuple[Change, ...]:
    """The dice placed (each checked in the most lenient order it could have gone in) and the dice that
    moved, changed or vanished, which Sagrada never allows, from one capture of a window to the next.
    `before` is None for the player's first capture.
    """
    since = f"since {name}'s previous capture" if before is not None else f"in {name}'s first capture"
    before = before if before is not None else Window()
    changes = []
    for cell, old in before.placed():
        new = after[cell]
        if new != old:
            now = "was taken away" if new is None else f"changed to {new}"
            changes.append(Change(f"{old} on {cell} {now}", "a placed die stays as it is for the whole game"))
    placed = [(cell, die) for cell, die in after.placed() if before[cell] is None]
    if len(placed) > MOST_PLACEMENTS_CHECKED:
        return (*changes, Change(f"{len(placed)} new dice {since}: see the audit below", None, checked=False))
    start = Window(tuple(after[c] if before[c] is not None else None for c in ALL_CELLS))
    for (cell, die), error in _most_lenient_order(start, pattern, placed):
        text = f"{name} placed a {die.color.label} {die.value} on {cell}"
        changes.append(Change(text, error.message if error is not None else None))
    return tuple(changes)


def _most_lenient_order(
    window: Window, pattern: Pattern, placed: Sequence[tuple[Cell, Die]]
) -> list[tuple[tuple[Cell, Die], IllegalMove | None]]:
    """The placement order that breaks the fewest rules, each placement with its error (or None)."""
    best: list[tuple[tuple[Cell, Die], IllegalMove | None]] = []
    for order in permutations(placed):
        current, checked = window, []
        for cell, die in order:
            checked.append(((cell, die), placement_error(current, pattern, cell, die)))
            current = current.with_die(cell, die)
        if not best or _errors(checked) < _errors(best):
            best = checked
    return best


def _errors(checked: Sequence[tuple[object, IllegalMove | None]]) -> int:
    return sum(error is not None for _, error in checked)


def legal_spaces(window: Window | None, pattern: Pattern, die: Die) -> list[str]:
    """Every empty space where `die` may go now: the hint for a die in the draft pool."""
    return [str(cell) for cell in legal_placements(window or Window(), pattern, die)]


def _spaces(
    pattern: Pattern, window: Window | None, score: ScoreBreakdown | None, capture: Capture | None
) -> tuple[Space, ...]:
    illegal = set(score.illegal_dice) if score is not None else set()
    corrected = set(capture.corrected_cells()) if capture is not None else set()
    unsure = set(capture.reading.get("unsure", ())) - corrected if capture is not None else set()
    return tuple(
        Space(
            cell=str(cell),
            die=window[cell] if window is not None else None,
            restriction=str(pattern.restriction(cell)),
            illegal=cell in illegal,
            corrected=str(cell) in corrected,
            unsure=str(cell) in unsure,
        )
        for cell in ALL_CELLS
    )


@dataclass(frozen=True)
class Standing:
    """One line of the score sheet: the player, their score, and their place after the tie-breakers."""

    place: int
    view: PlayerWindow
    total: int
    private_points: int
    favor_tokens: int


def standings(setup: dict[str, Any], views: Sequence[PlayerWindow]) -> list[Standing]:
    """Players ranked by total, then private objective points, then favor tokens left, then the ruleset's
    last tie-breaker: the later seat in the final round's order (official) or a shared place (text).
    """
    rules = rules_named(setup["ruleset"])
    final_round_start = (rules.rounds - 1) % max(len(views), 1)

    def later_in_final_round(view: PlayerWindow) -> int:
        return (view.player.seat - 1 - final_round_start) % len(views)

    def key(view: PlayerWindow) -> tuple[int, ...]:
        if view.score is None:
            return (0, 0, 0)  # nothing read yet: below every scored player
        return ranking_key(view.score, later_in_final_round(view), rules)

    ranked = sorted(views, key=key, reverse=True)
    lines: list[Standing] = []
    for index, view in enumerate(ranked):
        place = lines[-1].place if lines and key(ranked[index - 1]) == key(view) else index + 1
        score = view.score
        lines.append(
            Standing(
                place=place,
                view=view,
                total=score.total if score is not None else 0,
                private_points=score.private_points if score is not None else 0,
                favor_tokens=score.favor_tokens if score is not None else 0,
            )
        )
    return lines
