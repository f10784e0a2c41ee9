"""The password dialog: a locked table asks for its password before joining or
watching.

It says what Enter does (joins, or watches), and refuses an empty password itself,
in words, instead of sending it to be answered "the password is wrong". It answers
the lobby with the password, or None when cancelled.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from ..widgets.ascii_aware import AsciiAware, AsciiInput
from ..widgets.key_footer import KeyFooter


class JoinPassword(AsciiInput):
    """The password; its Enter shows in the footer as what it does: join."""

    BINDINGS = [Binding("enter", "submit", "join", key_display="Enter")]


class WatchPassword(AsciiInput):
    """The password; its Enter shows in the footer as what it does: watch."""

    BINDINGS = [Binding("enter", "submit", "watch", key_display="Enter")]


class PasswordScreen(AsciiAware, ModalScreen[str | None]):
    """The password of a locked table, to join it (or, ``watch``, to watch it)."""

    BINDINGS = [Binding("escape", "cancel", "cancel", key_display="Esc")]

    def __init__(self, watch: bool = False) -> None:
        super().__init__()
        self.doing = "watch" if watch else "join"

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="password-dialog"):
            yield Label(f"This table is locked. Password to {self.doing} it:")
            field = WatchPassword if self.doing == "watch" else JoinPassword
            yield field(password=True, id="password")
            yield Static("", id="password-problem", classes="error")
            does = "watches" if self.doing == "watch" else "joins"
            yield Static(f"Enter {does}, Esc cancels", classes="hint")
        yield KeyFooter()

    @on(Input.Submitted)
    def done(self, event: Input.Submitted) -> None:
        if not event.value:
            self.query_one("#password-problem", Static).update(
                "Type the table's password first (ask its creator), or Esc to go back"
            )
            return
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
