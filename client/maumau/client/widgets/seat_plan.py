"""Who sits where at a new table: one cell per seat, set by keys or clicks."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from ..i18n import N_, _, pgettext

SEAT_CHOICES = ("open", "easy", "normal", "hard")  # a free seat, or a bot of that level


def choice_name(choice: str) -> str:
    """A seat's choice in words: ``you``, ``open`` or a bot's level."""
    names = {
        "you": pgettext("seat plan", "you"),
        "open": pgettext("seat plan", "open"),
        "easy": pgettext("bot level", "easy"),
        "normal": pgettext("bot level", "normal"),
        "hard": pgettext("bot level", "hard"),
    }
    return names.get(choice, choice)


class SeatPlan(Widget, can_focus=True):
    """Who sits where at a new table: seat 1 is the creator's ("you"); every other seat
    is "open" (free for a person) or a bot "easy", "normal" or "hard".

    Left/Right pick a seat, Space (or Up/Down) cycles its choice, and o, e, n, h set it
    directly. The picked seat is bracketed (``[3 hard  ]``) as well as highlighted.
    A click on a seat picks it; on the picked seat, changes it (as Space).
    Choices are kept for all ten seats, so shrinking the table and growing it again
    loses nothing; :meth:`bots` gives what ``create_table`` needs for the seats shown.
    """

    BINDINGS = [
        Binding("left", "move(-1)", N_("seat"), key_display="←→"),
        Binding("right", "move(1)", N_("seat"), show=False),
        Binding("space", "cycle(1)", N_("change")),
        Binding("up", "cycle(-1)", N_("change"), show=False),
        Binding("down", "cycle(1)", N_("change"), show=False),
        Binding("o", "set('open')", N_("open"), show=False),
        Binding("e", "set('easy')", N_("easy"), show=False),
        Binding("n", "set('normal')", N_("normal"), show=False),
        Binding("h", "set('hard')", N_("hard"), show=False),
    ]
    CELL = 12  # "[10 normal] " and a space

    seats: reactive[int] = reactive(4, layout=True)
    cursor: reactive[int] = reactive(1)

    def __init__(self, choices: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # The old dialog's default: two bots in the last two of four seats.
        self.choices = choices or ["you", "open", *["normal"] * 8]

    def bots(self) -> tuple[tuple[int, ...], tuple[str, ...]]:
        """The bot seats (0-based) among the seats shown, and their levels."""
        seats = [i for i in range(1, self.seats) if self.choices[i] != "open"]
        return tuple(seats), tuple(self.choices[i] for i in seats)

    def validate_cursor(self, cursor: int) -> int:
        return max(1, min(self.seats - 1, cursor))

    def watch_seats(self) -> None:
        self.cursor = self.cursor  # back into range

    def action_move(self, step: int) -> None:
        self.cursor = (self.cursor - 1 + step) % (self.seats - 1) + 1

    def action_cycle(self, step: int) -> None:
        now = SEAT_CHOICES.index(self.choices[self.cursor])
        self.action_set(SEAT_CHOICES[(now + step) % len(SEAT_CHOICES)])

    def action_set(self, choice: str) -> None:
        self.choices[self.cursor] = choice
        self.refresh()

    def seat_at(self, x: int, y: int) -> int | None:
        """The seat drawn at content cell (``x``, ``y``): its cells are on the lines
        between the first (the words above them) and the last (the hint)."""
        per_row = max(1, (self.size.width or 72) // self.CELL)
        if y < 1 or x < 0 or x // self.CELL >= per_row:
            return None
        seat = (y - 1) * per_row + x // self.CELL
        return seat if seat < self.seats else None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        seat = None if offset is None else self.seat_at(offset.x, offset.y)
        if seat is None or seat == 0:
            return  # not a seat, or the creator's own
        if seat == self.shown:
            self.action_cycle(1)
        else:
            self.cursor = seat
            self.focus()
            self.refresh()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        per_row = max(1, width // self.CELL)
        return 2 + -(-self.seats // per_row)

    shown: int | None = None  # the seat drawn as picked (none without the focus)

    def render(self) -> Text:
        width = self.size.width or 72
        self.shown = self.cursor if self.has_focus else None
        per_row = max(1, width // self.CELL)
        text = Text(_("Who sits where: "), style="bold")
        text.append(_("open = free for a player; easy, normal, hard = a bot") + "\n", style="dim")
        for i in range(self.seats):
            if i and i % per_row == 0:
                text.append("\n")
            picked = i == self.cursor and self.has_focus
            left, right = ("[", "]") if picked else (" ", " ")
            choice = self.choices[i]
            style = "bold" if choice == "you" else ("dim" if choice == "open" else "")
            text.append(left)
            shown = f"{i + 1:>2} {choice_name(choice):<6}"
            text.append(shown, style=style + (" reverse" if picked else ""))
            text.append(right + " ")
        text.append("\n")
        hint = _("Left/Right: seat, Space: change") if self.has_focus else _("Tab here to change")
        text.append(hint, style="italic dim")
        return text

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
