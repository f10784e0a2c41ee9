"""The rules of Mau Mau and American Mau-Mau, as pure functions over a MatchState.

Theory of operation
-------------------
- :func:`new_match` seeds the match's RNG, picks the first dealer at random and deals
  the first round.
- :func:`legal_actions` lists what one seat may do now: on its turn, each playable
  card (a Jack or wild once per suit/colour it can name), drawing, passing after a
  draw, challenging a Wild Draw Four; at any time, saying Mau for its own open call
  window and catching an opponent who can be caught. A seat that has played its last
  card (:func:`gone_out`) may do nothing more until the round is decided: its calls
  and catches are refused with ``already_out``, so nothing it sends can give it cards
  and put it back into the round.
- :func:`apply` checks an action and, only if it is legal, carries it out in place and
  returns the events it caused. An illegal action raises :class:`IllegalAction` with a
  code and a plain-words reason, and leaves the state untouched. Nothing is ever
  silently substituted.

The engine reads no clock. Call windows are state; the server reports with
:class:`~maumau.server.rules.actions.EndCallWindow` that a window's minimum time has
passed, applies calls and catches in the order its clock decided, and reports turn
timeouts with :class:`~maumau.server.rules.actions.TurnTimeout`.

Decisions where the rules reference is silent are listed in ``docs/rules.md``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from maumau.protocol.cards import (
    AMERICAN_DECK,
    CLASSIC_DECK,
    CODE_OF,
    NO_SUIT,
    POINTS_OF,
    RANK_7,
    RANK_8,
    RANK_9,
    RANK_JACK,
    RANK_OF,
    SUIT_OF,
    SYMBOL_DRAW_TWO,
    SYMBOL_REVERSE,
    SYMBOL_SKIP,
    SYMBOL_WILD,
    SYMBOL_WILD_DRAW_FOUR,
    WILD_DRAW_FOUR,
    card_label,
    is_classic,
    suit_label,
)
from maumau.protocol.refusal import Refusal

from .actions import (
    CALLS,
    CHALLENGES,
    DRAWS,
    NAMED_PLAYS,
    PASSES,
    PLAYS,
    Action,
    Call,
    Catch,
    Challenge,
    Draw,
    EndCallWindow,
    NextRound,
    Pass,
    Play,
    SayMau,
    TurnTimeout,
    counted_call,
)
from .events import (
    PENALTY_DRAW_TWO,
    PENALTY_SEVEN,
    PENALTY_WILD_DRAW_FOUR,
    CallWindowClosed,
    CardDrawn,
    CardPlayed,
    Caught,
    ChallengeDecided,
    Event,
    FalseCatch,
    MatchEnded,
    MauSaid,
    Passed,
    PenaltyDrawn,
    PenaltyPending,
    Reshuffled,
    Reversed,
    RoundDealt,
    RoundEnded,
    Skipped,
    TimedOut,
)
from .facts import ANSWERS, named_code
from .settings import Settings
from .state import CallWindow, MatchState, RoundResult

__all__ = ["IllegalAction", "apply", "catchable", "gone_out", "legal_actions", "new_match"]


class IllegalAction(Refusal):
    """An action the rules do not allow now: a refusal (``code``, ``message``, and
    ``details`` with every fact the message states, cards as card codes)."""


def _code(card: object) -> str:
    """A card's code, or what stands in its place when it is no card."""
    if type(card) is int and 0 <= card < len(CODE_OF):
        return CODE_OF[card]
    return repr(card)[:8]


# --- setting up ----------------------------------------------------------------


def new_match(
    settings: Settings, seed: int, rng: random.Random | None = None
) -> tuple[MatchState, list[Event]]:
    """A new match: the first dealer is drawn at random and the first round dealt.

    ``rng`` replaces the generator seeded with ``seed``; tests use it to stack decks.
    """
    state = MatchState(settings, seed)
    if rng is not None:
        state.rng = rng
    state.dealer = state.rng.randrange(settings.seats)
    events: list[Event] = []
    _deal(state, events)
    return state, events


