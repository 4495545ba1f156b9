"""Sagrada moves: small frozen values with a text notation where `str(parse_move(text)) == text`.

Pool dice and tool cards are numbered from 1 in the order the state lists them (the pool is kept sorted);
spaces are written `r<row>c<col>`; dice `r5`. The grammar, one line per move:

    choose <n>                      pick the n-th pattern dealt to you (set-up)
    draft <i> <cell>                draft pool die i and place it on <cell>
    draft <i> discard               (text rules) draft pool die i that fits nowhere; it is set aside
    pass                            end your turn
    tool <k> [pay <i>] [draft <i>] [reroll <i>] [+1|-1] [as <colour>] [swap <die>] [move <a> <b>]... [<cell>]
                                    use the k-th tool card; which parts a card takes is in `tools.py`
    place <cell>                    place the die a tool left in your hand (Flux Brush, Flux Remover)
    value <v>                       choose the value of the die Flux Remover drew
    roll <die> [<die>...]           chance: dice drawn from the bag (or re-rolled) show these faces
    draw <colour>                   chance: Flux Remover drew a die of this colour from the bag
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import ParseError
from engine.sagrada.window import Cell, Color, Die


@dataclass(frozen=True)
class ChoosePattern:
    option: int

    def __str__(self) -> str:
        return f"choose {self.option}"


@dataclass(frozen=True)
class Draft:
    """Draft pool die `pool_index` (1-based) and place it on `target`; None: set it aside (text rules)."""

    pool_index: int
    target: Cell | None

    def __str__(self) -> str:
        return f"draft {self.pool_index} {self.target if self.target is not None else 'discard'}"


@dataclass(frozen=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class DieMove:
    """One die moved within the window by a tool."""

    source: Cell
    target: Cell

    def __str__(self) -> str:
        return f"move {self.source} {self.target}"


@dataclass(frozen=True)
class UseTool:
    """Use the `card`-th tool on the table; the fields a card needs are given by its `ToolForm`."""

    card: int
    pay: int | None = None
    draft: int | None = None
    reroll: int | None = None
    delta: int | None = None
    recolor: Color | None = None
    swap: Die | None = None
    moves: tuple[DieMove, ...] = ()
    target: Cell | None = None

    def __str__(self) -> str:
        parts = [f"tool {self.card}"]
        if self.pay is not None:
            parts.append(f"pay {self.pay}")
        if self.draft is not None:
            parts.append(f"draft {self.draft}")
        if self.reroll is not None:
            parts.append(f"reroll {self.reroll}")
        if self.delta is not None:
            parts.append(f"{self.delta:+d}")
        if self.recolor is not None:
            parts.append(f"as {self.recolor.letter}")
        if self.swap is not None:
            parts.append(f"swap {self.swap}")
        parts.extend(str(m) for m in self.moves)
        if self.target is not None:
            parts.append(str(self.target))
        return " ".join(parts)


@dataclass(frozen=True)
class PlaceHeld:
    """Place the die a tool left in the current player's hand."""

    target: Cell

    def __str__(self) -> str:
        return f"place {self.target}"


@dataclass(frozen=True)
class ChooseValue:
    """Turn the die Flux Remover drew to a value of the player's choice."""

    value: int

    def __str__(self) -> str:
        return f"value {self.value}"


@dataclass(frozen=True)
class Roll:
    """Chance: dice drawn from the bag or re-rolled, as they came up (one die when simulated)."""

    dice: tuple[Die, ...]

    def __str__(self) -> str:
        return "roll " + " ".join(str(d) for d in self.dice)


@dataclass(frozen=True)
class Draw:
    """Chance: the colour of the die Flux Remover drew from the bag."""

    color: Color

    def __str__(self) -> str:
        return f"draw {self.color.letter}"


SagradaMove = ChoosePattern | Draft | Pass | UseTool | PlaceHeld | ChooseValue | Roll | Draw


