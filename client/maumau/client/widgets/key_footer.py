"""The footer of keys, in the player's language, every key kept in sight.

``Binding`` descriptions are class attributes, written once at import, so screens
mark them with :func:`~maumau.client.i18n.N_` and keep the English. This footer
translates each description as it draws the keys, so the footer follows a change of
language like everything else (it is drawn again whenever the bindings change).

A footer wider than the screen would cut its last keys off (``q`` without its
"leave"): when the keys do not fit, the footer draws them compact (less space
around each), and if even that is too wide, the keys whose meaning needs no word
(Tab for chat, ? for help, the arrows) lose their words first, then the others from
the left, until every key fits; a key is never dropped.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from ..i18n import _

# Keys whose words go first when the footer is too narrow: the key says it.
SELF_EVIDENT = ("tab", "question_mark", "left", "escape")


def footer_width(keys: list[FooterKey], compact: bool) -> int:
    """The cells ``keys`` take in the footer (as Textual's stylesheet pads them)."""
    total = 0
    for key in keys:
        words = cell_len(key.description)
        if compact:
            total += cell_len(key.key_display) + (1 + words if words else 0) + 1
        else:
            total += 2 + cell_len(key.key_display) + (words + 1 if words else 0)
    return total


class KeyFooter(Footer):
    """Textual's footer, with every key's description translated when drawn, and
    every key in sight (see the module docstring)."""

    def compose(self) -> ComposeResult:
        widgets = list(super().compose())
        keys = [w for w in widgets if isinstance(w, FooterKey)]
        for key in keys:
            if key.description:
                key.description = _(key.description)
        width = (self.screen.size.width if self.is_attached else 0) or self.app.size.width or 80
        if footer_width(keys, False) > width:
            self.compact = True
        if self.compact:
            order = [k for k in keys if k.key in SELF_EVIDENT] + [
                k for k in keys if k.key not in SELF_EVIDENT
            ]
            for key in order:
                if footer_width(keys, True) <= width:
                    break
                key.description = ""
        yield from widgets
