"""The chat's input line (lobby and table), whose keys show in the footer.

The line is hidden until the player opens the chat (Tab: the screen's ``chat``
action calls :meth:`ChatInput.toggle`), and hidden again by Tab or Esc. While a
player types in it, the footer says what Enter and Esc do there: Enter sends the
line, Esc closes the chat (the screen's own ``chat`` action, as Tab does). A line
sent is posted upward as :class:`ChatInput.Said` (stripped, at most
:data:`CHAT_MOST` characters, never empty); the screen sends it to the server. The
screen decides where the focus goes once the line is hidden.

The prompt in the empty line is a catalog id, worded as the line opens: the
language may have changed since the screen was made. Hidden characters and borders
follow ``--ascii`` like every field (:class:`~.ascii_aware.AsciiInput`).
"""

from __future__ import annotations

from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input

from ..i18n import N_, _
from .ascii_aware import AsciiInput

CHAT_MOST = 200  # the longest chat line sent (the server's limit)


class ChatInput(AsciiInput):
    """A chat line: Enter sends, Esc closes the chat; both shown in the footer."""

    BINDINGS = [
        Binding("enter", "submit", N_("send"), key_display="Enter"),
        Binding("escape", "screen.chat", N_("close chat"), key_display="Esc"),
    ]

    class Said(Message):
        """The player sent ``text`` (stripped, not empty) from the chat line."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, prompt: str, id: str) -> None:
        """``prompt``: the catalog id of the words in the empty line."""
        super().__init__(placeholder=_(prompt), id=id)
        self.prompt = prompt
        self.display = False  # hidden from the start, so it never takes the first focus

    def toggle(self) -> bool:
        """Open the line (worded anew, with the focus) or hide it; whether it is open."""
        self.display = not self.display
        if self.display:
            self.placeholder = _(self.prompt)
            self.focus()
        return bool(self.display)

    def close(self) -> bool:
        """Hide the line; whether it was open."""
        if not self.display:
            return False
        self.display = False
        return True

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        self.value = ""
        if text:
            self.post_message(self.Said(text[:CHAT_MOST]))
