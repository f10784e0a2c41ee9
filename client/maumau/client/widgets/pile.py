"""The table's middle line: the pile, whose turn it is, and the turn's countdown."""

from __future__ import annotations

from textual.widgets import Static

from .. import render
from ..host import host_of


class Pile(Static):
    """The discard pile and the seconds left in the turn (``#pile``).

    The countdown starts from the ``turn_deadline_ms`` of each new view
    (:meth:`follow`) and goes down once a second while the table is not paused (a
    pause stops the server's clock too); the server decides when time is up, this
    only shows it.
    """

    def __init__(self) -> None:
        super().__init__("", id="pile")
        self.seconds_left: float | None = None
        self._timed_view: object = None

    def on_mount(self) -> None:
        self.set_interval(1.0, self._tick)

    def follow(self) -> None:
        """Count down from when the model's view arrived, if it is a new one."""
        view = host_of(self.app).model.view
        if view is not self._timed_view:
            self._timed_view = view
            if view is not None and view.turn_deadline_ms is not None:
                self.seconds_left = view.turn_deadline_ms / 1000
            else:
                self.seconds_left = None

    def _tick(self) -> None:
        if self.seconds_left is not None and not host_of(self.app).model.paused:
            self.seconds_left = max(0.0, self.seconds_left - 1)  # (a pause stops the clock)
            self.draw()

    def draw(self) -> None:
        host = host_of(self.app)
        self.update(render.pile(host.model, host.ascii_only, self.seconds_left))
