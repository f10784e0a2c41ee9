"""Moderation: what the host may do to keep order, and the server password.

Theory of operation
-------------------
A session has the host's powers when its hello proved them (see
:mod:`.host_rights`); every message of this module is refused with ``not_host`` to
any other session, before anything about it is looked at. The host can:

- list the connections (``host_list``, answered with ``host_view``: name, address,
  table, how long connected, messages a second, mute), the bans and whether there is
  a server password;
- ``kick`` a session: it is told why (``goodbye``, code ``kicked``) and forgotten,
  so its seat is let go (it may come back as a newcomer);
- ``mute`` a player in chat for a time (by name, so a new session does not lift it;
  for the server's life at most);
- ``ban`` a name or an address for the server's life or for good (:mod:`.bans`):
  whoever it matches is sent away (``goodbye``, code ``banned``) and refused at
  every later hello;
- ``close_table`` any table (its people are told why with a ``notice`` and sent to
  the lobby; a running match is recorded as abandoned) and cancel any tournament
  (``cancel_tournament``, which the dispatcher hands here when the host is not its
  director);
- ``set_password``: every new session must then give it in its hello (resumed
  sessions and players taking their own session back with their secret need not;
  one address gets WRONG_TRIES wrong guesses a minute);
- ``announce`` something to everyone connected.

The host cannot send away another host (nor itself), nor ban an address of the
server's own machine: the SSH party's and the browser guests' clients all connect
from there, so their names are banned instead. Every action is logged with the
host's name.
"""

from __future__ import annotations

import hmac
import logging
import sqlite3

import trio

from maumau.protocol.messages import (
    HOST_CONNECTIONS_MAX,
    Announce,
    Ban,
    CancelTournament,
    CloseTable,
    Goodbye,
    HostList,
    HostView,
    Kick,
    Message,
    Mute,
    Notice,
    SetPassword,
    Unban,
)

from . import names
from .bans import Bans, address_of, is_loopback
from .errors import TableError
from .lobby import Lobby
from .session import Session
from .tournaments import Tournaments

log = logging.getLogger("maumau.server")

WRONG_TRIES = 10  # wrong server passwords from one address within WRONG_WINDOW_S
WRONG_WINDOW_S = 60.0
WRONG_ADDRESSES_MAX = 10_000  # addresses whose wrong tries are remembered at once
HOST_TYPES = frozenset(
    {"host_list", "kick", "mute", "ban", "unban", "close_table", "set_password", "announce"}
)


