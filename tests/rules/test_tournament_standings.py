"""A tournament's standings: placing points at a table, the totals and every tie-break,
byes, bots at tables and the final, from results worked out by hand; then properties of
random tournaments (from hypothesis, derandomized).
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from maumau.server.tournament import (
    BYE_POINTS,
    Standing,
    TableResult,
    placing_points,
    standings,
)

# --- placing points -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "points"),
    [
        ([10, 10, 0], [75, 75, 0]),
        ([30, 20, 10, 0], [100, 67, 33, 0]),
        ([0, 10, 20, 30], [0, 33, 67, 100]),
        ([5], [100]),
        ([7, 7], [50, 50]),
        ([3, 9], [0, 100]),
        ([0, 0, 0, 0], [50, 50, 50, 50]),
        ([20, 10, 10], [100, 25, 25]),
        # Halves go up: 62.5 -> 63 and 12.5 -> 13 (not to the even 62 and 12).
        ([20, 10, 10, 0, 0], [100, 63, 63, 13, 13]),
        ([10, 10, 0, 0, 0], [88, 88, 25, 25, 25]),
    ],
)
def test_placing_points_by_hand(scores: list[int], points: list[int]) -> None:
    assert placing_points(scores) == points


@given(scores=st.lists(st.integers(0, 30), min_size=2, max_size=10))
@settings(derandomize=True)
def test_placing_points_are_the_exact_share_rounded_half_up(scores: list[int]) -> None:
    points = placing_points(scores)
    seats = len(scores)
    for score, earned in zip(scores, points, strict=True):
        beaten = sum(other < score for other in scores)
        tied = sum(other == score for other in scores) - 1
        exact = Fraction(100) * (beaten + Fraction(tied, 2)) / (seats - 1)
        assert earned == int(exact + Fraction(1, 2))  # floor(x + 1/2): half up
        assert 0 <= earned <= 100
    for a in range(seats):
        for b in range(seats):
            if scores[a] > scores[b]:
                assert points[a] > points[b]
            if scores[a] == scores[b]:
                assert points[a] == points[b]


# --- standings from results worked out by hand ---------------------------------------------------


def line(
    key: str, rank: int, points: int, score: int, firsts: int, played: int, byes: int = 0
) -> Standing:
    return Standing(key, rank, points, score, firsts, played, byes)


def test_points_then_score_with_a_bye_and_bots_at_tables() -> None:
    results = [
        # Series 1: a beats the bot and b; c and d share the first place.
        TableResult(1, ("a", "b", None), (30, 10, 20)),  # 100, 0 (bot 50)
        TableResult(1, ("c", "d"), (5, 5)),  # 50, 50
        # Series 2: e ties a bot for the first place, ahead of a and another bot.
        TableResult(2, ("b", "c", "d"), (40, 0, 20)),  # 100, 0, 50
        TableResult(2, ("a", "e", None, None), (0, 10, 10, 5)),  # 0, 83 (2.5 of 3)
    ]
    got = standings(["a", "b", "c", "d", "e"], results, [(1, "e")], lot=["a", "b", "c", "d", "e"])
    assert got == [
        line("e", 1, BYE_POINTS + 83, 10, 1, 1, byes=1),
        line("b", 2, 100, 50, 1, 2),  # 100 points like a and d: the most score
        line("a", 3, 100, 30, 1, 2),
        line("d", 4, 100, 25, 1, 2),
        line("c", 5, 50, 5, 1, 2),
    ]


def test_equal_points_and_score_go_to_the_most_firsts_before_the_lot() -> None:
    results = [
        TableResult(1, ("x", None, None), (20, 20, 0)),  # x: 75, a shared first
        TableResult(1, ("y", None, None), (10, 20, 0)),  # y: 50
        TableResult(2, ("x", None, None), (0, 10, 0)),  # x: 25
        TableResult(2, ("y", None, None), (10, 0, 20)),  # y: 50
    ]
    got = standings(["x", "y"], results, [], lot=["y", "x"])
    assert got == [line("x", 1, 100, 20, 1, 2), line("y", 2, 100, 20, 0, 2)]


def test_equal_points_go_to_the_higher_score_before_the_lot() -> None:
    results = [TableResult(1, ("p", "q", None), (30, 10, 20)), TableResult(2, ("q", "p"), (50, 0))]
    got = standings(["p", "q"], results, [], lot=["p", "q"])
    assert got == [line("q", 1, 100, 60, 1, 2), line("p", 2, 100, 30, 1, 2)]


def test_the_lot_decides_last_and_keys_not_in_it_follow_by_key() -> None:
    results = [TableResult(1, ("m", "n"), (10, 10))]
    got = standings(["s", "n", "r", "m", "q"], results, [], lot=["q", "n", "m"])
    assert [(entry.key, entry.rank) for entry in got] == [
        ("n", 1),  # n and m are alike: the lot puts n first
        ("m", 2),
        ("q", 3),  # nothing played: the lot first, then by key
        ("r", 4),
        ("s", 5),
    ]
    assert got[2] == line("q", 3, 0, 0, 0, 0)


def test_byes_count_once_score_nothing_and_are_not_played() -> None:
    got = standings(["a", "b"], [], [(1, "a"), (2, "a"), (2, "a"), (1, "b")], lot=["b", "a"])
    assert got == [
        line("a", 1, 2 * BYE_POINTS, 0, 0, 0, byes=2),
        line("b", 2, BYE_POINTS, 0, 0, 0, 1),
    ]


def test_results_of_players_not_listed_are_left_out() -> None:
    results = [TableResult(1, ("a", "gone", None), (10, 30, 0))]
    got = standings(["a"], results, [(2, "gone")], lot=["a", "gone"])
    assert got == [line("a", 1, 50, 10, 0, 1)]


def test_the_final_decides_the_top_places_and_counts_in_the_totals() -> None:
    results = [
        TableResult(1, ("a", "b", "c"), (30, 20, 10)),  # 100, 50, 0
        TableResult(1, ("d", "e", "f"), (30, 20, 10)),  # 100, 50, 0
        TableResult(2, ("a", "d", "b"), (30, 20, 10)),  # 100, 50, 0
        TableResult(2, ("c", "e", "f"), (30, 20, 10)),  # 100, 50, 0
    ]
    lot = ["f", "e", "d", "c", "b", "a"]
    before = standings(list("abcdef"), results, [], lot)
    # c and e: the same points and score; c has a first.
    assert [entry.key for entry in before] == ["a", "d", "c", "e", "b", "f"]
    # The final: b wins it; d and a tie, and a was ranked higher before.
    final = TableResult(3, ("a", "d", "b"), (10, 10, 40))  # 25, 25, 100
    got = standings(list("abcdef"), results, [], lot, final=final)
    assert got == [
        line("b", 1, 50 + 0 + 100, 20 + 10 + 40, 1, 3),
        line("a", 2, 200 + 25, 60 + 10, 2, 3),
        line("d", 3, 150 + 25, 50 + 10, 1, 3),
        line("c", 4, 100, 40, 1, 2),
        line("e", 5, 100, 40, 0, 2),
        line("f", 6, 0, 20, 0, 2),
    ]


def test_a_final_with_a_bot_gives_it_no_line() -> None:
    results = [TableResult(1, ("a", "b"), (10, 0))]
    final = TableResult(2, ("b", None, "a"), (5, 9, 1))
    got = standings(["a", "b"], results, [], ["a", "b"], final=final)
    assert got == [line("b", 1, 0 + 50, 5, 0, 2), line("a", 2, 100 + 0, 11, 1, 2)]


def test_a_player_listed_twice_is_refused() -> None:
    with pytest.raises(ValueError):
        standings(["a", "a"], [], [], ["a"])
    with pytest.raises(ValueError):
        TableResult(1, ("a", "b"), (1,))


# --- properties of random tournaments --------------------------------------------------------


@st.composite
def tournaments(
    draw: st.DrawFn, one_table: bool = False
) -> tuple[list[str], list[TableResult], list[tuple[int, str]], list[str]]:
    """Players, the tables of a few series (with bots now and then), the byes and a lot
    that may leave some players out. With ``one_table``, each series has one table."""
    players = [f"p{index}" for index in range(draw(st.integers(1, 9)))]
    results: list[TableResult] = []
    byes: list[tuple[int, str]] = []
    for series in range(1, draw(st.integers(1, 5)) + 1):
        order = draw(st.permutations(players))
        seated = draw(st.integers(0, len(order)))
        byes.extend((series, key) for key in order[seated:])
        start = 0
        while start < seated:
            size = seated - start if one_table else draw(st.integers(1, seated - start))
            seats: list[str | None] = [*order[start : start + size]]
            seats += [None] * draw(st.integers(0 if size > 1 else 1, 2))
            seats = draw(st.permutations(seats))
            scores = draw(st.lists(st.integers(0, 40), min_size=len(seats), max_size=len(seats)))
            results.append(TableResult(series, tuple(seats), tuple(scores)))
            start += size
    lot = draw(st.permutations(players))
    lot = lot[: draw(st.integers(0, len(lot)))]
    return players, results, byes, lot


Tournament = tuple[list[str], list[TableResult], list[tuple[int, str]], list[str]]


@given(tournament=tournaments(), seed=st.integers(0, 2**32))
@settings(derandomize=True, max_examples=200)
def test_ranks_points_and_order_follow_the_rules(tournament: Tournament, seed: int) -> None:
    players, results, byes, lot = tournament
    got = standings(players, results, byes, lot)
    assert sorted(entry.key for entry in got) == sorted(players)
    assert [entry.rank for entry in got] == list(range(1, len(players) + 1))
    for entry in got:
        assert BYE_POINTS * entry.byes <= entry.points
        assert entry.points <= 100 * entry.played + BYE_POINTS * entry.byes
        assert entry.firsts <= entry.played
    drawn = {key: index for index, key in enumerate(lot)}
    for upper, lower in itertools.pairwise(got):
        ahead = (upper.points, upper.score, upper.firsts)
        behind = (lower.points, lower.score, lower.firsts)
        assert ahead >= behind
        if ahead == behind:
            up = (0, drawn[upper.key], "") if upper.key in drawn else (1, 0, upper.key)
            down = (0, drawn[lower.key], "") if lower.key in drawn else (1, 0, lower.key)
            assert up < down
    # Neither the order of the results nor of the byes matters.
    rng = random.Random(seed)
    shuffled, shuffled_byes = list(results), list(byes)
    rng.shuffle(shuffled)
    rng.shuffle(shuffled_byes)
    assert standings(players, shuffled, shuffled_byes, lot) == got


@given(tournament=tournaments(one_table=True))
@settings(derandomize=True, max_examples=300)
def test_who_sat_at_the_same_tables_and_beat_the_other_at_each_ranks_above(
    tournament: Tournament,
) -> None:
    """Two players who played exactly the same tables (at least one), where one scored
    more than the other at every one of them, are ranked in that order."""
    players, results, byes, lot = tournament
    rank = {entry.key: entry.rank for entry in standings(players, results, byes, lot)}
    tables = {
        key: [
            (index, result.scores[result.players.index(key)])
            for index, result in enumerate(results)
            if key in result.players
        ]
        for key in players
    }
    for a in players:
        for b in players:
            same = [index for index, _ in tables[a]] == [index for index, _ in tables[b]]
            if (
                a != b
                and same
                and tables[a]
                and all(x > y for (_, x), (_, y) in zip(tables[a], tables[b], strict=True))
            ):
                assert rank[a] < rank[b]


@given(tournament=tournaments(), data=st.data())
@settings(derandomize=True, max_examples=200)
def test_the_finalists_take_the_top_ranks_in_their_final_order(
    tournament: Tournament, data: st.DataObject
) -> None:
    players, results, byes, lot = tournament
    before = standings(players, results, byes, lot)
    finalists = [entry.key for entry in before[: data.draw(st.integers(1, 4))]]
    scores = data.draw(
        st.lists(st.integers(0, 20), min_size=len(finalists), max_size=len(finalists))
    )
    final = TableResult(9, tuple(finalists), tuple(scores))
    got = standings(players, results, byes, lot, final=final)
    assert [entry.rank for entry in got] == list(range(1, len(players) + 1))
    top = got[: len(finalists)]
    assert sorted(entry.key for entry in top) == sorted(finalists)
    position = {key: index for index, key in enumerate(finalists)}
    order = [(-scores[position[entry.key]], position[entry.key]) for entry in top]
    assert order == sorted(order)
    earlier = {entry.key: entry for entry in before}
    for entry in top:
        score = scores[position[entry.key]]
        assert entry.score == earlier[entry.key].score + score
        assert entry.played == earlier[entry.key].played + 1
    assert [entry.key for entry in got[len(finalists) :]] == [
        entry.key for entry in before if entry.key not in position
    ]
