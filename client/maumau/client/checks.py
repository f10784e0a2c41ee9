"""The protocol's invariants, checked on every server message before the client uses it.

Theory of operation
-------------------
The codec's schema checks each field alone (its type and range); it cannot see that
a ``view``'s ``turn`` is one of the table's seats, that ``scores`` has one entry per
seat, that a float setting is a finite number, or that the lobby lists each table
once. The screens count on all of that (they index lists by seat, key rows by id,
turn settings into whole numbers), so a server that broke one of them would crash
the client. :func:`problem` holds each message to those invariants, given what the
client knows already (the seats of the table it is at); the app skips a message that
breaks one, logs why, and goes on, as ``docs/protocol.md`` has the client skip a frame
that fails validation. A ``replay`` keeps its good steps and loses the bad ones
(:func:`good_replay`).

Each check is a function of one message kind that returns what is wrong in words, or
None; none of them raises, whatever the message holds.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from maumau.protocol.messages import (
    GameEvent,
    Lobby,
    Matches,
    MauDecision,
    Message,
    Replay,
    TableInfo,
    Tournament,
    View,
)

log = logging.getLogger("maumau.client")

EVENT_SEATS = ("seat", "dealer", "first", "catcher", "target", "challenger", "winner")


def _seat(value: Any, seats: int, what: str) -> str | None:
    """Why ``value`` is no seat of ``seats`` (None, the optional case, is fine)."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < seats:
        return f"{what} {value!r} is not one of {seats} seats"
    return None


def _length(values: Any, seats: int, what: str) -> str | None:
    if not isinstance(values, Sequence) or isinstance(values, str) or len(values) != seats:
        count = len(values) if isinstance(values, Sequence) else "no list"
        return f"{what} has {count} entries for {seats} seats"
    return None


def _unique(values: Iterable[Any], what: str) -> str | None:
    seen: set[Any] = set()
    for value in values:
        if value in seen:
            return f"{what} {value!r} is listed twice"
        seen.add(value)
    return None


def _finite(settings: Mapping[str, Any], what: str) -> str | None:
    for key, value in settings.items():
        if isinstance(value, float) and not math.isfinite(value):
            return f"{what}.{key} is {value!r}"
    return None


def _first(*problems: str | None) -> str | None:
    return next((p for p in problems if p is not None), None)


def check_lobby(message: Lobby) -> str | None:
    return _first(
        _unique((t.get("id") for t in message.tables), "lobby.tables: the table"),
        _unique((t.get("id") for t in message.tournaments), "lobby.tournaments: the id"),
        *(_finite(t.get("rules") or {}, "lobby.tables.rules") for t in message.tables),
    )


def check_table(message: TableInfo, seats: int | None) -> str | None:
    """``seats``: the seats of the view the client holds of this table, if any."""
    if not message.seats:
        return "table.seats is empty"
    return _first(
        None if seats is None else _length(message.seats, seats, "table.seats"),
        _seat(message.you, len(message.seats), "table.you"),
        _finite(message.settings, "table.settings"),
    )


def check_view(message: View, seats: int | None) -> str | None:
    """``seats``: the seats of the table the view is about; None when no ``table``
    told the client of it (the screens draw a view with its table's seats)."""
    if seats is None:
        return f"view.table {message.table} is not the table the client is at"
    n = seats
    found = [
        _length(message.hand_counts, n, "view.hand_counts"),
        _length(message.scores, n, "view.scores"),
        _seat(message.seat, n, "view.seat"),
        _seat(message.turn, n, "view.turn"),
        _seat(message.dealer, n, "view.dealer"),
        _seat(message.winner, n, "view.winner"),
    ]
    found += [_seat(w.get("seat"), n, "view.windows.seat") for w in message.windows]
    found += [_seat(a.get("target"), n, "view.legal.target") for a in message.legal]
    last = message.last_round
    if last is not None:
        found += [
            _seat(last.get("winner"), n, "view.last_round.winner"),
            _length(last.get("hands"), n, "view.last_round.hands"),
            _length(last.get("hand_points"), n, "view.last_round.hand_points"),
            _length(last.get("scores"), n, "view.last_round.scores"),
        ]
    return _first(*found)


