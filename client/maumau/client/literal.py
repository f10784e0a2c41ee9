"""Text from elsewhere, shown as written: never markup, never a terminal escape.

Theory of operation
-------------------
Much of what the client shows was written by someone else: table, player, seat and
spectator names, chat, the server's event texts, Mau decisions and refusals, goodbye
reasons, the records and replays, a table's settings, and what the player typed
(echoed back in a refusal). Any of it may hold whatever the wire schema allows, and
two things go wrong when such text reaches the screen as it is:

* Textual reads a plain ``str`` given to a widget (``Static``, ``DataTable`` cells,
  ``notify``, an exit message) as markup: ``[/]`` raises ``MarkupError`` and ends the
  client, ``[@click=app.quit]x[/]`` becomes a link that quits it, ``[reverse blink]``
  styles it. A :class:`rich.text.Text` is never parsed, so widgets get such text only
  as ``Text`` (:func:`literal`), and toasts go out with ``markup=False``
  (``MauMauApp.notify``).
* Control characters go to the terminal as they are: ``ESC [2J`` clears it, an OSC
  string sets its title, U+202E turns the rest of the line around. :func:`clean`
  removes escape sequences whole (CSI, OSC and the other strings, in their 7-bit and
  8-bit forms, an unfinished one up to the end of the text), turns line breaks and
  tabs into spaces (each such text is one line where it is shown), and drops every
  other C0 and C1 control character, DEL, and the bidi controls.

Two places use this module, so that no screen has to take care of it call by call:

* The link cleans every message as it arrives (:func:`clean_message`, called by
  :class:`~maumau.client.net.ServerLink`): the view model, and all the drawing built
  from it, hold only clean strings. Only the session credentials of ``welcome`` stay
  as they came; they are never shown and go back to the server byte for byte.
* Every widget that shows text the client did not write itself gets it through
  :func:`literal`, which also cleans (cleaning twice changes nothing): that covers
  text made on this side from outside words, such as an operating system's error
  message or the address the player typed.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from typing import Any, TypeVar

from rich.cells import cell_len
from rich.style import StyleType
from rich.text import Text

from maumau.protocol.messages import Message, Welcome

_ESCAPES = re.compile(
    r"""
      (?:\x1b\[|\x9b) [0-?]* [\x20-/]* [@-~]?                   # CSI: colours, cursor, clear
    | (?:\x1b[\]P^_X]|[\x9d\x90\x9e\x9f\x98])                    # OSC, DCS, PM, APC, SOS
      [^\x07\x1b\x9c]* (?:\x07|\x1b\\|\x9c)?                     # ... up to BEL or ST
    | \x1b [\x20-/]* [0-~]?                                      # any other escape
    """,
    re.VERBOSE,
)
_BREAKS = re.compile("[\t\n\v\f\r\x1c-\x1f\x85\u2028\u2029]")
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

# Message fields that are not text to show: opaque tokens sent back as they came.
_OPAQUE = {(Welcome, "session"), (Welcome, "resume")}

M = TypeVar("M", bound=Message)


def clean(text: str) -> str:
    """``text`` without escape sequences, control characters or bidi controls, on one
    line. Text that holds none of them comes back as it is."""
    if text.isprintable():  # nearly always: no control, format or separator character
        return text
    text = _ESCAPES.sub("", text)
    text = _BREAKS.sub(" ", text)
    return _CONTROLS.sub("", text)


def literal(text: object, style: StyleType = "", *, lines: bool = False) -> Text:
    """``text`` for a widget, shown exactly as written (after :func:`clean`): a Rich
    ``Text``, which no widget reads as markup. With ``lines`` its line breaks stay."""
    rows = str(text).split("\n") if lines else [str(text)]
    return Text("\n".join(map(clean, rows)), style=style)


def clean_message(message: M) -> M:
    """``message`` with every string in it cleaned (nested ones too; a map's keys stay),
    but for the opaque tokens of ``welcome``."""
    changes: dict[str, Any] = {}
    for field in dataclasses.fields(message):
        if (type(message), field.name) in _OPAQUE:
            continue
        value = getattr(message, field.name)
        cleaned = _clean_value(value)
        if cleaned != value:
            changes[field.name] = cleaned
    return dataclasses.replace(message, **changes) if changes else message


def _clean_value(value: Any) -> Any:
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, tuple):
        return tuple(_clean_value(item) for item in value)
    if isinstance(value, dict):
        return {key: _clean_value(item) for key, item in value.items()}
    return value


# --- plain ASCII for a terminal that shows nothing else ----------------------------------

# Symbols this client and its players use most, each as one ASCII character of the
# same width.
_SYMBOLS = {
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "♣": "C",
    "♤": "S",
    "♡": "H",
    "♢": "D",
    "♧": "C",
    "▶": ">",
    "◀": "<",
    "▲": "^",
    "▼": "v",
    "→": ">",
    "←": "<",
    "↑": "^",
    "↓": "v",
    "↻": ">",
    "↺": "<",
    "·": "-",
    "•": "*",
    "…": "~",
    "✓": "+",
    "✔": "+",
    "–": "-",
    "—": "-",
    "‘": "'",
    "’": "'",
    "‚": ",",
    "“": '"',
    "”": '"',
    "„": '"',
    "«": '"',
    "»": '"',
    "ß": "s",
    "æ": "a",
    "Æ": "A",
    "ø": "o",
    "Ø": "O",
    "œ": "o",
    "Œ": "O",
    "đ": "d",
    "Đ": "D",
    "ł": "l",
    "Ł": "L",
    "ı": "i",
    "þ": "t",
    "Þ": "T",
    "ð": "d",
    "Ð": "D",
    "\u00a0": " ",
}


class _Folding(dict[int, str]):
    """``str.translate`` table of :func:`ascii_fold`, filled as characters come."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        folded = _fold_char(char)
        self[code] = folded
        return folded


def _fold_char(char: str) -> str:
    if char.isascii():
        return char
    width = cell_len(char)
    if width <= 0:
        return ""  # a combining mark or a joiner: its letter is folded already
    if char in _SYMBOLS:
        return _SYMBOLS[char][:width].ljust(width, "?")
    name = unicodedata.name(char, "")
    if name.startswith("BOX DRAWINGS"):
        guess = "-" if "HORIZONTAL" in name else "|" if "VERTICAL" in name else "+"
    elif "BLOCK" in name or name.startswith("SHADE") or "SHADE" in name:
        guess = "#"
    else:
        guess = "".join(c for c in unicodedata.normalize("NFKD", char) if c.isascii())
        guess = "".join(c for c in guess if c.isprintable())
    return (guess or "?")[:width].ljust(width, "?")


_FOLDING = _Folding()


def ascii_fold(text: str) -> str:
    """``text`` as a terminal without UTF-8 can show it: every character that is not
    ASCII becomes ASCII of the same width on the screen (``ä`` ``a``, ``ß`` ``s``,
    ``♥`` ``H``, a box-drawing line ``-`` or ``|``, a wide character ``??``, anything
    else ``?``), so that nothing is garbled and nothing moves. ASCII comes back as it
    is; so do escape sequences, which are ASCII."""
    if text.isascii():
        return text
    return text.translate(_FOLDING)