def _deal(state: MatchState, events: list[Event]) -> None:
    settings = state.settings
    n = state.seats
    deck = list(CLASSIC_DECK if settings.is_classic else AMERICAN_DECK)
    state.rng.shuffle(deck)
    state.round_no += 1
    state.hands = [[] for _ in range(n)]
    for _ in range(settings.hand_size):
        for offset in range(1, n + 1):
            state.hands[(state.dealer + offset) % n].append(deck.pop())
    state.stock = deck
    state.discard = [deck.pop()]
    returned = 0
    while state.discard[-1] == WILD_DRAW_FOUR:
        deck.append(state.discard.pop())
        state.rng.shuffle(deck)
        state.discard.append(deck.pop())
        returned += 1
    state.phase = "playing"
    state.direction = 1
    state.named = NO_SUIT
    state.penalty = 0
    state.penalty_kind = 0
    state.drawn = -1
    state.wd4_seat = -1
    state.windows = []
    state.last_call = [None] * n
    dealer = state.dealer
    top = state.discard[-1]
    rank = RANK_OF[top]
    first = (dealer + 1) % n
    effects: list[Event] = []
    if settings.is_classic:
        if rank == RANK_7:
            state.penalty, state.penalty_kind = 2, PENALTY_SEVEN
            effects.append(PenaltyPending(first, 2, PENALTY_SEVEN))
        elif rank == RANK_8 or (rank == RANK_9 and n == 2 and settings.reverse_skips_with_two):
            effects.append(Skipped(first))
            first = (first + 1) % n
        elif rank == RANK_9:
            state.direction = -1
            effects.append(Reversed(-1))
            first = (dealer - 1) % n
        elif rank == RANK_JACK:
            state.named = SUIT_OF[top]
    elif rank == SYMBOL_SKIP or (
        rank == SYMBOL_REVERSE and n == 2 and settings.reverse_skips_with_two
    ):
        effects.append(Skipped(first))  # (a Reverse with two: as when it is played)
        first = (first + 1) % n
    elif rank == SYMBOL_REVERSE:
        state.direction = -1
        effects.append(Reversed(-1))
        first = dealer
    elif rank == SYMBOL_DRAW_TWO:
        if settings.stack_draw_two:
            state.penalty, state.penalty_kind = 2, PENALTY_DRAW_TWO
            effects.append(PenaltyPending(first, 2, PENALTY_DRAW_TWO))
        else:
            effects.append(
                PenaltyDrawn(first, _give(state, first, 2, effects), 2, PENALTY_DRAW_TWO)
            )
            effects.append(Skipped(first))
            first = (first + 1) % n
    state.turn = first
    events.append(RoundDealt(state.round_no, dealer, top, state.named, first, returned))
    events.extend(effects)


# --- what may be played ----------------------------------------------------------


def _playable(state: MatchState, card: int) -> bool:
    """Whether ``card`` may go on the discard pile now (penalties aside)."""
    top = state.discard[-1]
    rank = RANK_OF[card]
    if state.settings.is_classic:
        if rank == RANK_JACK:
            return RANK_OF[top] != RANK_JACK or state.settings.jack_on_jack
        if RANK_OF[top] == RANK_JACK:
            return SUIT_OF[card] == state.named
        return SUIT_OF[card] == SUIT_OF[top] or rank == RANK_OF[top]
    if rank >= SYMBOL_WILD:
        return True
    top_rank = RANK_OF[top]
    if top_rank >= SYMBOL_WILD:
        return state.named == NO_SUIT or SUIT_OF[card] == state.named
    return SUIT_OF[card] == SUIT_OF[top] or rank == top_rank


