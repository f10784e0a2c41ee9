"""The banner: a line at the top of a main screen while something is wrong (up to three
when its words need them: a long reason, or a language with long words)."""

from __future__ import annotations

from textual.widgets import Static

from ..host import host_of
from ..literal import literal


class Banner(Static):
    """The line at the top of a screen that says the connection is down and when the
    client tries again (or that the table is paused). Every main screen has one; the
    app sets them all at once (``MauMauApp.set_banner``), and a screen shown later
    starts with the app's current text."""

    def __init__(self) -> None:
        super().__init__("", id="banner")

    def on_mount(self) -> None:
        self.show(host_of(self.app).shown_banner)

    def show(self, text: str | None) -> None:
        self.update(literal(text or ""))
        self.display = bool(text)
