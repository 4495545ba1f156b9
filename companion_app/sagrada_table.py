"""Sagrada at the table: the set-up choices (all read from the engine) and each player's window as scored.

A Sagrada capture's reading is `{"window": <window notation> | null, "favor_tokens": int | null,
"unsure": [<cell>, ...], "alternatives": {<cell>: [<die> | "--", ...]}, "message": <for the page> | null,
"annotated": <photo file> | null}`, typed by a player or given by the photo reader; the corrections in
force are laid over it, and the engine audits and scores the result. The page asks about each unsure space
until someone answers, offering the reading and its alternatives as one-tap answers. In solo play a capture
may also carry `"round_track_total"`, the target to beat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from werkzeug.datastructures import MultiDict

from companion_app.history import Capture, Player
from engine.core import EngineError, IllegalMove, Violation
from engine.sagrada.game import SOLO_POOL_SIZE, SOLO_PUBLIC_OBJECTIVES
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
MIN_PLAYERS = 1  # one player plays the solo game
MAX_PLAYERS = 4
SOLO_TOOL_CARDS = range(1, 6)
"""Solo play's difficulty is its number of tool cards: 1 is the hardest, 5 the easiest."""
MOST_ROUND_TRACK = 10 * SOLO_POOL_SIZE * 6
"""The largest solo target: ten rounds, each leaving at most its whole pool of sixes on the track."""


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
    solo = len(seats) == 1
    objectives = form.getlist("public_objective")
    wanted = SOLO_PUBLIC_OBJECTIVES if solo else rules.public_objectives
    if len(objectives) != wanted:
        who = "solo play" if solo else f"the {rules.name} rules"
        raise SetupError(f"{who} uses {wanted} public objectives, {len(objectives)} chosen")
    tools = form.getlist("tool")
    allowed = TOOL_SETS[rules.tool_set]
    if solo and len(tools) not in SOLO_TOOL_CARDS:
        fewest, most = SOLO_TOOL_CARDS.start, SOLO_TOOL_CARDS.stop - 1
        chosen = len(tools)
        raise SetupError(f"solo play uses {fewest} to {most} tool cards (fewer is harder), {chosen} chosen")
    if not solo and len(tools) != rules.tool_cards:
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
    if solo:
        players[0] |= _read_solo_setup(form, players[0]["private_objective"])
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


def _read_solo_setup(form: MultiDict[str, str], first_private: str) -> dict[str, Any]:
    """Solo play's second private objective (the better of the two scores) and no favor tokens."""
    try:
        second = PrivateObjective.parse(form.get("private_solo", ""))
    except EngineError as error:
        raise SetupError(f"solo play's second private objective: {error}") from None
    if second.color.label == first_private:
        raise SetupError("solo play's two private objectives must be of different colours")
    return {"second_private_objective": second.color.label, "favor_tokens": 0}


def round_track_total(text: str) -> int | None:
    """The solo target typed on the capture form: the values of the round track's dice added up."""
    if not text.strip():
        return None
    if not text.strip().isdigit():
        raise ReadingError(f"the round track's total must be a whole number, got {text!r}")
    total = int(text)
    if total > MOST_ROUND_TRACK:
        raise ReadingError(f"the round track holds at most {MOST_ROUND_TRACK} points of dice, not {total}")
    return total


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
    """A photo reader's answer, checked: `{"window": <notation>, "unsure": [<cell>, ...], "alternatives":
    {<cell>: [<die> | "--", ...]}, "message": ...}`, where `unsure` names the spaces the reader is not sure
    of, for the players to confirm with a tap, the optional `alternatives` what else some of them may hold
    (most likely first, `--` for empty), and the optional `message` says which window of the photo was read.
    """
    notation = answer.get("window")
    if not isinstance(notation, str):
        raise ReadingError("the photo reader gave no window")
    try:
        window = Window.parse(notation)
        unsure = sorted({str(Cell.parse(str(cell))) for cell in answer.get("unsure", ())})
        alternatives = {
            str(Cell.parse(str(cell))): [_space_notation(str(text)) for text in others]
            for cell, others in answer.get("alternatives", {}).items()
        }
    except EngineError as error:
        raise ReadingError(f"the photo reader gave a malformed reading: {error}") from None
    sure = sorted(set(alternatives) - set(unsure))
    if sure:
        raise ReadingError(f"the photo reader gave alternatives for {', '.join(sure)}, spaces it is sure of")
    message = answer.get("message")
    return {
        "source": "photo",
        "window": str(window),
        "favor_tokens": None,
        "unsure": unsure,
        "alternatives": alternatives,
        "message": str(message) if message else None,
    }


