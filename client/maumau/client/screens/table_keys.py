"""Which table keys mean something now, and why a card cannot be played.

Pure functions of the view model, asked by the table screen: its footer shows only
the keys :func:`key_means_something` allows (Textual's ``check_action``), and a card
that does not fit is explained by :func:`why_not` instead of being sent. The server
decides in the end; these only keep the footer honest and the player informed.
"""

from __future__ import annotations

from ..model import Model, label

# Table keys that do nothing while the table is paused (the server cannot save).
PAUSED_KEYS = frozenset(
    {"play", "draw", "take", "keep", "challenge", "mau", "maumau", "catch", "rematch", "start"}
)


def key_means_something(model: Model, action: str) -> bool:
    """Whether the table's ``action`` would do anything in the model's position."""
    view = model.view
    if model.paused and action in PAUSED_KEYS:
        return False  # the server refuses them until it can save again
    if action in ("cursor", "pick"):
        return bool(model.hand())
    if action == "play":
        return model.my_turn and bool(model.legal("play"))
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
        return model.holds_jack() and (
            model.owes_call() or model.can_arm() or model.can_upgrade()
        )
    if action == "catch":
        return bool(model.catch_targets())
    if action == "rematch":
        table = model.table
        return table is not None and table.state == "finished" and table.you is not None
    if action == "start":
        table = model.table
        return (
            table is not None
            and table.state in ("waiting",)
            and table.creator == model.name
            and table.you is not None
        )
    return True


def why_not(model: Model, card: str, ascii_only: bool) -> str:
    """Why ``card`` cannot be played now, in words."""
    view = model.view
    if view is None or not model.my_turn:
        return "It is not your turn."
    if view.drawn:
        return "After drawing you may play only the drawn card, or keep it (k)."
    if view.penalty and view.penalty_kind == "seven":
        return f"Only a 7 answers the 7: play a 7 or take {view.penalty} (t)."
    if view.penalty:
        return f"Answer the penalty or take {view.penalty} (t)."
    return f"{label(card, ascii_only)} does not fit on {label(view.top, ascii_only)}."
