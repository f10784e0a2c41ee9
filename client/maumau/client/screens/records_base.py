"""What the records screens (leaderboard, history, replay) share with the app.

Theory of operation
-------------------
Each records screen asks the server when it opens (``get_stats``, ``list_matches``,
``get_replay``) and then only draws what the view model holds. The app folds every
answer (``stats``, ``matches``, ``replay``) and every refusal of these requests into
the :class:`~maumau.client.model.Model` and calls :meth:`RecordsScreen.refresh_records`
on each records screen that is open; after a reconnect it calls
:meth:`RecordsScreen.reconnected`, so a question lost with the old connection is
asked again. A refusal is said in the screen itself, in words: ``no_store`` becomes
"This server keeps no records".

Every records screen closes with the same keys, Esc and q (:data:`CLOSE_KEYS`,
shown in the footer as ``Esc/q``), and calls the action ``close``.
"""

from __future__ import annotations

from textual.binding import Binding

from maumau.protocol.messages import Message

from ..host import Host, host_of
from ..i18n import N_
from .messages import ToServer

CLOSE_KEYS = [
    Binding("escape", "close", N_("close"), key_display="Esc/q"),
    Binding("q", "close", N_("close"), show=False),
]


class RecordsScreen:
    """A screen that shows records; the app calls these when answers arrive. Mixed
    in before the Screen class."""

    @property
    def host(self) -> Host:
        return host_of(self.app)  # type: ignore[attr-defined]

    def ask(self, message: Message) -> None:
        """Ask the server (through the app) for records."""
        self.app.post_message(ToServer(message))  # type: ignore[attr-defined]

    def refresh_records(self) -> None:
        """Draw what the model holds now."""

    def reconnected(self) -> None:
        """A new connection: ask again what the old one did not answer."""
