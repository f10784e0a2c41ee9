"""The client's view of a tournament message that is a window (docs/protocol.md,
`tournament`): whether the standings go on past the page shown, and the names of
tables the message does not list (another page or series is shown)."""

from __future__ import annotations

from maumau.client.tournament import Following
from maumau.protocol.messages import TOURNAMENT_STANDINGS_PAGE
from support.client_tournament_data import series_table, standing, tournament


def page(first: int, players: int, you: int | None = None, **line: object) -> Following:
    """A window of the standings from line ``first``, the receiver's own line
    ``you`` after it (if given), of ``players`` lines in all."""
    lines = [
        standing(n + 1, f"P{n}", 0, 0, line=n)
        for n in range(first, min(players, first + TOURNAMENT_STANDINGS_PAGE))
    ]
    index = None
    if you is not None:
        lines.append(standing(you + 1, "Me", 0, 0, line=you, **line))
        index = len(lines) - 1
    info = tournament(standings=tuple(lines), players=players, you=index, tables=())
    return Following(info, 0.0)


def test_more_lines_below_the_page_whatever_line_is_the_receivers() -> None:
    assert page(0, 500).more_below()
    assert page(0, 500, you=499).more_below()  # the own line at the end is not the page
    assert page(450, 500).more_below() is False
    assert page(0, 50).more_below() is False
    assert page(0, 51).more_below()
    assert page(450, 500).first_line == 450


def test_a_table_the_message_does_not_list_is_named_by_its_number_from_the_standings() -> None:
    following = page(0, 500, you=320, table=4321, table_no=107)
    assert following.label(4321) == "2.107"  # the current series is 2
    assert following.where_words(4321) == "table 2.107"
    assert following.label(9999) == "9999"  # one nobody names: its id, as before
    shown = tournament(
        tables=(series_table(11, 2, ["A", "B", "C"], "playing", 1, [0, 0, 0]),),
        standings=(standing(1, "Me", 0, 0, table=11, table_no=3),),
        you=0,
        players=1,
    )
    assert Following(shown, 0.0).label(11) == "2.1"  # a table listed: its own no
