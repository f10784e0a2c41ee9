"""What the client shows instead of a screen when the terminal is too small."""

from __future__ import annotations

from textual.widgets import Static

from ..i18n import _

MIN_WIDTH, MIN_HEIGHT = 60, 20  # the smallest terminal every screen is laid out for


def too_small_text(width: int, height: int) -> str:
    """``make the window larger (needs 60x20, now 50x15)``."""
    return _("make the window larger\n(needs {needed}, now {size})").format(
        needed=f"{MIN_WIDTH}x{MIN_HEIGHT}", size=f"{width}x{height}"
    )


def fits(width: int, height: int) -> bool:
    """Whether a terminal of this size shows the client's screens whole."""
    return width >= MIN_WIDTH and height >= MIN_HEIGHT


class TooSmall(Static):
    """Says :func:`too_small_text` in place of the screen it is mounted on: while the
    terminal is below the minimum size, the app mounts it on the current screen and
    gives the screen the ``too-small`` class, under which the stylesheet hides every
    other child (and the app keeps the keys from the screen meanwhile)."""

    def __init__(self, width: int, height: int) -> None:
        super().__init__(too_small_text(width, height))

    def show(self, width: int, height: int) -> None:
        self.update(too_small_text(width, height))
