"""The bots: three levels of play, and how quickly each says Mau and catches.

Levels (:data:`LEVELS`):

- **easy** plays a random matching card (naming a random suit or colour), draws only
  when nothing fits, forgets to say Mau fairly often, reacts slowly and sometimes
  does not notice a forgotten Mau at all;
- **normal** is the heuristic player: it answers a 7 / Draw Two penalty, plays the
  card it just drew, plays the matching card it would least like to be left holding
  (points, then staying in the suit it holds most of), hits a player who is about to
  go out with a 7, 8, Skip or Draw Two (or turns play away from them with a 9 or
  Reverse), keeps Jacks and wilds for when nothing else fits and names the suit or
  colour it holds most of. It forgets Mau now and then (15%, the old bot's default);
- **hard** plays the normal bot's move unless its search finds a clearly better one
  (see :mod:`maumau.server.search`: determinized Monte Carlo rollouts of the round
  over the cards it cannot see, valued by match equity, within a wall-clock budget
  of 200 ms at the server). It never forgets Mau and reacts fastest.

Every level reacts to a forgotten Mau with a human-like delay drawn from its own
distribution, never faster than :data:`MIN_REACTION_S`.

A bot sees only what its seat may see: its own hand, the discard pile (every card on
it was seen when played), the card counts and the public state. The choice is a pure
function of those, the level and the random generator the caller passes in, so bots
are deterministic under a seeded server (the hard bot only when given a fixed number
of worlds, see :func:`hard_action`; its wall-clock budget is an upper bound).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from maumau.protocol.cards import (
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
)

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
    gone_out,
    legal_actions,
)
from .search import hidden_pool, search

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "MIN_REACTION_S",
    "catch_delay",
    "catches",
    "choose_turn_action",
    "forgets",
    "hard_action",
    "notices",
    "own_call",
]

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"
BOT_MARK = "*"
"""Ends the name of every bot. No player's name may hold it (nor any asterisk: see
:func:`maumau.server.names.name_problem`), so a bot's name never collides with a
person's, and every name people have (Ada, Jo) is free for them."""
# The names bots take at a table, in this order.
BOT_NAMES = [
    f"{name}{BOT_MARK}"
    for name in ("Ada", "Bert", "Cleo", "Dan", "Edda", "Finn", "Greta", "Hugo", "Ines", "Jo")
]
MIN_REACTION_S = 0.3
"""No bot ever catches or calls faster than this after a play."""


@dataclass(frozen=True, slots=True)
class _Profile:
    forgets: float
    """Probability of playing the second-to-last card without saying Mau."""
    notices: float
    """Probability of noticing a forgotten Mau (someone else's, or its own) at all."""
    median_s: float
    """Median reaction time beyond :data:`MIN_REACTION_S` (log-normal)."""
    spread: float
    """Sigma of the log-normal reaction time."""


_PROFILES: dict[str, _Profile] = {
    "easy": _Profile(forgets=0.30, notices=0.65, median_s=0.85, spread=0.45),
    "normal": _Profile(forgets=0.15, notices=0.90, median_s=0.45, spread=0.40),
    "hard": _Profile(forgets=0.0, notices=1.0, median_s=0.12, spread=0.35),
}


