"""The Cubist rules one by one: set-up, rolls, placement, artists and their effects, installations, bonus
dice and the museum, storage, the short supply, the end of the game and the score."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from engine.core import IllegalMove, InvalidData
from engine.cubist.game import (
    PUBLISHED,
    TEXT,
    ArtistSlot,
    Claim,
    Cubist,
    Phase,
    PlayerScore,
    State,
    Step,
    rules_named,
    standings,
)
from engine.cubist.moves import (
    Roll,
)
from engine.cubist.structures import Structure
from tests.engine.cubist.helpers import (
    ARTISTS,
    CARDS,
    GAME,
    acting,
    ruled,
    started,
    taking,
    with_board,
    with_workroom,
)


def refused(state: State, text: str, game: Cubist = GAME) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        game.apply(state, game.parse_move(text))
    return caught.value


def play(state: State, *moves: str, game: Cubist = GAME) -> State:
    for text in moves:
        state = game.apply(state, game.parse_move(text))
    return state


def claimed(state: State, card: str, owner: int, value: int, fresh: bool = False) -> State:
    count = CARDS.artists[card].dice
    slots = tuple(
        replace(s, claim=Claim(owner, value, count, fresh)) if s.card == card else s for s in state.artists
    )
    return replace(state, artists=slots)


# --- set-up and the roll ------------------------------------------------------------------------------


def test_set_up_is_a_run_of_fair_chance_moves() -> None:
    state = GAME.initial_state()
    museums = GAME.chance_outcomes(state)
    names = ["museum-2a", "museum-2b", "museum-2c", "ring", "pair"]
    assert [str(o.move) for o in museums] == [f"museum {n}" for n in names]
    assert all(o.probability == Fraction(1, 5) for o in museums)
    state = play(state, "museum museum-2a")
    assert [o.probability for o in GAME.chance_outcomes(state)] == [Fraction(1, 6)] * 6
    state = play(state, "cornerstone 3")
    assert state.museum == Structure({(1, 1, 0): 3})
    reveals = GAME.chance_outcomes(state)
    assert len(reveals) == 23 and reveals[0].probability == Fraction(1, 23)
    state = play(state, "reveal installation-01", "reveal installation-04", "reveal installation-07")
    assert GAME.chance_outcomes(state)[0].probability == Fraction(1, 25)
    state = play(state, "reveal marc-1", "reveal gris-1", "reveal pascin-2", "reveal popova-plus")
    assert [str(o.move) for o in GAME.chance_outcomes(state)] == ["first 0", "first 1"]
    state = play(state, "first 1")
    assert state.phase is Phase.ROLL and state.to_move == 1
    assert state.installations == ("installation-01", "installation-04", "installation-07")
    assert len(state.artists) == 4 and len(state.installation_deck) == 20 and len(state.artist_deck) == 21
    assert all(state.supply(p) == 20 for p in range(2))


def test_without_a_draw_player_0_starts() -> None:
    game = ruled(first_player_drawn=False)
    assert started(game).to_move == 0


def test_a_turn_rolls_two_dice_with_exact_probabilities() -> None:
    state = started()
    assert GAME.is_chance_node(state) and list(GAME.legal_moves(state)) == []
    outcomes = GAME.chance_outcomes(state)
    assert len(outcomes) == 21 and sum(o.probability for o in outcomes) == 1
    chances = {str(o.move): o.probability for o in outcomes}
    assert chances["roll 33"] == Fraction(1, 36) and chances["roll 25"] == Fraction(1, 18)


def test_the_storeroom_holds_the_roll_and_last_turns_stored_dice() -> None:
    state = with_board(started(), 0, storage=(6, 6))
    after = play(state, "roll 52")
    assert after.storeroom == (2, 5, 6, 6) and after.boards[0].storage == ()
    assert after.supply(0) == 16


def test_rules_presets_are_named() -> None:
    assert rules_named("published") is PUBLISHED and rules_named("text") is TEXT
    with pytest.raises(InvalidData, match="unknown Cubist ruleset"):
        rules_named("house")
    with pytest.raises(InvalidData, match="2 to 4 players"):
        Cubist(5)


# --- placing in a workroom ----------------------------------------------------------------------------


def test_storeroom_dice_build_a_workroom_by_the_placement_rules() -> None:
    state = acting(started(), (3, 4, 6))
    state = play(state, "place s3 w0 4,4,0", "place s4 w0 5,4,0")
    assert state.boards[0].workrooms[0] == Structure({(4, 4, 0): 3, (5, 4, 0): 4})
    assert refused(state, "place s6 w0 6,4,0").rule == "differ-by-one"
    assert refused(state, "place s6 w0 6,5,0").rule == "touch"
    assert refused(state, "place s6 w0 4,4,1").rule == "stack-equal"
    assert refused(state, "place s3 w0 4,4,0").rule == "not-in-storeroom"
    assert "w0 6,4,0" in str(refused(state, "place s6 w0 6,4,0"))


def test_a_storeroom_die_never_goes_to_the_museum() -> None:
    assert refused(acting(started(), (4,)), "place s4 museum 1,0,0").rule == "museum-bonus-only"


def test_dice_are_placed_only_after_the_roll() -> None:
    state = replace(started(), storeroom=(4,))
    assert refused(state, "place s4 w0 0,0,0").rule == "chance-first"


# --- artist cards -------------------------------------------------------------------------------------


def test_artist_cards_take_their_count_of_equal_dice_at_once() -> None:
    state = acting(started(), (2, 2, 2, 5))
    assert refused(state, "artist gris-1 s2 s2 s2").rule == "artist-dice"
    assert refused(state, "artist marc-1 s2 s2 s5").rule == "artist-equal"
    after = play(state, "artist marc-1 s2 s2 s2")
    assert after.artists[0].claim == Claim(0, 2, 3, fresh=True)
    assert after.storeroom == (5,)
    assert refused(after, "artist marc-1 s5 s5 s5").rule == "artist-own"


def test_dice_of_equal_or_higher_value_bump_another_players_dice() -> None:
    state = claimed(acting(started(), (3, 3, 4, 4)), "gris-1", owner=1, value=4)
    assert state.supply(1) == 18
    assert refused(state, "artist gris-1 s3 s3").rule == "artist-bump"
    after = play(state, "artist gris-1 s4 s4")
    assert after.artists[1].claim == Claim(0, 4, 2, fresh=True)
    assert after.supply(1) == 20


def test_a_card_cannot_be_used_on_the_turn_dice_were_placed_on_it() -> None:
    state = play(acting(started(), (1, 1, 1)), "artist marc-1 s1 s1 s1")
    assert refused(state, "activate marc-1 gain 6").rule == "artist-same-turn"
    assert not any(m for m in GAME.legal_moves(state) if str(m).startswith("activate"))
    state = play(state, "end", "roll 12", "end", "roll 34")
    assert play(state, "activate marc-1 gain 6").storeroom == (3, 4, 6)


def test_only_your_own_dice_activate_a_card() -> None:
    state = claimed(acting(started()), "marc-1", owner=1, value=2)
    assert refused(state, "activate marc-1 gain 6").rule == "artist-not-yours"


def test_when_all_four_artists_hold_dice_they_leave_and_four_are_revealed() -> None:
    state = acting(started(), (5, 5))
    for card, owner in (("marc-1", 1), ("gris-1", 0), ("pascin-2", 1)):
        state = claimed(state, card, owner, 1)
    after = play(state, "artist popova-plus s5 s5")
    assert after.artists == () and after.pending == (Step.ARTIST,) * 4
    assert after.supply(0) == 20 and after.supply(1) == 20
    assert after.artist_returns == ()
    assert GAME.chance_outcomes(after)[0].probability == Fraction(1, 21)
    variant = ruled(full_artists_to_deck_bottom=True)
    assert play(state, "artist popova-plus s5 s5", game=variant).artist_returns == ARTISTS


def test_a_used_card_goes_face_up_under_the_deck_and_a_new_one_is_revealed() -> None:
    state = claimed(acting(started()), "marc-1", 0, 2)
    after = play(state, "activate marc-1 gain 4")
    assert [s.card for s in after.artists] == ["gris-1", "pascin-2", "popova-plus"]
    assert after.artist_returns == ("marc-1",) and after.pending == (Step.ARTIST,)
    emptied = replace(after, artist_deck=())
    assert [(str(o.move), o.probability) for o in GAME.chance_outcomes(emptied)] == [
        ("reveal marc-1", Fraction(1))
    ]
    assert play(emptied, "reveal marc-1").artists[-1] == ArtistSlot("marc-1")


# --- the eight artists --------------------------------------------------------------------------------


def with_artist(card: str, value: int = 1, storeroom: tuple[int, ...] = ()) -> State:
    state = acting(started(artists=(card, "gris-2", "pascin-1", "rozanova-2")), storeroom)
    return claimed(state, card, 0, value)


def effects(state: State, card: str) -> set[str]:
    prefix = f"activate {card}"
    return {str(m)[len(prefix) :].strip() for m in GAME.legal_moves(state) if str(m).startswith(prefix)}


def test_franz_marc_brings_a_die_of_any_value_from_the_supply() -> None:
    state = with_artist("marc-2", value=2)
    assert effects(state, "marc-2") == {f"gain {v}" for v in range(1, 7)}
    after = play(state, "activate marc-2 gain 6")
    assert after.storeroom == (6,) and after.supply(0) == 19
    placed = play(after, "reveal malevich-1", "place s6 w0 0,0,0")
    assert placed.boards[0].workrooms[0] == Structure({(0, 0, 0): 6})


def test_umberto_boccioni_brings_one_of_the_two_values_on_the_card() -> None:
    state = with_artist("boccioni-34")
    assert effects(state, "boccioni-34") == {"gain 3", "gain 4"}
    assert refused(state, "activate boccioni-34 gain 5").rule == "artist-value"


def test_kazimir_malevich_brings_the_value_on_the_card() -> None:
    state = with_artist("malevich-5")
    assert effects(state, "malevich-5") == {"gain 5"}
    assert play(state, "activate malevich-5 gain 5").storeroom == (5,)


def test_juan_gris_returns_a_workroom_die_without_splitting_it() -> None:
    state = with_workroom(with_artist("gris-1"), 0, 0, {(0, 0, 0): 2, (1, 0, 0): 3, (2, 0, 0): 4})
    assert effects(state, "gris-1") == {"remove w0 0,0,0", "remove w0 2,0,0"}
    assert refused(state, "activate gris-1 remove w0 1,0,0").rule == "connected"
    after = play(state, "activate gris-1 remove w0 2,0,0")
    assert after.boards[0].workrooms[0] == Structure({(0, 0, 0): 2, (1, 0, 0): 3})
    assert after.supply(0) == 20 - 2


def test_jules_pascin_moves_a_die_within_or_between_workrooms() -> None:
    state = with_workroom(with_artist("pascin-2"), 0, 0, {(0, 0, 0): 2, (1, 0, 0): 3, (2, 0, 0): 4})
    state = with_workroom(state, 0, 1, {(0, 0, 0): 5})
    moved = play(state, "activate pascin-2 move w0 2,0,0 w1 1,0,0")
    assert moved.boards[0].workrooms == (
        Structure({(0, 0, 0): 2, (1, 0, 0): 3}),
        Structure({(0, 0, 0): 5, (1, 0, 0): 4}),
    )
    within = play(state, "activate pascin-2 move w0 0,0,0 w0 1,1,0")
    assert within.boards[0].workrooms[0] == Structure({(1, 0, 0): 3, (1, 1, 0): 2, (2, 0, 0): 4})
    assert refused(state, "activate pascin-2 move w0 1,0,0 w1 1,0,0").rule == "connected"
    assert refused(state, "activate pascin-2 move w0 2,0,0 w1 0,0,1").rule == "stack-equal"


def test_roger_de_la_fresnaye_changes_a_storeroom_or_bonus_die_by_two() -> None:
    state = taking(with_artist("fresnaye-minus", storeroom=(1, 5)), 0, "installation-02", (6,))
    # installation-02's bonus cell is printed 5 or 6, so its die may first be turned to 5 and then changed
    bonus = {"change installation-02.0=6 -2", "change installation-02.0=5 -2"}
    assert effects(state, "fresnaye-minus") == {"change s5 -2", *bonus}
    assert play(state, "activate fresnaye-minus change s5 -2").storeroom == (1, 3)
    after = play(state, "activate fresnaye-minus change installation-02.0=6 -2")
    assert after.boards[0].taken[0].bonus == (4,)
    assert refused(state, "activate fresnaye-minus change s1 -2").rule == "die-value"
    assert refused(state, "activate fresnaye-minus change s5 +2").rule == "artist-change"


def test_lyubov_popova_changes_a_die_by_one_as_the_card_shows() -> None:
    state = with_artist("popova-either", storeroom=(6,))
    assert effects(state, "popova-either") == {"change s6 -1"}
    assert play(state, "activate popova-either change s6 -1").storeroom == (5,)


def test_olga_rozanova_takes_an_opponents_stored_die_and_copies_it() -> None:
    state = with_board(with_artist("rozanova-1", storeroom=(2,)), 1, storage=(4, 6))
    assert effects(state, "rozanova-1") == {"take p1 4", "take p1 6"}
    after = play(state, "activate rozanova-1 take p1 6")
    assert after.boards[1].storage == (4,) and after.supply(1) == 19
    assert after.storeroom == (2, 6) and after.supply(0) == 18
    assert refused(state, "activate rozanova-1 take p1 5").rule == "take-storage"
    assert refused(state, "activate rozanova-1 take p0 5").rule == "take-opponent"


def test_an_effect_with_a_target_must_be_used_and_one_without_may_not() -> None:
    state = with_artist("gris-1")
    assert effects(state, "gris-1") == {""}
    assert play(state, "activate gris-1").supply(0) == 20
    built = with_workroom(state, 0, 0, {(0, 0, 0): 1})
    assert refused(built, "activate gris-1").rule == "artist-effect"
    assert refused(built, "activate gris-1 gain 3").rule == "artist-effect"


# --- installations and bonus dice ---------------------------------------------------------------------


def test_a_workroom_matching_a_card_in_any_turn_completes_it() -> None:
    state = acting(started(), (3, 4, 5))
    # installation-04 is 4 at 0,0 with 5 to its east and 3 to its north; built turned a quarter
    state = play(state, "place s4 w1 0,0,0", "place s5 w1 0,1,0", "place s3 w1 -1,0,0")
    assert "complete w1 installation-04" in {str(m) for m in GAME.legal_moves(state)}
    after = play(state, "complete w1 installation-04")
    assert after.boards[0].workrooms[1] == Structure()
    assert after.boards[0].taken[0].card == "installation-04" and after.boards[0].taken[0].bonus == (1,)
    assert after.supply(0) == 19
    assert after.installations == ("installation-01", "installation-07")
    reveals = GAME.chance_outcomes(after)
    assert len(reveals) == 20 and reveals[0].probability == Fraction(1, 20)
    assert play(after, "reveal installation-12").installations[-1] == "installation-12"


def test_a_workroom_that_does_not_match_or_a_card_not_face_up_is_refused() -> None:
    state = with_workroom(acting(started()), 0, 0, {(0, 0, 0): 4, (1, 0, 0): 5})
    assert refused(state, "complete w0 installation-01").rule == "installation-match"
    assert refused(state, "complete w0 installation-02").rule == "installation-not-face-up"


def test_bonus_dice_go_to_workrooms_artist_cards_or_the_museum() -> None:
    state = taking(acting(started()), 0, "installation-04", (1,))
    options = {str(m) for m in GAME.legal_moves(state) if "installation-04" in str(m)}
    assert "place installation-04.0=1 w0 0,0,0" in options
    assert "place installation-04.0=6 w0 0,0,0" in options  # the cell prints 1 and 6: either may be used
    assert "place installation-04.0=2 w0 0,0,0" not in options
    assert "artist gris-1 installation-04.0=6 s6" not in options
    assert refused(state, "place installation-04.0=3 w0 0,0,0").rule == "bonus-value"


def test_a_bonus_die_in_the_museum_follows_the_placement_rules() -> None:
    state = taking(acting(started()), 0, "installation-02", (5,))  # cornerstone 3 at 1,1,0
    assert refused(state, "place installation-02.0=5 museum 1,0,0").rule == "differ-by-one"
    assert refused(state, "place installation-02.0=5 museum 1,1,1").rule == "stack-equal"
    assert refused(state, "place installation-02.0=5 museum 0,0,0").rule == "touch"
    state = taking(acting(started()), 0, "installation-01", (3,))
    after = play(state, "place installation-01.0=3 museum 1,1,1")
    assert after.museum.dice[(1, 1, 1)] == 3 and after.museum_donors == (((1, 1, 1), 0),)
    assert refused(state, "place installation-01.0=3 museum 1,1,2").rule == "stack-support"


def test_a_museum_die_outside_the_blueprint_is_refused() -> None:
    state = taking(acting(started()), 0, "installation-16", (6, 1))
    state = replace(state, museum=state.museum.with_die((2, 1, 0), 2), museum_donors=(((2, 1, 0), 1),))
    beside = refused(state, "place installation-16.1=3 museum 3,1,0")
    assert beside.rule == "museum-blueprint" and "museum 3,1,0" in beside.message
    above = refused(state, "place installation-16.1=2 museum 2,1,1")
    assert above.rule == "museum-blueprint"
    moves = {str(m) for m in GAME.legal_moves(state) if "museum" in str(m)}
    assert moves and all(m.endswith(("1,0,0", "1,2,0", "0,1,0", "2,0,0", "2,2,0", "1,1,1")) for m in moves)


def test_a_museum_placement_that_leaves_the_blueprint_unbuildable_is_refused() -> None:
    ring = started(museum="ring", cornerstone=1)
    dice = {(0, 0, 0): 1, (1, 0, 0): 2, (2, 0, 0): 3, (2, 1, 0): 4, (2, 2, 0): 5, (0, 1, 0): 2}
    state = taking(acting(replace(ring, museum=Structure(dice))), 0, "installation-16", (6, 1))
    state = replace(state, museum_donors=tuple((p, 1) for p in dice if p != (0, 0, 0)))
    # 0,2 beside 0,1 (a 2) may show 1 or 3, but only a 3 leaves 1,2 a value between it and the 5
    refusal = refused(state, "place installation-16.1=1 museum 0,2,0")
    assert refusal.rule == "museum-unbuildable" and "museum 0,2,0" in refusal.message
    assert play(state, "place installation-16.1=3 museum 0,2,0").museum.dice[(0, 2, 0)] == 3


def test_a_card_whose_bonus_dice_are_all_used_turns_face_down_and_still_scores() -> None:
    state = taking(acting(started()), 0, "installation-07", (2, 5))
    state = play(state, "place installation-07.0=2 w0 0,0,0")
    assert state.boards[0].taken[0].face_up
    state = play(state, "place installation-07.1=5 w1 0,0,0")
    assert not state.boards[0].taken[0].face_up
    assert GAME.score(state)[0].installations == (("installation-07", 4),)


# --- abandoning ---------------------------------------------------------------------------------------


def test_abandoning_returns_every_die_of_a_workroom() -> None:
    state = with_workroom(acting(started()), 0, 0, {(0, 0, 0): 2, (1, 0, 0): 3, (0, 0, 1): 2})
    after = play(state, "abandon w0")
    assert after.boards[0].workrooms[0] == Structure() and after.supply(0) == 20
    assert refused(after, "abandon w0").rule == "abandon-empty"


def test_abandoned_dice_may_go_onto_an_artist_card_instead() -> None:
    state = with_workroom(acting(started()), 0, 0, {(0, 0, 0): 2, (1, 0, 0): 3, (0, 0, 1): 2})
    after = play(state, "abandon w0 gris-1=2")
    assert after.artists[1].claim == Claim(0, 2, 2, fresh=True) and after.supply(0) == 18
    assert refused(state, "abandon w0 gris-1=3").rule == "abandon-dice"
    assert refused(state, "abandon w0 marc-1=2").rule == "abandon-dice"


# --- the end of a turn and storage --------------------------------------------------------------------


def test_up_to_two_storeroom_dice_stay_in_storage_the_rest_go_home() -> None:
    state = acting(started(), (1, 4, 6))
    assert {str(m) for m in GAME.legal_moves(state) if str(m).startswith("end")} == {
        "end",
        "end 1",
        "end 4",
        "end 6",
        "end 1 4",
        "end 1 6",
        "end 4 6",
    }
    after = play(state, "end 4 6")
    assert after.boards[0].storage == (4, 6) and after.supply(0) == 18
    assert after.to_move == 1 and after.phase is Phase.ROLL and after.turn == 1
    assert refused(state, "end 1 4 6").rule == "storage-limit"
    assert refused(state, "end 5").rule == "not-in-storeroom"


def test_under_the_texts_rules_at_least_one_die_is_stored() -> None:
    game = Cubist(2, TEXT, CARDS)
    state = acting(started(game), (1, 4))
    assert refused(state, "end", game).rule == "store-one"
    assert "end" not in {str(m) for m in game.legal_moves(state)}
    assert play(acting(started(game)), "end", game=game).to_move == 1


def test_a_short_supply_must_be_recovered_before_rolling() -> None:
    state = with_workroom(started(), 0, 0, {(0, 0, z): 4 for z in range(19)})
    assert state.supply(0) == 1
    assert not GAME.is_chance_node(state)
    moves = {str(m) for m in GAME.legal_moves(state)}
    assert "abandon w0" in moves and not any(m.startswith(("end", "place s")) for m in moves)
    assert refused(state, "roll 12").rule == "not-rolling"
    assert GAME.is_chance_node(play(state, "abandon w0"))


def test_with_nothing_to_recover_the_supply_is_rolled_as_it_is() -> None:
    state = replace(started(), museum_donors=tuple(((9, 9, z), 0) for z in range(19)))
    assert state.supply(0) == 1 and GAME.is_chance_node(state)
    assert [o.probability for o in GAME.chance_outcomes(state)] == [Fraction(1, 6)] * 6
    assert play(state, "roll 5").storeroom == (5,)
    assert refused(state, "roll 55").rule == "roll-size"
    assert GAME.dice_to_roll(state) == 1
    assert str(Roll(())) == "roll -"


# --- the end of the game and the score ----------------------------------------------------------------


def test_the_fifth_installation_ends_the_game_at_once() -> None:
    state = acting(started(), (3, 4))
    for card in ("installation-02", "installation-03", "installation-05", "installation-06"):
        state = taking(state, 0, card, (None,))
    state = with_workroom(state, 0, 0, {(0, 0, 0): 3, (1, 0, 0): 4})
    after = play(state, "complete w0 installation-01")
    assert after.phase is Phase.OVER and after.ended_by == "installations"
    assert list(GAME.legal_moves(after)) == [] and not GAME.is_chance_node(after)
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "installations"
    assert refused(after, "end").rule == "game-over"


def test_completing_the_museum_blueprint_ends_the_game_at_once() -> None:
    state = taking(acting(started(museum="pair", cornerstone=2)), 1, "installation-09", (1,))
    state = replace(state, to_move=1)
    after = play(state, "place installation-09.0=1 museum 1,0,0")
    assert after.phase is Phase.OVER and after.ended_by == "museum"
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (1,) and outcome.details["museum_dice"] == [0, 1]


def test_the_game_ends_when_no_installation_is_left_unless_the_variant_plays_on() -> None:
    state = replace(acting(started()), installations=(), installation_deck=())
    after = play(state, "end")
    assert after.ended_by == "installations-run-out"
    assert play(state, "end", game=ruled(end_when_installations_run_out=False)).phase is Phase.ROLL


def test_the_score_counts_installations_face_up_and_down_and_two_per_museum_die() -> None:
    state = taking(taking(acting(started()), 0, "installation-20", (None, None)), 0, "installation-02", (5,))
    state = replace(state, museum_donors=(((0, 1, 0), 0), ((1, 0, 0), 0), ((2, 1, 0), 1)))
    state = with_workroom(state, 1, 0, {(0, 0, 0): 3})
    scores = GAME.score(state)
    assert scores[0].installations == (("installation-20", 8), ("installation-02", 2))
    assert (scores[0].museum_dice, scores[0].museum_points, scores[0].total) == (2, 4, 14)
    assert scores[1].total == 2
    assert scores[0].to_json()["total"] == 14


def finished(state: State) -> State:
    return replace(state, phase=Phase.OVER, to_move=None, storeroom=(), ended_by="museum")


def test_a_tie_goes_to_the_most_museum_dice_then_is_shared() -> None:
    state = taking(taking(started(), 0, "installation-10", (None,)), 0, "installation-05", (None,))  # 5 + 4
    state = taking(state, 1, "installation-03", (None,))  # 3 + 3 museum dice × 2
    state = replace(state, museum_donors=(((0, 1, 0), 1), ((1, 0, 0), 1), ((1, 2, 0), 1)))
    assert [s.total for s in GAME.score(state)] == [9, 9]
    outcome = GAME.outcome(finished(state))
    assert outcome is not None and outcome.winners == (1,) and outcome.ranking == (1, 0)
    shared = taking(taking(started(), 0, "installation-10", (None,)), 1, "installation-13", (None,))  # 5, 5
    shared = replace(shared, museum_donors=(((0, 1, 0), 0), ((1, 0, 0), 1)))
    outcome = GAME.outcome(finished(shared))
    assert outcome is not None and outcome.winners == (0, 1) and outcome.details["totals"] == [7, 7]
    assert GAME.outcome(state) is None


def test_standings_rank_a_table_scored_by_hand_as_the_outcome_does() -> None:
    def score(player: int, points: tuple[int, ...], museum: int) -> PlayerScore:
        cards = tuple((f"installation-{player}{i}", p) for i, p in enumerate(points))
        return PlayerScore(player, cards, museum, 2 * museum)

    assert standings([score(0, (5,), 0), score(1, (3,), 1), score(2, (4, 2), 0)]) == ((2, 1, 0), (2,))
    assert standings([score(0, (5,), 1), score(1, (7,), 0), score(2, (7,), 0)]) == ((0, 1, 2), (0,))
    assert standings([score(0, (), 0), score(1, (), 0)]) == ((0, 1), (0, 1))
    with pytest.raises(ValueError, match="at least one"):
        standings([])


def test_a_multi_valued_bonus_die_may_be_turned_before_an_artist_changes_it() -> None:
    state = taking(with_artist("popova-plus"), 0, "installation-16", (6, 1))
    assert effects(state, "popova-plus") >= {"change installation-16.1=3 +1", "change installation-16.1=1 +1"}
    after = play(state, "activate popova-plus change installation-16.1=3 +1")
    assert after.boards[0].taken[0].bonus == (6, 4)
    assert refused(state, "activate popova-plus change installation-16.0=5 +1").rule == "bonus-value"


# --- a table found by the camera ----------------------------------------------------------------------


def test_violations_name_each_broken_rule_and_where() -> None:
    state = started()
    assert GAME.violations(state) == []
    state = with_workroom(state, 0, 0, {(0, 0, 0): 2, (1, 0, 0): 4, (0, 0, 1): 3, (5, 5, 0): 1, (3, 3, 1): 1})
    state = with_board(state, 1, storage=(1, 2, 3))
    state = replace(
        state,
        museum=Structure({(1, 0, 0): 4, (0, 1, 0): 2, (2, 1, 0): 2, (9, 9, 0): 3}),
        museum_donors=tuple(((z, 7, 0), 1) for z in range(18)),
    )
    state = claimed(state, "marc-1", 1, 4)
    found = {(v.rule, v.cells[0] if v.cells else "") for v in GAME.violations(state)}
    assert ("differ-by-one", "p0.w0@0,0,0") in found
    assert ("stack-equal", "p0.w0@0,0,1") in found
    assert ("stack-support", "p0.w0@3,3,1") in found
    assert ("connected", "p0.w0@3,3,1") in found
    assert ("storage-limit", "p1.storage") in found
    assert ("dice-count", "p1") in found
    assert ("museum-blueprint", "museum@9,9,0") in found
    assert ("cornerstone", "museum@1,1,0") in found
    messages = " / ".join(v.message for v in GAME.violations(state))
    assert "player 1's storage holds 3 dice; at most 2" in messages
    assert "player 1 has 24 dice out; a player owns 20" in messages


def test_an_unbuildable_museum_on_the_table_is_a_violation() -> None:
    ring = started(museum="ring", cornerstone=1)
    dice = {(0, 0, 0): 1, (1, 0, 0): 2, (2, 0, 0): 3, (2, 1, 0): 4, (2, 2, 0): 5, (0, 1, 0): 2, (0, 2, 0): 1}
    state = replace(ring, museum=Structure(dice))
    assert [v.rule for v in GAME.violations(state)] == ["museum-unbuildable"]


def test_a_state_read_from_json_with_unknown_cards_is_refused() -> None:
    data = GAME.state_to_json(started())
    data["installations"][0] = "installation-99"
    with pytest.raises(InvalidData, match="unknown installation cards: installation-99"):
        GAME.state_from_json(data)
    data = GAME.state_to_json(started())
    data["rules"] = "text"
    with pytest.raises(InvalidData, match="ruleset 'text'"):
        GAME.state_from_json(data)
    data = GAME.state_to_json(started())
    del data["turn"]
    with pytest.raises(InvalidData, match="malformed Cubist state"):
        GAME.state_from_json(data)
