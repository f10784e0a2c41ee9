"""Dispatch: what the server does with each message of a session (after the hello).

Moves go to the session's table, which checks them against the rules engine; lobby
requests (make, join, watch and leave tables, chat, records) are handled against the
lobby; tournament requests against the tournaments (see :mod:`.tournaments`). A
request that cannot be granted raises :class:`~maumau.server.errors.TableError`
(or the engine's :class:`~maumau.server.rules.IllegalAction`), which the connection
answers with an ``error``. While the store cannot save, every request that would
change a table is refused with ``cannot_save`` (see :mod:`maumau.server.saving`).
The host's requests (and a host's ``cancel_tournament``) go to
:mod:`.moderation`, which refuses them to everyone else; chat from a muted name is
refused with ``muted``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from maumau.protocol.messages import (
    CancelTournament,
    Chat,
    ChatLine,
    CreateTable,
    JoinTable,
    Message,
    WatchTable,
)

from . import names
from .bounds import Bounds
from .errors import TableError, checked_settings
from .history import History
from .lobby import Lobby
from .moderation import HOST_TYPES, Moderation
from .rules import Settings
from .saving import Saver
from .session import Session
from .table import Table
from .tournaments import Tournaments

MOVE_TYPES = frozenset({"play", "draw", "pass", "challenge", "say_mau", "catch"})
# Requests that change a table, refused while the store cannot save.
CHANGE_TYPES = MOVE_TYPES | {
    "create_table",
    "join_table",
    "watch_table",
    "ready",
    "start_match",
    "rematch",
    "back",
    "create_tournament",
    "join_tournament",
    "leave_tournament",
    "start_tournament",
    "cancel_tournament",
    "ban",
    "unban",
    "close_table",
}
# Requests about the sender's own table: refused with not_at_table anywhere else.
AT_TABLE_TYPES = MOVE_TYPES | {"leave_table", "ready", "start_match", "rematch", "back", "pause"}

Handler = Callable[[Session, Any, float], object]  # (what it returns is not used)


class Dispatcher:
    """Routes a session's messages (see the module docstring): one handler per
    message type, after the guards every request shares."""

    def __init__(
        self,
        lobby: Lobby,
        bounds: Bounds,
        history: History,
        saver: Saver,
        tournaments: Tournaments,
        moderation: Moderation,
    ) -> None:
        self.lobby = lobby
        self.moderation = moderation
        self.tournaments = tournaments
        self.bounds = bounds
        self.history = history
        self.saver = saver
        self.handlers: dict[str, Handler] = {
            **dict.fromkeys(MOVE_TYPES, self._move),
            "list_tables": lambda s, m, _: s.send(lobby.lobby_message()),
            "create_table": self._create_table,
            "join_table": self._join_table,
            "watch_table": self._watch_table,
            "leave_table": self._leave_table,
            "create_tournament": lambda s, m, _: tournaments.create(s, m),
            "join_tournament": lambda s, m, _: tournaments.join(s, m),
            "leave_tournament": lambda s, m, _: tournaments.leave(s, m),
            "start_tournament": lambda s, m, _: tournaments.go(s, m),
            "cancel_tournament": self._cancel_tournament,
            "watch_tournament": lambda s, m, _: tournaments.watch(s, m),
            "ready": lambda s, m, _: _table_of(s).set_ready(s, m.ready),
            "start_match": lambda s, m, _: _table_of(s).start(s),
            "rematch": lambda s, m, _: _table_of(s).rematch(s),
            "back": lambda s, m, _: _table_of(s).back(s),
            "pause": lambda s, m, _: _table_of(s).hold(s, m.paused),
            "get_stats": lambda s, m, _: s.send(history.stats_message(s, m.limit, m.variant)),
            "list_matches": lambda s, m, _: s.send(history.matches_message(s, m.limit, m.mine)),
            "get_replay": lambda s, m, _: s.send(history.replay_message(s, m)),
            "chat": self._chat,
            **dict.fromkeys(HOST_TYPES, self._host),
        }

    def dispatch(self, session: Session, message: Message, stamp: float) -> None:
        """Handle one message from a session's connection (not hello/ping/pong)."""
        kind = message.TYPE
        table = session.table
        if self.saver.cannot_save and kind in CHANGE_TYPES:
            raise TableError(
                "cannot_save",
                "the server cannot save right now (its disk may be full); play is paused "
                "until it can, and nothing is lost",
            )
        if kind in AT_TABLE_TYPES:
            _table_of(session)
        handler = self.handlers.get(kind)
        if handler is None:
            raise TableError("unexpected", f"{kind} is not expected now")
        handler(session, message, stamp)
        if session.table is not table:
            self.lobby.save_session(session)

    # --- the handlers ----------------------------------------------------------------

    def _move(self, session: Session, message: Message, stamp: float) -> None:
        _table_of(session).player_message(session, message, stamp)

    def _create_table(self, session: Session, message: CreateTable, stamp: float) -> None:
        settings = self._check_new_table(message)
        self.bounds.check_table_limits(session)
        self.lobby.leave_current(session)
        new = self.lobby.create_table(session, message, settings)
        session.table = new
        try:
            new.join(session, None, message.password)
            self.lobby.seated(session, new)
        except TableError:
            new.watch(session, message.password)

    def _join_table(self, session: Session, message: JoinTable, stamp: float) -> None:
        target = self.lobby.find_table(message.table)
        if session.table is target and target.seat_of(session) is not None:
            raise TableError("already_seated", "you already sit at this table")
        if not self._take_back(session, target):
            target.free_seat(message.seat, message.password)
            self.lobby.leave_current(session, entering=target)
            target.join(session, message.seat, message.password)
            session.table = target
            self.lobby.seated(session, target)

    def _watch_table(self, session: Session, message: WatchTable, stamp: float) -> None:
        target = self.lobby.find_table(message.table)
        target.check_open()
        # A player who stepped out of their seat here takes it back (so does a
        # tournament's player the series seated here).
        if not self._take_back(session, target):
            target.check_password(message.password)
            if target is session.table:
                raise TableError("already_here", "you are already at this table")
            self.lobby.leave_current(session, entering=target)
            target.watch(session, message.password)
            session.table = target

    def _leave_table(self, session: Session, message: Message, stamp: float) -> None:
        self.lobby.leave_current(session)
        session.send(self.lobby.lobby_message())
        self.tournaments.after_leaving_table(session)

    def _cancel_tournament(self, session: Session, message: CancelTournament, stamp: float) -> None:
        if session.host:
            self.moderation.handle(session, message)  # any tournament, and told why
        else:
            self.tournaments.cancel(session, message)

    def _host(self, session: Session, message: Message, stamp: float) -> None:
        self.moderation.handle(session, message)

    def _chat(self, session: Session, message: Chat, stamp: float) -> None:
        problem = names.chat_problem(message.text)
        if problem is not None:
            raise TableError("bad_chat", problem)
        muted = self.moderation.muted_for(session)
        if muted > 0:
            raise TableError(
                "muted",
                f"the host muted you in chat for {muted:.0f} s more",
                {"seconds": round(muted, 1)},
            )
        if message.scope == "table":
            _table_of(session).chat(session, message.text)
            return
        line = ChatLine("lobby", session.name, message.text)
        for other in self.lobby.sessions.values():
            if other.connected and other.table is None:
                other.send(line)

    def _take_back(self, session: Session, table: Table) -> bool:
        """Seat ``session`` again in the seat it stepped out of at ``table``, if it kept
        one there (or, at a tournament's table, the series seated it there). Its own
        seat needs no password. Whether it did; if not, the caller handles the request
        as it would anywhere."""
        self.tournaments.claim_seat(session, table)
        if table.kept_seat_of(session) is None:
            return False
        if session.table is not table:
            self.lobby.leave_current(session, entering=table)
        session.table = table
        table.take_back(session)
        self.lobby.seated(session, table)
        return True

    @staticmethod
    def _check_new_table(request: CreateTable) -> Settings:
        problem = names.chat_problem(request.name)
        if problem is not None:
            raise TableError(
                "bad_name", f"the table's name: {problem}", {"field": "create_table.name"}
            )
        settings = checked_settings(request.settings)
        if len(set(request.bots)) != len(request.bots):
            raise TableError("bad_settings", "bots: a seat is listed twice", {"field": "bots"})
        for seat in request.bots:
            if not 0 <= seat < settings.seats:
                raise TableError(
                    "no_such_seat",
                    f"bots: there is no seat {seat} at this table",
                    {"field": "bots", "seat": seat},
                )
        if request.levels and len(request.levels) != len(request.bots):
            raise TableError(
                "bad_settings", "levels: give one level for each bot seat", {"field": "levels"}
            )
        return settings


def _table_of(session: Session) -> Table:
    """The table a request is about: the sender's, or the refusal ``not_at_table``."""
    if session.table is None:
        raise TableError("not_at_table", "you are not at a table")
    return session.table
