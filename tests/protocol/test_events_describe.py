"""The one renderer's English (``maumau.protocol.sentences``) for real engine events:
one exact sentence per event, written from the facts the server sends
(``event_map``), with and without ``ascii_only`` where a card or a suit appears.

The events come from real ``apply`` calls (or real deals) on small positions; the
expected sentences are written out in full.
"""

from __future__ import annotations

import typing

from maumau.protocol.sentences import decision_line, event_line
from maumau.server.rules import Event, TurnTimeout, apply, event_map, events
from maumau.server.rules.events import (
    PENALTY_WILD_DRAW_FOUR,
    CallWindowClosed,
    CardDrawn,
    Caught,
    ChallengeDecided,
    FalseCatch,
    MatchEnded,
    MauSaid,
    Passed,
    PenaltyDrawn,
    PenaltyPending,
    Reshuffled,
    Reversed,
    RoundEnded,
    Skipped,
    TimedOut,
)
from support.positions import (
    StackedRandom,
    cards,
    catch,
    challenge,
    draw,
    pass_,
    play,
    say,
    stacked_match,
    table,
    time_passes,
)

NAMES = ("Ann", "Bob", "Cat", "Dan")


def describe(event: Event, names: typing.Sequence[str], ascii_only: bool = False) -> str | None:
    """``event``'s sentence, written from the facts the server sends of it."""
    return event_line(event_map(event), names, ascii_only)


def says(event: Event, text: str, ascii_text: str | None = None) -> None:
    """``event`` reads ``text``; with ``ascii_only`` it reads ``ascii_text`` (default: the same)."""
    assert describe(event, NAMES) == text
    assert describe(event, NAMES, ascii_only=True) == (text if ascii_text is None else ascii_text)


def only(found: list[Event], kind: type) -> Event:
    """The one event of ``kind`` in ``found``."""
    matching = [e for e in found if isinstance(e, kind)]
    assert len(matching) == 1, found
    return matching[0]


# --- RoundDealt -----------------------------------------------------------------------


def test_describe_round_dealt() -> None:
    hands = ["7S 8S 9S 10S QS", "7D 8D 9D 10D QD", "7C 8C 9C 10C QC"]
    _, dealt = stacked_match("classic", hands=hands, top="KH", dealer=0)
    says(
        dealt[0],
        "Round 1: Ann deals; K♥ turned up; Bob to play",
        "Round 1: Ann deals; KH turned up; Bob to play",
    )


def test_describe_round_dealt_jack_names_its_suit() -> None:
    hands = ["7S 8S 9S 10S QS", "7D 8D 9D 10D QD", "7C 8C 9C 10C QC"]
    _, dealt = stacked_match("classic", hands=hands, top="JH", dealer=2)
    says(
        dealt[0],
        "Round 1: Cat deals; J♥ turned up, ♥ hearts to follow; Ann to play",
        "Round 1: Cat deals; JH turned up, hearts to follow; Ann to play",
    )


def test_describe_round_dealt_first_player_skipped() -> None:
    hands = ["7S 8S 9S 10S QS", "7D 8D 9D 10D QD", "7C 8C 9C 10C QC"]
    _, dealt = stacked_match("classic", hands=hands, top="8H", dealer=1)
    says(
        dealt[0],
        "Round 1: Bob deals; 8♥ turned up; Ann to play",
        "Round 1: Bob deals; 8H turned up; Ann to play",
    )
    says(dealt[1], "Cat is skipped")


def test_describe_round_dealt_wild_draw_four_put_back() -> None:
    hands = ["R1 R2 R3 R4 R5 R6 R7", "Y1 Y2 Y3 Y4 Y5 Y6 Y7", "B1 B2 B3 B4 B5 B6 B7"]
    _, dealt = stacked_match("american", hands=hands, top="W4", stock="G8", dealer=0)
    says(dealt[0], "Round 1: Ann deals; G8 turned up (1 Wild Draw Four put back); Bob to play")


