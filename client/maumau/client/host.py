"""What a screen or widget may read of the app that shows it.

Screens and widgets never import the app (:mod:`maumau.client.app` sits above
them). They read the app's state through :class:`Host`, a structural type that
:class:`~maumau.client.app.MauMauApp` satisfies, and they ask the app to *do*
things (send to the server, connect, change places) by posting Textual messages
upward (:mod:`maumau.client.screens.messages`). :func:`host_of` gives the typed view
of ``self.app``; nothing here imports Textual.
"""

from __future__ import annotations

from typing import Protocol, cast

from .model import Model


class Host(Protocol):
    """The app's state, as the screens see it: read it, never keep it."""

    @property
    def model(self) -> Model:
        """The view model, folded from every server message."""

    @property
    def ascii_only(self) -> bool:
        """``--ascii``: S H D C and plain borders."""

    @property
    def server_label(self) -> str:
        """``host:port`` of the server, or "" before there is one."""

    @property
    def replay_match(self) -> int | None:
        """``--replay MATCH``: the only match this client shows, if any."""

    @property
    def shown_banner(self) -> str | None:
        """The line every screen's banner shows now (None: no banner)."""

    @property
    def local(self) -> bool:
        """``--local``: one player against bots of an embedded server; the table's
        match starts once its screen is shown, and leaving it quits."""


def host_of(app: object) -> Host:
    """``self.app`` of a screen or widget, typed as the :class:`Host` it is."""
    return cast(Host, app)
