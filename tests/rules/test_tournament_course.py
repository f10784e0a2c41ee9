"""A tournament's course, as pure decisions on its data (maumau.server.tournament.course):
who plays the next series, what the series records, and what follows it."""

from __future__ import annotations

from maumau.server.tournament import course
from maumau.server.tournament.state import Entry, SeriesTable, TournamentState


def tournament(
    players: int, series: int = 2, final: bool = False, bots: bool = False
) -> TournamentState:
    made = TournamentState(
        id=1,
        name="Cup",
        director="Ann",
        director_key="k0",
        settings={"variant": "classic", "seats": 4},
        series=series,
        deals=None,
        final=final,
        bots=bots,
        late_join=True,
        password=None,
        seed=7,
    )
    made.entries = [Entry(f"k{i}", f"P{i}") for i in range(players)]
    return made


def play_out(made: TournamentState) -> None:
    """Begin the next series and give each of its tables scores (seat order wins)."""
    plan = course.plan_series(made)
    assert plan is not None
    course.begin_series(made, plan, now=1000.0)
    for keys in plan.seating.tables:
        made.tables.append(SeriesTable(100 + len(made.tables), plan.number, list(keys), list(keys)))
        assert course.record_result(made, made.tables[-1].id, list(range(len(keys))), 3)


def test_one_player_plays_only_where_bots_may_sit() -> None:
    assert course.plan_series(tournament(1)) is None
    plan = course.plan_series(tournament(1, bots=True))
    assert plan is not None and plan.seating.bots == (3,)


def test_the_first_series_draws_the_lot_once_and_records_byes() -> None:
    made = tournament(9)
    plan = course.plan_series(made)
    assert plan is not None and (plan.number, plan.final) == (1, False)
    course.begin_series(made, plan, now=1000.0)
    assert (made.series_no, made.state, made.series_started) == (1, "playing", 1000.0)
    assert sorted(made.lot) == sorted(e.key for e in made.entries)
    assert made.byes == [(1, key) for key in plan.seating.byes]
    lot = list(made.lot)
    made.state = "break"
    later = course.plan_series(made)
    assert later is not None
    course.begin_series(made, later, now=2000.0)
    assert made.lot == lot  # drawn at the first start only


def test_a_result_counts_once() -> None:
    made = tournament(4)
    made.tables.append(SeriesTable(5, 1, ["k0", "k1", "k2", "k3"], ["a", "b", "c", "d"]))
    assert course.record_result(made, 5, [10, 0, 3, 4], 6)
    assert not course.record_result(made, 5, [0, 0, 0, 0], 9)
    assert not course.record_result(made, 6, [0, 0, 0, 0], 9)
    assert (made.tables[0].scores, made.tables[0].rounds) == ([10, 0, 3, 4], 6)


def test_what_follows_a_series() -> None:
    made = tournament(8, series=2, final=True)
    play_out(made)
    assert course.after_series(made) == "break"
    play_out(made)
    assert course.after_series(made) == "break"  # the final is next
    final = course.plan_series(made)
    assert final is not None and final.final and final.number == 3
    assert len(final.seating.tables) == 1
    play_out(made)
    assert course.after_series(made) == "finish"
    without = tournament(8, series=1)
    play_out(without)
    assert course.after_series(without) == "finish"


def test_no_final_when_one_player_is_left() -> None:
    made = tournament(4, series=1, final=True)
    play_out(made)
    for entry in made.entries[1:]:
        entry.withdrawn = True
    assert course.after_series(made) == "finish"


def test_a_series_table_is_named_and_set_from_the_tournament() -> None:
    made = tournament(4)
    made.deals = 3
    assert course.table_label(made, 2, 0) == "Cup 2.1"
    assert course.table_label(made, made.final_no, 0) == "Cup final"
    values = course.table_settings(made, 3)
    assert values["seats"] == 3 and values["deals"] == 3
    course.close(made, "cancelled", now=5.0)
    assert (made.state, made.finished_at, made.starts_at) == ("cancelled", 5.0, None)