EMPTY = "--"
"""An empty space in window notation."""


def _space_notation(text: str) -> str:
    """A space's content as the window notation writes it: a die (`r5`) or `--`."""
    return EMPTY if text.strip() == EMPTY else str(Die.parse(text))


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
class Question:
    """An unsure space the page asks about until someone answers: each answer is one tap, the reading first,
    then what else the photo reader found likely, then empty when not offered already (None: empty)."""

    cell: str
    answers: tuple[Die | None, ...]

    @property
    def reading(self) -> Die | None:
        return self.answers[0]


@dataclass(frozen=True)
class PlayerWindow:
    """A player's window as last captured, corrections applied, audited and scored."""

    player: Player
    pattern: Pattern
    private_objectives: tuple[PrivateObjective, ...]  # two in solo play, which scores the better
    capture: Capture | None
    window: Window | None  # None until a capture holds a window
    message: str | None  # what the reader said of the latest capture, or why it holds no window
    score: ScoreBreakdown | None
    spaces: tuple[Space, ...]
    questions: tuple[Question, ...]  # about the latest capture's unsure spaces, until answered
    changes: tuple[Change, ...]  # since the player's previous capture

    @property
    def rows(self) -> list[tuple[Space, ...]]:
        return [self.spaces[r * COLS : (r + 1) * COLS] for r in range(len(self.spaces) // COLS)]

    @property
    def violations(self) -> tuple[Violation, ...]:
        return self.score.violations if self.score is not None else ()

    @property
    def private_objective_names(self) -> str:
        return " or ".join(private.name for private in self.private_objectives)


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
    solo = len(players) == 1
    views = []
    for player in players:
        pattern = find_pattern(player.setup["pattern"])
        privates = tuple(
            PrivateObjective.parse(player.setup[key])
            for key in ("private_objective", "second_private_objective")
            if key in player.setup
        )
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
                private=[private.color for private in privates],
                favor_tokens=0 if solo else player.setup["favor_tokens"] if tokens is None else tokens,
                rules=rules,
                empty_space_penalty=rules.solo_empty_space_penalty if solo else None,
            )
            earlier = (w for c in reversed(own[:-1]) if (w := captured_window(c)) is not None)
            changes = changes_since(next(earlier, None), window, pattern, player.name)
        said = capture.reading.get("message") if capture is not None else None
        message = str(said) if said else None
        if capture is not None and window is None and message is None:
            message = "nothing was read from this capture"
        questions = _questions(capture, window)
        views.append(
            PlayerWindow(
                player=player,
                pattern=pattern,
                private_objectives=privates,
                capture=capture,
                window=window,
                message=message,
                score=score,
                spaces=_spaces(pattern, window, score, capture, {q.cell for q in questions}),
                questions=questions,
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


def _questions(capture: Capture | None, window: Window | None) -> tuple[Question, ...]:
    """The capture's unsure spaces that no correction in force has answered, each with its answers."""
    if capture is None or window is None:
        return ()
    corrected = capture.corrected_cells()
    alternatives: dict[str, list[str]] = capture.reading.get("alternatives", {})
    questions = []
    for cell in capture.reading.get("unsure", ()):
        if cell in corrected:
            continue
        others = (None if text == EMPTY else Die.parse(text) for text in alternatives.get(cell, ()))
        answers = dict.fromkeys([window[Cell.parse(cell)], *others, None])
        questions.append(Question(cell, tuple(answers)))
    return tuple(questions)


def _spaces(
    pattern: Pattern,
    window: Window | None,
    score: ScoreBreakdown | None,
    capture: Capture | None,
    unsure: set[str],
) -> tuple[Space, ...]:
    illegal = set(score.illegal_dice) if score is not None else set()
    corrected = set(capture.corrected_cells()) if capture is not None else set()
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


@dataclass(frozen=True)
class SoloResult:
    """Solo play's outcome: the score against the target, the round track's dice added up (None until a
    capture gives it); the player wins by beating the target."""

    total: int
    target: int | None

    @property
    def beaten(self) -> bool | None:
        return None if self.target is None else self.total > self.target


def solo_result(views: Sequence[PlayerWindow], captures: Sequence[Capture]) -> SoloResult | None:
    """The solo outcome so far; None when the game has more than one player."""
    if len(views) != 1:
        return None
    targets = [
        c.reading["round_track_total"] for c in captures if c.reading.get("round_track_total") is not None
    ]
    score = views[0].score
    return SoloResult(score.total if score is not None else 0, targets[-1] if targets else None)
