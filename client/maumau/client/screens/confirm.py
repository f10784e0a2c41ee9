"""A yes/no question (leaving the table): y answers True, n or Esc False; its Yes
and No buttons answer the same by click or tap, and a tap outside its box says no.

The question is given as its English message (marked with ``N_`` where it is
written) and translated when the dialog is drawn, like every word of the client."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..i18n import N_, _
from ..widgets.action_bar import RoomAware, TapButton, TapOutsideCloses
from ..widgets.ascii_aware import AsciiAware


class ConfirmScreen(RoomAware, TapOutsideCloses, AsciiAware, ModalScreen[bool]):
    OUTSIDE_ACTION = "answer(False)"  # a tap outside the box answers no, as Esc

    BINDINGS = [
        Binding("y", "answer(True)", N_("yes")),
        Binding("n", "answer(False)", N_("no")),
        Binding("escape", "answer(False)", N_("no"), show=False),
    ]

    def __init__(self, question: str) -> None:
        """``question``: the English message, translated when drawn."""
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(_(self.question))
            # NOTE: the keys stay y and n in every language.
            yield Static(_("y yes, n no"), classes="hint")
            with Horizontal(classes="dialog-buttons"):
                yield TapButton(_("yes"), id="confirm-yes", variant="primary", compact=True)
                yield TapButton(_("no"), id="confirm-no", compact=True)

    @on(Button.Pressed, "#confirm-yes")
    def yes_pressed(self) -> None:
        self.action_answer(True)

    @on(Button.Pressed, "#confirm-no")
    def no_pressed(self) -> None:
        self.action_answer(False)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
