"""Sentences from the protocol's facts, in the player's language.

Since protocol version 4 the server sends what happened as data beside its English
words: an ``event`` carries its kind's facts (``seat``, ``card``, ``count``...), a
``mau_decision`` its stamps, an ``error`` its ``code`` and ``details``, a
``goodbye`` its ``code``. This module writes each of them as a sentence through the
catalogs (:mod:`maumau.client.i18n`), so a player reads every line in their own
language:

- :func:`event_line` for every event kind (the English reads exactly as the server's
  ``text``, see ``maumau.server.rules.events.describe``);
- :func:`decision_line` for a call window's decision (as the server's
  ``decision_text``);
- :func:`error_line` for every error code of docs/protocol.md;
- :func:`goodbye_line` for the server's goodbye.

Whole sentences are messages, with named placeholders (word order differs between
languages), and every count goes through ``ngettext``; sentences are never glued
together from translated pieces. An unknown kind or code, or facts missing (an
older server), falls back to the server's own English words. In English, errors and
goodbyes are the server's own words (they may say more than the code and details).

Cards are named here too (:func:`card_text`, :func:`suit_text`): the ranks' letters,
suit and colour names and the American cards' words come from the catalogs
(``pgettext``), the suit symbols stay symbols.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from maumau.protocol.cards import (
    CARD_BY_CODE,
    COLOUR_CODES,
    RANK_OF,
    SUIT_CODES,
    SUIT_OF,
    SUIT_SYMBOLS,
    SYMBOL_DRAW_TWO,
    SYMBOL_REVERSE,
    SYMBOL_SKIP,
    WILD,
    WILD_DRAW_FOUR,
    is_classic,
)
from maumau.protocol.messages import PROTOCOL_VERSION

from .i18n import N_, _, language, ngettext, pgettext

Facts = Mapping[str, Any]


# --- cards ---------------------------------------------------------------------------


def _rank(rank: int) -> str:
    ranks = (
        "7",
        "8",
        "9",
        "10",
        pgettext("card rank (Jack)", "J"),
        pgettext("card rank (Queen)", "Q"),
        pgettext("card rank (King)", "K"),
        pgettext("card rank (Ace)", "A"),
    )
    return ranks[rank]


def ascii_table() -> dict[int, str]:
    """``str.translate`` table that writes a line for an ASCII terminal: each suit
    symbol becomes the current language's suit letter (as on the cards in the hand),
    arrows and dots their ASCII look-alikes."""
    table = {ord(symbol): _suit_letter(suit) for suit, symbol in enumerate(SUIT_SYMBOLS)}
    table.update({ord("↻"): "->", ord("↺"): "<-", ord("▶"): ">", ord("·"): "-"})
    return table


def _suit_letter(suit: int) -> str:
    letters = (
        pgettext("suit letter (spades)", "S"),
        pgettext("suit letter (hearts)", "H"),
        pgettext("suit letter (diamonds)", "D"),
        pgettext("suit letter (clubs)", "C"),
    )
    return letters[suit]


def _colour_letter(colour: int) -> str:
    letters = (
        pgettext("colour letter (red)", "R"),
        pgettext("colour letter (yellow)", "Y"),
        pgettext("colour letter (green)", "G"),
        pgettext("colour letter (blue)", "B"),
    )
    return letters[colour]


def suit_name(suit: int) -> str:
    """A suit's name in words: ``hearts``."""
    names = (
        pgettext("suit", "spades"),
        pgettext("suit", "hearts"),
        pgettext("suit", "diamonds"),
        pgettext("suit", "clubs"),
    )
    return names[suit]


def colour_name(colour: int) -> str:
    """An American colour's name in words: ``green``."""
    names = (
        pgettext("colour", "red"),
        pgettext("colour", "yellow"),
        pgettext("colour", "green"),
        pgettext("colour", "blue"),
    )
    return names[colour]