def test_describe_round_dealt_american_wild() -> None:
    hands = ["R1 R2 R3 R4 R5 R6 R7", "Y1 Y2 Y3 Y4 Y5 Y6 Y7"]
    _, dealt = stacked_match("american", hands=hands, top="W", dealer=1)
    says(dealt[0], "Round 1: Bob deals; Wild turned up; Ann to play")


# --- CardPlayed -----------------------------------------------------------------------


def test_describe_card_played() -> None:
    state = table("classic", hands=["QH 9S 10S", "7D 8D", "KC AC"], top="8H")
    says(play(state, 0, "QH")[0], "Ann plays Q♥", "Ann plays QH")


def test_describe_card_played_ten() -> None:
    state = table("classic", hands=["KC AC", "7S 8S", "10D 9S 10S"], top="8D", turn=2)
    says(play(state, 2, "10D")[0], "Cat plays 10♦", "Cat plays 10D")


def test_describe_card_played_jack_names_a_suit() -> None:
    state = table("classic", hands=["JS 9S 10S", "7D 8D", "KC AC"], top="8H")
    says(
        play(state, 0, "JS", named="C")[0],
        "Ann plays J♠ and names ♣ clubs",
        "Ann plays JS and names clubs",
    )


def test_describe_card_played_saying_mau() -> None:
    state = table("classic", hands=["9H 10S", "7D 8D", "KC AC"], top="8H")
    found = play(state, 0, "9H", call="mau")
    says(
        found[0],
        'Ann plays 9♥, saying "Mau", and has one card left',
        'Ann plays 9H, saying "Mau", and has one card left',
    )


def test_describe_card_played_saying_mau_mau() -> None:
    state = table("classic", hands=["9H JC", "7D 8D", "KC AC"], top="8H")
    found = play(state, 0, "9H", call="maumau")
    says(
        found[0],
        'Ann plays 9♥, saying "Mau Mau", and has one card left',
        'Ann plays 9H, saying "Mau Mau", and has one card left',
    )


def test_describe_card_played_jack_naming_and_saying_mau() -> None:
    state = table("classic", hands=["JD 10S", "7D 8D", "KC AC"], top="8H")
    found = play(state, 0, "JD", named="S", call="mau")
    says(
        found[0],
        'Ann plays J♦ and names ♠ spades, saying "Mau", and has one card left',
        'Ann plays JD and names spades, saying "Mau", and has one card left',
    )


def test_describe_card_played_last_card_without_call() -> None:
    state = table("classic", hands=["9H 10S", "7D 8D", "KC AC"], top="8H")
    says(
        play(state, 0, "9H")[0],
        "Ann plays 9♥ and has one card left",
        "Ann plays 9H and has one card left",
    )


def test_describe_card_played_going_out() -> None:
    state = table("classic", hands=["7D 8D", "AH", "KC AC"], top="8H", turn=1)
    says(play(state, 1, "AH")[0], "Bob plays A♥: Bob is out", "Bob plays AH: Bob is out")


def test_describe_card_played_american() -> None:
    state = table("american", hands=["G7 B2 B3", "G1 G2", "Y1 Y2"], top="G5")
    says(play(state, 0, "G7")[0], "Ann plays G7")
    state = table("american", hands=["GS B2 B3", "G1 G2", "Y1 Y2"], top="G5")
    says(play(state, 0, "GS")[0], "Ann plays GSkip")
    state = table("american", hands=["GR B2 B3", "G1 G2", "Y1 Y2"], top="G5")
    says(play(state, 0, "GR")[0], "Ann plays GRev")
    state = table("american", hands=["G+2 B2 B3", "G1 G2", "Y1 Y2"], top="G5", stock="R1 R2")
    says(play(state, 0, "G+2")[0], "Ann plays G+2")


