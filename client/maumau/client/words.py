"""The client's other sentences from the protocol's facts, in the player's language.

What happens at a table (every event kind, a call window's decision) and the cards
are written by the renderer shared with the server's side,
:mod:`maumau.protocol.sentences`, which speaks the player's language through the
same catalogs (:mod:`maumau.client.i18n` installs it there). This module writes the
rest through the catalogs:

- :func:`error_line` for every error code of docs/protocol.md (from ``code`` and
  ``details``);
- :func:`goodbye_line` for the server's goodbye;
- :func:`notice_line` for the host's notices, and the durations they speak of.

Whole sentences are messages, with named placeholders, and every count goes through
``ngettext``. An unknown code falls back to the server's own English words; in
English, errors and goodbyes are the server's own words (they may say more than the
code and details).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from maumau.protocol.cards import (
    CARD_BY_CODE,
)
from maumau.protocol.messages import PROTOCOL_VERSION
from maumau.protocol.sentences import card_text

from .i18n import N_, _, language, ngettext

Facts = Mapping[str, Any]


# --- errors and goodbyes -------------------------------------------------------------

# Each code: (message without details, [(keys needed, message with them)...]); the
# first message whose keys are all in the details is used.
_ERRORS: dict[str, tuple[str, list[tuple[tuple[str, ...], str]]]] = {
    "frame_too_large": (N_("A message was too large."), []),
    "bad_frame": (N_("A message was empty."), []),
    "undecodable": (N_("A message could not be read."), []),
    "truncated": (N_("A message was cut off."), []),
    "bad_message": (
        N_("A message was refused as not valid."),
        [(("field",), N_("A message was refused: {field} is not valid."))],
    ),
    "unknown_type": (N_("That message is not known."), []),
    "hello_first": (N_("The connection must say hello first."), []),
    "welcome_first": (N_("The server did not answer as a maumau server does."), []),
    "closed": (N_("The connection is closed."), []),
    "hello_timeout": (
        N_("No hello in time."),
        [(("seconds",), N_("No hello within {seconds} s."))],
    ),
    "version_mismatch": (
        N_("This server speaks another protocol version: update the client or the server."),
        [
            (
                ("version",),
                N_(
                    "This server speaks protocol {version}, this client {mine}: update the "
                    "client or the server."
                ),
            )
        ],
    ),
    "unknown_resume": (N_("The server does not know this session any more."), []),
    "server_full": (N_("The server is full; try again later."), []),
    "bad_name": (
        N_("That name cannot be used: it shows too little, or looks like a bot's."),
        [],
    ),
    "name_taken": (
        N_("That name is in use; pick another."),
        [(("name",), N_("The name {name} is in use; pick another."))],
    ),
    "name_reserved": (
        N_("That name belongs to another player; pick another."),
        [(("name",), N_("The name {name} belongs to another player; pick another."))],
    ),
    "already_hello": (N_("Hello was already answered."), []),
    "rate_limited": (N_("Slow down: too many messages."), []),
    "abuse": (N_("Too many messages: the server closed the connection."), []),
    "bad_settings": (
        N_("The table's settings were refused."),
        [(("field",), N_("The table's setting {field} was refused."))],
    ),
    "no_such_table": (N_("That table is gone."), []),
    "no_such_seat": (N_("This table has no such seat."), []),
    "wrong_password": (
        N_("This table is locked; the password is wrong."),
        [(("tournament",), N_("This tournament is locked; the password is wrong."))],
    ),
    "table_full": (N_("Every seat at this table is taken."), []),
    "seat_taken": (N_("That seat is taken."), []),
    "already_seated": (N_("You already sit at this table."), []),
    "already_watching": (N_("You are already watching this table."), []),
    "already_here": (N_("You are already at this table."), []),
    "match_running": (N_("A match is running at this table."), []),
    "not_at_table": (N_("You are not at a table."), []),
    "not_seated": (N_("Only the players at the table can do that."), []),
    "not_creator": (
        N_("Only the player who made the table can start it."),
        [(("name",), N_("Only {name}, who made the table, can start it."))],
    ),
    "lobby_full": (
        N_("The server has as many tables open as it allows; join one."),
        [
            (
                ("limit", "count"),
                N_(
                    "The series needs {count} tables and the server has {limit} free; "
                    "wait for some to close."
                ),
            )
        ],
    ),
    "too_many_tables": (N_("You have made as many tables as you may; join one."), []),
    "no_match": (N_("No match is running at this table."), []),
    "bad_chat": (N_("That chat line shows nothing."), []),
    "unexpected": (N_("That is not expected now."), []),
    "bad_move": (N_("That is not a move."), []),
    "no_store": (N_("This server keeps no records (it runs without a database)."), []),
    "no_such_match": (N_("There is no such match."), []),
    "cannot_save": (
        N_(
            "The server cannot save right now (its disk may be full); play is paused "
            "until it can, and nothing is lost."
        ),
        [],
    ),
    "not_your_turn": (N_("It is not your turn."), []),
    "round_ending": (N_("The round is ending; wait for the call window."), []),
    "round_over": (N_("The round is over; wait for the next deal."), []),
    "not_in_hand": (
        N_("You do not hold that card."),
        [(("card",), N_("You do not hold {card}."))],
    ),
    "only_drawn_card": (
        N_("After drawing you may play only the drawn card."),
        [(("card",), N_("After drawing you may play only {card}."))],
    ),
    "challenge_or_draw": (N_("Challenge the Wild Draw Four or take the penalty."), []),
    "must_answer_penalty": (N_("Answer the penalty, or take it."), []),
    "does_not_match": (
        N_("That card does not fit."),
        [(("card", "top"), N_("{card} does not fit on {top}."))],
    ),
    "must_name": (
        N_("Playing that card you must name a suit or a colour."),
        [(("card",), N_("Playing {card} you must name a suit or a colour."))],
    ),
    "cannot_name": (N_("Only a Jack or a wild card names a suit or a colour."), []),
    "nothing_to_call": (N_("There is nothing to call now."), []),
    "already_drawn": (N_("You have drawn already: play the drawn card or pass."), []),
    "nothing_drawn": (N_("You may pass only after drawing a playable card."), []),
    "nothing_to_challenge": (N_("There is no Wild Draw Four to challenge."), []),
    "already_called": (N_("You have already said it."), []),
    "window_closed": (N_("Too late: the call window has closed."), []),
    "already_out": (N_("You are out: no more calls or catches this round."), []),
    "catch_self": (N_("You cannot catch yourself."), []),
    "nothing_to_catch": (N_("There is nobody to catch."), []),
    "bad_call": (N_('Say "Mau" or "Mau Mau".'), []),
    # Tournaments (protocol 6).
    "no_such_tournament": (
        N_("That tournament is gone."),
        [(("tournament",), N_("Tournament {tournament} is gone."))],
    ),
    "not_director": (
        N_("Only the tournament's director can do that."),
        [
            (
                ("name",),
                N_(
                    "Only {name}, the tournament's director, can do that; before the start, a "
                    "registered player may once {name} has been away two minutes."
                ),
            )
        ],
    ),
    "registration_closed": (N_("Registration for this tournament is closed."), []),
    "already_registered": (N_("You are already registered for this tournament."), []),
    "not_registered": (N_("You are not registered for this tournament."), []),
    "tournament_full": (
        N_("This tournament is full."),
        [(("limit",), N_("This tournament is full ({limit} players)."))],
    ),
    "too_many_registrations": (
        N_("Enough players have registered from your address."),
        [(("count",), N_("{count} players have registered from your address already."))],
    ),
    "too_many_tournaments": (
        N_("The server runs as many tournaments as it allows; join one."),
        [(("count",), N_("{count} tournaments are open already; join one."))],
    ),
    "too_few_players": (
        N_("Too few players to start the tournament."),
        [
            (
                ("count",),
                N_("Too few players to start the tournament: {count} to seat, at least 2 needed."),
            )
        ],
    ),
    "tournament_running": (N_("The tournament is running: that cannot be done now."), []),
    "tournament_table": (
        N_("This is a tournament's table: no rematch; the next series seats you."),
        [
            (
                ("table",),
                N_(
                    "Table {table} is a tournament's: call the tournament off instead "
                    "(X on it in the lobby)."
                ),
            )
        ],
    ),
    # The server's password and the host's powers (protocol 9).
    "password_required": (N_("This server asks for a password."), []),
    "too_many_tries": (
        N_("Too many wrong passwords from your address: try again in a minute."),
        [],
    ),
    "banned": (N_("You are banned from this server."), []),
    "not_host": (N_("Only the server's host can do that."), []),
    "no_such_session": (N_("That player is not connected any more."), []),
    "bad_target": (N_("That cannot be done to that player."), []),
    "too_many_bans": (
        N_("The server keeps as many bans as it can; lift one first."),
        [(("limit",), N_("The server keeps at most {limit} bans; lift one first."))],
    ),
    "no_such_ban": (N_("There is no such ban (any more)."), []),
    "muted": (
        N_("The host has muted you in chat."),
        [(("seconds",), N_("The host has muted you in chat for {duration} more."))],
    ),
}

#: ``bad_name`` refuses three names, told apart by ``details.field``.
_BAD_NAME_BY_FIELD = {
    "create_table.name": N_("A table's name must show something."),
    "create_tournament.name": N_("A tournament's name must show something."),
    "play.named": N_("That suit or colour belongs to the other game."),
}

#: ``banned`` (at hello) says what is banned, ``bad_target`` why the host's request
#: cannot be aimed there, both by ``details.why``.
_BY_WHY = {
    "banned": {
        "name": N_("That name is banned from this server; pick another."),
        "address": N_("Your address is banned from this server."),
    },
    "bad_target": {
        "own": N_("That is your own name or address: the host cannot ban it."),
        "loopback": N_(
            "That address is the server's own machine: the SSH party's and the browser "
            "guests' too. Ban the player's name instead."
        ),
        "host": N_("That player is a host too: a host cannot do that to another host."),
        "address": N_("That is not an IP address."),
    },
}

#: Every error code the client writes itself.
ERROR_CODES = frozenset(_ERRORS)


def error_line(code: str, details: Facts | None, message: str) -> str:
    """A refusal in the player's language, from its ``code`` and ``details``. In
    English, and for an unknown code, the server's ``message`` itself."""
    known = _ERRORS.get(code)
    if known is None or (language() == "en" and message):
        return message or code
    plain, detailed = known
    facts = dict(details or {})
    text = _BAD_NAME_BY_FIELD.get(str(facts.get("field")), plain) if code == "bad_name" else plain
    text = _BY_WHY.get(code, {}).get(str(facts.get("why")), text)
    for keys, template in detailed:
        if all(facts.get(key) is not None for key in keys):
            text = template
            break
    keys = ("field", "name", "limit", "version", "seconds", "count", "tournament", "table")
    values = {key: facts.get(key) for key in keys}
    seconds = values["seconds"]
    duration = None
    if isinstance(seconds, int | float) and not isinstance(seconds, bool):
        duration = duration_words(seconds)
    if isinstance(seconds, float):
        values["seconds"] = f"{seconds:g}"  # 10 s, as the server writes it
    for key in ("card", "top"):
        shown = facts.get(key)
        values[key] = card_text(shown) if shown in CARD_BY_CODE else shown
    return _(text).format(mine=PROTOCOL_VERSION, duration=duration, **values)


