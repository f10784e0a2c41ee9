"""What screens ask of the app, as Textual messages posted upward.

Screens never import the app. When a key means "send this to the server", "connect
there", "back to the lobby", "show that replay" or "show that tournament", the
screen posts one of these to ``self.app`` and carries on; the app handles them in
order (``on_to_server``, ``on_connect_requested``, ...), on its own message queue, so
a move and what follows it reach the server in the order the keys were pressed.
Posting to the app itself rather than bubbling through the screen keeps a message
alive when the dialog that posted it closes at once (a closed screen drops its queue).
"""

from __future__ import annotations

from typing import Any

from textual.message import Message as TextualMessage

from maumau.protocol.messages import Message


class ToServer(TextualMessage):
    """Send ``message`` to the server (the app says so if it cannot)."""

    def __init__(self, message: Message) -> None:
        super().__init__()
        self.message = message


class ConnectRequested(TextualMessage):
    """The connect screen's answer: connect to ``host:port`` as ``name`` (with the
    server's ``password``, when the server asked for one)."""

    def __init__(self, host: str, port: int, name: str, password: str | None = None) -> None:
        super().__init__()
        self.host = host
        self.port = port
        self.name = name
        self.password = password


class TableLeft(TextualMessage):
    """The player left the table (``leave_table`` is on its way): back to the lobby."""


class ReplayRequested(TextualMessage):
    """Show the replay of the match the history's ``summary`` describes."""

    def __init__(self, summary: dict[str, Any]) -> None:
        super().__init__()
        self.summary = summary


class TournamentWanted(TextualMessage):
    """The player asked for a tournament's screen: ``tournament`` (its id), or the one
    being created (None). The request itself (``watch_tournament``,
    ``create_tournament``) follows as a :class:`ToServer`; the app shows the screen
    when the server's ``tournament`` answers. ``password``: the one typed for a
    locked tournament, kept for registering."""

    def __init__(self, tournament: int | None, password: str | None = None) -> None:
        super().__init__()
        self.tournament = tournament
        self.password = password


class TournamentClosed(TextualMessage):
    """The player left the tournament's screen; ``unfollow``: stop following it too
    (``watch_tournament`` nil is on its way)."""

    def __init__(self, unfollow: bool) -> None:
        super().__init__()
        self.unfollow = unfollow
