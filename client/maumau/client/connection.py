"""The app's connection to its server: connect, say hello, reconnect after a drop.

Theory of operation
-------------------
:class:`Connection` is owned by the app, which runs :meth:`Connection.run` in its
``@work`` network worker on its own asyncio loop. ``run`` opens a
:class:`~maumau.client.net.ServerLink` (``hello`` carries the resume token after a
drop, and the name's secret), and turns every server message into a
:class:`ServerMessage` posted to the app, which folds it into the model and redraws.

A lost connection never ends the app: ``run`` posts a :class:`ConnectionChanged`
with the words for the banner, waits (:data:`BACKOFF`) and reconnects with the
resume token, so the table comes back as it was. That holds across a server restart
too (a crash included): a server that keeps records knows the token again after it
starts, and the worker keeps trying, every few seconds, for as long as the app runs.
If the server forgot the token, ``run`` says hello afresh (with the secret that may
still bring the seat back). If the session is taken back by another client with the
name's secret (``goodbye``, "replaced"), this one says so and stops rather than
fight for it. A refused hello (a taken name, a name reserved by another player's
secret, a full server, a banned name or address), or a server never reached, is
fatal: the app goes back to the connect screen with the reason. So is being sent
away or banned by the server's host (``goodbye``, "kicked" or "banned"): the client
does not come back by itself. ``--replay`` only watches: a taken name there is
swapped for a throwaway viewer name.

A server with a password refuses a hello without it (``password_required``) or with
a wrong one (``wrong_password``): the connect screen comes back asking for it
(:attr:`ConnectionChanged.password`), and the password typed there is kept and sent
in every hello after, reconnects included. With the server's host key
(``maumau-client --admin-key``, or the key file of a server on this machine) every
hello carries the proof of it, and the session has the host's powers (the key found
in the default place is proved only to a server on this machine).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable

from textual.message import Message as TextualMessage

from maumau.protocol.messages import Message

from .i18n import _
from .model import Model
from .net import LinkClosed, ServerLink

BACKOFF = (0.5, 1, 2, 4, 8)
# A hello's refusals that ask for the server's password (always fatal).
PASSWORD_CODES = ("password_required", "wrong_password", "too_many_tries")


class ServerMessage(TextualMessage):
    """A message from the server, delivered on the app's loop."""

    def __init__(self, message: Message) -> None:
        super().__init__()
        self.message = message


class ConnectionChanged(TextualMessage):
    """The connection went down (``text`` says why and when it is tried again), or
    cannot be had at all (``fatal``); ``password``: the server wants its password
    (none was given, or a wrong one)."""

    def __init__(self, text: str | None, fatal: bool = False, password: bool = False) -> None:
        super().__init__()
        self.text = text
        self.fatal = fatal
        self.password = password


class Connection:
    """Where the app connects, as whom, and how the connection is doing."""

    def __init__(self, post: Callable[[TextualMessage], object]) -> None:
        self.post = post  # the app's post_message
        self.host: str | None = None
        self.port: int | None = None
        self.name = ""
        self.secret: str | None = None
        self.password: str | None = None  # the server's, as the player typed it
        self.host_key: bytes | None = None  # the server's host key, if the client has it
        self.key_only_here = False  # prove it only to a server on this machine
        self.replay_only = False  # --replay: only watching, under any name
        self.link: ServerLink | None = None
        self.connected = False
        self.welcomed = False  # on this server, once: then a drop is worth retrying
        self.forgotten = False  # the server did not know our resume token any more
        self.quitting = False

    def aim(
        self, host: str, port: int, name: str, secret: str | None, password: str | None = None
    ) -> None:
        """Connect there next time :meth:`run` starts, as a newcomer to that server
        (with the server's ``password``, if the player typed one)."""
        self.host, self.port, self.name, self.secret = host, port, name, secret
        self.password = password
        self.welcomed = False

    def welcome(self, resumed: bool) -> bool:
        """The server said ``welcome``: the link works. True when the server forgot
        the session it was asked to resume (the player should be told)."""
        self.connected = self.welcomed = True
        forgot = self.forgotten and not resumed
        self.forgotten = False
        return forgot

    async def run(self, model: Model) -> None:
        """Connect, deliver, and reconnect until the end (see the module's theory)."""
        attempt = 0
        assert self.host is not None and self.port is not None
        while True:
            try:
                self.link = await ServerLink.open(
                    self.host,
                    self.port,
                    self.name,
                    model.resume,
                    self.secret,
                    self.password,
                    self.host_key,
                    self.key_only_here,
                )
                await self.link.run(self._deliver)
            except LinkClosed as closed:
                self.link = None
                if self.quitting:
                    return
                if self.connected:
                    attempt = 0  # it worked before this drop: start the backoff again
                self.connected = False
                fatal = closed.fatal_error
                if fatal is not None and fatal.code == "unknown_resume":
                    # The server forgot the token (it restarted without records, or
                    # the session was taken back with the secret elsewhere): hello
                    # afresh. With the secret that may still bring the seat back;
                    # otherwise it is the lobby.
                    self.forgotten = model.table is not None
                    model.resume = None
                    model.table = model.view = None
                    continue
                taken = fatal is not None and fatal.code in ("name_taken", "name_reserved")
                if taken and self.replay_only and not self.welcomed:
                    # Only watching a replay: any other name will do.
                    self.name = f"viewer-{secrets.token_hex(3)}"
                    continue
                if closed.replaced:
                    # Another client took this session back (the same player, by the
                    # name's secret): it has the seat now; taking it back again would
                    # start a tug of war.
                    self.post(
                        ConnectionChanged(
                            _("Another client took over this session (same name and secret)."),
                            fatal=True,
                        )
                    )
                    return
                if closed.sent_away:
                    # The host sent this player away (or banned them): not for the
                    # client to come back by itself; the connect screen says why.
                    self.post(ConnectionChanged(closed.reason, fatal=True))
                    return
                if fatal is not None and fatal.code in PASSWORD_CODES:
                    if fatal.code == "password_required":
                        reason = _("This server asks for a password: type it below.")
                    elif fatal.code == "wrong_password":
                        reason = _("The server's password is wrong: type it again.")
                    else:  # too many wrong ones from this address
                        reason = closed.reason
                    self.post(ConnectionChanged(reason, fatal=True, password=True))
                    return
                never_welcomed = not self.welcomed
                refused = fatal is not None and fatal.code != "abuse"
                if refused or never_welcomed:
                    # A refused hello or an unreachable server: ask the player.
                    reason = closed.reason
                    if fatal is not None and fatal.code == "name_reserved":
                        reason = _("The name {name} belongs to another player; pick another.")
                        reason = reason.format(name=self.name)
                    self.post(ConnectionChanged(reason, fatal=True))
                    return
                delay = BACKOFF[min(attempt, len(BACKOFF) - 1)]
                attempt += 1
                self.post(
                    ConnectionChanged(
                        _(
                            "Connection lost: the table is frozen; reconnecting in {seconds} s"
                            " ({reason})"
                        ).format(seconds=f"{delay:g}", reason=closed.reason)
                    )
                )
                await asyncio.sleep(delay)
            else:
                return

    def _deliver(self, message: Message) -> None:
        self.post(ServerMessage(message))

    async def send(self, message: Message) -> str | None:
        """Send ``message``; None when it left, else why it could not."""
        if self.link is None:
            return _("Not connected; reconnecting...")
        try:
            await self.link.send(message)
        except LinkClosed as closed:
            return closed.reason
        return None