def goodbye_line(
    code: str | None, reason: str, by: str | None = None, note: str | None = None
) -> str:
    """The server's goodbye in the player's language (its ``reason`` in English, or
    for an unknown code). Sent away by the host (``kicked``, ``banned``), it names the
    host (``by``) and gives their words (``note``), in every language."""
    if code in ("kicked", "banned") and by:
        if code == "kicked" and note:
            text = _("The host ({by}) sent you away: {note}")
        elif code == "kicked":
            text = _("The host ({by}) sent you away.")
        elif note:
            text = _("The host ({by}) banned you: {note}")
        else:
            text = _("The host ({by}) banned you.")
        return text.format(by=by, note=note)
    if language() == "en" or code not in ("shutdown", "replaced", "kicked", "banned"):
        return reason
    if code == "shutdown":
        return _("The server is shutting down.")
    if code == "kicked":
        return _("The host sent you away.")
    if code == "banned":
        return _("The host banned you.")
    return _("Another connection of this session took over.")


# --- durations and the host's notices --------------------------------------------------


def duration_words(seconds: float) -> str:
    """How long, in words: "45 seconds", "10 minutes", "3 hours", "2 days" (rounded
    to the unit, up: a mute of 90 s has 2 minutes left)."""
    seconds = max(0.0, float(seconds))
    # NOTE: how long, as said after "for" ("muted you in chat for 10 minutes", "for 2
    # minutes more"): the case that takes, where the language has cases.
    if seconds < 60:
        n = max(1, math.ceil(seconds))
        return ngettext("{n} second", "{n} seconds", n).format(n=n)
    if seconds < 2 * 3600:
        n = math.ceil(seconds / 60)
        return ngettext("{n} minute", "{n} minutes", n).format(n=n)
    if seconds < 2 * 86400:
        n = math.ceil(seconds / 3600)
        return ngettext("{n} hour", "{n} hours", n).format(n=n)
    n = math.ceil(seconds / 86400)
    return ngettext("{n} day", "{n} days", n).format(n=n)


