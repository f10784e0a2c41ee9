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

    While the connection is down the countdown stops and is not shown (``stopped``):
    the client no longer knows the server's clock, which may even restart. It counts
    again only from the first view after the connection is back, so the seconds shown
    are always the server's, never ones counted on here across the gap.
    """

    def __init__(self) -> None:
        super().__init__("", id="pile")
        self.seconds_left: float | None = None
        self.stopped = False  # the connection dropped since the view counted from
        self._timed_view: object = None

    def on_mount(self) -> None:
        self.set_interval(1.0, self._tick)

    def follow(self) -> None:
        """Count down from when the model's view arrived, if it is a new one."""
        model = host_of(self.app).model
        view = model.view
        if model.offline:
            self.stopped = True
            return
        if view is self._timed_view:
            return  # (back online, the countdown waits for the server's next view)
        self.stopped = False
        self._timed_view = view
        if view is not None and view.turn_deadline_ms is not None:
            self.seconds_left = view.turn_deadline_ms / 1000
        else:
            self.seconds_left = None

    def _tick(self) -> None:
        model = host_of(self.app).model
        if model.offline:
            self.stopped = True
        if self.seconds_left is not None and not model.clock_stopped and not self.stopped:
            self.seconds_left = max(0.0, self.seconds_left - 1)  # (a pause stops the clock)
            self.draw()
        elif model.rematch_seconds() is not None:
            self.draw()  # the seconds until the rematch starts by itself

    def draw(self) -> None:
        host = host_of(self.app)
        if self.stopped:
            self.update(
                render.pile(
                    host.model, host.ascii_only, None, clock_stopped=True, width=self.app.size.width
                )
            )
            return
        self.update(
            render.pile(host.model, host.ascii_only, self.seconds_left, width=self.app.size.width)
        )
