"""Where the app connects, as whom, and what a refusal or a welcome means to it.

Theory of operation
-------------------
:class:`Connecting` aims the app's :class:`~maumau.client.connection.Connection`
and starts its worker: at the start (a server given on the command line), from the
connect screen (:class:`~maumau.client.screens.messages.ConnectRequested`), or for
a browser guest from the login screen with the name's secret derived from the name
and PIN (:mod:`maumau.client.web.identity`; a guest cannot choose another server).
Every new connection starts a fresh :class:`~maumau.client.model.Model`. Every
``hello`` carries the name's secret from :mod:`maumau.client.config` (a server that
keeps records then gives the player's session back after a crash or a closed
terminal), except under ``--replay``, which only watches: with the secret it would
take the player's own session over, so it comes as a viewer under a name that
reserves nothing. The embedded server of ``--local`` keeps no records, so nothing
is remembered for it.

The connection worker reconnects by itself after a drop (the screens freeze
meanwhile: :meth:`~maumau.client.app_routes.Routes.frozen`); a connection that
cannot be had at all is :meth:`Connecting.refused`: back to the connect screen with
the reason (asking for the server's password if that is why), or, under
``--replay``, the app ends. At a ``welcome`` (:meth:`Connecting.welcomed`) the
player is told if the server forgot the session it was asked to resume, the server
and name are remembered for next time, and the one-shot ``on_welcome`` runs (local
play makes its table then).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from maumau.protocol.messages import Welcome

from . import config
from .app_shell import Shell
from .connection import ConnectionChanged
from .i18n import _
from .literal import literal
from .model import Model
from .screens.connect import ConnectScreen
from .screens.messages import ConnectRequested
from .screens.web_login import WebLoginRequested, WebLoginScreen


class Connecting:
    """The app's way to a server: aiming the connection, and its refusals."""

    def __init__(
        self,
        app: Shell,
        remember: bool = True,
        web_key: bytes | None = None,
        on_welcome: Callable[[Any], Awaitable[object]] | None = None,
    ) -> None:
        self.app = app
        self.remember = remember  # keep the server, the name and its secret
        # A browser guest's client (maumau-web): the server is fixed, the name and PIN
        # asked in the page, the name's secret derived from them with this key.
        self.web_key = web_key
        self.on_welcome = on_welcome  # run with the app at the first welcome, once

    def start(self) -> None:
        """Connect, or ask where to (a browser guest: as whom)."""
        app, connection = self.app, self.app.connection
        host, port, name = connection.host, connection.port, connection.name
        if self.web_key is not None:
            app.push_screen(WebLoginScreen(app.server_label, name))
        elif host and port:
            self.connect_to(host, port, name)
        else:
            saved = config.load()
            address = saved.get("server", "")
            app.push_screen(
                ConnectScreen(address, name or saved.get("name", ""), discover=app.discover)
            )

    def connect_to(self, host: str, port: int, name: str, password: str | None = None) -> None:
        """Connect there as ``name`` (see the module's theory for the secret)."""
        connection = self.app.connection
        if self.app.replay_match is not None:
            connection.aim(host, port, f"{name[:15].rstrip()} (replay)", None, password)
        else:
            secret = config.secret_for(name) if self.remember else None
            connection.aim(host, port, name, secret, password)
        self.app.model = Model()
        self.app.network()

    def requested(self, event: ConnectRequested) -> None:
        """The connect screen asks for a server (the password typed for it before is
        given again when none is typed now)."""
        if self.web_key is not None:
            return  # a browser guest plays on the host's server only
        connection = self.app.connection
        password = event.password
        same = (event.host, event.port) == (connection.host, connection.port)
        if password is None and same:
            password = connection.password  # the one typed for this server before
        self.connect_to(event.host, event.port, event.name, password)

    def web_login(self, event: WebLoginRequested) -> None:
        """A browser guest's name and PIN: connect to the one server there is, with
        the secret they derive (see :mod:`maumau.client.web.identity`)."""
        from .web.identity import name_secret

        connection = self.app.connection
        host, port = connection.host, connection.port
        if self.web_key is None or not host or not port:
            return
        connection.name = event.name
        secret = name_secret(event.name, event.pin, self.web_key)
        connection.aim(host, port, event.name, secret, event.password)
        self.app.model = Model()
        self.app.network()

    def refused(self, event: ConnectionChanged) -> None:
        """No connection can be had (``event.fatal``): back to the connect screen with
        the reason; under ``--replay`` the app ends with it."""
        app = self.app
        if app.replay_match is not None:
            app.exit(return_code=1, message=literal(f"maumau-client: {event.text}"))
            return
        app.set_banner(None)
        app.model.offline = False
        self.back_to_connect(event.text or "", event.password)

    def back_to_connect(self, message: str, ask_password: bool = False) -> None:
        """Back to the connect screen, saying why; ``ask_password``: the server wants
        its password (the screen asks for it)."""
        app, name = self.app, self.app.connection.name
        while len(app.screen_stack) > 1:
            app.pop_screen()
        if self.web_key is not None:  # a browser guest may not choose another server
            app.push_screen(WebLoginScreen(app.server_label, name, message, ask_password))
            return
        app.push_screen(ConnectScreen(app.server_label, name, message, app.discover, ask_password))

    async def welcomed(self, message: Welcome) -> None:
        """The server said ``welcome`` (see the module's theory)."""
        app = self.app
        if app.connection.welcome(message.resumed):
            app.notify(_("The server forgot your session: back to the lobby."))
        if self.remember and app.connection.host and app.replay_match is None:
            config.save({"server": app.server_label, "name": message.name})
        if self.on_welcome is not None and not message.resumed:
            callback, self.on_welcome = self.on_welcome, None
            await callback(app)