def _profile(level: str) -> _Profile:
    try:
        return _PROFILES[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; choose one of {LEVELS}") from None


def forgets(level: str) -> float:
    """How often a bot of ``level`` plays its second-to-last card without saying Mau."""
    return _profile(level).forgets


def notices(level: str, rng: random.Random) -> bool:
    """Whether a bot of ``level`` notices a forgotten Mau this time (easy sometimes not)."""
    return rng.random() < _profile(level).notices


def catch_delay(level: str, rng: random.Random) -> float:
    """Seconds a bot of ``level`` takes to catch (or to say a late Mau): a log-normal
    reaction time on top of :data:`MIN_REACTION_S`, capped at a few seconds."""
    p = _profile(level)
    extra = p.median_s * math.exp(p.spread * rng.gauss(0.0, 1.0))
    return MIN_REACTION_S + min(extra, 5.0)


def own_call(state: MatchState, seat: int) -> SayMau | None:
    """A "Mau" the bot still owes for its own open window (it says it late): "Mau Mau"
    if the card it kept is a Jack in Mau Mau (also after a plain "Mau")."""
    if gone_out(state, seat):
        return None  # out of the round: no more calls
    hand = state.hands[seat]
    jack = state.settings.is_classic and len(hand) == 1 and RANK_OF[hand[0]] == RANK_JACK
    for window in state.windows:
        if window.seat != seat or window.final:
            continue
        if window.called is None:
            return SayMau(seat, "maumau" if jack else "mau")
        if window.called == "mau" and jack:
            return SayMau(seat, "maumau")
    return None


def catches(state: MatchState, seat: int) -> list[Catch]:
    """Every opponent the bot could catch now."""
    return [a for a in legal_actions(state, seat) if isinstance(a, Catch)]


# --- the move on the bot's turn -------------------------------------------------------


def choose_turn_action(
    state: MatchState,
    seat: int,
    rng: random.Random,
    level: str = "normal",
    *,
    budget_s: float = 0.2,
    clock: Callable[[], float] = time.perf_counter,
) -> Action | None:
    """The bot's move on its turn, or None if it is not its turn to play.

    A play of the second-to-last card carries the Mau call ("Mau Mau" when the kept
    card is a Jack in Mau Mau) unless the bot forgets, with its level's probability.
    ``budget_s`` bounds the hard bot's thinking time on ``clock`` (the wall clock;
    tests give one that does not depend on the machine's speed).
    """
    started = clock()
    profile = _profile(level)
    if state.phase != "playing" or state.turn != seat:
        return None
    legal = [a for a in legal_actions(state, seat) if isinstance(a, Play | Draw | Pass | Challenge)]
    if not legal:
        return None
    if level == "easy":
        action = _easy(state, seat, rng, legal)
    elif level == "normal":
        action = _normal(state, seat, rng, legal)
    else:
        action = _hard(state, seat, rng, legal, started + budget_s, None, clock)
    return _with_call(state, action, rng, profile.forgets)


def hard_action(
    state: MatchState,
    seat: int,
    rng: random.Random,
    *,
    budget_s: float = 0.2,
    worlds: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Action | None:
    """The hard bot's move; with ``worlds`` set it searches exactly that many worlds
    (deterministic under ``rng``), ``budget_s`` (on ``clock``) still being an upper
    bound."""
    started = clock()
    if state.phase != "playing" or state.turn != seat:
        return None
    legal = [a for a in legal_actions(state, seat) if isinstance(a, Play | Draw | Pass | Challenge)]
    if not legal:
        return None
    action = _hard(state, seat, rng, legal, started + budget_s, worlds, clock)
    return _with_call(state, action, rng, _PROFILES["hard"].forgets)


def _with_call(state: MatchState, action: Action, rng: random.Random, forget: float) -> Action:
    if not isinstance(action, Play):
        return action
    hand = state.hands[action.seat]
    if len(hand) != 2 or (forget > 0 and rng.random() < forget):
        return action
    kept = hand[0] if hand[1] == action.card else hand[1]
    call: Call = "maumau" if state.settings.is_classic and RANK_OF[kept] == RANK_JACK else "mau"
    return Play(action.seat, action.card, action.named, call)


def _is_wild(card: int, classic: bool) -> bool:
    return RANK_OF[card] == RANK_JACK if classic else RANK_OF[card] >= SYMBOL_WILD


def _suit_weights(hand: list[int], without: int) -> list[int]:
    weight = [0, 0, 0, 0]
    skipped = False
    for card in hand:
        if card == without and not skipped:
            skipped = True
            continue
        suit = SUIT_OF[card]
        if suit != NO_SUIT:
            weight[suit] += 100 + POINTS_OF[card]
    return weight


def _name_for(hand: list[int], played: int) -> int:
    """The suit or colour to name: the one held most after the play (count, then
    points); the played card's own suit, or spades/red, if nothing is left."""
    weight = _suit_weights(hand, played)
    if not any(weight):
        return SUIT_OF[played] if SUIT_OF[played] != NO_SUIT else 0
    return max(range(4), key=lambda suit: weight[suit])


# --- easy -----------------------------------------------------------------------------


def _easy(state: MatchState, seat: int, rng: random.Random, legal: Sequence[Action]) -> Action:
    if any(isinstance(a, Challenge) for a in legal):
        return Challenge(seat) if rng.random() < 0.5 else Draw(seat)
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return next(a for a in legal if isinstance(a, Draw | Pass))
    card = rng.choice(sorted({a.card for a in plays}))
    return rng.choice([a for a in plays if a.card == card])


# --- normal ---------------------------------------------------------------------------


def _normal(state: MatchState, seat: int, rng: random.Random, legal: Sequence[Action]) -> Action:
    if any(isinstance(a, Challenge) for a in legal):
        return Challenge(seat) if _challenge_pays(state, seat) else Draw(seat)
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return next(a for a in legal if isinstance(a, Draw | Pass))
    classic = state.settings.is_classic
    hand = state.hands[seat]
    ordinary = [a for a in plays if not _is_wild(a.card, classic)]
    if ordinary:
        n = state.seats
        counts = [len(h) for h in state.hands]
        weight = _suit_weights(hand, -1)
        best: list[Play] = []
        best_score = -math.inf
        for action in ordinary:
            score = _ordinary_score(state, seat, action.card, counts, weight, n)
            if score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return rng.choice(best)
    card = plays[0].card
    suit = _name_for(hand, card)
    return next(a for a in plays if a.card == card and a.named == suit)


def _ordinary_score(
    state: MatchState, seat: int, card: int, counts: list[int], weight: list[int], n: int
) -> float:
    """How much the normal bot wants to play ``card`` (a matching non-wild card)."""
    rank = RANK_OF[card]
    classic = state.settings.is_classic
    score = float(POINTS_OF[card])
    # Staying in (or moving to) the suit it holds most of keeps its next turn easy.
    score += weight[SUIT_OF[card]] / 100 * 2
    nxt = (seat + state.direction) % n
    if classic:
        attack = rank in (RANK_7, RANK_8)
        turns = rank == RANK_9 and n > 2
    else:
        attack = rank in (SYMBOL_SKIP, SYMBOL_DRAW_TWO)
        turns = rank == SYMBOL_REVERSE and n > 2
    if attack and counts[nxt] <= 2:
        score += 30
    if turns:
        prev = (seat - state.direction) % n
        if counts[nxt] <= 2 < counts[prev]:
            score += 25
        elif counts[prev] <= 2 < counts[nxt]:
            score -= 25
    return score


def _challenge_pays(state: MatchState, seat: int) -> bool:
    """Whether to challenge a Wild Draw Four.

    Drawing costs 4 cards and the turn; a challenge that fails costs 6 and the turn,
    one that succeeds costs the player 4 and keeps the turn: it pays when the chance
    that they held the previous colour is above about a quarter. That chance is the
    chance that their hand, dealt at random from the unseen cards, holds the colour,
    times :data:`_GUILTY_IF_ABLE`: most players play a matching card when they have
    one rather than their Wild Draw Four (the bots always do).
    """
    target = state.wd4_seat
    if target < 0 or len(state.discard) < 2:
        return False
    colour = SUIT_OF[state.discard[-2]]
    if colour == NO_SUIT:
        return False  # the colour was named by a wild: not worth a guess
    pool = hidden_pool(state, seat)
    if not pool:
        return False
    same = sum(1 for c in pool if SUIT_OF[c] == colour)
    miss = 1.0
    for i in range(len(state.hands[target])):
        miss *= max(0.0, (len(pool) - same - i) / (len(pool) - i))
    return _GUILTY_IF_ABLE * (1 - miss) > 0.25


_GUILTY_IF_ABLE = 0.3
"""How often a player who could follow the colour plays a Wild Draw Four anyway."""


# --- hard -----------------------------------------------------------------------------


def _hard(
    state: MatchState,
    seat: int,
    rng: random.Random,
    legal: Sequence[Action],
    deadline: float,
    worlds: int | None,
    clock: Callable[[], float],
) -> Action:
    if any(isinstance(a, Challenge) for a in legal):
        return Challenge(seat) if _challenge_pays(state, seat) else Draw(seat)
    default = _normal(state, seat, rng, legal)
    candidates = _candidates(state, seat, legal, default)
    if len(candidates) == 1:
        return candidates[0]
    budget_s = deadline - clock()
    result = search(
        state, seat, candidates, rng, budget_s=budget_s, worlds=worlds, default=default, clock=clock
    )
    return default if result is None else result.action


def _candidates(
    state: MatchState, seat: int, legal: Sequence[Action], default: Action
) -> list[Action]:
    """The moves worth searching: every distinct play (a Jack or wild with each name),
    and drawing or passing. In Mau Mau all Jacks play alike, so only one of them (the
    default's, if it plays one) is tried."""
    classic = state.settings.is_classic
    jack = -1
    if classic:
        if isinstance(default, Play) and RANK_OF[default.card] == RANK_JACK:
            jack = default.card
        else:
            jack = next(
                (a.card for a in legal if isinstance(a, Play) and RANK_OF[a.card] == RANK_JACK),
                -1,
            )
    seen: set[Action] = set()
    out: list[Action] = []
    for action in legal:
        if action in seen:
            continue
        if (
            classic
            and isinstance(action, Play)
            and RANK_OF[action.card] == RANK_JACK
            and action.card != jack
        ):
            continue
        seen.add(action)
        out.append(action)
    return out
