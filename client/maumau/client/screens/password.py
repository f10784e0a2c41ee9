"""The password dialog: a locked table asks for its password before joining or
watching. It answers the lobby with the password (None when cancelled or empty)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from ..widgets.ascii_aware import AsciiAware


class PasswordScreen(AsciiAware, ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("This table is locked. Password:")
            yield Input(password=True, id="password")
            yield Static("Enter joins · Esc cancels", classes="hint")

    @on(Input.Submitted)
    def done(self, event: Input.Submitted) -> None:
        self.dismiss(event.value or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
