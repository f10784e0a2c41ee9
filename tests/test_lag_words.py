"""The lag credit of a Mau decision, in the client's words (protocol 5).

A ``mau_decision`` stamp may say on what ``basis`` its claim was counted earlier and
by how much (``shift_ms``); the server's English text then ends with a clause per
credited claim ("Ann's call counted 34 ms earlier for their connection (measured)").
The client writes the same from the stamps: in English word for word the arbiter's
``decision_text`` of the same claims, for every basis, for calls and catches; in
German a whole sentence from the catalog. A basis the client does not know falls
back to the server's words.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from maumau.client import i18n
from maumau.protocol import sentences
from maumau.server.arbiter import Claim, decision_text
from maumau.server.table.claims import _stamp as claim_stamp

NAMES = ["Ann", "Bob", "Cleo"]
OPENED = 10.0
BASES = ["measured", "usual", "refused"]


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def stamp(claim: Claim) -> dict[str, Any]:
    """A claim as the server sends it in a ``mau_decision``."""
    return claim_stamp(claim, OPENED)


def race(first: str, call_basis: str | None, catch_basis: str | None) -> list[Claim]:
    """Ann's call (counted 34 ms earlier) and Bob's catch of Ann (12.6 ms), in
    deciding order: ``first`` is the one that won."""
    call = Claim("call", 0, 10.45, 0.034, 1, call="mau", basis=call_basis)
    catch = Claim("catch", 1, 10.40, 0.0126, 2, target=0, basis=catch_basis)
    if first == "call":
        catch.stamp = 10.60
        return [call, catch]
    return [catch, call]


def line(claims: list[Claim]) -> str | None:
    outcome = "called" if claims[0].kind == "call" else "caught"
    return sentences.decision_line(0, outcome, [stamp(c) for c in claims], NAMES)


@pytest.mark.parametrize("basis", BASES)
@pytest.mark.parametrize("first", ["call", "catch"])
def test_english_credit_reads_as_the_arbiter_writes(first: str, basis: str) -> None:
    claims = race(first, basis, basis)
    outcome = "called" if first == "call" else "caught"
    expected = decision_text(NAMES, 0, OPENED, claims, outcome)
    assert expected.count(" ms earlier for their connection (") == 2  # both are credited
    assert line(claims) == expected


@pytest.mark.parametrize(
    "call_basis,catch_basis", [("measured", None), (None, "refused"), ("usual", "measured")]
)
def test_only_credited_claims_get_a_clause(call_basis: str | None, catch_basis: str | None) -> None:
    claims = race("call", call_basis, catch_basis)
    if call_basis is None:
        claims[0].shift = 0.0  # compensation said nothing about this claim
    claims[1].shift = 0.0004 if call_basis == "usual" else claims[1].shift  # rounds to 0 ms
    expected = decision_text(NAMES, 0, OPENED, claims, "called")
    assert line(claims) == expected


def test_the_english_example_of_the_protocol() -> None:
    claims = [
        Claim("call", 0, 10.42 + 0.034, 0.034, 1, call="mau", basis="measured"),
        Claim("catch", 1, 10.53, 0.0, 2, target=0, basis="usual"),
    ]
    assert line(claims) == (
        "Ann said Mau 0.42 s after playing; Bob's catch came 0.11 s later; "
        "Ann's call counted 34 ms earlier for their connection (measured)"
    )


def test_an_unknown_basis_falls_back_to_the_servers_words() -> None:
    stamps = [stamp(c) for c in race("call", "measured", "measured")]
    stamps[1]["basis"] = "guessed"
    assert sentences.decision_line(0, "called", stamps, NAMES) is None


@pytest.mark.parametrize("basis", BASES)
@pytest.mark.parametrize("first", ["call", "catch"])
def test_german_credit_is_a_whole_sentence(first: str, basis: str) -> None:
    english = line(race(first, basis, basis))
    i18n.set_language("de")
    german = line(race(first, basis, basis))
    assert german is not None and english is not None
    assert "{" not in german and "}" not in german
    assert "34 ms" in german and "13 ms" in german
    assert "earlier" not in german and german != english


@pytest.mark.parametrize("shift", [0.0134996, 0.0125004, 0.0005, 0.0004996])
def test_a_credit_on_a_rounding_edge_is_the_same_whole_number_on_both_sides(
    shift: float,
) -> None:
    """The stamp carries 3 decimals; the server rounds the clause's number from that
    value, as the client must, so 13.4996 ms (13.5 in the stamp) is 14 on both."""
    claims = [Claim("call", 0, 10.45, shift, 1, call="mau", basis="measured")]
    assert line(claims) == decision_text(NAMES, 0, OPENED, claims, "called")
