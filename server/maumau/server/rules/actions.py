"""Actions: the small immutable values that move a match forward.

Player actions carry the seat that takes them, so ``apply(state, action)`` needs
nothing else. :func:`~maumau.server.rules.engine.legal_actions` lists the player
actions a seat may take now; a play may additionally carry a Mau call (the client's
"armed" call), which is not listed separately.

System actions carry what only the server knows, because they depend on time:

- :class:`EndCallWindow`: ``mau_window_ms`` have passed since the play that opened
  this window. The window then closes as soon as the next player has acted (at once
  if they already have; a window after a player's last card needs no next action).
  At a table without ``mau_window_minimum`` a second-to-last card's window does not
  wait for it: it closes when the next player acts.
- :class:`TurnTimeout`: the turn timer of the seat on turn ran out; the engine takes
  the penalty or draws and passes for it.
- :class:`NextRound`: the server is ready to deal the next round.

The order in which the server applies :class:`SayMau` and :class:`Catch` is the order
its clock (and lag compensation) decided; the engine applies them by the rules, the
first to arrive winning.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final, Literal, TypeAlias

from maumau.protocol.cards import CARD_COUNT, CODE_OF, NO_SUIT

Call = Literal["mau", "maumau"]
CALLS: Final[tuple[Call, ...]] = ("mau", "maumau")


def counted_call(call: str, classic: bool) -> Call:
    """What a call counts as, however it came (with a play or by itself): "maumau"
    only in classic; in American every call is "mau"."""
    return "maumau" if call == "maumau" and classic else "mau"


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` from the hand; ``named`` is the suit/colour a Jack or wild names."""

    seat: int
    card: int
    named: int = NO_SUIT
    call: Call | None = None

    def __str__(self) -> str:
        extra = f" naming {self.named}" if self.named != NO_SUIT else ""
        call = f" saying {self.call}" if self.call else ""
        return f"seat {self.seat} plays {CODE_OF[self.card]}{extra}{call}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one card, or take the whole pending penalty."""

    seat: int


@dataclass(frozen=True, slots=True)
class Pass:
    """Keep the card just drawn and end the turn."""

    seat: int


@dataclass(frozen=True, slots=True)
class Challenge:
    """Challenge the Wild Draw Four just played (house rule ``wild_draw_four_challenge``)."""

    seat: int


@dataclass(frozen=True, slots=True)
class SayMau:
    """Say "Mau" (or "Mau Mau") for one's own open call window."""

    seat: int
    call: Call = "mau"


@dataclass(frozen=True, slots=True)
class Catch:
    """Catch ``target`` for not having said Mau (or Mau Mau)."""

    seat: int
    target: int


@dataclass(frozen=True, slots=True)
class EndCallWindow:
    """System: ``mau_window_ms`` have passed since the play that opened ``window``."""

    window: int


@dataclass(frozen=True, slots=True)
class TurnTimeout:
    """System: the turn timer of ``seat`` ran out."""

    seat: int


@dataclass(frozen=True, slots=True)
class NextRound:
    """System: deal the next round after a round has ended."""


PlayerAction: TypeAlias = Play | Draw | Pass | Challenge | SayMau | Catch
SystemAction: TypeAlias = EndCallWindow | TurnTimeout | NextRound
Action: TypeAlias = PlayerAction | SystemAction

MAX_SEATS: Final = 10


def _intern_plays() -> tuple[
    tuple[tuple[Play, ...], ...], tuple[tuple[tuple[Play, ...], ...], ...]
]:
    plain = tuple(
        tuple(Play(seat, card) for card in range(CARD_COUNT)) for seat in range(MAX_SEATS)
    )
    named = tuple(
        tuple(tuple(Play(seat, card, suit) for suit in range(4)) for card in range(CARD_COUNT))
        for seat in range(MAX_SEATS)
    )
    return plain, named


PLAYS, NAMED_PLAYS = _intern_plays()
"""Shared instances: ``PLAYS[seat][card]`` and ``NAMED_PLAYS[seat][card][suit]``.

Actions are values, so sharing instances is safe; it spares the engine from building
new objects each time it lists legal actions.
"""
DRAWS: Final = tuple(Draw(seat) for seat in range(MAX_SEATS))
PASSES: Final = tuple(Pass(seat) for seat in range(MAX_SEATS))
CHALLENGES: Final = tuple(Challenge(seat) for seat in range(MAX_SEATS))

_RECORD_TAGS: Final[dict[str, type[Action]]] = {
    "play": Play,
    "draw": Draw,
    "pass": Pass,
    "challenge": Challenge,
    "say": SayMau,
    "catch": Catch,
    "end_window": EndCallWindow,
    "timeout": TurnTimeout,
    "next_round": NextRound,
}
_TAG_OF: Final[dict[type[Action], str]] = {cls: tag for tag, cls in _RECORD_TAGS.items()}
_FIELD_NAMES: Final[dict[type[Action], tuple[str, ...]]] = {
    cls: tuple(f.name for f in fields(cls)) for cls in _RECORD_TAGS.values()
}


def action_to_record(action: Action) -> list[Any]:
    """A compact, JSON- and msgpack-safe list: the tag, then the fields in order.

    ``Play(2, 17, -1, "mau")`` becomes ``["play", 2, 17, -1, "mau"]``. The journal stores
    actions this way; :func:`action_from_record` reverses it.
    """
    kind = type(action)
    return [_TAG_OF[kind], *(getattr(action, name) for name in _FIELD_NAMES[kind])]


def action_from_record(record: list[Any]) -> Action:
    """The action a record made by :func:`action_to_record` describes.

    Raises ValueError for a record that names no action or has wrong fields."""
    if not isinstance(record, list | tuple) or not record:
        raise ValueError(f"not an action record: {record!r}")
    cls = _RECORD_TAGS.get(record[0]) if isinstance(record[0], str) else None
    if cls is None:
        raise ValueError(f"unknown action tag in {record!r}")
    values = list(record[1:])
    names = _FIELD_NAMES[cls]
    if len(values) != len(names):
        raise ValueError(f"{record[0]} takes {len(names)} fields, not {len(values)}")
    for name, value in zip(names, values, strict=True):
        if name == "call":
            if value not in (None, "mau", "maumau"):
                raise ValueError(f"bad call {value!r}")
        elif not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{name} must be an integer, not {value!r}")
    return cls(*values)
