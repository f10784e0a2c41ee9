"""The player's hand, and under it why the last key did nothing."""

from __future__ import annotations

from textual.widgets import Static

from .. import render
from ..host import host_of
from ..i18n import _
from ..model import plain


class Hand(Static):
    """My cards (``#hand``), the picked one raised, the legal ones lit, and a line of
    hints; its border title shows my score.

    A complaint (:meth:`complain`: a card that does not fit, a move the server
    refused) is shown under the cards until the view changes: a new position makes
    the old complaint moot.
    """

    def __init__(self) -> None:
        super().__init__("", id="hand")
        self.problem: str | None = None
        self._problem_view: object = None

    def complain(self, text: str) -> None:
        """Say ``text`` under the hand until the next view (the caller redraws)."""
        self.problem = text
        self._problem_view = host_of(self.app).model.view

    def draw(self, cursor: int, armed: str | None, width: int) -> None:
        host = host_of(self.app)
        model, ascii_only = host.model, host.ascii_only
        view = model.view
        if view is not self._problem_view:
            self.problem = None  # a new position: the old complaint no longer applies
        self.update(
            render.hand(
                model,
                cursor,
                ascii_only,
                armed,
                width,
                plain(self.problem, ascii_only) if self.problem else None,
            )
        )
        if view is not None and view.seat is not None:
            title = _("your hand · {points} pts").format(points=view.scores[view.seat])
            self.border_title = title.replace("·", "-" if ascii_only else "·")