def short_duration(seconds: float, up: bool = False) -> str:
    """How long, in a few cells for a column: "45 s", "12 min", "3 h", "2 d" (rounded
    down: connected 12 minutes and a half is "12 min"; ``up``, for what is left, up:
    a mute of 10 minutes that has just begun is "10 min")."""
    seconds = max(0.0, float(seconds))

    def count(unit: int) -> int:
        return math.ceil(seconds / unit) if up else int(seconds // unit)

    if seconds < 60:
        # NOTE: short durations in the host's list of connections (a few cells each).
        return _("{n} s").format(n=count(1))
    if seconds < 3600:
        return _("{n} min").format(n=count(60))
    if seconds < 86400:
        return _("{n} h").format(n=count(3600))
    return _("{n} d").format(n=count(86400))


# Each notice's sentence: with the host's own words, and without them.
_NOTICES: dict[str, tuple[str, str]] = {
    "announcement": (N_("Announcement from {by}: {text}"), N_("Announcement from {by}.")),
    "muted": (
        N_("{by} muted you in chat for {duration}: {text}"),
        N_("{by} muted you in chat for {duration}."),
    ),
    "unmuted": (N_("{by} lets you chat again: {text}"), N_("{by} lets you chat again.")),
    "table_closed": (N_("{by} closed the table: {text}"), N_("{by} closed the table.")),
    "tournament_named": (
        N_("{by} called the tournament {tournament} off: {text}"),
        N_("{by} called the tournament {tournament} off."),
    ),
    "tournament_cancelled": (
        N_("{by} called the tournament off: {text}"),
        N_("{by} called the tournament off."),
    ),
}


def notice_line(
    kind: str,
    by: str,
    text: str | None = None,
    seconds: float | None = None,
    tournament: str | None = None,
) -> str | None:
    """A host's ``notice`` in words: ``by`` the host's name, ``text`` their own words
    (if any), ``seconds`` how long a mute lasts, ``tournament`` the cancelled
    tournament's name (if known). None for a kind this client does not know."""
    if kind == "tournament_cancelled" and tournament:
        kind = "tournament_named"
    if kind not in _NOTICES:
        return None
    with_text, without = _NOTICES[kind]
    template = _(with_text if text else without)
    values = {"by": by, "text": text or "", "tournament": tournament}
    values["duration"] = duration_words(seconds or 0)
    return template.format(**values)