def test_describe_card_played_american_wilds() -> None:
    state = table("american", hands=["W B2 B3", "G1 G2", "Y1 Y2"], top="G5")
    says(play(state, 0, "W", named="Y")[0], "Ann plays Wild and names yellow")
    state = table("american", hands=["W4 B2 B3", "G1 G2", "Y1 Y2"], top="G5", stock="R1 R2 R3 R4")
    says(play(state, 0, "W4", named="R")[0], "Ann plays W+4 and names red")
    state = table("american", hands=["W4 B2", "G1 G2", "Y1 Y2"], top="G5", stock="R1 R2 R3 R4")
    found = play(state, 0, "W4", named="B", call="mau")
    says(found[0], 'Ann plays W+4 and names blue, saying "Mau", and has one card left')


# --- PenaltyPending -------------------------------------------------------------------


def test_describe_penalty_pending_seven() -> None:
    state = table("classic", hands=["7H 9S 10S", "7D 8D", "KC AC"], top="8H")
    says(only(play(state, 0, "7H"), PenaltyPending), "Bob must draw 2 or answer with a 7")
    says(only(play(state, 1, "7D"), PenaltyPending), "Cat must draw 4 or answer with a 7")


def test_describe_penalty_pending_draw_two() -> None:
    state = table("american", hands=["Y+2 B2 B3", "G1 G2", "Y1 Y2"], top="Y5", stack_draw_two=True)
    found = play(state, 0, "Y+2")
    says(only(found, PenaltyPending), "Bob must draw 2 or answer with a Draw Two")


def test_describe_penalty_pending_wild_draw_four() -> None:
    event = PenaltyPending(1, 4, PENALTY_WILD_DRAW_FOUR)
    assert describe(event, NAMES) == "Bob must draw 4"


def test_describe_penalty_pending_wild_draw_four_challenge() -> None:
    state = table(
        "american",
        hands=["W4 B2 B3", "G1 G2", "Y1 Y2"],
        top="Y5",
        wild_draw_four_challenge=True,
    )
    found = play(state, 0, "W4", named="G")
    says(only(found, PenaltyPending), "Bob must draw 4 or challenge")


# --- PenaltyDrawn ---------------------------------------------------------------------


def test_describe_penalty_drawn() -> None:
    state = table("american", hands=["Y+2 B2 B3", "G1 G2", "Y1 Y2"], top="Y5", stock="R1 R2 R3")
    says(only(play(state, 0, "Y+2"), PenaltyDrawn), "Bob draws 2 cards")


def test_describe_penalty_drawn_short() -> None:
    state = table("classic", hands=["7H 9S 10S", "8D 9D", "KC AC"], top="8H", stock="")
    play(state, 0, "7H")
    # The stock is empty and the discard pile has only the 7 on the 8: one card to draw.
    says(only(draw(state, 1), PenaltyDrawn), "Bob draws 1 card (only 1 left to draw)")


# --- Skipped, Reversed ----------------------------------------------------------------


def test_describe_skipped() -> None:
    state = table("classic", hands=["8H 9S 10S", "7D 8D", "KC AC"], top="10H")
    says(only(play(state, 0, "8H"), Skipped), "Bob is skipped")


def test_describe_reversed() -> None:
    state = table("classic", hands=["9H 9S 10S", "7D 8D", "KC AC 9C"], top="10H")
    says(only(play(state, 0, "9H"), Reversed), "Play now goes counter-clockwise")
    says(only(play(state, 2, "9C"), Reversed), "Play now goes clockwise")


def test_describe_reversed_american() -> None:
    state = table("american", hands=["BR B2 B3", "G1 G2", "Y1 Y2"], top="B5")
    says(only(play(state, 0, "BR"), Reversed), "Play now goes counter-clockwise")


# --- CardDrawn, Passed, Reshuffled ---------------------------------------------------


def test_describe_card_drawn() -> None:
    state = table("classic", hands=["9S 10S", "7D 8D", "KC AC"], top="8H", stock="7C")
    says(only(draw(state, 0), CardDrawn), "Ann draws a card")


def test_describe_card_drawn_may_play() -> None:
    state = table("classic", hands=["9S 10S", "7D 8D", "KC AC"], top="8H", stock="KH")
    says(only(draw(state, 0), CardDrawn), "Ann draws a card and may play it")