def check_event(message: GameEvent, seats: int | None) -> str | None:
    if seats is None:
        return None
    found = [_seat(getattr(message, name), seats, f"event.{name}") for name in EVENT_SEATS]
    if message.scores is not None:
        found.append(_length(message.scores, seats, "event.scores"))
    return _first(*found)


def check_mau_decision(message: MauDecision, seats: int | None) -> str | None:
    if seats is None:
        return None
    found = [_seat(message.seat, seats, "mau_decision.seat")]
    stamps = message.stamps
    found += [_seat(stamp.get("seat"), seats, "mau_decision.stamps.seat") for stamp in stamps]
    return _first(*found)


def check_tournament(message: Tournament) -> str | None:
    found = [
        _unique((t.get("id") for t in message.tables), "tournament.tables: the table"),
        _unique((row.get("line") for row in message.standings), "tournament.standings: the line"),
        _finite(message.settings, "tournament.settings"),
        _seat(message.you, len(message.standings), "tournament.you (a line of standings)"),
    ]
    found.append(_finite({"starts_in": message.starts_in, "clock": message.clock}, "tournament"))
    for table in message.tables:
        n = len(table.get("names") or ())
        found.append(_length(table.get("bots"), n, "tournament.tables.bots"))
        for key in ("scores", "points"):  # empty before the match has them
            if table.get(key):
                found.append(_length(table.get(key), n, f"tournament.tables.{key}"))
    return _first(*found)


def check_matches(message: Matches) -> str | None:
    found = [_unique((m.get("id") for m in message.matches), "matches: the match")]
    for match in message.matches:
        n = len(match.get("names") or ())
        found += [
            _length(match.get("bots"), n, "matches.bots"),
            _length(match.get("scores"), n, "matches.scores"),
            _seat(match.get("winner"), n, "matches.winner"),
        ]
        found.append(_finite({"finished": match.get("finished")}, "matches"))
    return _first(*found)


def check_replay_step(step: Mapping[str, Any], seats: int) -> str | None:
    found = [
        _seat(step.get("turn"), seats, "replay.steps.turn"),
        _length(step.get("hands"), seats, "replay.steps.hands"),
        _length(step.get("scores"), seats, "replay.steps.scores"),
    ]
    for facts in step.get("events") or ():
        found += [
            _seat(facts.get(name), seats, f"replay.steps.events.{name}") for name in EVENT_SEATS
        ]
        if facts.get("scores") is not None:
            found.append(_length(facts.get("scores"), seats, "replay.steps.events.scores"))
    return _first(*found)


def check_replay(message: Replay) -> str | None:
    if not message.names:
        return "replay.names is empty"
    return _length(message.bots, len(message.names), "replay.bots")


def good_replay(message: Replay) -> Replay:
    """``message`` without the steps that break the invariants (each logged)."""
    seats = len(message.names)
    good = []
    for step in message.steps:
        why = check_replay_step(step, seats)
        if why is None:
            good.append(step)
        else:
            log.warning("skipped a step of a replay from the server: %s", why)
    if len(good) == len(message.steps):
        return message
    return Replay(
        message.match,
        message.table,
        message.variant,
        message.names,
        message.bots,
        message.total,
        message.start,
        tuple(good),
    )


def problem(message: Message, seats: int | None) -> str | None:
    """What is wrong with ``message``, or None. ``seats``: how many seats the table it
    is about has, as the client knows it (None: unknown; see ``Model.seats_of``)."""
    try:
        if isinstance(message, Lobby):
            return check_lobby(message)
        if isinstance(message, TableInfo):
            return check_table(message, seats)
        if isinstance(message, View):
            return check_view(message, seats)
        if isinstance(message, GameEvent):
            return check_event(message, seats)
        if isinstance(message, MauDecision):
            return check_mau_decision(message, seats)
        if isinstance(message, Tournament):
            return check_tournament(message)
        if isinstance(message, Matches):
            return check_matches(message)
        if isinstance(message, Replay):
            return check_replay(message)
    except (TypeError, ValueError, AttributeError) as error:  # a shape no check foresaw
        return f"{message.TYPE}: {error}"
    return None


def admitted(message: Message, seats: int | None) -> Message | None:
    """``message`` as the client may use it, or None when it is skipped (and logged)."""
    why = problem(message, seats)
    if why is not None:
        log.warning("skipped a %s message from the server: %s", message.TYPE, why)
        return None
    if isinstance(message, Replay):
        return good_replay(message)
    return message