def _playable_cards(state: MatchState, hand: list[int]) -> list[int]:
    """The cards of ``hand`` that :func:`_playable` allows, in hand order (the same
    rules, read once for the whole hand: this runs for every view of the seat on turn)."""
    settings = state.settings
    top = state.discard[-1]
    top_rank = RANK_OF[top]
    top_suit = SUIT_OF[top]
    named = state.named
    if settings.is_classic:
        if top_rank == RANK_JACK:
            jacks = settings.jack_on_jack
            return [c for c in hand if (jacks if RANK_OF[c] == RANK_JACK else SUIT_OF[c] == named)]
        return [
            c
            for c in hand
            if RANK_OF[c] == RANK_JACK or SUIT_OF[c] == top_suit or RANK_OF[c] == top_rank
        ]
    if top_rank >= SYMBOL_WILD:
        return [
            c for c in hand if RANK_OF[c] >= SYMBOL_WILD or named == NO_SUIT or SUIT_OF[c] == named
        ]
    return [
        c
        for c in hand
        if RANK_OF[c] >= SYMBOL_WILD or SUIT_OF[c] == top_suit or RANK_OF[c] == top_rank
    ]


def _answers_penalty(state: MatchState, card: int) -> bool:
    if state.penalty_kind == PENALTY_SEVEN:
        return RANK_OF[card] == RANK_7
    if state.penalty_kind == PENALTY_DRAW_TWO:
        return RANK_OF[card] == SYMBOL_DRAW_TWO
    return False


def _needs_name(card: int, classic: bool) -> bool:
    rank = RANK_OF[card]
    return rank == RANK_JACK if classic else rank >= SYMBOL_WILD