def card_text(code: str, ascii_only: bool = False) -> str:
    """A card as a person reads it: ``7♥`` (``7H`` in ASCII), ``GSkip``, ``W+4``; the
    rank letters and the American words from the catalogs (German: ``B♥`` for the
    Jack of hearts)."""
    card = CARD_BY_CODE[code]
    if card == WILD:
        return pgettext("card", "Wild")
    if card == WILD_DRAW_FOUR:
        return pgettext("card", "W+4")
    suit, rank = SUIT_OF[card], RANK_OF[card]
    if is_classic(card):
        return _rank(rank) + (_suit_letter(suit) if ascii_only else SUIT_SYMBOLS[suit])
    if rank == SYMBOL_SKIP:
        symbol = pgettext("card", "Skip")
    elif rank == SYMBOL_REVERSE:
        symbol = pgettext("card", "Rev")
    elif rank == SYMBOL_DRAW_TWO:
        symbol = "+2"
    else:
        symbol = str(rank)
    return _colour_letter(suit) + symbol


def suit_text(letter: str, ascii_only: bool = False) -> str:
    """A named suit (``♥ hearts``, ``hearts`` in ASCII) or colour (``green``), from
    its letter as in ``play.named``."""
    if letter in SUIT_CODES:
        suit = SUIT_CODES.index(letter)
        return suit_name(suit) if ascii_only else f"{SUIT_SYMBOLS[suit]} {suit_name(suit)}"
    return colour_name(COLOUR_CODES.index(letter))


def seat_name(names: Sequence[str], seat: int) -> str:
    """``names[seat]``, or ``Seat 3`` for a seat without a name."""
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return _("Seat {number}").format(number=seat + 1)


def _call_quoted(call: str) -> str:
    # NOTE: the call as said aloud, with the language's quotation marks.
    return (
        pgettext("call, quoted", '"Mau Mau"')
        if call == "maumau"
        else pgettext("call, quoted", '"Mau"')
    )


def _call_word(maumau: bool) -> str:
    return pgettext("call", "Mau Mau") if maumau else pgettext("call", "Mau")


# --- events --------------------------------------------------------------------------


class _Missing(Exception):
    """A fact the sentence needs is not there (an older server)."""


def event_line(facts: Facts, names: Sequence[str], ascii_only: bool = False) -> str | None:
    """The sentence for one event's facts (``kind`` and its fields), or None when
    the kind is unknown or a fact it needs is missing: then show the server's
    ``text``."""
    writer = _EVENTS.get(str(facts.get("kind")))
    if writer is None:
        return None

    def need(key: str) -> Any:
        value = facts.get(key)
        if value is None:
            raise _Missing(key)
        return value

    def who(key: str) -> str:
        return seat_name(names, int(need(key)))

    def card(key: str) -> str:
        return card_text(str(need(key)), ascii_only)

    try:
        return writer(_Reader(facts, need, who, card, ascii_only))
    except (_Missing, KeyError, ValueError, IndexError, TypeError):
        return None


class _Reader:
    """What an event's sentence reads from its facts."""

    def __init__(
        self,
        facts: Facts,
        need: Callable[[str], Any],
        who: Callable[[str], str],
        card: Callable[[str], str],
        ascii_only: bool,
    ) -> None:
        self.facts, self.need, self.who, self.card = facts, need, who, card
        self.ascii_only = ascii_only

    def get(self, key: str) -> Any:
        return self.facts.get(key)

    def named(self) -> str | None:
        letter = self.facts.get("named")
        return suit_text(str(letter), self.ascii_only) if letter else None


def _round_dealt(r: _Reader) -> str:
    values = {
        "round": r.need("round"),
        "dealer": r.who("dealer"),
        "top": r.card("top"),
        "first": r.who("first"),
        "named": r.named(),
    }
    returned = int(r.get("returned") or 0)
    if returned and values["named"]:
        text = ngettext(
            "Round {round}: {dealer} deals; {top} turned up ({returned} Wild Draw Four put "
            "back), {named} to follow; {first} to play",
            "Round {round}: {dealer} deals; {top} turned up ({returned} Wild Draw Fours put "
            "back), {named} to follow; {first} to play",
            returned,
        )
    elif returned:
        text = ngettext(
            "Round {round}: {dealer} deals; {top} turned up ({returned} Wild Draw Four put "
            "back); {first} to play",
            "Round {round}: {dealer} deals; {top} turned up ({returned} Wild Draw Fours put "
            "back); {first} to play",
            returned,
        )
    elif values["named"]:
        text = _(
            "Round {round}: {dealer} deals; {top} turned up, {named} to follow; {first} to play"
        )
    else:
        text = _("Round {round}: {dealer} deals; {top} turned up; {first} to play")
    return text.format(returned=returned, **values)


