"""What the player may do now at the table, and the line of hints that says it.

Theory of operation
-------------------
The server is the only authority on the rules: every ``view`` lists the actions
legal for the player now. :class:`Moves` reads them from the table part's latest
view (:class:`~maumau.client.model_table.TablePart`) and answers what the keys and
the screens ask: the hand sorted, which cards fit, whether a card needs a suit or a
colour named, whom the player may catch, whether a Mau call is owed or may ride on
the next play. It keeps nothing of its own, so it never disagrees with the view,
and the client never re-implements the rules.

The line of hints under the hand (:meth:`Moves.hint`) says the same in words, with
each key, from the same legal actions the keys go by: it never offers a key that
would do nothing. Cards are named here as a person reads them (:func:`label`), in
the player's language.
"""

from __future__ import annotations

from typing import Any

from maumau.protocol.cards import CARD_BY_CODE, RANK_OF, SUIT_OF
from maumau.protocol.sentences import card_text, suit_text

from .i18n import _, ngettext, pgettext
from .model_table import TablePart


def card_sort_key(code: str) -> tuple[int, int]:
    card = CARD_BY_CODE[code]
    suit = SUIT_OF[card]
    return (suit if suit >= 0 else 9, RANK_OF[card])


def label(code: str, ascii_only: bool) -> str:
    """A card as a person reads it: ``7♥`` (``7H`` in ASCII), ``GSkip``, ``W+4``; the
    rank letters and card words in the player's language."""
    return card_text(code, ascii_only)


def suit_words(letter: str, ascii_only: bool) -> str:
    """A named suit (``♥ hearts``) or colour (``green``) in the player's language."""
    return suit_text(letter, ascii_only)


class Moves:
    """The player's moves now, read from ``table``'s latest view."""

    def __init__(self, table: TablePart) -> None:
        self.table = table

    def hand(self) -> list[str]:
        """My cards, sorted by suit then rank."""
        view = self.table.view
        if view is None or view.hand is None:
            return []
        return sorted(view.hand, key=card_sort_key)

    def legal(self, kind: str) -> list[dict[str, Any]]:
        view = self.table.view
        if view is None:
            return []
        return [a for a in view.legal if a["kind"] == kind]

    def playable(self) -> set[str]:
        return {a["card"] for a in self.legal("play")}

    def needs_name(self, code: str) -> bool:
        return any(a.get("named") for a in self.legal("play") if a["card"] == code)

    def names_for(self, code: str) -> list[str]:
        return [a["named"] for a in self.legal("play") if a["card"] == code and a.get("named")]

    def catch_targets(self) -> list[int]:
        return [a["target"] for a in self.legal("catch")]

    def owes_call(self) -> bool:
        """I played my second-to-last card and have said nothing yet."""
        v = self.table.view
        if v is None or v.seat is None or not self.legal("say_mau"):
            return False
        return any(
            w["seat"] == v.seat and not w["final"] and w["called"] is None for w in v.windows
        )

    def can_upgrade(self) -> bool:
        """I said "Mau" but keep a Jack: "Mau Mau" still protects me."""
        hand = self.hand()
        return (
            self.table.is_classic()
            and not self.owes_call()
            and any(a["call"] == "maumau" for a in self.legal("say_mau"))
            and len(hand) == 1
            and hand[0].startswith("J")
        )

    def holds_jack(self) -> bool:
        return self.table.is_classic() and any(c.startswith("J") for c in self.hand())

    def can_arm(self) -> bool:
        """A call can ride on my next play: I hold two cards and it is my turn."""
        return self.table.my_turn and len(self.hand()) == 2 and bool(self.legal("play"))

    # --- the line of hints -------------------------------------------------------------

    def hint(self, armed: str | None, ascii_only: bool, offline: bool) -> str:
        """The line under my hand: what I can (or must) do now, with its key. It goes
        by the view's legal actions, as the keys do, so it never offers a key that
        would do nothing (a pending Wild Draw Four is taken with t or challenged with
        x, never drawn with d). ``offline``: the connection is down, so nothing is
        offered."""
        if self.table.view is None:
            return ""
        if offline:
            return _("the connection is down: moves wait until it is back")
        parts = []
        if armed == "maumau":
            parts.append(_('"Mau Mau" armed for your next play'))
        elif armed:
            parts.append(_('"Mau" armed for your next play'))
        if self.owes_call():
            parts.append(_('say "Mau" now (m)'))
        if self.catch_targets():
            names = self.table.names()
            # NOTE: joins the names of the players one may catch.
            who = pgettext("list separator", ", ").join(names[t] for t in self.catch_targets())
            parts.append(_("catch {names} (c)").format(names=who))
        if self.table.my_turn:
            parts.extend(self._turn_hint(ascii_only))
        return "  -  ".join(parts) if ascii_only else "  ·  ".join(parts)

    def _turn_hint(self, ascii_only: bool) -> list[str]:
        view = self.table.view
        assert view is not None
        legal = sorted(self.playable(), key=card_sort_key)
        answers = pgettext("list separator", ", ").join(label(c, ascii_only) for c in legal)
        n = view.penalty
        if n:
            if view.penalty_kind == "seven" and legal:
                text = ngettext(
                    "only a 7 can answer ({cards}); t takes {n}",
                    "only a 7 can answer ({cards}); t takes {n}",
                    n,
                )
            elif view.penalty_kind == "seven":
                text = ngettext(
                    "only a 7 can answer (no 7); t takes {n}",
                    "only a 7 can answer (no 7); t takes {n}",
                    n,
                )
            elif view.penalty_kind == "draw_two" and legal:
                text = ngettext(
                    "only a Draw Two can answer ({cards}); t takes {n}",
                    "only a Draw Two can answer ({cards}); t takes {n}",
                    n,
                )
            elif self.legal("challenge"):
                text = ngettext(
                    "t takes {n}, x challenges the Wild Draw Four",
                    "t takes {n}, x challenges the Wild Draw Four",
                    n,
                )
            else:
                text = ngettext("t takes {n}", "t takes {n}", n)
            return [text.format(n=n, cards=answers)]
        if view.drawn:
            return [_("play the drawn card or keep it (k)")]
        if not legal and self.legal("draw"):
            return [_("no card fits: draw (d)")]
        if legal:
            return [self.fits_hint(ascii_only)]
        return []

    def fits_hint(self, ascii_only: bool) -> str:
        """Why the marked cards are the ones that fit, in words: the legend of the
        mark under them."""
        view = self.table.view
        assert view is not None
        mark = "+" if ascii_only else "✓"
        top = label(view.top, ascii_only)
        if self.table.is_classic():
            if view.named:
                text = _("{mark} fits: a {suit} card (the Jack's wish), or a Jack")
            else:
                text = _("{mark} fits: the suit or rank of {top}, or a Jack")
        elif view.named:
            text = _("{mark} fits: a {suit} card (the wild's colour), or a Wild")
        else:
            text = _("{mark} fits: the colour, number or symbol of {top}, or a Wild")
        suit = suit_words(view.named, ascii_only) if view.named else ""
        return text.format(mark=mark, top=top, suit=suit)
