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

Every key in the footer runs its action when clicked (Textual's footer simulates
the key). A key shown as a pair (``←→``, ``PgUp/PgDn``, ``n/p``) is two keys in one
place: a click on its first half presses the first (left, PgUp, n), on its second
half the second (:class:`PairKey`), so that a mouse or a finger can go both ways.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from ..i18n import _

# Keys whose words go first when the footer is too narrow: the key says it.
SELF_EVIDENT = ("tab", "question_mark", "left", "escape")


# The two keys of a key shown as a pair, by the key of the binding shown.
PAIRS = {
    "left": ("left", "right"),
    "right": ("left", "right"),
    "pageup": ("pageup", "pagedown"),
    "pagedown": ("pageup", "pagedown"),
    "n": ("n", "p"),
}


def is_pair(key: str, key_display: str) -> bool:
    """Whether the footer shows ``key`` as a pair of keys."""
    return key in PAIRS and ("/" in key_display or key_display in ("←→", "<->"))


class PairKey(FooterKey):
    """A footer key shown as a pair: a click on its first half presses the first
    key of the pair, on its second half the second."""

    def key_at(self, x: int) -> str:
        """The key of the pair drawn at cell ``x`` of this footer key."""
        first, second = PAIRS[self.key]
        left = self.get_component_styles("footer-key--key").padding.left
        display = self.key_display
        half = cell_len(display.split("/")[0]) if "/" in display else cell_len(display) // 2
        return first if x < left + max(1, half) else second

    def on_mouse_down(self, event: events.MouseDown) -> None:  # type: ignore[override]
        event.prevent_default()  # (Textual's own presses the shown key only)
        if self._disabled:
            self.app.bell()
        else:
            self.app.simulate_key(self.key_at(event.x))


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
        widgets = [pair(w) if isinstance(w, FooterKey) else w for w in super().compose()]
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


def pair(key: FooterKey) -> FooterKey:
    """``key``, or, if it is shown as a pair, a :class:`PairKey` in its place."""
    if type(key) is not FooterKey or not is_pair(key.key, key.key_display):
        return key
    twin = PairKey(
        key.key,
        key.key_display,
        key.description,
        key.action,
        disabled=key._disabled,
        tooltip=str(key.tooltip or ""),
        classes=" ".join(c for c in key.classes if c != "-disabled"),
    )
    return twin.data_bind(compact=Footer.compact)
