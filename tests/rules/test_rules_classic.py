"""One scripted test per rule and house rule of Mau Mau (RULES.md section 1)."""

from __future__ import annotations

import pytest

from maumau.protocol.cards import CLASSIC_DECK, CODE_OF, card_from_code
from maumau.server.rules import (
    Catch,
    Draw,
    EndCallWindow,
    IllegalAction,
    NextRound,
    Pass,
    Play,
    SayMau,
    Settings,
    SettingsError,
    TurnTimeout,
    apply,
    legal_actions,
    new_match,
)
from maumau.server.rules.events import (
    CallWindowClosed,
    Caught,
    MatchEnded,
    PenaltyDrawn,
    Reshuffled,
    RoundEnded,
)
from support.positions import (
    catch,
    draw,
    hand,
    pass_,
    play,
    say,
    stacked_match,
    table,
    time_passes,
    top,
)

FIVE = ["7H 8H 9H 10H KH", "7S 8S 9S 10S KS", "7D 8D 9D 10D KD", "7C 8C 9C 10C KC"]


def rejected(state, action_fn, code: str) -> IllegalAction:
    before = state.to_dict()
    with pytest.raises(IllegalAction) as info:
        action_fn()
    assert info.value.code == code, info.value.message
    assert state.to_dict() == before, "a rejected action changed the state"
    return info.value


# --- cards, players, deal ---------------------------------------------------------


def test_deck_has_32_cards_seven_to_ace_in_four_suits():
    codes = sorted(CODE_OF[c] for c in CLASSIC_DECK)
    expected = sorted(r + s for r in ["7", "8", "9", "10", "J", "Q", "K", "A"] for s in "SHDC")
    assert codes == expected


def test_two_to_four_players():
    for seats in (2, 3, 4):
        assert Settings.create("classic", seats=seats).seats == seats
    for seats in (1, 5):
        with pytest.raises(SettingsError) as info:
            Settings.create("classic", seats=seats)
        assert info.value.setting == "seats"


