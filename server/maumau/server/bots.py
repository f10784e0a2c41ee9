"""The simple bot: what it plays, and whom it catches.

A bot sees what its seat may see (its own hand and the legal actions the engine lists
for it) and follows a few human habits:

- it answers a 7 / Draw Two penalty when it can, and plays the card it just drew if
  that is allowed;
- it plays an ordinary matching card if it has one, and keeps Jacks and wilds for
  when nothing else fits;
- it names the suit or colour it holds most of (by count, then by points);
- it usually says "Mau" ("Mau Mau" when keeping a Jack) together with the play, and
  sometimes forgets, like people do;
- it catches players who forgot, after a human-like delay chosen by the table (at
  least 300 ms).

The choice is a pure function of the state, the seat and the random generator the
caller passes in, so bots are deterministic under a seeded server.
"""

from __future__ import annotations

import random
from collections import Counter

from maumau.protocol.cards import NO_SUIT, POINTS_OF, RANK_JACK, RANK_OF, SUIT_OF, SYMBOL_WILD

from .rules import (
    Action,
    Call,
    Catch,
    Challenge,
    Draw,
    MatchState,
    Pass,
    Play,
    SayMau,
    legal_actions,
)

SAYS_MAU_WITH_PLAY = 0.85


def _is_wild(card: int, classic: bool) -> bool:
    return RANK_OF[card] == RANK_JACK if classic else RANK_OF[card] >= SYMBOL_WILD


def _strongest_suit(hand: list[int], played: int) -> int:
    rest = list(hand)
    rest.remove(played)
    counts: Counter[int] = Counter()
    for card in rest:
        if SUIT_OF[card] != NO_SUIT:
            counts[SUIT_OF[card]] += 100 + POINTS_OF[card]
    if not counts:
        return SUIT_OF[played] if SUIT_OF[played] != NO_SUIT else 0
    return max(sorted(counts), key=lambda suit: counts[suit])


def choose_turn_action(
    state: MatchState, seat: int, rng: random.Random, forgets: float = 1 - SAYS_MAU_WITH_PLAY
) -> Action | None:
    """The bot's move on its turn, or None if it is not its turn to play. ``forgets`` is
    how often it plays its second-to-last card without saying Mau."""
    if state.phase != "playing" or state.turn != seat:
        return None
    legal = legal_actions(state, seat)
    classic = state.settings.is_classic
    plays = [a for a in legal if isinstance(a, Play)]
    if any(isinstance(a, Challenge) for a in legal):
        return Challenge(seat) if rng.random() < 0.25 else Draw(seat)
    if not plays:
        for action in legal:
            if isinstance(action, Pass | Draw):
                return action
        return None
    ordinary = [a for a in plays if not _is_wild(a.card, classic)]
    if ordinary:
        # Prefer the card worth the most points: it is the one that hurts to keep.
        best = max(POINTS_OF[a.card] for a in ordinary)
        action = rng.choice([a for a in ordinary if POINTS_OF[a.card] == best])
    else:
        hand = state.hands[seat]
        card = plays[0].card
        suit = _strongest_suit(hand, card)
        action = next(a for a in plays if a.card == card and a.named == suit)
    hand = state.hands[seat]
    if len(hand) == 2 and rng.random() >= forgets:
        kept = hand[0] if hand[1] == action.card else hand[1]
        call: Call = "maumau" if classic and RANK_OF[kept] == RANK_JACK else "mau"
        action = Play(action.seat, action.card, action.named, call)
    return action


def own_call(state: MatchState, seat: int) -> SayMau | None:
    """A "Mau" the bot still owes for its own open window (it says it late)."""
    for action in legal_actions(state, seat):
        if isinstance(action, SayMau):
            hand = state.hands[seat]
            jack = state.settings.is_classic and len(hand) == 1 and RANK_OF[hand[0]] == RANK_JACK
            return SayMau(seat, "maumau" if jack else "mau")
    return None


def catches(state: MatchState, seat: int) -> list[Catch]:
    """Every opponent the bot could catch now."""
    return [a for a in legal_actions(state, seat) if isinstance(a, Catch)]
