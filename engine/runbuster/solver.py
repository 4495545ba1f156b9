"""The exact two-player advisor: every choice after a roll with its chance of winning under optimal play.

A position is the pair (roller's hand, opponent's hand) just before the roller rolls; a hand is empty or one
of the 20 straights short of 1-6, so there are 21 x 21 = 441 positions. V(m, o), the roller's chance to win,
obeys

    V(m, o) = sum over rolls r of P(r) * max over keeps k of (1 if k is 1-6 else 1 - V(o', k))

where o' is o, or empty when r busts it. Only the set of values a roll shows matters (for busting and for
extending), so rolls are grouped by that set: at most 63 outcomes instead of 462 multisets.

The game has cycles (a bust sends a hand back to empty; a roll that cannot extend passes the same hands
back), so there is no backward induction. Whatever both players do, from any position the game ends within a
dozen turns with a probability bounded away from zero (hands only grow between busts and a five-dice hand is
completed by the first roll that shows the missing value), so the Bellman operator is a contraction over
several turns and has one fixed point. The solve therefore runs value iteration in floats until no value moves
by more than 1e-12, takes the greedy choices, evaluates that policy exactly in rationals, and checks in exact
arithmetic that no choice beats the chosen one; a value function that is its own greedy update is the unique
fixed point, so the figures are exact, not merely converged. (Where a choice is beaten it is switched and the
policy re-evaluated: policy iteration.) The exact evaluation is fast because of the game's shape: with both
hands non-empty, a turn either grows the roller's hand, passes the same two hands back, or busts the
opponent; so positions with two non-empty hands are expressed, largest first and in swapped pairs, as affine
functions of the 41 positions with an empty hand, leaving a 41 x 41 rational system.

The solved table ships as ``engine/data/runbuster_values.json`` (floats of the exact values); a test checks
it against a fresh solve.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources

from engine.core import JSON, EngineError, IllegalMove, InvalidData
from engine.runbuster.straights import (
    ALL_STRAIGHTS,
    DICE_PER_PLAYER,
    FACES,
    FULL_STRAIGHT,
    Dice,
    busts,
    complement,
    dashed,
    extensions,
    format_dice,
    is_straight,
    parse_dice,
    probability_roll_shows,
    roll_distribution,
)

# The hands a player can hold before rolling: empty, or a straight short of 1-6.
HANDS: tuple[Dice, ...] = ((), *(s for s in ALL_STRAIGHTS if s != FULL_STRAIGHT))
Position = tuple[Dice, Dice]  # (the roller's hand, the opponent's hand)
POSITIONS: tuple[Position, ...] = tuple((mine, theirs) for mine in HANDS for theirs in HANDS)

VALUE_TOLERANCE = 1e-12
FLOAT_MARGIN = 1e-9  # far above the rounding of a probability to a float
MAX_POLICY_ROUNDS = 20
DATA_FILE = "data/runbuster_values.json"

_WIN = -1  # a keep that completes 1-6
_Choice = int  # the index in HANDS of the hand kept, or _WIN
_Decision = tuple[int, int, int]  # (roller's hand index, opponent's hand index, shown-values mask)


def _mask(values: Iterable[int]) -> int:
    bits = 0
    for v in values:
        bits |= 1 << (v - 1)
    return bits


def _shown(mask: int) -> Dice:
    return tuple(v for v in FACES if mask >> (v - 1) & 1)


@dataclass(frozen=True)
class _Model:
    """The game reduced to hand indices and shown-value masks, precomputed once."""

    # For each number of dice, every set of shown values (as a mask) with its exact probability.
    shown: Mapping[int, tuple[tuple[int, Fraction], ...]]
    # For (hand index, mask): the choices open to the roller, (the hand's own index) when none extends.
    choices: Mapping[tuple[int, int], tuple[_Choice, ...]]
    # For (hand index, mask): whether a roll showing those values busts that hand.
    busted: Mapping[tuple[int, int], bool]

    def rolls(self, mine: int) -> tuple[tuple[int, Fraction], ...]:
        return self.shown[DICE_PER_PLAYER - len(HANDS[mine])]

    def decisions(self) -> list[_Decision]:
        """Every (roller's hand, opponent's hand, shown values) at which the roller chooses a keep."""
        n = len(HANDS)
        return [(m, o, mask) for m in range(n) for o in range(n) for mask, _ in self.rolls(m)]

    def after_bust(self, theirs: int, mask: int) -> int:
        return 0 if self.busted[theirs, mask] else theirs


@cache
def _model() -> _Model:
    index = {hand: i for i, hand in enumerate(HANDS)}
    shown: dict[int, tuple[tuple[int, Fraction], ...]] = {}
    for count in range(1, DICE_PER_PLAYER + 1):
        grouped: defaultdict[int, Fraction] = defaultdict(Fraction)
        for roll, p in roll_distribution(count):
            grouped[_mask(roll)] += p
        shown[count] = tuple(sorted(grouped.items()))
    choices: dict[tuple[int, int], tuple[_Choice, ...]] = {}
    busted: dict[tuple[int, int], bool] = {}
    for i, hand in enumerate(HANDS):
        for mask in range(1, 1 << len(FACES)):
            options = extensions(hand, _shown(mask))
            choices[i, mask] = tuple(_WIN if k == FULL_STRAIGHT else index[k] for k in options) or (i,)
            busted[i, mask] = busts(_shown(mask), hand)
    return _Model(shown=shown, choices=choices, busted=busted)


def _value_iteration(model: _Model) -> list[list[float]]:
    """Gauss-Seidel sweeps in floats until no value moves by more than VALUE_TOLERANCE.

    Per position, rolls that allow 1-6 add their probability outright, and the other rolls are grouped by
    what they leave (the opponent's hand after a bust, the keeps open), which makes a sweep cheap.
    """
    n = len(HANDS)
    values = [[0.5] * n for _ in range(n)]
    winning = [[0.0] * n for _ in range(n)]
    grouped: list[list[list[tuple[float, int, tuple[int, ...]]]]] = [[[] for _ in range(n)] for _ in range(n)]
    for m in range(n):
        for o in range(n):
            weights: defaultdict[tuple[int, tuple[int, ...]], Fraction] = defaultdict(Fraction)
            for mask, p in model.rolls(m):
                if _WIN in model.choices[m, mask]:
                    winning[m][o] += float(p)
                else:
                    weights[model.after_bust(o, mask), model.choices[m, mask]] += p
            grouped[m][o] = [(float(w), after, keeps) for (after, keeps), w in weights.items()]
    while True:
        change = 0.0
        for m in range(n):
            for o in range(n):
                total = winning[m][o]
                for weight, after, keeps in grouped[m][o]:
                    row = values[after]
                    total += weight * (1 - min(row[k] for k in keeps))
                change = max(change, abs(total - values[m][o]))
                values[m][o] = total
        if change <= VALUE_TOLERANCE:
            return values


def _greedy(model: _Model, values: list[list[float]], decision: _Decision) -> _Choice:
    """The best keep by `values`: 1-6 when it can be made, else the hand that leaves the opponent least."""
    m, o, mask = decision
    choices = model.choices[m, mask]
    if _WIN in choices:
        return _WIN
    row = values[model.after_bust(o, mask)]
    return min(choices, key=row.__getitem__)


def _improvements(
    model: _Model, policy: Mapping[_Decision, _Choice], exact: list[list[Fraction]]
) -> dict[_Decision, _Choice]:
    """The choices of `policy` that another keep beats in exact arithmetic, with the best such keep.

    Floats of the exact values pick the candidates: a keep whose float is more than FLOAT_MARGIN above the
    lowest cannot be the best, so only the few within it (exact ties, mostly) are compared as fractions.
    """
    approx = [[float(v) for v in row] for row in exact]
    better: dict[_Decision, _Choice] = {}
    for decision, chosen in policy.items():
        m, o, mask = decision
        choices = model.choices[m, mask]
        if _WIN in choices:
            if chosen != _WIN:
                better[decision] = _WIN
            continue
        after = model.after_bust(o, mask)
        exact_row, approx_row = exact[after], approx[after]
        lowest = min(approx_row[k] for k in choices)
        candidates = [k for k in choices if approx_row[k] <= lowest + FLOAT_MARGIN]
        best = min(candidates, key=exact_row.__getitem__) if len(candidates) > 1 else candidates[0]
        if best != chosen and (chosen not in candidates or exact_row[best] < exact_row[chosen]):
            better[decision] = best
    return better


def _evaluate_exactly(model: _Model, policy: Mapping[_Decision, _Choice]) -> list[list[Fraction]]:
    """The exact win chances when both players follow `policy` (the module docstring explains the method)."""
    n = len(HANDS)
    boundary = [(0, 0), *((0, h) for h in range(1, n)), *((h, 0) for h in range(1, n))]
    unknowns = len(boundary)
    constant = unknowns  # the last entry of an affine vector is its constant term

    def unit(i: int) -> list[Fraction]:
        vector = [Fraction(0)] * (unknowns + 1)
        vector[i] = Fraction(1)
        return vector

    affine: dict[tuple[int, int], list[Fraction]] = {pos: unit(i) for i, pos in enumerate(boundary)}

    def expand(pos: tuple[int, int], held_out: tuple[int, int] | None) -> tuple[list[Fraction], Fraction]:
        """V(pos) as an affine vector plus a coefficient on V(held_out), which is not yet known."""
        m, o = pos
        vector = [Fraction(0)] * (unknowns + 1)
        vector[constant] = Fraction(1)  # every roll scores 1, less the opponent's chance where they move next
        weights: defaultdict[tuple[int, int], Fraction] = defaultdict(Fraction)
        for mask, p in model.rolls(m):
            choice = policy[m, o, mask]
            if choice != _WIN:
                weights[model.after_bust(o, mask), choice] += p
        on_held_out = -weights.pop(held_out, Fraction(0)) if held_out is not None else Fraction(0)
        for successor, weight in weights.items():
            for j, coefficient in enumerate(affine[successor]):
                if coefficient:
                    vector[j] -= weight * coefficient
        return vector, on_held_out

    inner = sorted(
        ((m, o) for m in range(1, n) for o in range(1, n)),
        key=lambda pos: -len(HANDS[pos[0]]) - len(HANDS[pos[1]]),
    )
    for pos in inner:
        if pos in affine:
            continue
        swapped = (pos[1], pos[0])
        first, c_first = expand(pos, swapped)
        if swapped == pos:
            affine[pos] = [x / (1 - c_first) for x in first]
            continue
        second, c_second = expand(swapped, pos)
        denominator = 1 - c_first * c_second
        solved = [(a + c_first * b) / denominator for a, b in zip(first, second, strict=True)]
        affine[pos] = solved
        affine[swapped] = [b + c_second * x for b, x in zip(second, solved, strict=True)]

    rows = []
    for i, pos in enumerate(boundary):
        vector, _ = expand(pos, None)
        row = [-x for x in vector[:unknowns]]
        row[i] += 1
        rows.append([*row, vector[constant]])
    solution = _solve_linear(rows)
    values = [[Fraction(0)] * n for _ in range(n)]
    for (m, o), vector in affine.items():
        values[m][o] = vector[constant] + sum(
            (c * solution[j] for j, c in enumerate(vector[:unknowns]) if c), Fraction(0)
        )
    return values


def _solve_linear(rows: list[list[Fraction]]) -> list[Fraction]:
    """Gaussian elimination and back substitution on an augmented square system, in exact arithmetic."""
    size = len(rows)
    for col in range(size):
        pivot = next((r for r in range(col, size) if rows[r][col] != 0), None)
        if pivot is None:
            raise EngineError("the Run Buster policy system is singular: some play never ends")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col]
        for r in range(col + 1, size):
            if rows[r][col]:
                factor = rows[r][col] / lead[col]
                rows[r][col:] = [a - factor * b for a, b in zip(rows[r][col:], lead[col:], strict=True)]
    solution = [Fraction(0)] * size
    for r in reversed(range(size)):
        known = sum((rows[r][j] * solution[j] for j in range(r + 1, size)), Fraction(0))
        solution[r] = (rows[r][size] - known) / rows[r][r]
    return solution


def solve(warm_start: bool = True) -> dict[Position, Fraction]:
    """Solve the whole game: the exact chance that the player about to roll wins, for every position.

    The warm start takes the choices of value iteration, which are already optimal; without it, policy
    iteration starts from always keeping the shortest straight and reaches the same values in a few more
    rounds, which makes a check on both methods.
    """
    model = _model()
    decisions = model.decisions()
    if warm_start:
        estimate = _value_iteration(model)
        policy = {decision: _greedy(model, estimate, decision) for decision in decisions}
    else:
        policy = {(m, o, mask): model.choices[m, mask][0] for m, o, mask in decisions}
    for _ in range(MAX_POLICY_ROUNDS):
        exact = _evaluate_exactly(model, policy)
        better = _improvements(model, policy, exact)
        if not better:
            return {(HANDS[m], HANDS[o]): exact[m][o] for m in range(len(HANDS)) for o in range(len(HANDS))}
        policy.update(better)
    raise EngineError(f"policy iteration did not settle within {MAX_POLICY_ROUNDS} rounds")


@dataclass(frozen=True)
class ValueTable:
    """The chance that the player about to roll wins, for every (roller's hand, opponent's hand)."""

    values: Mapping[Position, float]

    def __post_init__(self) -> None:
        missing = [p for p in POSITIONS if p not in self.values]
        if missing or len(self.values) != len(POSITIONS):
            raise InvalidData(
                f"a Run Buster value table needs all {len(POSITIONS)} positions, missing {missing[:3]}"
            )
        outside = [p for p, v in self.values.items() if not 0 <= v <= 1]
        if outside:
            raise InvalidData(f"win probabilities must lie in 0-1; position {outside[0]} does not")

    def win_probability(self, hand: Dice, opponent: Dice) -> float:
        return self.values[hand, opponent]

    @classmethod
    def from_exact(cls, exact: Mapping[Position, Fraction]) -> ValueTable:
        return cls({pos: float(v) for pos, v in exact.items()})

    def to_json(self) -> JSON:
        return {
            "about": "Run Buster, two players: P(the player about to roll wins) under optimal play, "
            "keyed 'roller hand|opponent hand' ('-' = empty). Regenerate: tablesight runbuster solve.",
            "values": {f"{format_dice(m)}|{format_dice(o)}": v for (m, o), v in self.values.items()},
        }

    @classmethod
    def from_json(cls, data: JSON) -> ValueTable:
        try:
            items = data["values"].items()
            values = {}
            for key, value in items:
                mine, theirs = key.split("|")
                values[parse_dice(mine), parse_dice(theirs)] = float(value)
        except (KeyError, AttributeError, TypeError, ValueError) as exc:
            raise InvalidData(f"malformed Run Buster value table: {exc!r}") from None
        return cls(values)


@cache
def value_table() -> ValueTable:
    """The shipped solution, loaded once per process."""
    text = resources.files("engine").joinpath(DATA_FILE).read_text("utf-8")
    return ValueTable.from_json(json.loads(text))


@dataclass(frozen=True)
class Option:
    """One keep open to the roller: the hand it makes, the chance to win from there, the chance of a bust."""

    hand: Dice
    kept: Dice  # the rolled dice moved to the hand, as in the move `keep <kept>`
    win_probability: float  # the exact solution, as a float
    bust_risk: Fraction  # the chance that the opponent's next roll busts `hand`

    def to_json(self) -> JSON:
        return {
            "hand": list(self.hand),
            "move": f"keep {format_dice(self.kept)}",
            "win_probability": self.win_probability,
            "bust_risk": float(self.bust_risk),
        }


@dataclass(frozen=True)
class Advice:
    """What a roll means: whether it busts the opponent, and every keep, best first."""

    hand: Dice
    opponent: Dice
    roll: Dice
    bust: bool
    options: tuple[Option, ...]

    @property
    def forced(self) -> bool:
        return len(self.options) <= 1

    def to_json(self) -> JSON:
        return {
            "hand": list(self.hand),
            "opponent": list(self.opponent),
            "roll": list(self.roll),
            "bust": self.bust,
            "forced": self.forced,
            "options": [o.to_json() for o in self.options],
        }


def check_position(hand: Dice, opponent: Dice) -> None:
    """Reject a pair of hands that cannot be a two-player position before a roll."""
    for who, values in (("your hand", hand), ("the opponent's hand", opponent)):
        if values and not is_straight(values):
            raise IllegalMove("straight", f"{who} {dashed(values)} is not a straight")
        if values == FULL_STRAIGHT:
            raise IllegalMove("game-over", f"{who} is 1-6: the game is already won")


def advise(hand: Dice, opponent: Dice, roll: Dice) -> Advice:
    """Every legal keep for `roll` with the exact chance of winning and the bust risk, best first."""
    hand, opponent, roll = tuple(sorted(hand)), tuple(sorted(opponent)), tuple(sorted(roll))
    check_position(hand, opponent)
    expected = DICE_PER_PLAYER - len(hand)
    if len(roll) != expected:
        raise IllegalMove(
            "roll-size", f"with hand {dashed(hand)} you roll {expected} dice, got {len(roll)}: {dashed(roll)}"
        )
    if any(v not in FACES for v in roll):
        raise IllegalMove("die-value", f"roll {dashed(roll)} has a value outside 1-6")
    table = value_table()
    bust = busts(roll, opponent)
    theirs = () if bust else opponent
    hands = extensions(hand, roll) or [hand]
    options = [
        Option(
            hand=new_hand,
            kept=tuple(v for v in new_hand if v not in hand),
            win_probability=1.0 if new_hand == FULL_STRAIGHT else 1 - table.win_probability(theirs, new_hand),
            bust_risk=bust_probability(new_hand, DICE_PER_PLAYER - len(theirs)),
        )
        for new_hand in hands
    ]
    options.sort(key=lambda o: (-o.win_probability, o.bust_risk, -len(o.hand), o.hand))
    return Advice(hand=hand, opponent=opponent, roll=roll, bust=bust, options=tuple(options))


@cache
def bust_probability(hand: Dice, dice: int = DICE_PER_PLAYER) -> Fraction:
    """The chance that a roll of `dice` dice busts `hand` (shows all of its complement)."""
    if not hand or hand == FULL_STRAIGHT:
        return Fraction(0)
    return probability_roll_shows(complement(hand), dice)


def completion_probability(hand: Dice) -> Fraction:
    """The chance that the holder's next roll (six dice minus the hand) can complete 1-6."""
    return probability_roll_shows(complement(hand), DICE_PER_PLAYER - len(hand))


def extension_probability(hand: Dice) -> Fraction:
    """The chance that the holder's next roll lets them add at least one die to the hand."""
    return sum(
        (p for roll, p in roll_distribution(DICE_PER_PLAYER - len(hand)) if extensions(hand, roll)),
        Fraction(0),
    )


def opening_full_straight_probability() -> Fraction:
    """The chance that six dice show 1-6 at once: 6!/6**6 = 5/324, the text's "about 1/65"."""
    return completion_probability(())