def _card_played(r: _Reader) -> str:
    named, call = r.named(), r.get("call")
    left = int(r.need("cards_left"))
    templates: dict[tuple[bool, bool, int], str] = {
        (False, False, 2): _("{name} plays {card}"),
        (False, False, 1): _("{name} plays {card} and has one card left"),
        (False, False, 0): _("{name} plays {card}: {name} is out"),
        (False, True, 2): _("{name} plays {card}, saying {call}"),
        (False, True, 1): _("{name} plays {card}, saying {call}, and has one card left"),
        (False, True, 0): _("{name} plays {card}, saying {call}: {name} is out"),
        (True, False, 2): _("{name} plays {card} and names {suit}"),
        (True, False, 1): _("{name} plays {card} and names {suit} and has one card left"),
        (True, False, 0): _("{name} plays {card} and names {suit}: {name} is out"),
        (True, True, 2): _("{name} plays {card} and names {suit}, saying {call}"),
        (True, True, 1): _(
            "{name} plays {card} and names {suit}, saying {call}, and has one card left"
        ),
        (True, True, 0): _("{name} plays {card} and names {suit}, saying {call}: {name} is out"),
    }
    text = templates[(named is not None, bool(call), min(left, 2))]
    return text.format(
        name=r.who("seat"),
        card=r.card("card"),
        suit=named,
        call=_call_quoted(str(call)) if call else None,
    )


def _penalty_pending(r: _Reader) -> str:
    amount = int(r.need("amount"))
    answer = r.need("answer")
    if answer == "seven":
        text = ngettext(
            "{name} must draw {amount} or answer with a 7",
            "{name} must draw {amount} or answer with a 7",
            amount,
        )
    elif answer == "draw_two":
        text = ngettext(
            "{name} must draw {amount} or answer with a Draw Two",
            "{name} must draw {amount} or answer with a Draw Two",
            amount,
        )
    elif answer == "wild_draw_four" and r.get("can_challenge"):
        text = ngettext(
            "{name} must draw {amount} or challenge",
            "{name} must draw {amount} or challenge",
            amount,
        )
    elif answer == "wild_draw_four":
        text = ngettext("{name} must draw {amount}", "{name} must draw {amount}", amount)
    else:
        raise _Missing("answer")
    return text.format(name=r.who("seat"), amount=amount)


def _penalty_drawn(r: _Reader) -> str:
    count, wanted = int(r.need("count")), int(r.need("wanted"))
    if count < wanted:
        text = ngettext(
            "{name} draws {count} card (only {count} left to draw)",
            "{name} draws {count} cards (only {count} left to draw)",
            count,
        )
    else:
        text = ngettext("{name} draws {count} card", "{name} draws {count} cards", count)
    return text.format(name=r.who("seat"), count=count, wanted=wanted)


def _card_drawn(r: _Reader) -> str:
    name = r.who("seat")
    if int(r.need("count")) == 0:
        return _("{name} finds nothing left to draw").format(name=name)
    if r.get("may_play"):
        return _("{name} draws a card and may play it").format(name=name)
    return _("{name} draws a card").format(name=name)


def _caught(r: _Reader) -> str:
    count = int(r.need("count"))
    final = bool(r.get("final_card"))
    card = r.get("card")
    if not card:
        text = ngettext(
            "{catcher} catches {target}, who did not say {call} for an earlier card: "
            "{target} draws {count}",
            "{catcher} catches {target}, who did not say {call} for an earlier card: "
            "{target} draws {count}",
            count,
        )
    elif final:
        text = ngettext(
            "{catcher} catches {target}, who went out on {card} without saying {call}: "
            "{target} draws {count}",
            "{catcher} catches {target}, who went out on {card} without saying {call}: "
            "{target} draws {count}",
            count,
        )
    else:
        text = ngettext(
            "{catcher} catches {target}, who played {card} without saying {call}: "
            "{target} draws {count}",
            "{catcher} catches {target}, who played {card} without saying {call}: "
            "{target} draws {count}",
            count,
        )
    return text.format(
        catcher=r.who("catcher"),
        target=r.who("target"),
        count=count,
        call=_call_word(final),
        card=r.card("card") if card else None,
    )