def test_describe_card_drawn_nothing_left() -> None:
    state = table("american", hands=["B1 B2", "G1 G2", "Y1 Y2"], top="R5", stock="")
    says(only(draw(state, 0), CardDrawn), "Ann finds nothing left to draw")


def test_describe_passed() -> None:
    state = table("classic", hands=["9S 10S", "7D 8D", "KC AC"], top="8H", stock="KH")
    draw(state, 0)
    says(only(pass_(state, 0), Passed), "Ann keeps the drawn card")


def test_describe_reshuffled() -> None:
    state = table(
        "american", hands=["B7 B8", "G1 G2", "Y1 Y2"], top="R5", below="G1 Y2 R0", stock=""
    )
    state.rng = StackedRandom(cards("Y2 G1 R0"), 0)
    says(
        only(draw(state, 0), Reshuffled), "The discard pile is shuffled into a new stock of 3 cards"
    )


def test_describe_reshuffled_one_card() -> None:
    state = table("classic", hands=["9S 10S", "7D 8D", "KC AC"], top="8H", below="QS", stock="")
    says(
        only(draw(state, 0), Reshuffled), "The discard pile is shuffled into a new stock of 1 card"
    )


# --- MauSaid, Caught, FalseCatch, CallWindowClosed -------------------------------------


def test_describe_mau_said() -> None:
    state = table("classic", hands=["9H 10S", "7D 8D", "KC AC"], top="8H")
    play(state, 0, "9H")
    says(only(say(state, 0, "mau"), MauSaid), 'Ann says "Mau"')


def test_describe_mau_mau_said() -> None:
    state = table("classic", hands=["9H JS", "7D 8D", "KC AC"], top="8H")
    play(state, 0, "9H")
    says(only(say(state, 0, "maumau"), MauSaid), 'Ann says "Mau Mau"')


def test_describe_mau_said_american() -> None:
    state = table("american", hands=["R9 B2", "G1 G2", "Y1 Y2"], top="R5")
    play(state, 0, "R9")
    says(only(say(state, 0, "maumau"), MauSaid), 'Ann says "Mau"')


def test_describe_caught() -> None:
    state = table("classic", hands=["9H 10S", "7D 8D", "KC AC"], top="8H", stock="7C QC")
    play(state, 0, "9H")
    says(
        only(catch(state, 2, 0), Caught),
        "Cat catches Ann, who played 9♥ without saying Mau: Ann draws 2",
        "Cat catches Ann, who played 9H without saying Mau: Ann draws 2",
    )


def test_describe_caught_going_out_on_a_jack() -> None:
    state = table("classic", hands=["JS", "7D 8D", "KC AC"], top="8H", stock="7C QC")
    play(state, 0, "JS", named="D")
    found = catch(state, 1, 0)
    says(
        only(found, Caught),
        "Bob catches Ann, who went out on J♠ without saying Mau Mau: Ann draws 2",
        "Bob catches Ann, who went out on JS without saying Mau Mau: Ann draws 2",
    )


def test_describe_caught_without_the_card() -> None:
    # An event made without the window's card still says the catch is for an earlier one.
    says(
        Caught(1, 0, 2, False),
        "Bob catches Ann, who did not say Mau for an earlier card: Ann draws 2",
    )


def test_a_decision_names_whose_play_the_catch_is_about() -> None:
    stamp = {"seat": 2, "what": "catch", "after_ms": 970.0, "shift_ms": 0.0}
    assert decision_line(0, "caught", [stamp], NAMES) == "Cat caught Ann 0.97 s after Ann's play"


def test_describe_false_catch() -> None:
    state = table(
        "american",
        hands=["R9 B2 B3", "G1 G2", "Y1 Y2"],
        top="R5",
        stock="G3",
        false_catch_penalty=1,
    )
    found = catch(state, 1, 0)
    says(only(found, FalseCatch), "Bob wrongly tries to catch Ann and draws 1")
    says(only(found, PenaltyDrawn), "Bob draws 1 card")