class Moderation:
    """The host's powers (see the module docstring)."""

    def __init__(
        self, lobby: Lobby, tournaments: Tournaments, bans: Bans, password: str | None = None
    ) -> None:
        self.lobby = lobby
        self.tournaments = tournaments
        self.bans = bans
        self.password = password
        self._mutes: dict[str, float] = {}  # a name's skeleton -> until (trio's clock)
        self._wrong: dict[str, list[float]] = {}  # an address -> its wrong passwords' times

    # --- what the others ask of it -------------------------------------------------------

    def muted_for(self, session: Session) -> float:
        """Seconds the session's name is still muted in chat (0: it is not)."""
        until = self._mutes.get(session.skeleton)
        if until is None:
            return 0.0
        left = until - trio.current_time()
        if left <= 0:
            del self._mutes[session.skeleton]
            return 0.0
        return left

    def wants_password(self, given: str | None, address: str) -> str | None:
        """The refusal of a new session's hello for the server password (its code),
        or None when it may come in. One address may guess wrong WRONG_TRIES times
        in WRONG_WINDOW_S seconds; then every try is ``too_many_tries`` until the
        window has passed."""
        if self.password is None:
            return None
        if given is None:
            return "password_required"
        now = trio.current_time()
        tries = [t for t in self._wrong.get(address, ()) if now - t < WRONG_WINDOW_S]
        if len(tries) >= WRONG_TRIES:
            return "too_many_tries"
        if hmac.compare_digest(given.encode(), self.password.encode()):
            return None
        tries.append(now)
        if len(self._wrong) >= WRONG_ADDRESSES_MAX and address not in self._wrong:
            self._wrong = {
                a: ts for a, ts in self._wrong.items() if ts and now - ts[-1] < WRONG_WINDOW_S
            }
        if len(self._wrong) < WRONG_ADDRESSES_MAX or address in self._wrong:
            self._wrong[address] = tries
        return "wrong_password"

    # --- the host's requests -------------------------------------------------------------

    def handle(self, session: Session, message: Message) -> None:
        """One request of the host (the dispatcher hands every HOST_TYPES message and a
        ``cancel_tournament`` of someone else's tournament here)."""
        if not session.host:
            raise TableError("not_host", "only the host may do that")
        if isinstance(message, HostList):
            session.send(self.view())
        elif isinstance(message, Kick):
            self._kick(session, message)
        elif isinstance(message, Mute):
            self._mute(session, message)
        elif isinstance(message, Ban):
            self._ban(session, message)
        elif isinstance(message, Unban):
            ban = self.bans.remove(message.what, message.target)
            log.info("host %s lifted the ban of the %s %s", session.name, ban.what, ban.target)
            session.send(self.view())
        elif isinstance(message, CloseTable):
            self._close_table(session, message)
        elif isinstance(message, CancelTournament):
            self._cancel_tournament(session, message)
        elif isinstance(message, SetPassword):
            self.password = message.password
            done = "set a server password" if message.password else "cleared the server password"
            log.info("host %s %s", session.name, done)
            session.send(self.view())
        elif isinstance(message, Announce):
            log.info("host %s announced: %s", session.name, message.text)
            notice = Notice("announcement", session.name, message.text)
            for other in self.lobby.sessions.values():
                if other.connected:
                    other.send(notice)

    def view(self) -> HostView:
        """What the host sees: connections, longest connected first."""
        now = trio.current_time()
        connected = sorted(
            (s for s in self.lobby.sessions.values() if s.connected), key=lambda s: s.since
        )
        lines = []
        for other in connected[:HOST_CONNECTIONS_MAX]:
            line: dict[str, object] = {
                "session": other.id,
                "name": other.name,
                "since": round(max(0.0, now - other.since), 1),
                "rate": round(other.rate.per_second(now), 2),
                "host": other.host,
                "muted": round(self.muted_for(other), 1),
            }
            address = other.address
            if address:
                line["address"] = address[:64]
            if other.table is not None and not other.table.closed:
                line["table"] = other.table.id
            lines.append(line)
        bans = tuple(ban.shown() for ban in self.bans.all())
        return HostView(tuple(lines), len(connected), bans, self.password is not None)

    def _target(self, host: Session, session_id: str) -> Session:
        """The session a request is about; never the host itself nor another host."""
        target = next((s for s in self.lobby.sessions.values() if s.id == session_id), None)
        if target is None:
            raise TableError("no_such_session", f"there is no session {session_id[:16]}")
        if target is host:
            raise TableError("bad_target", "that is you", {"why": "own"})
        if target.host:
            raise TableError(
                "bad_target", f"{target.name} is a host too", {"why": "host", "name": target.name}
            )
        return target

    def send_away(self, target: Session, code: str, by: str, note: str | None) -> None:
        """Close ``target``'s connection with a goodbye saying why, and forget it."""
        reason = "the host sent you away" if code == "kicked" else "the host banned you"
        link = target.link
        if link is not None:
            link.send(Goodbye(reason, code, by, note))
            link.close()
            target.link = None
        self.lobby.forget(target)
        self.lobby.lobby_changed()

    def _kick(self, host: Session, request: Kick) -> None:
        target = self._target(host, request.session)
        log.info(
            "host %s sent %s (%s) away: %s",
            host.name,
            target.name,
            target.address or "not connected",
            request.reason or "no reason given",
        )
        self.send_away(target, "kicked", host.name, request.reason)
        host.send(self.view())

    def _mute(self, host: Session, request: Mute) -> None:
        target = self._target(host, request.session)
        if request.seconds > 0:
            self._mutes[target.skeleton] = trio.current_time() + request.seconds
            log.info(
                "host %s muted %s for %g s: %s",
                host.name,
                target.name,
                request.seconds,
                request.reason or "no reason given",
            )
            target.send(Notice("muted", host.name, request.reason, request.seconds))
        else:
            self._mutes.pop(target.skeleton, None)
            log.info("host %s lifted the mute of %s", host.name, target.name)
            target.send(Notice("unmuted", host.name, request.reason))
        host.send(self.view())

    def _ban(self, host: Session, request: Ban) -> None:
        hosts = [s for s in self.lobby.sessions.values() if s.host and s.connected]
        if request.what == "name":
            problem = names.chat_problem(request.target)
            if problem is not None:
                raise TableError("bad_name", problem, {"field": "ban.target"})
            skeleton = names.skeleton(request.target)
            if skeleton == host.skeleton:
                raise TableError("bad_target", "that is your own name", {"why": "own"})
            other = next((s for s in hosts if s.skeleton == skeleton), None)
            if other is not None:
                raise TableError(
                    "bad_target", f"{other.name} is a host", {"why": "host", "name": other.name}
                )
            hit = [s for s in self.lobby.sessions.values() if s.skeleton == skeleton]
        else:
            address = address_of(request.target)
            if address is not None and is_loopback(address):
                raise TableError(
                    "bad_target",
                    "that is this machine's own address, which the SSH party's and the "
                    "browser guests' clients share: ban their names instead",
                    {"why": "loopback"},
                )
            if address is not None and address == address_of(host.address or ""):
                raise TableError("bad_target", "that is your own address", {"why": "own"})
            if address is not None and any(address == address_of(s.address or "") for s in hosts):
                raise TableError("bad_target", "a host connects from there", {"why": "host"})
            hit = [
                s
                for s in self.lobby.sessions.values()
                if address is not None and address_of(s.address or "") == address
            ]
        try:
            ban = self.bans.add(
                request.what, request.target, request.lasting, host.name, request.reason
            )
        except sqlite3.Error:
            log.exception("the ban of %s could not be saved", request.target)
            raise TableError(
                "cannot_save", "the ban could not be saved; it is not in force"
            ) from None
        log.info(
            "host %s banned the %s %s %s: %s",
            host.name,
            ban.what,
            ban.target,
            "for good" if ban.lasting == "ever" else "for the server's life",
            request.reason or "no reason given",
        )
        for target in hit:
            log.info("%s (%s) is sent away: banned", target.name, target.address or "-")
            self.send_away(target, "banned", host.name, request.reason)
        host.send(self.view())

    def _close_table(self, host: Session, request: CloseTable) -> None:
        table = self.lobby.find_table(request.table)
        if table.tournament is not None:
            raise TableError(
                "tournament_table",
                f"table {table.id} is a table of tournament {table.tournament}: cancel the "
                "tournament instead",
                {"table": table.id, "tournament": table.tournament},
            )
        why = f"closed by the host {host.name}: {request.reason or 'no reason given'}"
        if table.status == "playing" and table.match_id is not None and self.lobby.store:
            try:
                self.lobby.store.abandon_match(table.match_id, why)
            except sqlite3.Error:
                log.exception("match %d could not be marked abandoned", table.match_id)
        notice = Notice("table_closed", host.name, request.reason, table=table.id)
        here = [s for s in self.lobby.sessions.values() if s.table is table]
        self.lobby.close_table(table, why)
        for session in here:
            session.table = None
            self.lobby.save_session(session)
            session.send(notice)
            session.send(self.lobby.lobby_message())
        if host not in here:
            host.send(self.view())

    def _cancel_tournament(self, host: Session, request: CancelTournament) -> None:
        why = f"the host {host.name} called it off: {request.reason or 'no reason given'}"
        told = self.tournaments.cancel_for_host(request.tournament, why)
        notice = Notice(
            "tournament_cancelled", host.name, request.reason, tournament=request.tournament
        )
        for session in self.lobby.sessions.values():
            if session.id in told and session is not host:
                session.send(notice)
