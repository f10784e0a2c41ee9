"""The client's sentences from the protocol's facts (``maumau.client.words``).

In English every event line must read exactly as the server's own ``describe`` of
the same event (English players see no change), so each event below is built as the
server's value, described by the server, turned into the facts of the version-4
``event`` message, and written by the client: the two must be the same, with and
without ``ascii_only``. Decisions are checked against the arbiter's
``decision_text`` the same way. Then, with a small catalog made here, every sentence
comes out of the catalog with its placeholders filled; and missing facts or an
unknown kind fall back to the server's words.
"""

from __future__ import annotations

import functools
import gettext
import io
from collections.abc import Iterator
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from maumau.client import i18n, words
from maumau.protocol import sentences
from maumau.protocol.cards import CARD_BY_CODE, CODE_OF, COLOUR_CODES, SUIT_CODES, is_classic
from maumau.server.arbiter import Claim, decision_text
from maumau.server.rules import describe
from maumau.server.rules.events import (
    PENALTY_DRAW_TWO,
    PENALTY_SEVEN,
    PENALTY_WILD_DRAW_FOUR,
    CallWindowClosed,
    CardDrawn,
    CardPlayed,
    Caught,
    ChallengeDecided,
    Event,
    FalseCatch,
    MatchEnded,
    MauSaid,
    Passed,
    PenaltyDrawn,
    PenaltyPending,
    Reshuffled,
    Reversed,
    RoundDealt,
    RoundEnded,
    Skipped,
    TimedOut,
)
from test_i18n_catalogs import extracted

NAMES = ["Ann", "Bob", "Cleo", ""]  # the last seat has no name: "Seat 4"
ANSWER = {
    PENALTY_SEVEN: "seven",
    PENALTY_DRAW_TWO: "draw_two",
    PENALTY_WILD_DRAW_FOUR: "wild_draw_four",
}


def c(code: str) -> int:
    return CARD_BY_CODE[code]


def named(card: int, suit: int) -> dict[str, Any]:
    if suit < 0:
        return {}
    return {"named": (SUIT_CODES if is_classic(card) else COLOUR_CODES)[suit]}


def facts(event: Event) -> dict[str, Any]:
    """The version-4 facts of a server event, as docs/protocol.md lists them."""
    match event:
        case RoundDealt(round_no, dealer, top, suit, first, returned):
            extra = {"returned": returned} if returned else {}
            return {
                "kind": "round_dealt",
                "round": round_no,
                "dealer": dealer,
                "top": CODE_OF[top],
                "first": first,
                **named(top, suit),
                **extra,
            }
        case CardPlayed(seat, card, suit, call, left):
            return {
                "kind": "card_played",
                "seat": seat,
                "card": CODE_OF[card],
                "cards_left": left,
                **named(card, suit),
                **({"call": call} if call else {}),
            }
        case PenaltyPending(seat, amount, kind, can_challenge):
            return {
                "kind": "penalty_pending",
                "seat": seat,
                "amount": amount,
                "answer": ANSWER[kind],
                "can_challenge": can_challenge,
            }
        case PenaltyDrawn(seat, count, wanted, kind):
            return {
                "kind": "penalty_drawn",
                "seat": seat,
                "count": count,
                "wanted": wanted,
                "answer": ANSWER[kind],
            }
        case Skipped(seat):
            return {"kind": "skipped", "seat": seat}
        case Reversed(direction):
            return {"kind": "reversed", "direction": direction}
        case CardDrawn(seat, count, may_play):
            return {"kind": "card_drawn", "seat": seat, "count": count, "may_play": may_play}
        case Passed(seat):
            return {"kind": "passed", "seat": seat}
        case Reshuffled(count):
            return {"kind": "reshuffled", "count": count}
        case MauSaid(seat, call):
            return {"kind": "mau_said", "seat": seat, "call": call}
        case Caught(catcher, target, count, final_card, card):
            extra = {"card": CODE_OF[card]} if card >= 0 else {}
            return {
                "kind": "caught",
                "catcher": catcher,
                "target": target,
                "count": count,
                "final_card": final_card,
                **extra,
            }
        case FalseCatch(catcher, target, count):
            return {"kind": "false_catch", "catcher": catcher, "target": target, "count": count}
        case CallWindowClosed(seat, window):
            return {"kind": "call_window_closed", "seat": seat, "window": window}
        case ChallengeDecided(challenger, target, upheld):
            return {
                "kind": "challenge_decided",
                "challenger": challenger,
                "target": target,
                "upheld": upheld,
            }
        case TimedOut(seat):
            return {"kind": "timed_out", "seat": seat}
        case RoundEnded(round_no, winner, points, _, scores):
            return {
                "kind": "round_ended",
                "round": round_no,
                "winner": winner,
                "points": points,
                "scores": list(scores),
            }
        case MatchEnded(winner, scores):
            return {"kind": "match_ended", "winner": winner, "scores": list(scores)}
    raise TypeError(event)