def _number(token: str, what: str, text: str) -> int:
    if not token.isdigit() or int(token) < 1:
        raise ParseError(f"in {text!r}: {what} must be a number from 1, got {token!r}")
    return int(token)


def _take(tokens: list[str], at: int, count: int, text: str) -> list[str]:
    if at + count > len(tokens):
        raise ParseError(f"in {text!r}: {tokens[at - 1]!r} needs {count} more argument(s)")
    return tokens[at : at + count]


def parse_move(text: str) -> SagradaMove:
    """Read one move in the grammar above; the error names the token that is wrong."""
    tokens = text.strip().lower().split()
    if not tokens:
        raise ParseError("empty move: expected choose, draft, pass, tool, place, value, roll or draw")
    verb, args = tokens[0], tokens[1:]
    if verb == "pass" and not args:
        return Pass()
    if verb == "choose" and len(args) == 1:
        return ChoosePattern(_number(args[0], "the pattern option", text))
    if verb == "draft" and len(args) == 2:
        index = _number(args[0], "the pool die", text)
        return Draft(index, None if args[1] == "discard" else Cell.parse(args[1]))
    if verb == "place" and len(args) == 1:
        return PlaceHeld(Cell.parse(args[0]))
    if verb == "value" and len(args) == 1:
        value = _number(args[0], "the value", text)
        if value > 6:
            raise ParseError(f"in {text!r}: a die value is 1-6, got {value}")
        return ChooseValue(value)
    if verb == "roll" and args:
        return Roll(tuple(Die.parse(a) for a in args))
    if verb == "draw" and len(args) == 1:
        return Draw(Color.parse(args[0]))
    if verb == "tool" and args:
        return _parse_tool(tokens, text)
    raise ParseError(
        f"malformed move {text!r}: expected one of 'choose <n>', 'draft <i> <cell>', 'pass', 'tool <k> ...', "
        "'place <cell>', 'value <v>', 'roll <die>...', 'draw <colour>'"
    )


def _parse_tool(tokens: list[str], text: str) -> UseTool:
    card = _number(tokens[1], "the tool card", text)
    indices: dict[str, int] = {}
    delta: int | None = None
    recolor: Color | None = None
    swap: Die | None = None
    target: Cell | None = None
    moves: list[DieMove] = []
    seen: set[str] = set()
    at = 2
    while at < len(tokens):
        token = tokens[at]
        kind = "delta" if token in ("+1", "-1") else token
        if kind in seen and kind != "move":
            raise ParseError(f"in {text!r}: {token!r} given twice")
        seen.add(kind)
        if token in ("pay", "draft", "reroll"):
            (arg,) = _take(tokens, at + 1, 1, text)
            indices[token] = _number(arg, f"the {token} pool die", text)
            at += 2
        elif token in ("+1", "-1"):
            delta = int(token)
            at += 1
        elif token == "as":
            (arg,) = _take(tokens, at + 1, 1, text)
            recolor = Color.parse(arg)
            at += 2
        elif token == "swap":
            (arg,) = _take(tokens, at + 1, 1, text)
            swap = Die.parse(arg)
            at += 2
        elif token == "move":
            source, destination = _take(tokens, at + 1, 2, text)
            moves.append(DieMove(Cell.parse(source), Cell.parse(destination)))
            at += 3
        elif at == len(tokens) - 1 and token.startswith("r"):
            target = Cell.parse(token)
            at += 1
        else:
            raise ParseError(
                f"in {text!r}: unexpected {token!r}; a tool move reads "
                "'tool <k> [pay <i>] [draft <i>] [reroll <i>] [+1|-1] [as <colour>] [swap <die>] "
                "[move <from> <to>]... [<cell>]'"
            )
    move = UseTool(
        card,
        pay=indices.get("pay"),
        draft=indices.get("draft"),
        reroll=indices.get("reroll"),
        delta=delta,
        recolor=recolor,
        swap=swap,
        moves=tuple(moves),
        target=target,
    )
    return move
