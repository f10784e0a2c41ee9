"""The other players at the table, in their places around me."""

from __future__ import annotations

from textual.events import Resize
from textual.widgets import Static

from .. import render
from ..host import host_of


class Opponents(Static):
    """Every other seat (``#opponents``): name, cards, points, whose turn it is, the
    MAU! mark, and which way play goes (:func:`~maumau.client.render.opponents`).

    The seats are drawn in seat order from the one after mine and keep their places
    whatever the direction of play. The widget draws at its own width, again after
    every resize; its screen says whether the list's header line fits (``header``).
    """

    def __init__(self) -> None:
        super().__init__("", id="opponents")
        self.header = True

    def draw(self, header: bool | None = None) -> None:
        if header is not None:
            self.header = header
        host = host_of(self.app)
        width = self.size.width or self.app.size.width or 80
        self.update(render.opponents(host.model, host.ascii_only, width, self.header))

    def on_resize(self, event: Resize) -> None:
        self.draw()