def every_event() -> Iterator[Event]:
    """Every kind, in every form its sentence takes."""
    for returned in (0, 1, 2):
        for top, suit in ((c("7H"), -1), (c("JS"), 2), (c("W"), 1), (c("G+2"), -1)):
            yield RoundDealt(3, 1, top, suit, 3, returned)
    for card, suit in ((c("10D"), -1), (c("JC"), 0), (c("W4"), 3), (c("YS"), -1)):
        for call in (None, "mau", "maumau"):
            for left in (0, 1, 2, 5):
                yield CardPlayed(0, card, suit, call, left)  # type: ignore[arg-type]
    for kind in ANSWER:
        for challenge in (False, True):
            yield PenaltyPending(2, 4, kind, challenge)
        yield PenaltyDrawn(1, 1, 2, kind)
        yield PenaltyDrawn(1, 4, 4, kind)
        yield PenaltyDrawn(1, 0, 2, kind)
    yield Skipped(3)
    yield Reversed(1)
    yield Reversed(-1)
    for count in (0, 1):
        for may_play in (False, True):
            yield CardDrawn(2, count, may_play)
    yield Passed(0)
    yield Reshuffled(1)
    yield Reshuffled(17)
    yield MauSaid(1, "mau")
    yield MauSaid(1, "maumau")
    for final in (False, True):
        for card in (-1, c("QH"), c("R7")):
            yield Caught(0, 1, 2, final, card)
    yield FalseCatch(2, 0, 1)
    yield FalseCatch(2, 0, 3)
    yield CallWindowClosed(0, 4)
    yield ChallengeDecided(1, 2, True)
    yield ChallengeDecided(1, 2, False)
    yield TimedOut(3)
    yield RoundEnded(2, 1, 37, ((), (), (), ()), (0, 37, 10, 0))
    yield RoundEnded(2, 1, 1, ((), (), (), ()), (0, 1, 10, 0))
    yield MatchEnded(2, (4, 0, 151, 3))
    yield MatchEnded(0, (1, 0, 0, 0))


EVENTS = list(every_event())


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("ascii_only", [False, True])
@pytest.mark.parametrize("event", EVENTS, ids=[type(e).__name__ for e in EVENTS])
def test_english_reads_as_the_server_writes(event: Event, ascii_only: bool) -> None:
    server_names = [n or f"Seat {i + 1}" for i, n in enumerate(NAMES)]
    expected = describe(event, server_names, ascii_only)
    assert sentences.event_line(facts(event), NAMES, ascii_only) == expected


def test_every_kind_is_written() -> None:
    kinds = {facts(e)["kind"] for e in EVENTS}
    assert kinds == sentences.EVENT_KINDS


@pytest.mark.parametrize(
    "line",
    [
        {"kind": "card_played", "seat": 0},  # no card: an older server
        {"kind": "skipped"},
        {"kind": "a_new_kind", "seat": 0},
        {"kind": "match_ended", "winner": 7, "scores": [1]},
    ],
)
def test_missing_facts_or_an_unknown_kind_give_none(line: dict[str, Any]) -> None:
    assert sentences.event_line(line, NAMES) is None


def stamp(seat: int, what: str, after: float, call: str | None = None) -> dict[str, Any]:
    extra = {"call": call} if call else {}
    return {"seat": seat, "what": what, "after_ms": after * 1000, "shift_ms": 0.0, **extra}


DECISIONS = [
    ([Claim("call", 0, 10.42, 0, 1, call="mau"), Claim("catch", 1, 10.53, 0, 2, 0)], 0, "called"),
    ([Claim("call", 0, 10.5, 0, 1, call="maumau")], 0, "called"),
    ([Claim("catch", 2, 10.97, 0, 1, 0), Claim("call", 0, 11.5, 0, 2, call="mau")], 0, "caught"),
    ([], 1, "caught"),
]


@pytest.mark.parametrize("claims,target,outcome", DECISIONS)
def test_decisions_read_as_the_arbiter_writes(
    claims: list[Claim], target: int, outcome: str
) -> None:
    opened = 10.0
    expected = decision_text(list(NAMES), target, opened, claims, outcome)
    stamps = [
        stamp(
            claim.seat,
            claim.kind,
            claim.effective - opened,
            claim.call if claim.kind == "call" else None,
        )
        for claim in claims
    ]
    assert sentences.decision_line(target, outcome, stamps, NAMES) == expected


