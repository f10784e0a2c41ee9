"""What one seat, or a spectator, may know of a match.

:func:`view` is the only way match state leaves the server. It copies out exactly
the public facts (top card, named suit or colour, direction, whose turn it is,
pending penalty, card counts, stock and discard sizes, open call windows, scores,
the last round's revealed hands) plus, for a seat, its own hand, the card it just
drew and its legal actions. It never contains another seat's cards or the order of
the stock: a property test swaps every hidden card around and checks that no view
changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from maumau.protocol.cards import CODE_OF, NO_SUIT

from .actions import Action, Catch, Challenge, Draw, Pass, Play, SayMau
from .engine import catchable, legal_actions
from .settings import Settings
from .state import MatchState, Phase

PENALTY_KINDS = {0: None, 1: "seven", 2: "draw_two", 3: "wild_draw_four"}


@dataclass(frozen=True, slots=True)
class WindowView:
    """An open call window, as everyone sees it."""

    id: int
    seat: int
    final: bool
    called: str | None
    catchable: bool


@dataclass(frozen=True, slots=True)
class RoundView:
    """The end of the last round: every hand revealed, and the points counted."""

    round_no: int
    winner: int
    points: int
    hands: tuple[tuple[str, ...], ...]
    hand_points: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MatchView:
    """One seat's (or a spectator's, ``seat is None``) knowledge of the match."""

    seat: int | None
    settings: Settings
    phase: Phase
    round_no: int
    dealer: int
    turn: int
    direction: int
    top: str
    named: int | None
    penalty: int
    penalty_kind: str | None
    hand_counts: tuple[int, ...]
    scores: tuple[int, ...]
    stock_count: int
    discard_count: int
    windows: tuple[WindowView, ...]
    last_round: RoundView | None
    winner: int | None
    action_no: int
    hand: tuple[str, ...] | None
    drawn: str | None
    legal: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class PublicView:
    """What everybody at the table (spectators too) may know."""

    phase: Phase
    round_no: int
    dealer: int
    turn: int
    direction: int
    top: str
    named: int | None
    penalty: int
    penalty_kind: str | None
    hand_counts: tuple[int, ...]
    scores: tuple[int, ...]
    stock_count: int
    discard_count: int
    windows: tuple[WindowView, ...]
    last_round: RoundView | None
    winner: int | None
    action_no: int


@dataclass(frozen=True, slots=True)
class PrivateView:
    """What only ``seat`` may know: its hand, the card it just drew, its legal actions."""

    seat: int | None
    hand: tuple[str, ...] | None
    drawn: str | None
    legal: tuple[Action, ...]


def public_view(state: MatchState) -> PublicView:
    """The public part of every view; the server computes it once per change."""
    last = state.last_round
    return PublicView(
        phase=state.phase,
        round_no=state.round_no,
        dealer=state.dealer,
        turn=state.turn,
        direction=state.direction,
        top=CODE_OF[state.discard[-1]],
        named=state.named if state.named != NO_SUIT else None,
        penalty=state.penalty,
        penalty_kind=PENALTY_KINDS[state.penalty_kind],
        hand_counts=tuple(map(len, state.hands)),
        scores=tuple(state.scores),
        stock_count=len(state.stock),
        discard_count=len(state.discard),
        windows=tuple(
            WindowView(w.id, w.seat, w.final, w.called, catchable(state, w)) for w in state.windows
        ),
        last_round=None
        if last is None
        else RoundView(
            last.round_no,
            last.winner,
            last.points,
            tuple(tuple(CODE_OF[c] for c in hand) for hand in last.hands),
            last.hand_points,
            last.scores,
        ),
        winner=state.winner if state.winner >= 0 else None,
        action_no=state.action_no,
    )


def private_view(state: MatchState, seat: int | None) -> PrivateView:
    """The part of ``seat``'s view nobody else may see (empty for spectators)."""
    if seat is None:
        return PrivateView(None, None, None, ())
    return PrivateView(
        seat=seat,
        hand=tuple(map(CODE_OF.__getitem__, state.hands[seat])),
        drawn=CODE_OF[state.drawn] if seat == state.turn and state.drawn >= 0 else None,
        legal=offered(legal_actions(state, seat)),
    )


_ORDER: dict[type, int] = {Play: 0, Draw: 1, Pass: 2, Challenge: 3, SayMau: 4, Catch: 5}


def offered(actions: list[Action]) -> tuple[Action, ...]:
    """The legal actions as a view lists them: each once (a seat with two open call
    windows may say Mau, and a target with two catchable windows be caught, but the
    move is the same) and in the documented order: plays (in hand order), draw, pass,
    challenge, the calls (``mau`` before ``maumau``), the catches (by the order their
    windows opened)."""
    # This runs for every view sent, so the common cases are taken first:
    # legal_actions lists the turn's moves in order and each once; only a Wild Draw
    # Four lists challenge before draw, and only calls and catches (which come after
    # the turn's moves) can repeat. A list ending in a turn move has none of those.
    if not actions:
        return ()
    last = type(actions[-1])
    if last is Draw:
        if type(actions[0]) is Challenge:  # exactly [challenge, draw]
            return (actions[1], actions[0])
        return tuple(actions)
    if last is Pass or last is Play:
        return tuple(actions)
    unique = dict.fromkeys(actions)
    return tuple(sorted(unique, key=_offer_key))


def _offer_key(action: Action) -> tuple[int, bool]:
    """The documented order; the sort is stable, so catches stay in window order."""
    return _ORDER[type(action)], isinstance(action, SayMau) and action.call == "maumau"


def view(state: MatchState, seat: int | None) -> MatchView:
    """What ``seat`` may know now; ``seat=None`` is the spectators' view."""
    public = public_view(state)
    private = private_view(state, seat)
    return MatchView(
        seat=seat,
        settings=state.settings,
        phase=public.phase,
        round_no=public.round_no,
        dealer=public.dealer,
        turn=public.turn,
        direction=public.direction,
        top=public.top,
        named=public.named,
        penalty=public.penalty,
        penalty_kind=public.penalty_kind,
        hand_counts=public.hand_counts,
        scores=public.scores,
        stock_count=public.stock_count,
        discard_count=public.discard_count,
        windows=public.windows,
        last_round=public.last_round,
        winner=public.winner,
        action_no=public.action_no,
        hand=private.hand,
        drawn=private.drawn,
        legal=private.legal,
    )
