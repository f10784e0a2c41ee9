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
  runs in ASCII and, if so, draws whole cells: ``#`` for the thumb, ``|`` for the
  track. Other apps draw exactly as Textual does.
"""

from __future__ import annotations

from typing import Any

from rich.color import Color
from rich.segment import Segment, Segments
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
        drawn = super().render_bar(**arguments)
        if not drawing_ascii():
            return drawn
        # Whole cells: "#" for the thumb (drawn in colour or reversed), "|" (or "-")
        # for the track, in place of Textual's eighth blocks.
        plain = []
        for segment in drawn.segments:
            style = segment.style
            thumb = style is not None and (style.reverse or style.color is not None)
            glyph = "#" if thumb else ("|" if vertical else "-")
            plain.append(Segment(glyph * len(segment.text), style))
        return Segments(plain, new_lines=drawn.new_lines)


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
