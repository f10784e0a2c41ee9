"""The chat's input line (lobby and table), whose keys show in the footer.

While a player types in the chat, the footer says what Enter and Esc do there: Enter
sends the line, Esc closes the chat (the screen's own ``chat`` action, which opens
and closes it, as Tab does). Hidden characters and borders follow ``--ascii`` like
every field (:class:`~.ascii_aware.AsciiInput`).
"""

from __future__ import annotations

from textual.binding import Binding

from ..i18n import N_
from .ascii_aware import AsciiInput


class ChatInput(AsciiInput):
    """A chat line: Enter sends, Esc closes the chat; both shown in the footer."""

    BINDINGS = [
        Binding("enter", "submit", N_("send"), key_display="Enter"),
        Binding("escape", "screen.chat", N_("close chat"), key_display="Esc"),
    ]
