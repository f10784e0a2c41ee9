"""The round (or match) result dialog: every hand revealed, the points and the score
chart, drawn by the table screen from the model. It answers True for a rematch; the
table screen then tells the server the player is ready (or wants a rematch), unless
the next round began and closed it first (``closed_by_round``)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..widgets.ascii_aware import AsciiAware


class ResultScreen(AsciiAware, ModalScreen[bool]):
    """The round (or match) result: every hand revealed, points, the score chart.
    It waits for a key; closing it tells the server this player is ready."""

    BINDINGS = [
        Binding("enter", "close", "continue"),
        Binding("space", "close", "continue", show=False),
        Binding("escape", "close", "continue", show=False),
        Binding("r", "rematch", "rematch"),
    ]

    def __init__(self, text: Text, match_over: bool) -> None:
        super().__init__()
        self.text = text
        self.match_over = match_over
        self.closed_by_round = False

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="result"):
            yield Static(self.text)
            hint = (
                "Enter continues · r asks for a rematch"
                if self.match_over
                else "Enter: ready for the next round"
            )
            yield Static(hint, classes="hint")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "rematch":
            return self.match_over
        return True

    def action_close(self) -> None:
        self.dismiss(False)

    def action_rematch(self) -> None:
        self.dismiss(True)
