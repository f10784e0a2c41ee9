"""The player's hand, and under it why the last key did nothing.

A click on a card is a :class:`Hand.CardClicked` for the table screen (which picks
the card, or plays it if it was picked already, as Enter would): the card under the
click is found by :func:`~maumau.client.render.hand_layout`, the same places the
hand is drawn by.
"""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.widgets import Static

from .. import render
from ..host import host_of
from ..i18n import _
from ..model import plain

HINT_ROWS = 2  # on a roomy screen the hint takes this many lines, however long it is


class Hand(Static):
    """My cards (``#hand``), the picked one raised, the legal ones lit, and a line of
    hints; its border title shows my score. On a ``roomy`` screen the hint always
    takes :data:`HINT_ROWS` lines, so that the action bar under the hand stays put
    (a tap aimed at a button lands on it).

    A complaint (:meth:`complain`: a card that does not fit, a move the server
    refused) is shown under the cards until the view changes: a new position makes
    the old complaint moot.
    """

    class CardClicked(Message):
        """The player clicked (or tapped) the card at ``index`` of their hand."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self) -> None:
        super().__init__("", id="hand")
        self.problem: str | None = None
        self._problem_view: object = None
        self.places: list[render.CardPlace] = []  # where the cards were drawn last

    def complain(self, text: str) -> None:
        """Say ``text`` under the hand until the next view (the caller redraws)."""
        self.problem = text
        self._problem_view = host_of(self.app).model.view

    def draw(self, cursor: int, armed: str | None, width: int, boxes: bool = True) -> None:
        """Draw the hand ``width`` cells wide, as boxes if they fit and ``boxes``."""
        host = host_of(self.app)
        model, ascii_only = host.model, host.ascii_only
        view = model.view
        if view is not self._problem_view:
            self.problem = None  # a new position: the old complaint no longer applies
        self.places = render.hand_layout(model, ascii_only, width, boxes)
        self.update(
            render.hand(
                model,
                cursor,
                ascii_only,
                armed,
                width,
                plain(self.problem, ascii_only) if self.problem else None,
                boxes,
                HINT_ROWS if self.screen.has_class("roomy") else 0,
            )
        )
        if view is not None and view.seat is not None:
            title = _("your hand · {points} pts").format(points=view.scores[view.seat])
            self.border_title = title.replace("·", "-" if ascii_only else "·")

    def card_at(self, x: int, y: int) -> int | None:
        """The index of the card drawn at content cell (``x``, ``y``), if any."""
        for index, place in enumerate(self.places):
            if place.holds(x, y):
                return index
        return None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = self.card_at(offset.x, offset.y)
        if index is not None:
            event.stop()
            self.post_message(self.CardClicked(index))
