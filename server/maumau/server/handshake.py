"""The handshake: which session a ``hello`` takes, or why it is refused.

A resume token takes its session back (replacing an older live connection, which is
told ``goodbye``), and the session then receives the full table state again. So does
the name's secret, on a server that keeps records: the session then gets a new token
(the old one stops working), so a player whose client lost its token still gets their
seat back. Otherwise a new session is made, if the name is acceptable
(:mod:`maumau.server.names`), not reserved by another player's secret, not used by
anybody online or keeping a seat (names are compared by their skeleton, so look-alikes
count as the same), and the server has room and can save.

The host's side (:mod:`.moderation`): a hello whose name or address the host banned
is refused (``banned``), and on a server with a password a hello that would make a
new session must carry it (``password_required``, ``wrong_password``). A hello that
proves the host key, or a ``--admin`` name's secret (:mod:`.host_rights`), is never
refused for either, and its session gets the host's powers.
"""

from __future__ import annotations

import logging
import secrets
import sqlite3
from typing import Any

import trio

from maumau.protocol.messages import PROTOCOL_VERSION, Error, Goodbye, Hello, Welcome

from . import names
from .bans import Bans
from .host_rights import HostRights
from .latency import Latency
from .link import Link
from .lobby import Lobby
from .moderation import Moderation
from .saving import Saver
from .session import Session, peer_address
from .store import digest

log = logging.getLogger("maumau.server")


