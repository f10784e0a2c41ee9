"""The client's connection: asyncio streams and the shared sans-IO codec.

Textual runs on asyncio, so the client reads the socket in an asyncio task (the app's
``@work`` network loop) and feeds each chunk to :class:`maumau.protocol.codec.Connection`.
:class:`ServerLink` answers pings by itself and hands every other message to a
callback; sending encodes through the same codec, so the client can never send what
the protocol forbids. Every message is cleaned as it arrives
(:func:`maumau.client.literal.clean_message`): no escape sequence or control
character the server sends gets any further than this. A frame the schema refuses
(not fatal: the stream can still be read) is skipped and logged, as
``docs/protocol.md`` says; a broken stream (undecodable, too large, truncated) ends
the link. The app then holds each message to the protocol's invariants
(:mod:`maumau.client.checks`).

Lag compensation (protocol 5)
-----------------------------
The server decides who said or caught Mau first on its own clock, and may count a
claim earlier by the delay of its connection. It measures that delay best from the
claim's own exchange, so the link reports it, all on this process's monotonic clock
(``time.monotonic()``, in milliseconds):

- every ``pong`` carries ``clock_ms``, the clock when it was sent, so the server can
  place this clock against its own;
- :class:`WindowClock` remembers when each call window was first seen: the moment the
  read that completed the first ``view`` listing it returned, as close to the socket
  as this code gets (the time is taken when the bytes arrive, before any message of
  that read is handled). It keeps the windows of the latest view only (a window gone
  from it is closed; a view of another table starts afresh), and a new link (after a
  reconnect) starts with none;
- a ``say_mau`` or ``catch`` that has no ``clock_ms`` yet is sent with ``clock_ms``
  (now) and ``reaction_ms``: now minus the moment its window was first seen. The
  window is picked as the server picks it: for ``say_mau`` the sender's own open window
  (not a final one; one not yet called, or called "Mau" when upgrading to "Mau Mau"),
  for ``catch`` the target's (a catchable one first). When no window is known (none
  seen, or the link is newer than the window), ``reaction_ms`` stays unset and the
  server uses the connection's usual delay.

Nothing here is trusted by the server: it checks each report against the
connection's pings (``maumau.server.latency``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import ipaddress
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from maumau.protocol import host_key
from maumau.protocol.codec import (
    NEED_DATA,
    PEER_CLOSED,
    Connection,
    LocalProtocolError,
    RemoteProtocolError,
)
from maumau.protocol.messages import (
    PROTOCOL_VERSION,
    CatchPlayer,
    Error,
    Goodbye,
    Hello,
    Message,
    Ping,
    Pong,
    SayMau,
    View,
)

from .i18n import _
from .literal import clean_message
from .words import error_line, goodbye_line

log = logging.getLogger("maumau.client")

CONNECT_TIMEOUT = 10.0
MAX_CLOCK_MS = 1e13  # the protocol's bounds of clock_ms and reaction_ms
MAX_REACTION_MS = 1e7


def clock_ms() -> float:
    """This process's monotonic clock in milliseconds (the clock every report uses)."""
    return time.monotonic() * 1000


@dataclasses.dataclass(frozen=True, slots=True)
class SeenWindow:
    """A call window, as this link saw it: ``seen`` is the clock (ms) when the first
    view listing it arrived, ``seat`` whose window it is, ``viewer`` the seat of that
    view (None: watching); ``entry`` is the window as the latest view lists it."""

    id: int
    seen: float
    seat: int
    viewer: int | None
    entry: Mapping[str, Any]


class WindowClock:
    """When each open call window was first seen, and the reaction a claim reports
    (see the module docstring)."""

    def __init__(self) -> None:
        self.table: int | None = None
        self.viewer: int | None = None
        self.windows: dict[int, SeenWindow] = {}

    def saw(self, view: View, at: float) -> None:
        """Fold in a ``view`` that arrived at ``at`` (ms): new windows are stamped
        ``at``, known ones keep their first time, windows it no longer lists go."""
        if view.table != self.table:
            self.table, self.windows = view.table, {}
        self.viewer = view.seat
        known = self.windows
        self.windows = {}
        for entry in view.windows:
            try:
                number, seat = int(entry["id"]), int(entry["seat"])
            except (KeyError, TypeError, ValueError):
                continue
            first = known.get(number)
            seen = at if first is None else first.seen
            self.windows[number] = SeenWindow(number, seen, seat, view.seat, entry)

    def about(self, claim: SayMau | CatchPlayer) -> SeenWindow | None:
        """The window ``claim`` is about, as the server picks it; None if unknown."""
        if isinstance(claim, SayMau):
            if self.viewer is None:
                return None
            mine = [
                w
                for w in self.windows.values()
                if w.seat == self.viewer and not w.entry.get("final")
            ]
            for window in mine:
                called = window.entry.get("called")
                if called is None or (called == "mau" and claim.call == "maumau"):
                    return window
            return mine[0] if mine else None
        theirs = [w for w in self.windows.values() if w.seat == claim.target]
        catchable = [w for w in theirs if w.entry.get("catchable")]
        found = catchable or theirs
        return found[0] if found else None

    def stamp(self, claim: SayMau | CatchPlayer, now: float) -> SayMau | CatchPlayer:
        """``claim`` with its report filled in for sending at ``now`` (ms), unless it
        has one already."""
        if claim.clock_ms is not None or not 0 <= now <= MAX_CLOCK_MS:
            return claim
        window = self.about(claim)
        reaction: float | None = None
        if window is not None:
            reaction = max(0.0, now - window.seen)
            if reaction > MAX_REACTION_MS:
                reaction = None
        return dataclasses.replace(claim, reaction_ms=reaction, clock_ms=now)


