"""The footer of keys, in the player's language.

``Binding`` descriptions are class attributes, written once at import, so screens
mark them with :func:`~maumau.client.i18n.N_` and keep the English. This footer
translates each description as it draws the keys, so the footer follows a change of
language like everything else (it is drawn again whenever the bindings change).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from ..i18n import _


class KeyFooter(Footer):
    """Textual's footer, with every key's description translated when drawn."""

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey) and widget.description:
                widget.description = _(widget.description)
            yield widget