def test_first_dealer_is_random_then_the_deal_passes_on():
    dealers = {new_match(Settings.create("classic", seats=4), seed)[0].dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    state = table(hands=["7H", "8S", "9D"], top="7D", stock="AC AD", dealer=1, turn=0)
    state.scores = [0, 0, 0]
    play(state, 0, "7H")
    time_passes(state)
    assert state.phase == "round_over"
    apply(state, NextRound())
    assert state.dealer == 2
    assert state.round_no == 2
    assert state.turn == 0  # the player after dealer 2, in seat order


def test_every_round_starts_in_seat_order():
    state = table(hands=["QC", "8S", "9D"], top="9C", direction=-1, turn=0, dealer=1)
    play(state, 0, "QC")  # the round ends while play goes counter-clockwise
    time_passes(state)
    apply(state, NextRound())
    assert state.direction == 1
    assert state.dealer == 2
    assert state.turn == 0


def test_deal_five_cards_stock_and_face_up_card():
    state, _ = new_match(Settings.create("classic", seats=3), seed=11)
    assert [len(h) for h in state.hands] == [5, 5, 5]
    assert len(state.discard) == 1
    assert len(state.stock) == 32 - 15 - 1


def test_player_after_dealer_goes_first():
    state, _ = stacked_match(hands=FIVE[:3], top="QC", dealer=1)
    assert state.turn == 2
    state, _ = stacked_match(hands=FIVE[:3], top="QC", dealer=2)
    assert state.turn == 0


# --- a turn ---------------------------------------------------------------------


def test_play_must_match_suit_or_rank():
    state = table(hands=["QH KS 9S", "8S"], top="QC")
    legal = {a.card for a in legal_actions(state, 0) if hasattr(a, "card")}
    assert {CODE_OF[c] for c in legal} == {"QH"}
    rejected(state, lambda: play(state, 0, "KS"), "does_not_match")
    play(state, 0, "QH")
    assert top(state) == "QH"
    assert state.turn == 1


def test_only_one_card_per_turn():
    state = table(hands=["QH KH 9S", "8S 10D"], top="QC")
    play(state, 0, "QH")
    rejected(state, lambda: play(state, 0, "KH"), "not_your_turn")


def test_draw_then_only_the_drawn_card_may_be_played():
    state = table(hands=["KS 9S QH", "8S 10D"], top="QC", stock="AC 7D")
    draw(state, 0)
    assert hand(state, 0) == ["KS", "9S", "QH", "AC"]
    assert state.turn == 0
    rejected(state, lambda: play(state, 0, "QH"), "only_drawn_card")
    names = {CODE_OF[a.card] for a in legal_actions(state, 0) if hasattr(a, "card")}
    assert names == {"AC"}
    play(state, 0, "AC")
    assert state.turn == 1


def test_draw_a_playable_card_and_keep_it():
    state = table(hands=["KS 9S", "8S 10D"], top="QC", stock="AC")
    draw(state, 0)
    pass_(state, 0)
    assert hand(state, 0) == ["KS", "9S", "AC"]
    assert state.turn == 1
    rejected(state, lambda: pass_(state, 1), "nothing_drawn")


def test_drawn_card_that_cannot_be_played_ends_the_turn():
    state = table(hands=["KS 9S", "8S 10D"], top="QC", stock="8D")
    draw(state, 0)
    assert hand(state, 0) == ["KS", "9S", "8D"]
    assert state.turn == 1


def test_stock_runs_out_discard_pile_but_top_becomes_new_stock():
    state = table(hands=["KS 9S", "8S 10D"], top="QC", stock="", below="7H 8H AD")
    events = draw(state, 0)
    assert top(state) == "QC"
    assert state.discard == [state.discard[-1]]
    assert any(isinstance(e, Reshuffled) and e.count == 3 for e in events)
    assert len(state.hands[0]) == 3
    assert sorted(hand(state, 0)[2:] + [CODE_OF[c] for c in state.stock]) == ["7H", "8H", "AD"]


def test_nothing_left_to_draw_ends_the_turn():
    state = table(hands=["KS 9S", "8S 10D"], top="QC", stock="", below="")
    draw(state, 0)
    assert hand(state, 0) == ["KS", "9S"]
    assert state.turn == 1


def test_penalty_draw_reshuffles_and_takes_what_there_is():
    state = table(hands=["7H KS", "7S QS", "8S 10D"], top="9H", stock="AD")
    play(state, 0, "7H")
    play(state, 1, "7S")
    events = draw(state, 2)  # owes 4: AD, then the reshuffled 9H and 7H, then nothing
    drawn = next(e for e in events if isinstance(e, PenaltyDrawn))
    assert drawn.count == 3 and drawn.wanted == 4
    assert sorted(hand(state, 2)) == sorted(["8S", "10D", "AD", "9H", "7H"])
    assert top(state) == "7S"
    assert state.turn == 0


# --- power cards --------------------------------------------------------------------


def test_seven_next_player_draws_two_and_loses_turn():
    state = table(hands=["7H KS", "8S 10D", "QC 9C"], top="9H", stock="AC AD AS")
    play(state, 0, "7H")
    assert state.penalty == 2
    names = {CODE_OF[a.card] for a in legal_actions(state, 1) if hasattr(a, "card")}
    assert names == set()  # 8S cannot be played on a pending 7
    rejected(state, lambda: play(state, 1, "8S"), "must_answer_penalty")
    draw(state, 1)
    assert hand(state, 1) == ["8S", "10D", "AC", "AD"]
    assert state.turn == 2
    assert state.penalty == 0


def test_seven_answered_with_a_seven_passes_on_grown_penalty():
    state = table(hands=["7H KS", "7S 10D", "QC 9C"], top="9H", stock="AC AD AS AH")
    play(state, 0, "7H")
    play(state, 1, "7S")
    assert state.penalty == 4
    assert state.turn == 2
    draw(state, 2)
    assert len(state.hands[2]) == 6
    assert state.turn == 0


def test_three_sevens_in_a_row_make_the_next_player_draw_six():
    state = table(
        hands=["7H KS", "7S 10D", "7D 9C", "QC JC"], top="9H", stock="AC AD AS AH KC KD 8C"
    )
    play(state, 0, "7H")
    play(state, 1, "7S")
    play(state, 2, "7D")
    assert state.penalty == 6
    draw(state, 3)
    assert hand(state, 3) == ["QC", "JC", "AC", "AD", "AS", "AH", "KC", "KD"]
    assert state.turn == 0


def test_only_a_seven_answers_a_seven():
    state = table(hands=["7H KS", "JH 7S 9H", "QC"], top="9H")
    play(state, 0, "7H")
    plays = {CODE_OF[a.card] for a in legal_actions(state, 1) if hasattr(a, "card")}
    assert plays == {"7S"}
    rejected(state, lambda: play(state, 1, "JH", named="S"), "must_answer_penalty")
    rejected(state, lambda: play(state, 1, "9H"), "must_answer_penalty")


def test_eight_skips_the_next_player():
    state = table(hands=["8H KS", "8S 10D", "QH 9C"], top="9H")
    play(state, 0, "8H")
    assert state.turn == 2


def test_nine_reverses_direction():
    state = table(hands=["QH KS", "9H 10D", "QC 9C", "AD AS"], top="10H", turn=1)
    play(state, 1, "9H")
    assert state.direction == -1
    assert state.turn == 0
    play(state, 0, "QH")
    assert state.turn == 3


def test_nine_with_two_players_opponent_plays_next():
    state = table(hands=["9H KS", "8S 10D"], top="10H")
    play(state, 0, "9H")
    assert state.turn == 1
    assert state.direction == -1


def test_house_rule_reverse_skips_with_two():
    state = table(hands=["9H KS", "8S 10D"], top="10H", reverse_skips_with_two=True)
    play(state, 0, "9H")
    assert state.turn == 0
    assert state.direction == 1


def test_jack_is_wild_and_names_a_suit():
    state = table(hands=["JC KS", "8S 10D"], top="10H")
    rejected(state, lambda: play(state, 0, "JC"), "must_name")
    play(state, 0, "JC", named="S")
    assert state.named == 0
    assert state.turn == 1


def test_jack_may_name_its_own_suit():
    state = table(hands=["JC KS", "8S 10C"], top="10H")
    play(state, 0, "JC", named="C")
    play(state, 1, "10C")
    assert top(state) == "10C"


def test_jack_named_suit_must_be_followed():
    state = table(hands=["JC KS", "10C KH 8S QS"], top="10H")
    play(state, 0, "JC", named="S")
    plays = {CODE_OF[a.card] for a in legal_actions(state, 1) if hasattr(a, "card")}
    assert plays == {"8S", "QS"}
    rejected(state, lambda: play(state, 1, "10C"), "does_not_match")  # same suit as Jack
    rejected(state, lambda: play(state, 1, "KH"), "does_not_match")
    play(state, 1, "QS")
    assert state.named == -1


def test_only_a_jack_names_a_suit():
    state = table(hands=["QH KS", "8S"], top="10H")
    rejected(state, lambda: play(state, 0, "QH", named="S"), "cannot_name")


def test_house_rule_jack_on_jack_on_by_default():
    state = table(hands=["JC KS", "JD 8S"], top="10H")
    play(state, 0, "JC", named="S")
    play(state, 1, "JD", named="H")
    assert state.named == 1


def test_house_rule_jack_on_jack_off():
    state = table(hands=["JC KS", "JD 8S"], top="10H", jack_on_jack=False)
    play(state, 0, "JC", named="S")
    rejected(state, lambda: play(state, 1, "JD", named="H"), "does_not_match")
    play(state, 1, "8S")


# --- the first face-up card ------------------------------------------------------------


def test_first_card_seven_first_player_faces_draw_two_and_may_answer():
    state, _ = stacked_match(hands=FIVE[:3], top="7C", dealer=0)
    assert state.turn == 1 and state.penalty == 2
    plays = {CODE_OF[a.card] for a in legal_actions(state, 1) if hasattr(a, "card")}
    assert plays == {"7S"}
    play(state, 1, "7S")
    assert state.penalty == 4 and state.turn == 2


def test_first_card_eight_first_player_is_skipped():
    state, _ = stacked_match(hands=FIVE[:3], top="8C", dealer=0)
    assert state.turn == 2


def test_first_card_nine_reverses_so_dealers_other_side_starts():
    hands = [*FIVE[:3], "AC AD AS AH QD"]
    state, _ = stacked_match(hands=hands, top="9C", dealer=1)
    assert state.direction == -1
    assert state.turn == 0


def test_first_card_jack_its_own_suit_is_to_follow():
    state, _ = stacked_match(hands=FIVE[:3], top="JC", dealer=0)
    assert state.named == 3
    plays = {CODE_OF[a.card] for a in legal_actions(state, 1) if hasattr(a, "card")}
    assert plays == set()  # seat 1 holds only spades and no Jack


# --- saying Mau ----------------------------------------------------------------------


def test_mau_must_be_said_with_second_to_last_card_or_be_caught():
    state = table(hands=["QH KS", "8S 10D", "AC AD"], top="10H", stock="7C 8C 9C")
    play(state, 0, "QH")
    assert any(type(a).__name__ == "Catch" and a.target == 0 for a in legal_actions(state, 1))
    events = catch(state, 2, 0)
    assert isinstance(events[0], Caught)
    assert hand(state, 0) == ["KS", "7C", "8C"]
    assert state.turn == 1  # the penalty does not change whose turn it is


def test_mau_said_together_with_the_play_protects():
    state = table(hands=["QH KS", "8S 10D", "AC AD"], top="10H")
    play(state, 0, "QH", call="mau")
    rejected(state, lambda: catch(state, 1, 0), "nothing_to_catch")
    assert hand(state, 0) == ["KS"]


def test_mau_said_after_the_play_while_window_open_protects():
    state = table(hands=["QH KS", "8S 10D", "AC AD"], top="10H")
    play(state, 0, "QH")
    draw(state, 1)  # next player acts, but the minimum time has not passed
    say(state, 0)
    rejected(state, lambda: catch(state, 2, 0), "nothing_to_catch")


def test_catch_before_call_wins_and_late_call_is_refused():
    state = table(hands=["QH KS", "8S 10D", "AC AD"], top="10H", stock="7C 8C")
    play(state, 0, "QH")
    catch(state, 1, 0)
    err = rejected(state, lambda: say(state, 0), "nothing_to_call")
    assert "3 cards" in err.message


def test_call_before_catch_wins():
    state = table(hands=["QH KS", "8S 10D", "AC AD"], top="10H", stock="7C 8C")
    play(state, 0, "QH")
    say(state, 0)
    rejected(state, lambda: catch(state, 1, 0), "nothing_to_catch")
    assert hand(state, 0) == ["KS"]


def test_call_window_closes_on_next_action_but_not_before_the_minimum_time():
    state = table(hands=["QH KS", "8S 10D", "AC AD"], top="10H", stock="7C 8C 9C")
    play(state, 0, "QH")
    window = state.windows[0].id
    draw(state, 1)  # next player acts first: window still open
    assert state.windows
    events = apply(state, EndCallWindow(window))  # then the time passes: it closes
    assert isinstance(events[0], CallWindowClosed)
    rejected(state, lambda: catch(state, 2, 0), "nothing_to_catch")
    rejected(state, lambda: say(state, 0), "window_closed")


def test_call_window_stays_open_after_minimum_time_until_next_player_acts():
    state = table(hands=["QH KS", "8S 10D", "AC AD"], top="10H", stock="7C 8C 9C")
    play(state, 0, "QH")
    apply(state, EndCallWindow(state.windows[0].id))
    assert state.windows  # nobody has acted yet
    catch(state, 2, 0)
    assert len(state.hands[0]) == 3


def test_window_closed_by_next_player_action_after_the_time():
    state = table(hands=["QH KS", "8S 10D", "AC AD"], top="10H", stock="7C 8C 9C")
    play(state, 0, "QH")
    apply(state, EndCallWindow(state.windows[0].id))
    draw(state, 1)
    assert not state.windows
    rejected(state, lambda: catch(state, 2, 0), "nothing_to_catch")


def test_table_setting_mau_penalty():
    state = table(hands=["QH KS", "8S 10D"], top="10H", stock="7C 8C 9C 10C", mau_penalty=4)
    play(state, 0, "QH")
    catch(state, 1, 0)
    assert len(state.hands[0]) == 5


def test_false_call_is_an_error_without_penalty():
    state = table(hands=["QH KS 9S", "8S 10D"], top="10H")
    rejected(state, lambda: say(state, 0), "nothing_to_call")
    rejected(state, lambda: play(state, 0, "QH", call="mau"), "nothing_to_call")


def test_false_catch_is_an_error_without_penalty_by_default():
    state = table(hands=["QH KS 9S", "8S 10D"], top="10H")
    play(state, 0, "QH")
    err = rejected(state, lambda: catch(state, 1, 0), "nothing_to_catch")
    assert "no open call window" in err.message
    rejected(state, lambda: catch(state, 1, 1), "catch_self")


def test_house_rule_false_catch_penalty():
    state = table(hands=["QH KS 9S", "8S 10D"], top="10H", stock="AC AD", false_catch_penalty=2)
    play(state, 0, "QH")
    catch(state, 1, 0)
    assert hand(state, 1) == ["8S", "10D", "AC", "AD"]
    assert hand(state, 0) == ["KS", "9S"]


def test_mau_mau_must_be_said_when_the_kept_card_is_a_jack():
    state = table(hands=["QH JS", "QS 10D"], top="10H", stock="7C 8C 9C")
    play(state, 0, "QH", call="maumau")
    play(state, 1, "QS")
    play(state, 0, "JS", named="D")
    assert state.phase == "ending"
    rejected(state, lambda: catch(state, 1, 0), "nothing_to_catch")
    time_passes(state)
    assert state.phase in ("round_over", "match_over")
    assert state.last_round is not None and state.last_round.winner == 0


def test_mau_mau_on_a_kept_card_that_is_no_jack_counts_as_mau():
    state = table(hands=["QH KH", "8S 10D"], top="10H")
    play(state, 0, "QH", call="maumau")
    rejected(state, lambda: catch(state, 1, 0), "nothing_to_catch")
    assert state.windows[0].called == "maumau"


def test_going_out_on_a_jack_after_only_mau_and_being_caught():
    state = table(hands=["QH JS", "KH 10D", "AH KD"], top="10H", stock="7C 8C 9C")
    play(state, 0, "QH", call="mau")  # keeps a Jack, says only "Mau": protected for now
    rejected(state, lambda: catch(state, 1, 0), "nothing_to_catch")
    play(state, 1, "KH")
    play(state, 2, "AH")
    play(state, 0, "JS", named="D")  # goes out on the Jack
    assert state.phase == "ending"  # the round waits for the Jack's window
    rejected(state, lambda: draw(state, 1), "round_ending")
    events = catch(state, 2, 0)
    assert isinstance(events[0], Caught) and events[0].final_card
    assert hand(state, 0) == ["7C", "8C"]
    assert state.phase == "playing"
    assert state.named == 2  # the Jack's named suit stands
    assert state.turn == 1
    assert state.last_round is None


def test_going_out_on_a_jack_after_only_mau_not_caught_ends_round():
    state = table(hands=["QH JS", "KH 10D"], top="10H")
    play(state, 0, "QH", call="mau")
    play(state, 1, "KH")
    play(state, 0, "JS", named="D")
    events = time_passes(state)
    assert any(isinstance(e, RoundEnded) for e in events)


def test_mau_upgraded_to_mau_mau_while_window_open():
    state = table(hands=["QH JS", "KH 10D"], top="10H")
    play(state, 0, "QH", call="mau")
    say(state, 0, "maumau")
    play(state, 1, "KH")
    play(state, 0, "JS", named="D")
    rejected(state, lambda: catch(state, 1, 0), "nothing_to_catch")


def test_round_end_pause_is_the_same_after_every_final_card():
    state = table(hands=["QH QD", "QS 10D 9D"], top="10H")
    play(state, 0, "QH", call="mau")
    time_passes(state)
    play(state, 1, "QS")
    play(state, 0, "QD")
    assert state.phase == "ending"  # a window is open even though nothing can be caught
    assert [w.final for w in state.windows] == [True]
    assert not any(type(a).__name__ == "Catch" for a in legal_actions(state, 1))
    time_passes(state)
    assert state.phase == "round_over"


# --- end of a round, scoring, the match ---------------------------------------------


def test_round_ends_when_last_card_played_and_window_closed():
    state = table(hands=["KH", "8S 10D"], top="10H")
    play(state, 0, "KH")
    assert state.phase == "ending" and state.last_round is None
    time_passes(state)
    assert state.phase == "round_over"


def test_seven_as_last_card_makes_nobody_draw():
    state = table(hands=["7H", "8S 10D"], top="10H")
    play(state, 0, "7H")
    assert state.penalty == 0
    time_passes(state)
    assert hand(state, 1) == ["8S", "10D"]
    assert state.last_round.points == 18


def test_scoring_values_classic():
    state = table(hands=["KH", "7S 8S 9S 10S", "JD QD KD AD"], top="10H", stock="")
    play(state, 0, "KH")
    time_passes(state)
    assert state.last_round.hand_points == (0, 7 + 8 + 9 + 10, 20 + 10 + 10 + 10)
    assert state.scores == [34 + 50, 0, 0]


def test_scoring_with_three_players():
    state = table(hands=["KH", "JS AC", "9D 9C"], top="10H", scores=[10, 20, 30])
    play(state, 0, "KH")
    time_passes(state)
    assert state.last_round.points == 30 + 18
    assert state.scores == [58, 20, 30]  # only the winner scores


def test_match_ends_when_a_player_reaches_150():
    state = table(hands=["KH", "JS AC"], top="10H", scores=[120, 140])
    play(state, 0, "KH")
    events = time_passes(state)
    assert state.phase == "match_over"
    assert state.winner == 0
    assert any(isinstance(e, MatchEnded) for e in events)
    with pytest.raises(IllegalAction):
        apply(state, NextRound())


def test_match_goes_on_below_target():
    state = table(hands=["KH", "JS AC"], top="10H", scores=[100, 140])
    play(state, 0, "KH")
    time_passes(state)
    assert state.phase == "round_over"
    assert state.scores == [130, 140]


def test_table_setting_target_score():
    state = table(hands=["KH", "JS"], top="10H", target_score=20)
    play(state, 0, "KH")
    time_passes(state)
    assert state.phase == "match_over"


# --- time ----------------------------------------------------------------------------


def test_turn_timeout_takes_the_pending_penalty():
    state = table(hands=["7H KS", "8S 10D", "QH"], top="9H", stock="AC AD")
    play(state, 0, "7H")
    apply(state, TurnTimeout(1))
    assert hand(state, 1) == ["8S", "10D", "AC", "AD"]
    assert state.turn == 2


def test_turn_timeout_draws_one_card_and_passes():
    state = table(hands=["KS", "8S 10D", "QH"], top="9H", stock="AH")
    apply(state, TurnTimeout(0))
    assert hand(state, 0) == ["KS", "AH"]  # kept, though it could be played
    assert state.turn == 1
    rejected(state, lambda: apply(state, TurnTimeout(0)), "not_your_turn")


# --- a player who has gone out makes no more claims (RULES.md section 4) -------------


def test_gone_out_player_false_catch_is_refused_and_the_round_ends():
    # The play-tester's report: with false_catch_penalty 1, a false catch by the player
    # who went out drew them a card and so put them back into the round.
    state = table(hands=["KH", "8S 10D", "AC AD"], top="10H", stock="7C 8C", false_catch_penalty=1)
    play(state, 0, "KH")
    assert state.phase == "ending"
    assert legal_actions(state, 0) == []
    for target in (1, 2):
        err = rejected(state, lambda t=target: catch(state, 0, t), "already_out")
        assert "last card" in err.message
    rejected(state, lambda: say(state, 0), "already_out")
    rejected(state, lambda: say(state, 0, "maumau"), "already_out")
    events = time_passes(state)
    assert any(isinstance(e, RoundEnded) and e.winner == 0 for e in events)
    assert hand(state, 0) == []


def test_gone_out_player_cannot_catch_an_opponent_whose_window_is_open():
    # Seat 1 forgot Mau; its window is still open when seat 0 goes out. The others may
    # still catch seat 1; seat 0, who is out, may not.
    state = table(hands=["KH", "QH 9S", "AH AD AS"], top="10H", stock="7C 8C", turn=1)
    play(state, 1, "QH")
    play(state, 2, "AH")
    play(state, 0, "KH")
    assert state.phase == "ending" and [w.final for w in state.windows] == [False, True]
    assert legal_actions(state, 0) == []
    assert Catch(2, 1) in legal_actions(state, 2)
    rejected(state, lambda: catch(state, 0, 1), "already_out")
    assert isinstance(catch(state, 2, 1)[0], Caught)
    assert hand(state, 1) == ["9S", "7C", "8C"]
    assert state.phase == "ending"  # seat 1's penalty does not touch seat 0's going out
    time_passes(state)
    assert state.last_round is not None and state.last_round.winner == 0


def test_gone_out_player_says_nothing_for_an_earlier_window_still_open():
    # With two players an 8 comes back to its player: seat 0 keeps a Jack without saying
    # anything and goes out on it before the 8's window has run its time. Seat 0's
    # "Mau Mau" now comes too late; seat 1 may still catch the forgotten call.
    state = table(hands=["8H JH", "AS 10D"], top="10H", stock="7C 8C 9C")
    play(state, 0, "8H")
    assert state.turn == 0
    play(state, 0, "JH", named="D")
    assert state.phase == "ending" and [w.final for w in state.windows] == [False, True]
    assert legal_actions(state, 0) == []
    rejected(state, lambda: say(state, 0, "maumau"), "already_out")
    rejected(state, lambda: say(state, 0, "mau"), "already_out")
    rejected(state, lambda: catch(state, 0, 1), "already_out")
    assert Catch(1, 0) in legal_actions(state, 1)
    events = catch(state, 1, 0)
    assert isinstance(events[0], Caught) and not events[0].final_card
    assert hand(state, 0) == ["7C", "8C"]
    assert state.phase == "playing" and state.turn == 1 and state.named == 2


def test_gone_out_player_sends_nothing_that_gives_cards_or_reopens_the_round():
    state = table(hands=["JH", "8S 10D", "AC AD"], top="10H", stock="7C 8C", false_catch_penalty=2)
    play(state, 0, "JH", named="S")  # out on a Jack without Mau Mau: catchable
    assert Catch(1, 0) in legal_actions(state, 1)
    for action in (
        Catch(0, 1),
        Catch(0, 2),
        SayMau(0, "mau"),
        SayMau(0, "maumau"),
        Draw(0),
        Pass(0),
        Play(0, card_from_code("JH"), 0, None),
        TurnTimeout(0),
    ):
        before = state.to_dict()
        with pytest.raises(IllegalAction):
            apply(state, action)
        assert state.to_dict() == before, action
    assert state.phase == "ending" and hand(state, 0) == []
    time_passes(state)
    assert state.phase == "round_over" and state.last_round.winner == 0
