"""A log of lines that wraps them to its width (the table's log and chat).

Theory of operation
-------------------
Each entry (one event, one chat line) is a Rich ``Text``. :class:`Hanging` draws
the entries at whatever width it is given: an entry longer than the width wraps,
its following lines indented, so that every entry still reads as one; nothing is
ever cut. Because the entries are kept, not their drawing, a resize wraps them
again at the new width.

:class:`LineLog` is a scrolling container around one :class:`~textual.widgets.Static`
that holds the :class:`Hanging` drawing. Its vertical scrollbar has a gutter of its
own (``scrollbar-gutter: stable`` in the stylesheet), so the bar is never drawn over
text (in ASCII, as every scrollbar is: see :mod:`.ascii_aware`). A new entry
scrolls to the end, unless the player has scrolled back to read: ``following`` is
cleared only by the player's own scrolling (the wheel or the scrollbar) away from the
end, and set again when they reach it. (Judging by the position alone failed: lines
written while a dialog covered the table could leave the log short of its end, and it
then never followed again.)
It keeps at most ``max_lines`` entries, the oldest going first.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

INDENT = 2  # columns the continuation lines of a wrapped entry are indented by


class Hanging:
    """Entries wrapped to the width they are drawn at, continuation lines indented."""

    def __init__(self, entries: Iterable[Text], indent: int = INDENT) -> None:
        self.entries = list(entries)
        self.indent = indent

    def lines(self, console: Console, width: int) -> list[Text]:
        """The lines the entries take at ``width`` columns, none longer than it."""
        indent = self.indent if width > 2 * self.indent + 8 else 0
        out: list[Text] = []
        for entry in self.entries:
            if entry.cell_len <= width:
                out.append(entry)
                continue
            wrapped = entry.wrap(console, width - indent, overflow="fold")
            for i, line in enumerate(wrapped):
                line.rstrip()
                out.append(Text(" " * indent) + line if i else line)
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = self.lines(console, max(1, options.max_width))
        text = Text("\n").join(lines)
        text.no_wrap = True
        text.overflow = "crop"
        yield text


class LineLog(VerticalScroll, can_focus=False):
    """A scrolling list of entries that wraps them (see the module's docstring)."""

    def __init__(self, max_lines: int = 300, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.entries: deque[Text] = deque(maxlen=max_lines)
        self.following = True

    def compose(self) -> ComposeResult:
        yield Static(classes="line-log-lines")

    def clear(self) -> None:
        self.entries.clear()
        self._redraw(follow=True)

    def write(self, entry: Text) -> None:
        """Add one entry at the end."""
        self.extend([entry])

    def extend(self, entries: Iterable[Text]) -> None:
        """Add entries at the end, following them unless the player scrolled back."""
        follow = self.following or self.scroll_offset.y >= self.max_scroll_y
        self.entries.extend(entries)
        self._redraw(follow)

    @property
    def plain(self) -> str:
        """Every entry, one a line, as plain text (for tests and tools)."""
        return "\n".join(entry.plain for entry in self.entries)

    def _redraw(self, follow: bool) -> None:
        if not self.is_mounted:
            return
        self.query_one(".line-log-lines", Static).update(Hanging(self.entries))
        if follow:
            self.following = True
            self.call_after_refresh(self.scroll_end, animate=False)

    def on_mouse_scroll_up(self) -> None:
        self.following = False  # the player scrolls back to read

    def on_mouse_scroll_down(self) -> None:
        self.call_after_refresh(self._check_end)

    def on_scroll_up(self) -> None:  # a click on the scrollbar above its thumb
        self.following = False

    def on_scroll_down(self) -> None:
        self.call_after_refresh(self._check_end)

    def on_scroll_to(self) -> None:  # the scrollbar's thumb dragged
        self.call_after_refresh(self._check_end)

    def _check_end(self) -> None:
        self.following = self.scroll_offset.y >= self.max_scroll_y

    def on_mount(self) -> None:
        self._redraw(follow=True)