def test_a_call_stamp_without_its_call_falls_back() -> None:
    assert sentences.decision_line(0, "called", [stamp(0, "call", 0.4)], NAMES) is None


def test_english_errors_and_goodbyes_are_the_servers_words() -> None:
    assert words.error_line("not_your_turn", None, "it is not your turn") == "it is not your turn"
    assert words.error_line("brand_new", {}, "something new") == "something new"
    assert words.goodbye_line("shutdown", "the server is shutting down") == (
        "the server is shutting down"
    )


# --- through a catalog ---------------------------------------------------------------


def marked(message: str) -> str:
    """A translation that shows it came from the catalog and keeps the placeholders."""
    return "«" + message + "»"


def install(catalog: Catalog) -> None:
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    i18n.use(gettext.GNUTranslations(buffer), "de")


@functools.cache
def marked_catalog() -> Catalog:
    """Every message of the client (extracted once), translated as ``«message»``."""
    result = Catalog(locale="de")
    for message, context in extracted():
        if isinstance(message, tuple):
            result.add(message, tuple(marked(m) for m in message), context=context)
        else:
            result.add(message, marked(message), context=context)
    return result


@pytest.fixture
def catalog() -> Iterator[Catalog]:
    install(marked_catalog())
    yield marked_catalog()
    i18n.set_language("en")


@pytest.mark.parametrize("event", EVENTS, ids=[type(e).__name__ for e in EVENTS])
def test_every_event_comes_from_the_catalog_filled(catalog: Catalog, event: Event) -> None:
    line = sentences.event_line(facts(event), NAMES)
    assert line is not None and line.startswith("«") and line.endswith("»")
    assert "{" not in line and "}" not in line and "None" not in line


@pytest.mark.parametrize("claims,target,outcome", DECISIONS)
def test_every_decision_comes_from_the_catalog_filled(
    catalog: Catalog, claims: list[Claim], target: int, outcome: str
) -> None:
    stamps = [stamp(c.seat, c.kind, c.effective - 10.0, c.call) for c in claims]
    line = sentences.decision_line(target, outcome, stamps, NAMES)
    assert line is not None and line.startswith("«") and "{" not in line and "None" not in line


DETAILS: dict[str, Any] = {
    "field": "seats",
    "name": "Ann",
    "card": "JS",
    "top": "7H",
    "limit": 3,
    "version": 4,
    "seconds": 10,
}


@pytest.mark.parametrize("code", sorted(words.ERROR_CODES))
@pytest.mark.parametrize("details", [None, DETAILS])
def test_every_error_code_comes_from_the_catalog_filled(
    catalog: Catalog, code: str, details: dict[str, Any] | None
) -> None:
    line = words.error_line(code, details, "the English message")
    assert line.startswith("«") and line.endswith("»")
    assert "{" not in line and "None" not in line


def test_an_error_names_its_facts(catalog: Catalog) -> None:
    assert words.error_line("does_not_match", DETAILS, "x") == "««J»♠ does not fit on 7♥.»"


def test_an_unknown_code_stays_in_the_servers_words(catalog: Catalog) -> None:
    assert words.error_line("brand_new", {}, "something new") == "something new"


def test_goodbyes_come_from_the_catalog(catalog: Catalog) -> None:
    assert words.goodbye_line("shutdown", "bye") == "«The server is shutting down.»"
    assert words.goodbye_line("replaced", "bye").startswith("«Another")
    assert words.goodbye_line(None, "bye") == "bye"


def test_card_words_come_from_the_catalog(catalog: Catalog) -> None:
    assert sentences.card_text("JH") == "«J»♥"
    assert sentences.card_text("JH", ascii_only=True) == "«J»«H»"
    assert sentences.card_text("GS") == "«G»«Skip»"
    assert sentences.card_text("W4") == "«W+4»"
    assert sentences.suit_text("C") == "♣ «clubs»"
    assert sentences.suit_text("B") == "«blue»"


@pytest.mark.parametrize(
    "field,expected",
    [
        ("create_table.name", "Der Name eines Tisches muss etwas zeigen."),
        ("play.named", "Diese Farbe gehört zum anderen Spiel."),
        ("hello.name", "Diesen Namen kannst du nicht nehmen"),
    ],
)
def test_bad_name_is_told_apart_by_its_field(field: str, expected: str) -> None:
    """The three names ``bad_name`` refuses get three sentences (in German here)."""
    i18n.set_language("de")
    line = words.error_line("bad_name", {"field": field}, "the English")
    assert line.startswith(expected.rstrip(".")), line


def test_seconds_are_written_as_the_server_writes_them() -> None:
    i18n.set_language("de")
    line = words.error_line("hello_timeout", {"seconds": 10.0}, "no hello within 10 s")
    assert "10 s" in line and "10.0" not in line, line