def legal_actions(state: MatchState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now (without the optional call on a play)."""
    actions: list[Action] = []
    classic = state.settings.is_classic
    if state.phase == "playing" and seat == state.turn:
        if state.drawn >= 0:
            _add_plays(actions, seat, (state.drawn,), classic)
            actions.append(PASSES[seat])
        elif state.penalty_kind == PENALTY_WILD_DRAW_FOUR:
            actions.append(CHALLENGES[seat])
            actions.append(DRAWS[seat])
        else:
            hand = state.hands[seat]
            if state.penalty:
                cards = [c for c in hand if _answers_penalty(state, c)]
            else:
                cards = _playable_cards(state, hand)
            if not classic:
                cards = list(dict.fromkeys(cards))
            _add_plays(actions, seat, cards, classic)
            actions.append(DRAWS[seat])
    if state.windows and not gone_out(state, seat):
        for window in state.windows:
            if window.seat == seat:
                if not window.final:
                    if window.called is None:
                        actions.append(SayMau(seat, "mau"))
                        if classic:
                            actions.append(SayMau(seat, "maumau"))
                    elif window.called == "mau" and classic:
                        actions.append(SayMau(seat, "maumau"))
            elif catchable(state, window):
                actions.append(Catch(seat, window.seat))
    return actions


def _add_plays(actions: list[Action], seat: int, cards: Iterable[int], classic: bool) -> None:
    plain = PLAYS[seat]
    named = NAMED_PLAYS[seat]
    for card in cards:
        if _needs_name(card, classic):
            actions.extend(named[card])
        else:
            actions.append(plain[card])


def gone_out(state: MatchState, seat: int) -> bool:
    """Whether ``seat`` has played its last card and the round waits for its final window.

    Such a player makes no more calls or catches in that round (RULES.md, section 4):
    they are not offered any, and :func:`apply` refuses them with ``already_out``. Only
    the others may still catch them; once caught they hold cards and play on as usual.
    """
    if state.phase != "ending":
        return False
    return any(window.final and window.seat == seat for window in state.windows)


def catchable(state: MatchState, window: CallWindow) -> bool:
    """Whether anyone may catch the seat of ``window`` now."""
    if not window.final:
        return window.called is None
    return (
        state.settings.is_classic
        and RANK_OF[window.card] == RANK_JACK
        and state.last_call[window.seat] != "maumau"
    )


# --- applying ---------------------------------------------------------------------


def apply(state: MatchState, action: Action) -> list[Event]:
    """Carry out ``action`` on ``state`` in place and return its events.

    Raises :class:`IllegalAction` (leaving ``state`` as it was) if the rules forbid it.
    """
    events: list[Event] = []
    if isinstance(action, Play):
        _apply_play(state, action, events)
    elif isinstance(action, Draw):
        _check_turn(state, action.seat)
        _apply_draw(state, action.seat, events)
    elif isinstance(action, Pass):
        _apply_pass(state, action.seat, events)
    elif isinstance(action, SayMau):
        _apply_say_mau(state, action, events)
    elif isinstance(action, Catch):
        _apply_catch(state, action, events)
    elif isinstance(action, EndCallWindow):
        _apply_end_window(state, action.window, events)
    elif isinstance(action, Challenge):
        _apply_challenge(state, action.seat, events)
    elif isinstance(action, TurnTimeout):
        _apply_timeout(state, action.seat, events)
    elif isinstance(action, NextRound):
        _apply_next_round(state, events)
    else:
        raise IllegalAction("unknown_action", f"{action!r} is not an action")
    state.action_no += 1
    return events


def _check_seat(state: MatchState, seat: int) -> None:
    if type(seat) is not int or not 0 <= seat < state.seats:
        details = {"seat": seat} if type(seat) is int else None
        raise IllegalAction("no_such_seat", f"there is no seat {seat!r} at this table", details)


def _check_turn(state: MatchState, seat: int) -> None:
    _check_seat(state, seat)
    if state.phase != "playing":
        if state.phase == "ending":
            raise IllegalAction("round_ending", "the round is ending; wait for the call window")
        raise IllegalAction("round_over", "the round is over; wait for the next deal")
    if seat != state.turn:
        raise IllegalAction("not_your_turn", "it is not your turn")


def _label(card: int) -> str:
    return card_label(card, ascii_only=True)


def _suit_words(state: MatchState, suit: int) -> str:
    return suit_label(suit, state.settings.is_classic, ascii_only=True)


def _apply_play(state: MatchState, action: Play, events: list[Event]) -> None:
    seat, card = action.seat, action.card
    _check_turn(state, seat)
    hand = state.hands[seat]
    classic = state.settings.is_classic
    if card not in hand:
        raise IllegalAction(
            "not_in_hand", f"you do not hold {_describe_card(card)}", {"card": _code(card)}
        )
    if state.drawn >= 0 and card != state.drawn:
        raise IllegalAction(
            "only_drawn_card",
            f"after drawing you may play only the card you drew ({_label(state.drawn)}) or pass",
            {"card": CODE_OF[state.drawn]},
        )
    if state.penalty_kind == PENALTY_WILD_DRAW_FOUR:
        raise IllegalAction(
            "challenge_or_draw",
            "a Wild Draw Four is pending: challenge it or draw 4",
            {"amount": 4},
        )
    if state.penalty:
        if not _answers_penalty(state, card):
            answer = "a 7" if state.penalty_kind == PENALTY_SEVEN else "a Draw Two"
            raise IllegalAction(
                "must_answer_penalty",
                f"you must draw {state.penalty} or answer with {answer}; "
                f"{_label(card)} does not answer it",
                {
                    "card": CODE_OF[card],
                    "amount": state.penalty,
                    "answer": ANSWERS[state.penalty_kind],
                },
            )
    elif not _playable(state, card):
        raise IllegalAction("does_not_match", _mismatch_reason(state, card), _mismatch(state, card))
    needs_name = _needs_name(card, classic)
    if needs_name and not (type(action.named) is int and 0 <= action.named < 4):
        what = "suit" if classic else "colour"
        raise IllegalAction(
            "must_name", f"playing {_label(card)} you must name a {what}", {"card": CODE_OF[card]}
        )
    if not needs_name and action.named != NO_SUIT:
        raise IllegalAction(
            "cannot_name",
            f"only a {'Jack' if classic else 'wild'} names a suit or colour",
            {"card": CODE_OF[card]},
        )
    left = len(hand) - 1
    call = action.call
    if call is not None:
        if call not in CALLS:
            raise IllegalAction(
                "bad_call", f"{call!r} is not a call; say mau or maumau", {"field": "play.call"}
            )
        if left != 1:
            raise IllegalAction(
                "nothing_to_call",
                f"you would have {left} cards left; Mau is said with your second-to-last card",
                {"count": left},
            )

    # Legal: carry it out.
    _turn_action_taken(state, events)
    hand.remove(card)
    state.discard.append(card)
    state.drawn = -1
    rank = RANK_OF[card]
    wd4_guilty = False
    if rank == SYMBOL_WILD_DRAW_FOUR and not classic:
        wd4_guilty = _holds_previous_colour(state, hand)
    state.named = action.named if needs_name else NO_SUIT
    said: Call | None = None
    if call is not None:
        said = counted_call(call, classic)
    events.append(CardPlayed(seat, card, state.named, said, left))
    n = state.seats
    nxt = (seat + state.direction) % n
    if left == 0:
        state.penalty, state.penalty_kind = 0, 0
        state.turn = nxt
        state.phase = "ending"
        state.windows.append(CallWindow(state.action_no, seat, card, True))
        return
    if left == 1:
        state.last_call[seat] = None
        window = CallWindow(state.action_no, seat, card, False)
        state.windows.append(window)
        if said is not None:
            _record_call(state, window, said, events, announce=False)
    if classic:
        if rank == RANK_7:
            state.penalty += 2
            state.penalty_kind = PENALTY_SEVEN
            events.append(PenaltyPending(nxt, state.penalty, PENALTY_SEVEN))
        elif rank == RANK_8 or (
            rank == RANK_9 and n == 2 and state.settings.reverse_skips_with_two
        ):
            events.append(Skipped(nxt))
            nxt = (nxt + state.direction) % n
        elif rank == RANK_9:
            state.direction = -state.direction
            events.append(Reversed(state.direction))
            nxt = (seat + state.direction) % n
    elif rank >= SYMBOL_SKIP:
        settings = state.settings
        if rank == SYMBOL_SKIP or (
            rank == SYMBOL_REVERSE and n == 2 and settings.reverse_skips_with_two
        ):
            events.append(Skipped(nxt))
            nxt = (nxt + state.direction) % n
        elif rank == SYMBOL_REVERSE:
            state.direction = -state.direction
            events.append(Reversed(state.direction))
            nxt = (seat + state.direction) % n
        elif rank == SYMBOL_DRAW_TWO:
            if settings.stack_draw_two:
                state.penalty += 2
                state.penalty_kind = PENALTY_DRAW_TWO
                events.append(PenaltyPending(nxt, state.penalty, PENALTY_DRAW_TWO))
            else:
                _draw_penalty(state, nxt, 2, PENALTY_DRAW_TWO, events)
                events.append(Skipped(nxt))
                nxt = (nxt + state.direction) % n
        elif rank == SYMBOL_WILD_DRAW_FOUR:
            if settings.wild_draw_four_challenge:
                state.penalty, state.penalty_kind = 4, PENALTY_WILD_DRAW_FOUR
                state.wd4_seat, state.wd4_guilty = seat, wd4_guilty
                events.append(PenaltyPending(nxt, 4, PENALTY_WILD_DRAW_FOUR, True))
            else:
                _draw_penalty(state, nxt, 4, PENALTY_WILD_DRAW_FOUR, events)
                events.append(Skipped(nxt))
                nxt = (nxt + state.direction) % n
    state.turn = nxt


def _holds_previous_colour(state: MatchState, hand_after: list[int]) -> bool:
    """Whether the Wild Draw Four's player held a card of the colour it was played on."""
    previous = state.discard[-2]
    colour = state.named if RANK_OF[previous] >= SYMBOL_WILD else SUIT_OF[previous]
    return colour != NO_SUIT and any(SUIT_OF[c] == colour for c in hand_after)


def _describe_card(card: object) -> str:
    if type(card) is int and 0 <= card < len(POINTS_OF):
        return card_label(card, ascii_only=True)
    return repr(card)


def _mismatch(state: MatchState, card: int) -> dict[str, Any]:
    """The facts of :func:`_mismatch_reason`: the card, the top card and, on a Jack or
    a wild, the suit or colour it named."""
    top = state.discard[-1]
    details: dict[str, Any] = {"card": CODE_OF[card], "top": CODE_OF[top]}
    if state.named >= 0 and (
        RANK_OF[top] == RANK_JACK if is_classic(top) else RANK_OF[top] >= SYMBOL_WILD
    ):
        details["named"] = named_code(top, state.named)
    return details


def _mismatch_reason(state: MatchState, card: int) -> str:
    top = state.discard[-1]
    label = _label(card)
    if state.settings.is_classic:
        if RANK_OF[card] == RANK_JACK:
            return "a Jack may not be played on a Jack at this table (house rule jack_on_jack)"
        if RANK_OF[top] == RANK_JACK:
            return (
                f"{label} does not follow the Jack: it named {_suit_words(state, state.named)}; "
                "play that suit or a Jack"
            )
        return f"{label} matches neither the suit nor the rank of {_label(top)}"
    if RANK_OF[top] >= SYMBOL_WILD:
        return f"{label} is not {_suit_words(state, state.named)}, the colour named by the wild"
    return f"{label} matches neither the colour, number nor symbol of {_label(top)}"


def _turn_action_taken(state: MatchState, events: list[Event]) -> None:
    """The player on turn acted: open windows that have run their time now close.

    Without ``mau_window_minimum`` (the seeds' reading), a window of a second-to-last
    card closes now, whatever its time, unless the player acting is its own (after an
    8 or a Skip with two players): then it waits for the next other player's action.
    """
    if not state.windows:
        return
    at_once = not state.settings.mau_window_minimum
    for window in state.windows[:]:
        if at_once and not window.final:
            if window.seat != state.turn:
                _close_window(state, window, events)
            continue
        window.acted = True
        if window.elapsed:
            _close_window(state, window, events)


def _close_window(state: MatchState, window: CallWindow, events: list[Event]) -> None:
    state.windows.remove(window)
    events.append(CallWindowClosed(window.seat, window.id))
    if window.final and state.phase == "ending":
        if state.hands[window.seat]:
            state.phase = "playing"
        else:
            _end_round(state, window.seat, events)


def _give(state: MatchState, seat: int, count: int, events: list[Event]) -> int:
    """Move up to ``count`` cards from the stock to ``seat``; returns how many moved."""
    hand = state.hands[seat]
    stock = state.stock
    given = 0
    while given < count:
        if not stock:
            if len(state.discard) <= 1:
                break
            top = state.discard.pop()
            stock.extend(state.discard)
            state.discard = [top]
            state.rng.shuffle(stock)
            events.append(Reshuffled(len(stock)))
        hand.append(stock.pop())
        given += 1
    if len(hand) > 1:
        state.last_call[seat] = None
    return given


def _draw_penalty(state: MatchState, seat: int, count: int, kind: int, events: list[Event]) -> None:
    got = _give(state, seat, count, events)
    events.append(PenaltyDrawn(seat, got, count, kind))
    _left_out_seat_drew(state, seat)


def _left_out_seat_drew(state: MatchState, seat: int) -> None:
    """A player whose last card is down but who was made to draw is back in the round."""
    if state.phase == "ending" and state.hands[seat]:
        for window in state.windows:
            if window.final and window.seat == seat:
                state.windows.remove(window)
                state.phase = "playing"
                break


def _apply_draw(state: MatchState, seat: int, events: list[Event]) -> None:
    if state.drawn >= 0:
        raise IllegalAction("already_drawn", "you have drawn already: play the drawn card or pass")
    _turn_action_taken(state, events)
    n = state.seats
    if state.penalty:
        amount, kind = state.penalty, state.penalty_kind
        state.penalty, state.penalty_kind = 0, 0
        _draw_penalty(state, seat, amount, kind, events)
        state.turn = (seat + state.direction) % n
        return
    got = _give(state, seat, 1, events)
    if got and _playable(state, state.hands[seat][-1]):
        state.drawn = state.hands[seat][-1]
        events.append(CardDrawn(seat, 1, True))
        return
    events.append(CardDrawn(seat, got, False))
    state.turn = (seat + state.direction) % n


def _apply_pass(state: MatchState, seat: int, events: list[Event]) -> None:
    _check_turn(state, seat)
    if state.drawn < 0:
        raise IllegalAction("nothing_drawn", "you may pass only after drawing a playable card")
    _turn_action_taken(state, events)
    state.drawn = -1
    events.append(Passed(seat))
    state.turn = (seat + state.direction) % state.seats


def _apply_challenge(state: MatchState, seat: int, events: list[Event]) -> None:
    _check_turn(state, seat)
    if state.penalty_kind != PENALTY_WILD_DRAW_FOUR:
        raise IllegalAction("nothing_to_challenge", "there is no Wild Draw Four to challenge")
    _turn_action_taken(state, events)
    target, guilty = state.wd4_seat, state.wd4_guilty
    state.penalty, state.penalty_kind, state.wd4_seat = 0, 0, -1
    events.append(ChallengeDecided(seat, target, guilty))
    if guilty:
        _draw_penalty(state, target, 4, PENALTY_WILD_DRAW_FOUR, events)
    else:
        _draw_penalty(state, seat, 6, PENALTY_WILD_DRAW_FOUR, events)
        state.turn = (seat + state.direction) % state.seats


def _apply_timeout(state: MatchState, seat: int, events: list[Event]) -> None:
    _check_turn(state, seat)
    events.append(TimedOut(seat))
    if state.drawn >= 0:
        _apply_pass(state, seat, events)
        return
    _apply_draw(state, seat, events)
    if state.drawn >= 0:
        state.drawn = -1
        events.append(Passed(seat))
        state.turn = (seat + state.direction) % state.seats


def _record_call(
    state: MatchState, window: CallWindow, call: Call, events: list[Event], announce: bool = True
) -> None:
    """Record a call; ``announce=False`` when the play that carried it already says so."""
    said = counted_call(call, state.settings.is_classic)
    window.called = said
    state.last_call[window.seat] = said
    if announce:
        events.append(MauSaid(window.seat, said))


def _apply_say_mau(state: MatchState, action: SayMau, events: list[Event]) -> None:
    seat = action.seat
    _check_seat(state, seat)
    if action.call not in CALLS:
        raise IllegalAction(
            "bad_call",
            f"{action.call!r} is not a call; say mau or maumau",
            {"field": "say_mau.call"},
        )
    if state.phase in ("round_over", "match_over"):
        raise IllegalAction("round_over", "the round is over")
    if gone_out(state, seat):
        raise IllegalAction(
            "already_out", "you have played your last card; you make no more calls this round"
        )
    already_called = False
    for window in state.windows:
        if window.seat == seat and not window.final:
            if window.called is None:
                _record_call(state, window, action.call, events)
                return
            if window.called == "mau" and action.call == "maumau" and state.settings.is_classic:
                _record_call(state, window, "maumau", events)
                return
            already_called = True
    if already_called:
        raise IllegalAction("already_called", "you have already said it")
    cards = len(state.hands[seat])
    if cards == 1:
        raise IllegalAction(
            "window_closed", "too late: the call window for your second-to-last card has closed"
        )
    raise IllegalAction(
        "nothing_to_call",
        f"you hold {cards} cards; Mau is said when you play your second-to-last card",
        {"count": cards},
    )


def _apply_catch(state: MatchState, action: Catch, events: list[Event]) -> None:
    seat, target = action.seat, action.target
    _check_seat(state, seat)
    _check_seat(state, target)
    if seat == target:
        raise IllegalAction("catch_self", "you cannot catch yourself")
    if state.phase in ("round_over", "match_over"):
        raise IllegalAction("round_over", "the round is over")
    if gone_out(state, seat):
        raise IllegalAction(
            "already_out", "you have played your last card; you make no more catches this round"
        )
    for window in state.windows:
        if window.seat == target and catchable(state, window):
            penalty = state.settings.mau_penalty
            events.append(Caught(seat, target, penalty, window.final, window.card))
            if not window.final:
                state.windows.remove(window)
            _draw_penalty(state, target, penalty, 0, events)
            if window in state.windows:
                # Nothing was left to draw: the player stays out and the round ends.
                _close_window(state, window, events)
            return
    false_penalty = state.settings.false_catch_penalty
    if not false_penalty:
        why = _why_code(state, target)
        raise IllegalAction("nothing_to_catch", _NOT_CATCHABLE[why], {"seat": target, "why": why})
    events.append(FalseCatch(seat, target, false_penalty))
    _draw_penalty(state, seat, false_penalty, 0, events)


_NOT_CATCHABLE = {
    "final_card": "their last card is no Jack, or they said Mau Mau in time: nothing to catch",
    "said": "they said it in time",
    "no_window": "they have no open call window: nothing to catch",
}


def _why_code(state: MatchState, target: int) -> str:
    """Why ``target`` cannot be caught, as a code of :data:`_NOT_CATCHABLE`."""
    for window in state.windows:
        if window.seat == target:
            return "final_card" if window.final else "said"
    return "no_window"


def _apply_end_window(state: MatchState, window_id: int, events: list[Event]) -> None:
    for window in state.windows:
        if window.id == window_id:
            window.elapsed = True
            if window.acted or window.final:
                _close_window(state, window, events)
            return
    raise IllegalAction("no_such_window", f"no call window {window_id} is open")


def _end_round(state: MatchState, winner: int, events: list[Event]) -> None:
    hand_points = tuple(sum(POINTS_OF[c] for c in hand) for hand in state.hands)
    points = sum(hand_points)
    state.scores[winner] += points
    state.windows = []
    state.penalty, state.penalty_kind, state.drawn = 0, 0, -1
    hands = tuple(tuple(hand) for hand in state.hands)
    scores = tuple(state.scores)
    state.last_round = RoundResult(state.round_no, winner, points, hands, hand_points, scores)
    events.append(RoundEnded(state.round_no, winner, points, hands, scores))
    deals = state.settings.deals
    if state.scores[winner] >= state.settings.target_score:
        state.phase = "match_over"
        state.winner = winner
        events.append(MatchEnded(winner, scores))
    elif deals and state.round_no >= deals:
        # The last deal: the highest score wins; of several, this deal's winner if
        # among them, else the one at the lowest seat.
        best = max(scores)
        state.phase = "match_over"
        state.winner = winner if scores[winner] == best else scores.index(best)
        events.append(MatchEnded(state.winner, scores))
    else:
        state.phase = "round_over"


def _apply_next_round(state: MatchState, events: list[Event]) -> None:
    if state.phase != "round_over":
        raise IllegalAction(
            "round_not_over",
            "the match is over" if state.phase == "match_over" else "the round is still on",
        )
    state.dealer = (state.dealer + 1) % state.seats
    _deal(state, events)