class Handshake:
    """Answers hellos (see the module docstring)."""

    def __init__(
        self,
        lobby: Lobby,
        saver: Saver,
        max_clients: int,
        rights: HostRights,
        moderation: Moderation,
    ) -> None:
        self.lobby = lobby
        self.saver = saver
        self.max_clients = max_clients
        self.rights = rights
        self.moderation = moderation
        self.bans: Bans = moderation.bans

    def welcome(self, link: Link, hello: Hello) -> Session | None:
        """The session ``hello`` takes, now attached to ``link`` and told so; or None
        after telling the peer why not."""
        if hello.version != PROTOCOL_VERSION:
            link.send(
                Error(
                    "version_mismatch",
                    f"this server speaks protocol {PROTOCOL_VERSION}, not {hello.version}",
                    "hello",
                    True,
                    {"version": PROTOCOL_VERSION},
                )
            )
            return None
        host = self._host_hello(hello, link)
        found = self._session_for(link, hello, host)
        if found is None:
            return None
        session, resumed = found
        session.verified = session.verified or self._proves_name(session, hello)
        session.host = host and hello.name == session.name
        session.since = trio.current_time()
        if resumed:
            session.pings.clear()
            session.latency = Latency()  # a new connection may take another path
            previous = session.link
            if previous is not None:
                previous.send(Goodbye("replaced by a new connection", "replaced"))
                previous.close()
        session.link = link
        self.lobby.save_session(session)
        link.send(
            Welcome(
                PROTOCOL_VERSION, session.id, session.resume, session.name, resumed, session.host
            )
        )
        log.info(
            "%s %s (%s)%s",
            session.name,
            "resumed" if resumed else "connected",
            link.peer,
            " with the host's powers" if session.host else "",
        )
        if session.table is not None and session.table.closed:
            session.table = None
        if session.table is not None:
            session.table.reconnected(session)
        else:
            link.send(self.lobby.lobby_message())
        self.lobby.arrived(session)
        self.lobby.lobby_changed()
        return session

    def _proves_name(self, session: Session, hello: Hello) -> bool:
        """Whether ``hello`` carries the secret that owns the session's name (checked
        on every hello, a resuming one too: the flag is then kept by the session)."""
        if self.lobby.store is None or hello.secret is None:
            return False
        try:
            return self.lobby.store.check_player(session.name, hello.secret, claim=False) == "ok"
        except sqlite3.Error:
            log.exception("the secret of %s could not be checked", session.name)
            return False

    def _host_hello(self, hello: Hello, link: Link) -> bool:
        """Whether ``hello`` brings the host's powers: it proves the host key, or
        the secret of a ``--admin`` name."""
        if self.rights.proves_key(hello, link.peer):
            return True
        store = self.lobby.store
        if store is None or hello.secret is None or not self.rights.admin(hello.name, True):
            return False
        try:
            return store.check_player(hello.name, hello.secret, claim=False) == "ok"
        except sqlite3.Error:
            log.exception("the secret of %s could not be checked", hello.name)
            return False

    def _banned(self, name: str, link: Link) -> bool:
        """Whether the host banned ``name`` or the link's address (after telling the
        peer so)."""
        by_address = self.bans.of_address(peer_address(link.peer))
        ban = by_address or self.bans.of_name(name)
        if ban is None:
            return False
        what = "this address" if by_address is not None else f"the name {name}"
        details: dict[str, Any] = {"why": ban.what}
        if by_address is None:
            details["name"] = name
        self._refuse("banned", f"the host banned {what} from this server", link, details)
        return True

    def _win_name_back(self, hello: Hello) -> bool:
        """A hello with a secret, for a name nobody has claimed, wins it from the
        sessions that hold it without a connection and never proved a secret (a
        registration for a tournament, a seat kept): they are forgotten, so the name
        is claimed for this secret now. (A name claimed by another secret stays
        theirs; a session of this very secret is taken back by the secret.)"""
        store = self.lobby.store
        if store is None or hello.secret is None:
            return False
        skeleton = names.skeleton(hello.name)
        holders = [s for s in self.lobby.sessions.values() if s.skeleton == skeleton]
        if not holders or any(s.connected or s.verified for s in holders):
            return False
        try:
            if store.check_player(hello.name, hello.secret, claim=False) != "free":
                return False
        except sqlite3.Error:
            log.exception("the name %s could not be checked", hello.name)
            return False
        for old in holders:
            log.info(
                "%s's secret wins the name back from a session without a connection", hello.name
            )
            self.lobby.forget(old)
        return True

    def _owner(self, hello: Hello) -> str | None:
        """Whose the name is: ``ok`` (the secret matches), ``new`` (claimed now),
        ``free``, ``reserved``, or None on a server without records."""
        if self.lobby.store is None:
            return None
        # A name someone is using without a secret cannot be claimed from under them.
        skeleton = names.skeleton(hello.name)
        in_use = any(s.skeleton == skeleton for s in self.lobby.sessions.values())
        try:
            return self.lobby.store.check_player(hello.name, hello.secret, claim=not in_use)
        except sqlite3.Error:
            log.exception("the name %s could not be checked", hello.name)
            return "free"

    @staticmethod
    def _refuse(code: str, text: str, link: Link, details: dict[str, Any] | None = None) -> None:
        """Refuse a hello: a fatal error naming it (and a line in the log, so that a
        host sees who was turned away, and why)."""
        log.info("refused a hello (%s): %s (%s)", code, text, link.peer)
        link.send(Error(code, text, "hello", True, details))

    def _session_for(self, link: Link, hello: Hello, host: bool) -> tuple[Session, bool] | None:
        """The session a hello takes (and whether it is taken back), or None after
        telling the peer why not.

        A resume token takes its session back. So does the name's secret, on a server
        that keeps records: the session then gets a new token (the old one stops
        working), so a player whose client lost its token still gets their seat back.
        Neither needs the server password; a new session does (not the ``host``'s).
        """
        if hello.resume:
            session = self.lobby.sessions.get(digest(hello.resume))
            if session is None:
                self._refuse("unknown_resume", "that resume token is not known here", link)
                return None
            if not host and self._banned(session.name, link):
                return None
            session.resume = hello.resume
            return session, True
        problem = names.name_problem(hello.name)
        if problem is not None:
            self._refuse("bad_name", problem, link, {"field": "hello.name"})
            return None
        if not host and self._banned(hello.name, link):
            return None
        owner = self._owner(hello)
        if owner == "reserved":
            self._refuse(
                "name_reserved",
                f"the name {hello.name} (or one that looks the same) belongs to another "
                "player; pick another",
                link,
                {"name": hello.name},
            )
            return None
        if owner == "ok":
            mine = next((s for s in self.lobby.sessions.values() if s.name == hello.name), None)
            if mine is not None:
                del self.lobby.sessions[mine.key]
                if self.lobby.store is not None:
                    self.lobby.store.drop_session(mine.key)
                mine.resume = secrets.token_urlsafe(24)
                mine.key = digest(mine.resume)
                self.lobby.sessions[mine.key] = mine
                return mine, True
        refusal = (
            None
            if host
            else self.moderation.wants_password(hello.password, peer_address(link.peer))
        )
        if refusal is not None:
            text = {
                "password_required": "this server asks a password of newcomers",
                "wrong_password": "that is not the server's password",
                "too_many_tries": "too many wrong passwords from your address: wait a minute",
            }[refusal]
            details = {"seconds": 60.0} if refusal == "too_many_tries" else None
            self._refuse(refusal, text, link, details)
            return None
        if self.saver.cannot_save:
            # A new session could not be kept; and what waits to be saved stays bounded.
            self._refuse(
                "cannot_save",
                "the server cannot save right now (its disk may be full); try again soon",
                link,
            )
            return None
        connected = sum(1 for s in self.lobby.sessions.values() if s.connected)
        if connected >= self.max_clients:
            self._refuse("server_full", "the server is full", link)
            return None
        if owner == "free" and self._win_name_back(hello):
            self._owner(hello)  # claimed for this secret now that nobody holds it
        skeleton = names.skeleton(hello.name)
        online = next(
            (s for s in self.lobby.sessions.values() if s.skeleton == skeleton and s.connected),
            None,
        )
        if online is not None:
            like = "" if online.name == hello.name else f" ({online.name} looks the same)"
            self._refuse(
                "name_taken",
                f"somebody called {hello.name} is online{like}",
                link,
                {"name": online.name, "why": "online"},
            )
            return None
        # A name held by a disconnected session without a seat is freed.
        keepers = self.lobby.seat_keepers()
        for old in list(self.lobby.sessions.values()):
            if old.skeleton != skeleton:
                continue
            keeps_seat = (
                (
                    old.table is not None
                    and not old.table.closed
                    and old.table.seat_of(old) is not None
                )
                or self.lobby.keeps(old)
                or old in keepers
            )
            if not old.connected and not keeps_seat:
                self.lobby.forget(old)  # (its forget hooks too: it follows nothing now)
        if any(s.skeleton == skeleton for s in self.lobby.sessions.values()):
            self._refuse(
                "name_taken",
                f"{hello.name} is keeping a seat; resume with its token",
                link,
                {"name": hello.name, "why": "keeping_seat"},
            )
            return None
        token = secrets.token_urlsafe(24)
        session = Session(secrets.token_hex(8), hello.name, token, key=digest(token))
        self.lobby.sessions[session.key] = session
        return session, False
