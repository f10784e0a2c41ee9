"""The suit picker: after a Jack (Mau Mau) or a wild (American), name the suit or
colour. It answers the table screen with the letter, or None when cancelled (the card
is then not played)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ..i18n import N_, _
from ..model import label, suit_words
from ..widgets.ascii_aware import AsciiAware


class SuitPicker(AsciiAware, ModalScreen[str | None]):
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

    def __init__(self, card: str, letters: list[str], ascii_only: bool) -> None:
        super().__init__()
        self.card = card
        self.letters = letters
        self.ascii_only = ascii_only
        self.cursor = 0

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="suit-picker"):
            yield Static("", id="suits")
            yield Static(_("1-4, or Up/Down and Enter. Esc cancels"), classes="hint")

    def on_mount(self) -> None:
        self._draw()

    def _draw(self) -> None:
        classic = self.letters[0] in "SHDC"
        card = label(self.card, self.ascii_only)
        if classic:
            question = _("Playing {card}: name the suit").format(card=card)
        else:
            question = _("Playing {card}: name the colour").format(card=card)
        text = Text(question + "\n\n", style="bold")
        for i, letter in enumerate(self.letters):
            mark = ">" if i == self.cursor else " "
            text.append(
                f" {mark} {i + 1}  {suit_words(letter, self.ascii_only)}\n",
                style="reverse" if i == self.cursor else "",
            )
        self.query_one("#suits", Static).update(text)

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
