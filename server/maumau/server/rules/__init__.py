"""The maumau rules engine: pure, deterministic, and free of I/O.

In the spirit of OpenSpiel and boardgame.io::

    state, events = new_match(Settings.create("classic", seats=3), seed=7)
    actions = legal_actions(state, seat)      # small immutable values
    events = apply(state, actions[0])         # or raises IllegalAction
    public = view(state, None)                # what a spectator may know
    facts = event_map(events[0])              # {"kind": "card_played", ...}

``state`` is changed in place by :func:`apply`; use ``state.clone()`` to branch.
The engine reads no clock and has no random source but the match's own seeded
generator. See ``engine`` for the theory of operation and ``docs/rules.md`` for the
decisions taken where the rules reference is silent.
"""

from .actions import (
    Action,
    Call,
    Catch,
    Challenge,
    Draw,
    EndCallWindow,
    NextRound,
    Pass,
    Play,
    PlayerAction,
    SayMau,
    SystemAction,
    TurnTimeout,
    action_from_record,
    action_to_record,
)
from .engine import IllegalAction, apply, gone_out, legal_actions, new_match
from .events import Event
from .facts import event_map
from .settings import Settings, SettingsError, Variant
from .state import MatchState, RoundResult
from .views import (
    MatchView,
    PrivateView,
    PublicView,
    RoundView,
    WindowView,
    private_view,
    public_view,
    view,
)

__all__ = [
    "Action",
    "Call",
    "Catch",
    "Challenge",
    "Draw",
    "EndCallWindow",
    "Event",
    "IllegalAction",
    "MatchState",
    "MatchView",
    "NextRound",
    "Pass",
    "Play",
    "PlayerAction",
    "PrivateView",
    "PublicView",
    "RoundResult",
    "RoundView",
    "SayMau",
    "Settings",
    "SettingsError",
    "SystemAction",
    "TurnTimeout",
    "Variant",
    "WindowView",
    "action_from_record",
    "action_to_record",
    "apply",
    "event_map",
    "gone_out",
    "legal_actions",
    "new_match",
    "private_view",
    "public_view",
    "view",
]