def test_describe_call_window_closed() -> None:
    state = table("classic", hands=["KH 10S", "7D 8D", "KC AC"], top="8H", stock="7C")
    play(state, 0, "KH", call="mau")
    time_passes(state)
    says(only(draw(state, 1), CallWindowClosed), "Ann's call window closes")


# --- ChallengeDecided -----------------------------------------------------------------


def test_describe_challenge_decided_upheld() -> None:
    state = table(
        "american",
        hands=["W4 Y2 B3", "G1 G2", "Y1 Y2"],
        top="Y5",
        stock="R1 R2 R3 R4",
        wild_draw_four_challenge=True,
    )
    play(state, 0, "W4", named="G")
    found = challenge(state, 1)
    says(
        only(found, ChallengeDecided),
        "Bob challenges Ann's Wild Draw Four and is right: Ann draws 4",
    )
    says(only(found, PenaltyDrawn), "Ann draws 4 cards")


def test_describe_challenge_decided_failed() -> None:
    state = table(
        "american",
        hands=["W4 B2 B3", "G1 G2", "Y1 Y2"],
        top="Y5",
        stock="R1 R2 R3 R4 R5 R6",
        wild_draw_four_challenge=True,
    )
    play(state, 0, "W4", named="G")
    found = challenge(state, 1)
    says(
        only(found, ChallengeDecided),
        "Bob challenges Ann's Wild Draw Four and is wrong: Bob draws 6",
    )
    says(only(found, PenaltyDrawn), "Bob draws 6 cards")


# --- TimedOut, RoundEnded, MatchEnded -------------------------------------------------


def test_describe_timed_out() -> None:
    state = table("classic", hands=["9S 10S", "7D 8D", "KC AC"], top="8H", stock="7C", turn=1)
    found = apply(state, TurnTimeout(1))
    says(only(found, TimedOut), "Bob ran out of time; the server acts for them")
    says(only(found, CardDrawn), "Bob draws a card")


def test_describe_round_ended() -> None:
    state = table("american", hands=["R3", "R7 B0 GS YR", "R+2 W W4 B9"], top="R5")
    play(state, 0, "R3")
    says(only(time_passes(state), RoundEnded), "Round 1 goes to Ann, who scores 176")


def test_describe_round_ended_classic() -> None:
    state = table("classic", hands=["9S 10S", "AH", "JC 7C"], top="8H", turn=1)
    play(state, 1, "AH")
    # 9 + 10 + 20 + 7 = 46
    says(only(time_passes(state), RoundEnded), "Round 1 goes to Bob, who scores 46")


def test_describe_match_ended() -> None:
    state = table("american", hands=["R3", "GS", "R0"], top="R5", scores=[480, 490, 0])
    play(state, 0, "R3")
    says(only(time_passes(state), MatchEnded), "Ann wins the match with 500 points")


def test_describe_match_ended_classic() -> None:
    state = table("classic", hands=["9S 10S", "AH", "JC 7C"], top="8H", turn=1, scores=[0, 140, 9])
    play(state, 1, "AH")
    says(only(time_passes(state), MatchEnded), "Bob wins the match with 186 points")


# --- coverage -------------------------------------------------------------------------


def test_every_event_class_has_a_describe_test() -> None:
    classes = typing.get_args(events.Event)
    assert len(classes) == 17
    tested = {name for name in globals() if name.startswith("test_describe_")}
    for cls in classes:
        snake = "".join(f"_{ch.lower()}" if ch.isupper() else ch for ch in cls.__name__)
        assert any(name.startswith(f"test_describe{snake}") for name in tested), cls.__name__


def test_facts_it_cannot_make_a_sentence_of_give_none() -> None:
    assert event_line({"kind": "no_such_kind"}, NAMES) is None
    assert event_line({"kind": "card_played", "seat": 0}, NAMES) is None  # no card
    assert event_line({"kind": "skipped", "seat": "x"}, NAMES) is None
