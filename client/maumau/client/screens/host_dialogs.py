"""The host's small dialogs: a question with a few lines to type, and how long a ban
lasts; and the lobby's X, which closes a table or calls a tournament off.

The host screen (:mod:`.host`) asks before every power it uses: :class:`AskScreen`
takes a reason (which may stay empty), minutes, a password or an announcement, one
:class:`Field` a line, and answers with every line's value (Esc: None); a field
that is a number or required is checked before the dialog answers.
:class:`LastingScreen` asks whether a ban lasts for the server's life or for good.
:func:`ask_close` is the lobby's X, the host's too: the table or tournament under
the cursor is closed once a reason is asked for. Titles and hints are in words
already, and may hold other people's names: each is shown through
:func:`~maumau.client.literal.literal`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from maumau.protocol.messages import (
    HOST_TEXT_MAX,
    MUTE_MAX_S,
    CancelTournament,
    CloseTable,
    Message,
)

from ..i18n import N_, _
from ..literal import literal
from ..widgets.action_bar import TapButton
from ..widgets.ascii_aware import AsciiAware, AsciiInput
from ..widgets.key_footer import KeyFooter
from .messages import ToServer

MUTE_MOST_MINUTES = int(MUTE_MAX_S // 60)


def reason_of(value: str) -> str | None:
    """What was typed as a reason: None when nothing was."""
    value = " ".join(value.split())
    return value[:HOST_TEXT_MAX] or None


def cancel_tournament(tournament: int, reason: str | None) -> Message:
    """``cancel_tournament``, with the host's words to the players when given."""
    return CancelTournament(tournament, reason)


@dataclass(frozen=True)
class Field:
    """One line of an :class:`AskScreen`: its label (in words already), what it
    holds at first, and what it takes."""

    label: str
    value: str = ""
    number: bool = False  # a whole number of minutes
    password: bool = False  # hidden as typed
    required: bool = False  # may not stay empty
    most: int = HOST_TEXT_MAX


class AskInput(AsciiInput):
    """A line of a host's dialog; its Enter shows in the footer as what it does."""

    BINDINGS = [Binding("enter", "submit", N_("done"), key_display="Enter")]


class AskScreen(AsciiAware, ModalScreen[list[str] | None]):
    """A question with a few lines to type (a reason, minutes, a password...):
    Enter in a line goes to the next, in the last answers with every line's value;
    Esc answers None."""

    BINDINGS = [Binding("escape", "cancel", N_("cancel"), key_display="Esc")]

    def __init__(self, title: str, fields: Sequence[Field], hint: str = "") -> None:
        """``title`` and ``hint``: in words already (they may hold names)."""
        super().__init__()
        self.title_words = title
        self.fields = list(fields)
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog host-dialog"):
            yield Static(literal(self.title_words), classes="title")
            for i, field in enumerate(self.fields):
                yield Label(literal(field.label))
                yield AskInput(
                    field.value,
                    id=f"ask-{i}",
                    password=field.password,
                    max_length=6 if field.number else field.most,
                    restrict=r"[0-9]*" if field.number else None,
                )
            yield Static("", id="ask-problem", classes="error")
            yield Static(literal(self.hint or _("Enter: done, Esc cancels")), classes="hint")
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.fields:
            self.query_one("#ask-0", Input).focus()

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        event.stop()
        index = int((event.input.id or "ask-0").removeprefix("ask-"))
        if index + 1 < len(self.fields):
            self.query_one(f"#ask-{index + 1}", Input).focus()
            return
        values = [self.query_one(f"#ask-{i}", Input).value for i in range(len(self.fields))]
        for i, (field, value) in enumerate(zip(self.fields, values, strict=True)):
            problem = None
            if field.number and (not value.isdigit() or int(value) > MUTE_MOST_MINUTES):
                problem = _("A whole number of minutes, 0 to {most}.").format(
                    most=MUTE_MOST_MINUTES
                )
            elif field.required and not value.strip():
                problem = _("Type something first, or Esc to go back.")
            if problem is not None:
                self.query_one("#ask-problem", Static).update(problem)
                self.query_one(f"#ask-{i}", Input).focus()
                return
        self.dismiss(values)

    def action_cancel(self) -> None:
        self.dismiss(None)


class LastingScreen(AsciiAware, ModalScreen[str | None]):
    """How long a ban lasts: l for the server's life, g for good (kept in its
    database); Esc answers None."""

    BINDINGS = [
        Binding("l", "answer('life')", N_("server's life")),
        Binding("g", "answer('ever')", N_("for good")),
        Binding("escape", "answer('')", N_("cancel"), key_display="Esc"),
    ]

    def __init__(self, title: str) -> None:
        super().__init__()
        self.title_words = title

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog host-dialog"):
            yield Static(literal(self.title_words), classes="title")
            # NOTE: the keys stay l and g in every language.
            yield Static(
                _("l: until the server stops, g: for good (kept in its database), Esc cancels"),
                classes="hint",
            )
            with Horizontal(classes="dialog-buttons"):
                yield TapButton(_("server's life"), id="lasting-life", compact=True)
                yield TapButton(_("for good"), id="lasting-ever", compact=True)
        yield KeyFooter()

    @on(Button.Pressed, "#lasting-life")
    def life_pressed(self) -> None:
        self.action_answer("life")

    @on(Button.Pressed, "#lasting-ever")
    def ever_pressed(self) -> None:
        self.action_answer("ever")

    def action_answer(self, lasting: str) -> None:
        self.dismiss(lasting or None)


def reason_field() -> Field:
    # NOTE: the field of a host's dialog for the words the player is told.
    return Field(_("Reason (optional, the player reads it)"))


def ask_close(app: Any, summary: dict[str, Any], tournament: bool) -> None:
    """The lobby's X (the host's): close the table ``summary`` describes, or call the
    tournament off, after asking for a reason."""
    name = str(summary.get("name", ""))
    ident = int(summary["id"])
    if tournament:
        title = _("Call the tournament “{name}” off? Its players are told.").format(name=name)
    else:
        title = _("Close the table “{name}”? Everyone at it goes to the lobby.").format(name=name)

    def answered(values: list[str] | None) -> None:
        if values is None:
            return
        reason = reason_of(values[0])
        if tournament:
            app.post_message(ToServer(cancel_tournament(ident, reason)))
        else:
            app.post_message(ToServer(CloseTable(ident, reason)))

    app.push_screen(AskScreen(title, [reason_field()]), answered)
