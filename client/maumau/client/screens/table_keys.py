"""Which table keys mean something now, why one does not, and why a card cannot be
played.

Pure functions of the view model, asked by the table screen: its footer shows only
the keys :func:`key_means_something` allows (Textual's ``check_action``); a key that
does nothing now is explained next to the hand by :func:`why_key` ("you have 5
cards: Mau is for your last but one"), and a card that does not fit by
:func:`why_not`, instead of being sent. The server decides in the end; these only
keep the footer honest and the player informed.

While the connection is down (``model.offline``) or the table is paused (the server
cannot save), no move is offered: the table is frozen until the server speaks again.
"""

from __future__ import annotations

from ..i18n import _, ngettext, pgettext
from ..model import Model
from ..model_moves import label

# Table keys that do nothing while the table is paused or the connection is down.
PAUSED_KEYS = frozenset(
    {
        "play",
        "draw",
        "take",
        "keep",
        "challenge",
        "mau",
        "maumau",
        "catch",
        "rematch",
        "start",
        "cursor",
    }
)

# The key each explained action is bound to, as the player typed it.
KEYS = {
    "play": "Enter",
    "draw": "d",
    "take": "t",
    "keep": "k",
    "challenge": "x",
    "mau": "m",
    "maumau": "M",
    "catch": "c",
    "start": "s",
    "rematch": "r",
}


def key_means_something(model: Model, action: str) -> bool:
    """Whether the table's ``action`` would do anything in the model's position."""
    view = model.view
    if (model.paused or model.offline) and action in PAUSED_KEYS:
        return False  # the server cannot hear them (or refuses them) until it is back
    if action == "cursor":  # the arrows, in the footer: only when a choice is to be made
        return model.my_turn and len(model.hand()) > 1 and bool(model.legal("play"))
    if action == "pick":  # the digits: never in the footer, so they may always pick
        return bool(model.hand())
    if action == "play":
        return model.my_turn and bool(model.legal("play"))
    if action == "ready":  # Enter in the waiting room
        table = model.table
        return table is not None and table.state == "waiting" and table.you is not None
    if action == "draw":
        return model.my_turn and bool(model.legal("draw")) and not (view and view.penalty)
    if action == "take":
        return model.my_turn and bool(model.legal("draw")) and bool(view and view.penalty)
    if action == "keep":
        return bool(model.legal("pass"))
    if action == "challenge":
        return bool(model.legal("challenge"))
    if action == "mau":
        return model.owes_call() or model.can_arm()
    if action == "maumau":
        return model.holds_jack() and (model.owes_call() or model.can_arm() or model.can_upgrade())
    if action == "catch":
        return bool(model.catch_targets())
    if action == "rematch":
        table = model.table
        return (
            table is not None
            and table.state == "finished"
            and table.you is not None
            and table.tournament is None
            and not model.i_asked_for_rematch()
        )
    if action == "start":
        table = model.table
        return (
            table is not None
            and table.state in ("waiting",)
            and table.creator == model.name
            and table.you is not None
        )
    return True


def why_key(model: Model, action: str) -> str | None:
    """Why the key of ``action`` does nothing now, in words for under the hand; None
    for keys that need no excuse (the arrows and digits off turn, help, chat)."""
    if action not in KEYS:
        return None
    if model.offline:
        return _("Not connected: moves wait until the connection is back.")
    if model.paused:
        return _("The table is paused (the server cannot save): moves wait until it can.")
    table, view = model.table, model.view
    if action == "start":
        if table is None or table.you is None:
            return _("You are watching: only a player at the table starts the match.")
        if table.state != "waiting":
            return _("The match has started already.")
        if table.creator:
            text = _("Only {name}, who made the table, starts the match.")
            return text.format(name=table.creator)
        return _("Only the creator, who made the table, starts the match.")
    if action == "rematch":
        if model.at_tournament_table:
            return _("A tournament's table has no rematch: the next series seats you.")
        if model.i_asked_for_rematch():
            return _(
                "You asked for a rematch: it starts once everyone agrees, or in {n} s."
            ).format(n=int(model.rematch_seconds() or 0))
        return _("A rematch is asked for once the match is over.")
    if view is None:
        return _("The match has not started yet.")
    if view.seat is None:
        return _("You are watching: no moves.")
    if action == "catch":
        return _("Nobody to catch: c catches a player who forgot to say Mau.")
    if action in ("mau", "maumau"):
        return _why_not_mau(model, action)
    if view.phase != "playing":
        return _("The round is over.")
    if not model.my_turn:
        return _("It is not your turn.")
    if action == "challenge":
        if view.penalty_kind == "wild_draw_four":
            return _("This table does not allow challenging a Wild Draw Four.")
        return _("Nothing to challenge: x answers a Wild Draw Four played on you.")
    if action == "keep":
        return _("k keeps a card you have just drawn; you have drawn none.")
    if action == "take":
        return _("No penalty to take: d draws a card.")
    if action == "draw":
        if view.penalty:
            text = ngettext(
                "Take the penalty with t ({n} card), not d.",
                "Take the penalty with t ({n} cards), not d.",
                view.penalty,
            )
            return text.format(n=view.penalty)
        if view.drawn:
            return _("You have drawn already: play the drawn card or keep it (k).")
        return _("You cannot draw now.")
    if action == "play":
        return _("No card of yours can be played now.")
    return None


def _why_not_mau(model: Model, action: str) -> str:
    word = pgettext("call", "Mau Mau") if action == "maumau" else pgettext("call", "Mau")
    if action == "maumau" and not model.is_classic():
        return _('American Mau-Mau has no "Mau Mau": m says "Mau".')
    count = len(model.hand())
    if action == "maumau" and not model.holds_jack():
        return _("Mau Mau is for a Jack kept as your last card; you hold no Jack.")
    if count > 2:
        text = ngettext(
            "You have {count} card: {call} is for your last but one.",
            "You have {count} cards: {call} is for your last but one.",
            count,
        )
        return text.format(count=count, call=word)
    if count == 2 and not model.my_turn:
        return _("{call} rides on your next play: press it on your turn.").format(call=word)
    if count == 2:
        return _("No card fits: {call} rides on a card you play.").format(call=word)
    return _("Nothing to call now: {call} is said when you play your last but one.").format(
        call=word
    )


def why_not(model: Model, card: str, ascii_only: bool) -> str:
    """Why ``card`` cannot be played now, in words."""
    view = model.view
    if view is None or not model.my_turn:
        return _("It is not your turn.")
    if view.drawn:
        return _("After drawing you may play only the drawn card, or keep it (k).")
    if view.penalty and view.penalty_kind == "seven":
        return _("Only a 7 answers the 7: play a 7 or take {n} (t).").format(n=view.penalty)
    if view.penalty and view.penalty_kind == "wild_draw_four":
        if model.legal("challenge"):
            text = _("Nothing answers a Wild Draw Four: take {n} (t), or challenge it (x).")
        else:
            text = _("Nothing answers a Wild Draw Four: take {n} (t).")
        return text.format(n=view.penalty)
    if view.penalty:
        return _("Answer the penalty or take {n} (t).").format(n=view.penalty)
    return _("{card} does not fit on {top}.").format(
        card=label(card, ascii_only), top=label(view.top, ascii_only)
    )