def _false_catch(r: _Reader) -> str:
    count = int(r.need("count"))
    text = ngettext(
        "{catcher} wrongly tries to catch {target} and draws {count}",
        "{catcher} wrongly tries to catch {target} and draws {count}",
        count,
    )
    return text.format(catcher=r.who("catcher"), target=r.who("target"), count=count)


def _challenge_decided(r: _Reader) -> str:
    if r.need("upheld"):
        text = _("{challenger} challenges {target}'s Wild Draw Four and is right: {target} draws 4")
    else:
        text = _(
            "{challenger} challenges {target}'s Wild Draw Four and is wrong: {challenger} draws 6"
        )
    return text.format(challenger=r.who("challenger"), target=r.who("target"))


def _round_ended(r: _Reader) -> str:
    points = int(r.need("points"))
    text = ngettext(
        "Round {round} goes to {winner}, who scores {points}",
        "Round {round} goes to {winner}, who scores {points}",
        points,
    )
    return text.format(round=r.need("round"), winner=r.who("winner"), points=points)


def _match_ended(r: _Reader) -> str:
    winner = int(r.need("winner"))
    points = int(r.need("scores")[winner])
    text = ngettext(
        "{winner} wins the match with {points} points",
        "{winner} wins the match with {points} points",
        points,
    )
    return text.format(winner=r.who("winner"), points=points)


def _reversed(r: _Reader) -> str:
    direction = int(r.need("direction"))
    return _("Play now goes clockwise") if direction == 1 else _("Play now goes counter-clockwise")


def _reshuffled(r: _Reader) -> str:
    count = int(r.need("count"))
    text = ngettext(
        "The discard pile is shuffled into a new stock of {count} card",
        "The discard pile is shuffled into a new stock of {count} cards",
        count,
    )
    return text.format(count=count)


_EVENTS: dict[str, Callable[[_Reader], str]] = {
    "round_dealt": _round_dealt,
    "card_played": _card_played,
    "penalty_pending": _penalty_pending,
    "penalty_drawn": _penalty_drawn,
    "skipped": lambda r: _("{name} is skipped").format(name=r.who("seat")),
    "reversed": _reversed,
    "card_drawn": _card_drawn,
    "passed": lambda r: _("{name} keeps the drawn card").format(name=r.who("seat")),
    "reshuffled": _reshuffled,
    "mau_said": lambda r: _("{name} says {call}").format(
        name=r.who("seat"), call=_call_quoted(str(r.need("call")))
    ),
    "caught": _caught,
    "false_catch": _false_catch,
    "call_window_closed": lambda r: _("{name}'s call window closes").format(name=r.who("seat")),
    "challenge_decided": _challenge_decided,
    "timed_out": lambda r: _("{name} ran out of time; the server acts for them").format(
        name=r.who("seat")
    ),
    "round_ended": _round_ended,
    "match_ended": _match_ended,
}

#: Every event kind the client writes itself.
EVENT_KINDS = frozenset(_EVENTS)


# --- call window decisions -----------------------------------------------------------


def _seconds(milliseconds: float) -> str:
    # NOTE: the decimal separator of numbers such as "0.42 s".
    return f"{milliseconds / 1000:.2f}".replace(".", pgettext("decimal separator", "."))


def decision_line(
    seat: int, outcome: str, stamps: Sequence[Mapping[str, Any]], names: Sequence[str]
) -> str | None:
    """A call window's decision: "Ann said Mau 0.42 s after playing; Bob's catch came
    0.11 s later", or "Bob caught Ann 0.97 s after Ann's play", then how much earlier
    each claim counted for its connection (:func:`_credit_line`); None when a fact is
    missing (a call stamp without its ``call``: an older server) or not known (a
    ``basis`` this client has no words for)."""
    parts: list[str] = []
    credits: list[str] = []
    previous: float | None = None
    try:
        for stamp in stamps:
            credit = _credit_line(stamp, names)
            if credit is None:
                return None
            if credit:
                credits.append(credit)
            who = seat_name(names, int(stamp["seat"]))
            after = float(stamp["after_ms"])
            call = stamp.get("call")
            if stamp["what"] == "call" and call is None:
                return None
            if previous is None and stamp["what"] == "call":
                text = _("{name} said {call} {seconds} s after playing").format(
                    name=who, call=_call_word(call == "maumau"), seconds=_seconds(after)
                )
            elif previous is None:
                text = _("{name} caught {target} {seconds} s after {target}'s play").format(
                    name=who, target=seat_name(names, seat), seconds=_seconds(after)
                )
            elif stamp["what"] == "call":
                text = _("{name}'s call came {seconds} s later").format(
                    name=who, seconds=_seconds(after - previous)
                )
            else:
                text = _("{name}'s catch came {seconds} s later").format(
                    name=who, seconds=_seconds(after - previous)
                )
            parts.append(text)
            previous = after
    except (KeyError, ValueError, TypeError):
        return None
    if not parts:
        word = {"called": pgettext("decision", "called"), "caught": pgettext("decision", "caught")}
        if outcome not in word:
            return None
        return _("{name}: {outcome}").format(name=seat_name(names, seat), outcome=word[outcome])
    # NOTE: joins the clauses of one decision: "Ann said Mau ...; Bob's catch came ...".
    return pgettext("clause separator", "; ").join(parts + credits)