def same_machine(writer: asyncio.StreamWriter) -> bool:
    """Whether the connection of ``writer`` goes to this machine: to a loopback
    address, or to one of its own (the two ends then have the same address)."""

    def host_of(name: str) -> str | None:
        found = writer.get_extra_info(name)
        if not isinstance(found, tuple) or not found:
            return None
        host = str(found[0]).split("%")[0]
        return host[7:] if host.startswith("::ffff:") else host

    peer, own = host_of("peername"), host_of("sockname")
    if peer is None:
        return False
    try:
        if ipaddress.ip_address(peer).is_loopback:
            return True
    except ValueError:
        return False
    return peer == own


class LinkClosed(Exception):
    """The connection ended; ``reason`` says why, in words."""

    def __init__(
        self,
        reason: str,
        fatal_error: Error | None = None,
        goodbye: str | None = None,
        goodbye_code: str | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.fatal_error = fatal_error
        self.goodbye = goodbye  # the reason of the server's goodbye, if it said one
        self.goodbye_code = goodbye_code  # and its code (protocol 4)

    @property
    def replaced(self) -> bool:
        """The server closed this connection because the session was resumed on
        another (its goodbye's code is "replaced")."""
        return self.goodbye_code == "replaced"

    @property
    def sent_away(self) -> bool:
        """The server's host sent this player away or banned them (its goodbye's
        code is "kicked" or "banned", protocol 9): coming back is not for the client
        to try by itself."""
        return self.goodbye_code in ("kicked", "banned")


class ServerLink:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.codec = Connection("client")
        self.windows = WindowClock()

    @classmethod
    async def open(
        cls,
        host: str,
        port: int,
        name: str,
        resume: str | None = None,
        secret: str | None = None,
        password: str | None = None,
        key: bytes | None = None,
        key_only_here: bool = False,
    ) -> ServerLink:
        """Connect and say ``hello`` (with the resume token, the name's secret, the
        server's password if the player typed one, and, with the server's host key,
        the proof of it: :func:`maumau.protocol.host_key.make`, made afresh for every
        hello). ``key_only_here``: prove the key only to a server on this machine (the
        key found in the default place, not given: a server elsewhere could pass the
        proof on to the real one at once)."""
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(host, port), CONNECT_TIMEOUT
            )
        except TimeoutError:
            raise LinkClosed(
                _("no answer from {address}").format(address=f"{host}:{port}")
            ) from None
        except OSError as error:
            if isinstance(error, ConnectionRefusedError):
                text = _("cannot reach {address}: refused")
            else:
                text = _("cannot reach {address}: {why}")
            address = f"{host}:{port}"
            raise LinkClosed(text.format(address=address, why=error.strerror or error)) from None
        link = cls(reader, writer)
        if key is not None and key_only_here and not same_machine(writer):
            key = None
        proof = host_key.make(key, name, time.time()) if key is not None else None
        await link.send(Hello(PROTOCOL_VERSION, name, resume, secret, password, proof))
        return link

    async def send(self, message: Message) -> None:
        """Send one message. Raises LinkClosed when the connection is gone, and also
        before ``welcome`` (the codec refuses to send anything but ``hello`` then).
        A ``say_mau`` or ``catch`` goes with its report (see the module docstring)."""
        if isinstance(message, SayMau | CatchPlayer):
            message = self.windows.stamp(message, clock_ms())
        try:
            self.writer.write(self.codec.send(message))
            await self.writer.drain()
        except (ConnectionError, OSError) as error:
            raise LinkClosed(_("connection lost: {why}").format(why=error)) from None
        except LocalProtocolError as error:
            raise LinkClosed(_("not connected yet ({why})").format(why=error.message)) from None

    async def run(self, deliver: Callable[[Message], None]) -> None:
        """Read until the connection ends; raises LinkClosed with the reason."""
        fatal: Error | None = None
        goodbye: Goodbye | None = None
        arrived = clock_ms()  # when the latest read returned
        while True:
            try:
                event = self.codec.next_event()
            except RemoteProtocolError as error:
                if not error.fatal:
                    # A frame the schema refuses is skipped whole; the stream is fine
                    # (docs/protocol.md, "Messages and validation").
                    log.warning("skipped a frame from the server: %s", error.message)
                    continue
                text = _("the server sent something invalid: {why}")
                raise LinkClosed(text.format(why=error.message)) from None
            if event is NEED_DATA:
                try:
                    data = await self.reader.read(65536)
                except (ConnectionError, OSError) as error:
                    raise LinkClosed(_("connection lost: {why}").format(why=error)) from None
                arrived = clock_ms()
                self.codec.receive_data(data)
                continue
            if event is PEER_CLOSED:
                if fatal is not None:
                    details = fatal.details
                    reason = error_line(fatal.code, details, fatal.message)
                elif goodbye is not None:
                    reason = goodbye_line(goodbye.code, goodbye.reason, goodbye.by, goodbye.note)
                else:
                    reason = _("the server closed the connection")
                said = goodbye.reason if goodbye is not None else None
                code = goodbye.code if goodbye is not None else None
                raise LinkClosed(reason, fatal, said, code)
            assert isinstance(event, Message)
            event = clean_message(event)
            if isinstance(event, Ping):
                now = clock_ms()
                await self.send(Pong(event.nonce, now if now <= MAX_CLOCK_MS else None))
                continue
            if isinstance(event, View):
                self.windows.saw(event, arrived)
            if isinstance(event, Error) and event.fatal:
                fatal = event
            if isinstance(event, Goodbye):
                goodbye = event  # e.g. "the server is shutting down"
            deliver(event)

    def close(self) -> None:
        self.writer.close()
