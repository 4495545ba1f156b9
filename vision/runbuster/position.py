"""A mat's dice as a Run Buster position: who rolled, whom the roll busts, what must be kept, in words.

The photo is taken after a roll and before the keep: the roller's dice lie in their roll zone and both hands
lie as they were, so the reading is the position before the roll plus the roll, which the engine applies
(busting every hand the roll shows the complement of) to list the roller's legal keeps. With two players the
exact advisor adds each keep's chance of winning and of being busted next turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine.core import IllegalMove
from engine.runbuster.game import Keep, Phase, Roll, RunBuster, State
from engine.runbuster.solver import Advice, advise
from engine.runbuster.straights import DICE_PER_PLAYER, FULL_STRAIGHT, Dice, dashed, is_straight
from vision.runbuster.mat import Area, Side, zone

DEFAULT_NAMES: tuple[str, str] = (Side.RED.title, Side.BLUE.title)


@dataclass(frozen=True)
class TableDice:
    """What lies on the mat: each player's hand zone and roll zone as sorted values, Red (player 0) first."""

    hands: tuple[Dice, Dice]
    rolls: tuple[Dice, Dice]

    @classmethod
    def from_zones(cls, zones: Mapping[str, Sequence[int]]) -> TableDice:
        """From zone key -> values (``red.hand``...); a zone left out is empty."""

        def values(side: Side, area: Area) -> Dice:
            return tuple(sorted(int(v) for v in zones.get(zone(side, area).key, ())))

        return cls(
            hands=(values(Side.RED, Area.HAND), values(Side.BLUE, Area.HAND)),
            rolls=(values(Side.RED, Area.ROLL), values(Side.BLUE, Area.ROLL)),
        )


@dataclass(frozen=True)
class Turn:
    """What a table shows: the roller (None when no roll or two rolls lie on the mat), the hands the roll
    busts, the hands the roller may make, the winner if any, what is wrong, and all of it in words.

    `state` is the engine's position once the roll is applied (the roller to keep, busted hands emptied),
    for whoever wants to play on from the photo with `RunBuster.apply`; None when no roll can be judged.
    """

    table: TableDice
    names: tuple[str, str]
    roller: int | None = None
    busted: tuple[int, ...] = ()
    options: tuple[Dice, ...] = ()
    winner: int | None = None
    problems: tuple[str, ...] = ()
    sentences: tuple[str, ...] = ()
    advice: Advice | None = field(default=None, compare=False)
    state: State | None = None

    @property
    def must_keep(self) -> bool:
        return self.roller is not None and bool(self.options)


def commas(values: Sequence[int]) -> str:
    return ",".join(str(v) for v in values)


def read_turn(table: TableDice, names: tuple[str, str] = DEFAULT_NAMES) -> Turn:
    """Interpret a table: the rules' verdict on the roll lying on it, or what stops one being given."""
    problems = [
        f"{names[p]}'s hand {dashed(hand)} is not a straight"
        for p, hand in enumerate(table.hands)
        if hand and not is_straight(hand)
    ]
    winners = [p for p, hand in enumerate(table.hands) if hand == FULL_STRAIGHT]
    if winners:
        p = winners[0]
        return Turn(table, names, winner=p, sentences=(f"{names[p]} holds 1-6: {names[p]} wins",))
    rolling = [p for p, roll in enumerate(table.rolls) if roll]
    if len(rolling) > 1:
        problems.append("both roll zones hold dice: only the player whose turn it is rolls")
    if not rolling:
        sentence = "No roll on the mat: the player whose turn it is rolls their cup into their roll zone"
        return Turn(table, names, problems=tuple(problems), sentences=(sentence,))
    if problems:
        return Turn(table, names, problems=tuple(problems))
    roller = rolling[0]
    hand, roll = table.hands[roller], table.rolls[roller]
    expected = DICE_PER_PLAYER - len(hand)
    if len(roll) != expected:
        held = f"with {dashed(hand)} in hand" if hand else "with an empty hand"
        problem = f"{names[roller]} rolls {expected} dice {held}, but the roll zone shows {len(roll)}"
        return Turn(table, names, roller=roller, problems=(problem,))
    return _verdict(table, names, roller)


def _verdict(table: TableDice, names: tuple[str, str], roller: int) -> Turn:
    game = RunBuster()
    before = State(hands=table.hands, phase=Phase.ROLL, to_move=roller, round_starter=roller)
    roll = table.rolls[roller]
    busted = game.busted_by(before, roll)
    after = game.apply(before, Roll(roll))
    hand = table.hands[roller]
    options = tuple(
        sorted(
            tuple(sorted(hand + move.dice))
            for move in game.legal_moves(after)
            if isinstance(move, Keep) and move.dice
        )
    )
    name = names[roller]
    sentences = [
        f"{name}'s roll {commas(roll)} busts {names[p]}'s {dashed(table.hands[p])}: "
        f"{names[p]}'s hand goes back to the cup"
        for p in busted
    ]
    winner = None
    if FULL_STRAIGHT in options:
        winner = roller
        sentences.append(f"{name} completes 1-6 and wins")
    elif options:
        verb = "must extend" if hand else "must keep a straight"
        sentences.append(f"{name} {verb}: {' or '.join(dashed(o) for o in options)}")
    else:
        sentences.append(f"{name} cannot extend {dashed(hand)}: the rolled dice go back to the cup")
    try:
        advice = advise(hand, table.hands[1 - roller], roll)
    except IllegalMove:
        advice = None
    return Turn(
        table,
        names,
        roller=roller,
        busted=busted,
        options=options,
        winner=winner,
        sentences=tuple(sentences),
        advice=advice,
        state=after,
    )