def _credit_line(stamp: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """How much earlier a claim counted with lag compensation, as the server's
    ``credit_text`` says it: "Ann's call counted 34 ms earlier for their connection
    (measured)". Empty when there is nothing to say (no ``basis``: compensation off;
    or less than a millisecond), None for a ``basis`` not known here."""
    basis = stamp.get("basis")
    if basis is None:
        return ""
    notes = {
        # NOTE: how a Mau claim's lag credit was found: the delay measured on its own
        # exchange; "Ann's call counted 34 ms earlier for their connection (measured)".
        "measured": pgettext("lag credit", "measured"),
        # NOTE: the connection's usual delay (the client reported nothing).
        "usual": pgettext("lag credit", "usual delay"),
        # NOTE: the client's report was implausible; the usual delay was used instead.
        "refused": pgettext("lag credit", "report refused"),
    }
    if basis not in notes:
        return None
    ms = round(float(stamp["shift_ms"]))
    if ms < 1:
        return ""
    if stamp["what"] == "call":
        text = _("{name}'s call counted {ms} ms earlier for their connection ({note})")
    else:
        text = _("{name}'s catch counted {ms} ms earlier for their connection ({note})")
    return text.format(name=seat_name(names, int(stamp["seat"])), ms=ms, note=notes[basis])


# --- errors and goodbyes -------------------------------------------------------------

# Each code: (message without details, [(keys needed, message with them)...]); the
# first message whose keys are all in the details is used.
_ERRORS: dict[str, tuple[str, list[tuple[tuple[str, ...], str]]]] = {
    "frame_too_large": (N_("A message was too large."), []),
    "bad_frame": (N_("A message was empty."), []),
    "undecodable": (N_("A message could not be read."), []),
    "truncated": (N_("A message was cut off."), []),
    "bad_message": (
        N_("A message was refused as not valid."),
        [(("field",), N_("A message was refused: {field} is not valid."))],
    ),
    "unknown_type": (N_("That message is not known."), []),
    "hello_first": (N_("The connection must say hello first."), []),
    "welcome_first": (N_("The server did not answer as a maumau server does."), []),
    "closed": (N_("The connection is closed."), []),
    "hello_timeout": (
        N_("No hello in time."),
        [(("seconds",), N_("No hello within {seconds} s."))],
    ),
    "version_mismatch": (
        N_("This server speaks another protocol version: update the client or the server."),
        [
            (
                ("version",),
                N_(
                    "This server speaks protocol {version}, this client {mine}: update the "
                    "client or the server."
                ),
            )
        ],
    ),
    "unknown_resume": (N_("The server does not know this session any more."), []),
    "server_full": (N_("The server is full; try again later."), []),
    "bad_name": (
        N_("That name cannot be used: it shows too little, or looks like a bot's."),
        [],
    ),
    "name_taken": (
        N_("That name is in use; pick another."),
        [(("name",), N_("The name {name} is in use; pick another."))],
    ),
    "name_reserved": (
        N_("That name belongs to another player; pick another."),
        [(("name",), N_("The name {name} belongs to another player; pick another."))],
    ),
    "already_hello": (N_("Hello was already answered."), []),
    "rate_limited": (N_("Slow down: too many messages."), []),
    "abuse": (N_("Too many messages: the server closed the connection."), []),
    "bad_settings": (
        N_("The table's settings were refused."),
        [(("field",), N_("The table's setting {field} was refused."))],
    ),
    "no_such_table": (N_("That table is gone."), []),
    "no_such_seat": (N_("This table has no such seat."), []),
    "wrong_password": (
        N_("This table is locked; the password is wrong."),
        [(("tournament",), N_("This tournament is locked; the password is wrong."))],
    ),
    "table_full": (N_("Every seat at this table is taken."), []),
    "seat_taken": (N_("That seat is taken."), []),
    "already_seated": (N_("You already sit at this table."), []),
    "already_watching": (N_("You are already watching this table."), []),
    "already_here": (N_("You are already at this table."), []),
    "match_running": (N_("A match is running at this table."), []),
    "not_at_table": (N_("You are not at a table."), []),
    "not_seated": (N_("Only the players at the table can do that."), []),
    "not_creator": (
        N_("Only the player who made the table can start it."),
        [(("name",), N_("Only {name}, who made the table, can start it."))],
    ),
    "lobby_full": (
        N_("The server has as many tables open as it allows; join one."),
        [
            (
                ("limit", "count"),
                N_(
                    "The series needs {count} tables and the server has {limit} free; "
                    "wait for some to close."
                ),
            )
        ],
    ),
    "too_many_tables": (N_("You have made as many tables as you may; join one."), []),
    "no_match": (N_("No match is running at this table."), []),
    "bad_chat": (N_("That chat line shows nothing."), []),
    "unexpected": (N_("That is not expected now."), []),
    "bad_move": (N_("That is not a move."), []),
    "no_store": (N_("This server keeps no records (it runs without a database)."), []),
    "no_such_match": (N_("There is no such match."), []),
    "cannot_save": (
        N_(
            "The server cannot save right now (its disk may be full); play is paused "
            "until it can, and nothing is lost."
        ),
        [],
    ),
    "not_your_turn": (N_("It is not your turn."), []),
    "round_ending": (N_("The round is ending; wait for the call window."), []),
    "round_over": (N_("The round is over; wait for the next deal."), []),
    "not_in_hand": (
        N_("You do not hold that card."),
        [(("card",), N_("You do not hold {card}."))],
    ),
    "only_drawn_card": (
        N_("After drawing you may play only the drawn card."),
        [(("card",), N_("After drawing you may play only {card}."))],
    ),
    "challenge_or_draw": (N_("Challenge the Wild Draw Four or take the penalty."), []),
    "must_answer_penalty": (N_("Answer the penalty, or take it."), []),
    "does_not_match": (
        N_("That card does not fit."),
        [(("card", "top"), N_("{card} does not fit on {top}."))],
    ),
    "must_name": (
        N_("Playing that card you must name a suit or a colour."),
        [(("card",), N_("Playing {card} you must name a suit or a colour."))],
    ),
    "cannot_name": (N_("Only a Jack or a wild card names a suit or a colour."), []),
    "nothing_to_call": (N_("There is nothing to call now."), []),
    "already_drawn": (N_("You have drawn already: play the drawn card or pass."), []),
    "nothing_drawn": (N_("You may pass only after drawing a playable card."), []),
    "nothing_to_challenge": (N_("There is no Wild Draw Four to challenge."), []),
    "already_called": (N_("You have already said it."), []),
    "window_closed": (N_("Too late: the call window has closed."), []),
    "already_out": (N_("You are out: no more calls or catches this round."), []),
    "catch_self": (N_("You cannot catch yourself."), []),
    "nothing_to_catch": (N_("There is nobody to catch."), []),
    "bad_call": (N_('Say "Mau" or "Mau Mau".'), []),
    # Tournaments (protocol 6).
    "no_such_tournament": (
        N_("That tournament is gone."),
        [(("tournament",), N_("Tournament {tournament} is gone."))],
    ),
    "not_director": (
        N_("Only the tournament's director can do that."),
        [
            (
                ("name",),
                N_(
                    "Only {name}, the tournament's director, can do that; before the start, a "
                    "registered player may once {name} has been away two minutes."
                ),
            )
        ],
    ),
    "registration_closed": (N_("Registration for this tournament is closed."), []),
    "already_registered": (N_("You are already registered for this tournament."), []),
    "not_registered": (N_("You are not registered for this tournament."), []),
    "tournament_full": (
        N_("This tournament is full."),
        [(("limit",), N_("This tournament is full ({limit} players)."))],
    ),
    "too_many_registrations": (
        N_("Enough players have registered from your address."),
        [(("count",), N_("{count} players have registered from your address already."))],
    ),
    "too_many_tournaments": (
        N_("The server runs as many tournaments as it allows; join one."),
        [(("count",), N_("{count} tournaments are open already; join one."))],
    ),
    "too_few_players": (
        N_("Too few players to start the tournament."),
        [
            (
                ("count",),
                N_("Too few players to start the tournament: {count} to seat, at least 2 needed."),
            )
        ],
    ),
    "tournament_running": (N_("The tournament is running: that cannot be done now."), []),
    "tournament_table": (
        N_("This is a tournament's table: no rematch; the next series seats you."),
        [
            (
                ("table",),
                N_(
                    "Table {table} is a tournament's: call the tournament off instead "
                    "(X on it in the lobby)."
                ),
            )
        ],
    ),
    # The server's password and the host's powers (protocol 9).
    "password_required": (N_("This server asks for a password."), []),
    "too_many_tries": (
        N_("Too many wrong passwords from your address: try again in a minute."),
        [],
    ),
    "banned": (N_("You are banned from this server."), []),
    "not_host": (N_("Only the server's host can do that."), []),
    "no_such_session": (N_("That player is not connected any more."), []),
    "bad_target": (N_("That cannot be done to that player."), []),
    "too_many_bans": (
        N_("The server keeps as many bans as it can; lift one first."),
        [(("limit",), N_("The server keeps at most {limit} bans; lift one first."))],
    ),
    "no_such_ban": (N_("There is no such ban (any more)."), []),
    "muted": (
        N_("The host has muted you in chat."),
        [(("seconds",), N_("The host has muted you in chat for {duration} more."))],
    ),
}

#: ``bad_name`` refuses three names, told apart by ``details.field``.
_BAD_NAME_BY_FIELD = {
    "create_table.name": N_("A table's name must show something."),
    "create_tournament.name": N_("A tournament's name must show something."),
    "play.named": N_("That suit or colour belongs to the other game."),
}

#: ``banned`` (at hello) says what is banned, ``bad_target`` why the host's request
#: cannot be aimed there, both by ``details.why``.
_BY_WHY = {
    "banned": {
        "name": N_("That name is banned from this server; pick another."),
        "address": N_("Your address is banned from this server."),
    },
    "bad_target": {
        "own": N_("That is your own name or address: the host cannot ban it."),
        "loopback": N_(
            "That address is the server's own machine: the SSH party's and the browser "
            "guests' too. Ban the player's name instead."
        ),
        "host": N_("That player is a host too: a host cannot do that to another host."),
        "address": N_("That is not an IP address."),
    },
}

#: Every error code the client writes itself.
ERROR_CODES = frozenset(_ERRORS)


def error_line(code: str, details: Facts | None, message: str) -> str:
    """A refusal in the player's language, from its ``code`` and ``details``. In
    English, and for an unknown code, the server's ``message`` itself."""
    known = _ERRORS.get(code)
    if known is None or (language() == "en" and message):
        return message or code
    plain, detailed = known
    facts = dict(details or {})
    text = _BAD_NAME_BY_FIELD.get(str(facts.get("field")), plain) if code == "bad_name" else plain
    text = _BY_WHY.get(code, {}).get(str(facts.get("why")), text)
    for keys, template in detailed:
        if all(facts.get(key) is not None for key in keys):
            text = template
            break
    keys = ("field", "name", "limit", "version", "seconds", "count", "tournament", "table")
    values = {key: facts.get(key) for key in keys}
    seconds = values["seconds"]
    duration = None
    if isinstance(seconds, int | float) and not isinstance(seconds, bool):
        duration = duration_words(seconds)
    if isinstance(seconds, float):
        values["seconds"] = f"{seconds:g}"  # 10 s, as the server writes it
    for key in ("card", "top"):
        shown = facts.get(key)
        values[key] = card_text(shown) if shown in CARD_BY_CODE else shown
    return _(text).format(mine=PROTOCOL_VERSION, duration=duration, **values)


def goodbye_line(
    code: str | None, reason: str, by: str | None = None, note: str | None = None
) -> str:
    """The server's goodbye in the player's language (its ``reason`` in English, or
    for an unknown code). Sent away by the host (``kicked``, ``banned``), it names the
    host (``by``) and gives their words (``note``), in every language."""
    if code in ("kicked", "banned") and by:
        if code == "kicked" and note:
            text = _("The host ({by}) sent you away: {note}")
        elif code == "kicked":
            text = _("The host ({by}) sent you away.")
        elif note:
            text = _("The host ({by}) banned you: {note}")
        else:
            text = _("The host ({by}) banned you.")
        return text.format(by=by, note=note)
    if language() == "en" or code not in ("shutdown", "replaced", "kicked", "banned"):
        return reason
    if code == "shutdown":
        return _("The server is shutting down.")
    if code == "kicked":
        return _("The host sent you away.")
    if code == "banned":
        return _("The host banned you.")
    return _("Another connection of this session took over.")


# --- durations and the host's notices --------------------------------------------------


def duration_words(seconds: float) -> str:
    """How long, in words: "45 seconds", "10 minutes", "3 hours", "2 days" (rounded
    to the unit, up: a mute of 90 s has 2 minutes left)."""
    seconds = max(0.0, float(seconds))
    # NOTE: how long, as said after "for" ("muted you in chat for 10 minutes", "for 2
    # minutes more"): the case that takes, where the language has cases.
    if seconds < 60:
        n = max(1, math.ceil(seconds))
        return ngettext("{n} second", "{n} seconds", n).format(n=n)
    if seconds < 2 * 3600:
        n = math.ceil(seconds / 60)
        return ngettext("{n} minute", "{n} minutes", n).format(n=n)
    if seconds < 2 * 86400:
        n = math.ceil(seconds / 3600)
        return ngettext("{n} hour", "{n} hours", n).format(n=n)
    n = math.ceil(seconds / 86400)
    return ngettext("{n} day", "{n} days", n).format(n=n)


def short_duration(seconds: float, up: bool = False) -> str:
    """How long, in a few cells for a column: "45 s", "12 min", "3 h", "2 d" (rounded
    down: connected 12 minutes and a half is "12 min"; ``up``, for what is left, up:
    a mute of 10 minutes that has just begun is "10 min")."""
    seconds = max(0.0, float(seconds))

    def count(unit: int) -> int:
        return math.ceil(seconds / unit) if up else int(seconds // unit)

    if seconds < 60:
        # NOTE: short durations in the host's list of connections (a few cells each).
        return _("{n} s").format(n=count(1))
    if seconds < 3600:
        return _("{n} min").format(n=count(60))
    if seconds < 86400:
        return _("{n} h").format(n=count(3600))
    return _("{n} d").format(n=count(86400))


# Each notice's sentence: with the host's own words, and without them.
_NOTICES: dict[str, tuple[str, str]] = {
    "announcement": (N_("Announcement from {by}: {text}"), N_("Announcement from {by}.")),
    "muted": (
        N_("{by} muted you in chat for {duration}: {text}"),
        N_("{by} muted you in chat for {duration}."),
    ),
    "unmuted": (N_("{by} lets you chat again: {text}"), N_("{by} lets you chat again.")),
    "table_closed": (N_("{by} closed the table: {text}"), N_("{by} closed the table.")),
    "tournament_named": (
        N_("{by} called the tournament {tournament} off: {text}"),
        N_("{by} called the tournament {tournament} off."),
    ),
    "tournament_cancelled": (
        N_("{by} called the tournament off: {text}"),
        N_("{by} called the tournament off."),
    ),
}


def notice_line(
    kind: str,
    by: str,
    text: str | None = None,
    seconds: float | None = None,
    tournament: str | None = None,
) -> str | None:
    """A host's ``notice`` in words: ``by`` the host's name, ``text`` their own words
    (if any), ``seconds`` how long a mute lasts, ``tournament`` the cancelled
    tournament's name (if known). None for a kind this client does not know."""
    if kind == "tournament_cancelled" and tournament:
        kind = "tournament_named"
    if kind not in _NOTICES:
        return None
    with_text, without = _NOTICES[kind]
    template = _(with_text if text else without)
    values = {"by": by, "text": text or "", "tournament": tournament}
    values["duration"] = duration_words(seconds or 0)
    return template.format(**values)
