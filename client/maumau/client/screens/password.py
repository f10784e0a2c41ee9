"""The password dialog: a locked table asks for its password before joining or
watching, and a locked tournament before it is followed.

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

from ..i18n import N_, _
from ..widgets.ascii_aware import AsciiAware, AsciiInput
from ..widgets.key_footer import KeyFooter


class JoinPassword(AsciiInput):
    """The password; its Enter shows in the footer as what it does: join."""

    BINDINGS = [Binding("enter", "submit", N_("join"), key_display="Enter")]


class WatchPassword(AsciiInput):
    """The password; its Enter shows in the footer as what it does: watch."""

    BINDINGS = [Binding("enter", "submit", N_("watch"), key_display="Enter")]


class PasswordScreen(AsciiAware, ModalScreen[str | None]):
    """The password of a locked table, to join it (or, ``watch``, to watch it); or,
    ``tournament``, of a locked tournament, to follow it."""

    BINDINGS = [Binding("escape", "cancel", N_("cancel"), key_display="Esc")]

    def __init__(self, watch: bool = False, tournament: bool = False) -> None:
        super().__init__()
        self.watching = watch or tournament
        self.tournament = tournament

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="password-dialog"):
            if self.tournament:
                yield Label(_("This tournament is locked. Password to follow it:"))
                yield WatchPassword(password=True, id="password")
            elif self.watching:
                yield Label(_("This table is locked. Password to watch it:"))
                yield WatchPassword(password=True, id="password")
            else:
                yield Label(_("This table is locked. Password to join it:"))
                yield JoinPassword(password=True, id="password")
            yield Static("", id="password-problem", classes="error")
            if self.tournament:
                yield Static(_("Enter opens it, Esc cancels"), classes="hint")
            elif self.watching:
                yield Static(_("Enter watches, Esc cancels"), classes="hint")
            else:
                yield Static(_("Enter joins, Esc cancels"), classes="hint")
        yield KeyFooter()

    @on(Input.Submitted)
    def done(self, event: Input.Submitted) -> None:
        if not event.value:
            self.query_one("#password-problem", Static).update(
                _("Type the tournament's password first (ask its director), or Esc to go back")
                if self.tournament
                else _("Type the table's password first (ask its creator), or Esc to go back")
            )
            return
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
