"""Plain ASCII for a client run with ``--ascii`` (or without a UTF-8 locale).

Two things draw glyphs the stylesheet alone cannot replace:

- **borders**: screens mixing in :class:`AsciiAware` get the ``ascii`` class, and the
  stylesheet draws every border under it (dialogs, input fields) with ``ascii``
  borders instead of box-drawing or half-block characters;
- **secret fields**: a password field hides its characters as ``•``;
  :class:`AsciiInput` hides them as ``*`` under ``--ascii``;
- **scrollbars**: Textual draws the ends of a scrollbar's thumb with eighth blocks
  (``▁▂▃`` and ``▉▊▋``). :class:`AsciiScrollBarRender` is installed once for every
  scrollbar when this module is imported; it asks the app that is drawing whether it
  runs in ASCII and, if so, draws whole cells only (the thumb's ends are rounded
  to a blank cell). Other apps draw exactly as Textual does.
"""

from __future__ import annotations

from typing import Any

from rich.color import Color
from rich.segment import Segments
from rich.text import Text
from textual._context import active_app
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.widgets import Input

from ..host import host_of


def drawing_ascii() -> bool:
    """Whether the app that is drawing now runs with ``--ascii``."""
    try:
        app = active_app.get()
    except LookupError:
        return False
    return bool(getattr(app, "ascii_only", False))


TRACK = Color.parse("#555555")  # Textual's own defaults
THUMB = Color.parse("bright_magenta")


class AsciiScrollBarRender(ScrollBarRender):
    """A scrollbar in whole ASCII cells under ``--ascii``; Textual's own otherwise."""

    @classmethod
    def render_bar(
        cls,
        size: int = 25,
        virtual_size: float = 50,
        window_size: float = 20,
        position: float = 0,
        thickness: int = 1,
        vertical: bool = True,
        back_color: Color = TRACK,
        bar_color: Color = THUMB,
    ) -> Segments:
        arguments: dict[str, Any] = {
            "size": size,
            "virtual_size": virtual_size,
            "window_size": window_size,
            "position": position,
            "thickness": thickness,
            "vertical": vertical,
            "back_color": back_color,
            "bar_color": bar_color,
        }
        if not drawing_ascii():
            return super().render_bar(**arguments)
        segments = super().render_bar(**arguments)
        # An eighth block at an end of the thumb becomes a blank cell.
        plain = []
        for segment in segments.segments:
            text = "".join(c if c.isascii() else " " for c in segment.text)
            plain.append(segment._replace(text=text))
        return Segments(plain, new_lines=segments.new_lines)


ScrollBar.renderer = AsciiScrollBarRender


class AsciiInput(Input):
    """An input field whose hidden characters (``password=True``) are ``*`` under
    ``--ascii`` (Textual draws ``•``, from its private ``_value``, which this
    overrides)."""

    @property
    def _value(self) -> Text:
        if self.password and drawing_ascii():
            return Text("*" * len(self.value), no_wrap=True, overflow="ignore", end="")
        return super()._value


class AsciiAware:
    """Screens that draw plain ASCII borders when the client runs with --ascii (the
    stylesheet keys them on the ``ascii`` class). Mixed in before the Screen class."""

    def on_mount(self) -> None:
        ascii_only = host_of(self.app).ascii_only  # type: ignore[attr-defined]
        self.set_class(bool(ascii_only), "ascii")  # type: ignore[attr-defined]
