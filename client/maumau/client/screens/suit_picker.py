"""The suit picker: after a Jack (Mau Mau) or a wild (American), name the suit or
colour. It answers the table screen with the letter, or None when cancelled (the card
is then not played).

By mouse or finger: a click on a suit picks it, a click on the picked one names it
(as on the hand); its buttons name the picked suit or cancel. On a tall screen
(``roomy``) each suit is a big button of its own, and a tap outside the box cancels,
as Esc."""

from __future__ import annotations

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..i18n import N_, _
from ..model_moves import label, suit_words
from ..widgets.action_bar import RoomAware, TapButton, TapOutsideCloses, fit_room
from ..widgets.ascii_aware import AsciiAware


class SuitPicker(RoomAware, TapOutsideCloses, AsciiAware, ModalScreen[str | None]):
    """Name a suit (after a Jack) or a colour (after a wild). Esc cancels the play."""

    BINDINGS = [
        Binding("escape", "cancel", N_("cancel")),
        Binding("1", "pick(0)", "1", show=False),
        Binding("2", "pick(1)", "2", show=False),
        Binding("3", "pick(2)", "3", show=False),
        Binding("4", "pick(3)", "4", show=False),
        Binding("up", "move(-1)", N_("up"), show=False),
        Binding("down", "move(1)", N_("down"), show=False),
        Binding("enter", "choose", N_("name it")),
    ]

    OUTSIDE_ACTION = "cancel"

    def __init__(self, card: str, letters: list[str], ascii_only: bool) -> None:
        super().__init__()
        self.card = card
        self.letters = letters
        self.ascii_only = ascii_only
        self.cursor = 0

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="suit-picker"):
            yield Static("", id="suits")
            with Grid(id="suit-buttons"):
                for i, letter in enumerate(self.letters):
                    yield TapButton(
                        suit_words(letter, self.ascii_only), id=f"suit-{i}", name=letter
                    )
            yield Static(_("1-4, or Up/Down and Enter. Esc cancels"), classes="hint")
            with Horizontal(classes="dialog-buttons"):
                yield TapButton(_("name it"), id="suit-choose", variant="primary", compact=True)
                yield TapButton(_("cancel"), id="suit-cancel", compact=True)

    def on_mount(self) -> None:
        fit_room(self)
        self._draw()

    def on_resize(self) -> None:
        fit_room(self)
        self._draw()

    def _draw(self) -> None:
        classic = self.letters[0] in "SHDC"
        card = label(self.card, self.ascii_only)
        if classic:
            question = _("Playing {card}: name the suit").format(card=card)
        else:
            question = _("Playing {card}: name the colour").format(card=card)
        text = Text(question + "\n\n", style="bold")
        if self.has_class("roomy"):  # a button for each suit, under the question
            self.query_one("#suits", Static).update(Text(question, style="bold"))
            return
        for i, letter in enumerate(self.letters):
            mark = ">" if i == self.cursor else " "
            text.append(
                f" {mark} {i + 1}  {suit_words(letter, self.ascii_only)}\n",
                style="reverse" if i == self.cursor else "",
            )
        self.query_one("#suits", Static).update(text)

    def on_click(self, event: events.Click) -> None:
        """A click on a suit picks it; on the picked one, names it. The suits are
        the last lines of ``#suits`` but the empty one after the last newline (the
        question above them may wrap)."""
        suits = self.query_one("#suits", Static)
        if self.has_class("roomy"):
            return  # the suits are buttons
        offset = event.get_content_offset(suits)
        if offset is None or event.widget is not suits:
            return
        index = offset.y - (suits.content_region.height - 1 - len(self.letters))
        if 0 <= index < len(self.letters):
            event.stop()
            if index == self.cursor:
                self.action_choose()
            else:
                self.cursor = index
                self._draw()

    @on(Button.Pressed, "#suit-buttons TapButton")
    def suit_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.name)

    @on(Button.Pressed, "#suit-choose")
    def choose_pressed(self) -> None:
        self.action_choose()

    @on(Button.Pressed, "#suit-cancel")
    def cancel_pressed(self) -> None:
        self.action_cancel()

    def action_move(self, step: int) -> None:
        self.cursor = (self.cursor + step) % len(self.letters)
        self._draw()

    def action_pick(self, index: int) -> None:
        if index < len(self.letters):
            self.dismiss(self.letters[index])

    def action_choose(self) -> None:
        self.dismiss(self.letters[self.cursor])

    def action_cancel(self) -> None:
        self.dismiss(None)
