"""The SQLite store and the journal's action records."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from maumau.server.rules import (
    EndCallWindow,
    NextRound,
    Play,
    Settings,
    TurnTimeout,
    action_from_record,
    action_to_record,
    apply,
    legal_actions,
    new_match,
)
from maumau.server.store import SCHEMA_VERSION, Store, StoreError, TableRecord, digest


def random_actions(variant: str, seed: int, steps: int) -> list[object]:
    """Actions of a random-legal match, system actions included."""
    state, _ = new_match(Settings.create(variant, seats=3), seed)
    rng = random.Random(seed)
    taken: list[object] = []
    for _ in range(steps):
        if state.phase == "match_over":
            break
        if state.phase == "round_over":
            action: object = NextRound()
        elif state.windows and rng.random() < 0.3:
            action = EndCallWindow(state.windows[0].id)
        elif rng.random() < 0.02 and state.phase == "playing":
            action = TurnTimeout(state.turn)
        else:
            seats = [s for s in range(3) if legal_actions(state, s)]
            if not seats:
                action = EndCallWindow(state.windows[0].id)
            else:
                action = rng.choice(legal_actions(state, rng.choice(seats)))
        apply(state, action)  # type: ignore[arg-type]
        taken.append(action)
    return taken


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["classic", "american"]), st.integers(0, 2**32))
def test_every_action_survives_its_record(variant: str, seed: int) -> None:
    for action in random_actions(variant, seed, 200):
        record = action_to_record(action)  # type: ignore[arg-type]
        assert action_from_record(record) == action
        assert action_from_record(list(record)) == action


def test_replaying_records_rebuilds_the_match() -> None:
    actions = random_actions("classic", 9, 400)
    records = [action_to_record(a) for a in actions]  # type: ignore[arg-type]
    original, _ = new_match(Settings.create("classic", seats=3), 9)
    for action in actions:
        apply(original, action)  # type: ignore[arg-type]
    rebuilt, _ = new_match(Settings.create("classic", seats=3), 9)
    for record in records:
        apply(rebuilt, action_from_record(record))
    assert rebuilt.to_dict() == original.to_dict()


@pytest.mark.parametrize(
    "record",
    [[], ["fly", 1], ["play", 1, 2], ["play", 0, "7H", -1, None], ["say", 0, "hooray"], "play"],
)
def test_bad_records_are_refused(record: object) -> None:
    with pytest.raises(ValueError):
        action_from_record(record)  # type: ignore[arg-type]


def test_play_record_is_compact() -> None:
    assert action_to_record(Play(2, 17, -1, "mau")) == ["play", 2, 17, -1, "mau"]


def test_a_name_belongs_to_its_first_secret(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    assert store.check_player("Ann", None) == "free"
    assert store.check_player("Ann", "ann-secret-0123456789", claim=False) == "free"
    assert store.check_player("Ann", "ann-secret-0123456789") == "new"
    assert store.check_player("Ann", "ann-secret-0123456789") == "ok"
    assert store.check_player("Ann", "someone-else-0123456") == "reserved"
    assert store.check_player("Ann", None) == "reserved"
    (stored,) = store.db.execute("SELECT secret_sha256 FROM players").fetchone()
    assert stored == digest("ann-secret-0123456789")
    assert "ann-secret" not in (tmp_path / "s.db").read_bytes().decode("latin-1")


def test_tables_sessions_and_journal_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = Store(path)
    assert store.next_table_id() == 1
    seats = [{"name": "Ann", "bot": False, "session": "s1"}, {"name": "Ada", "bot": True}]
    store.save_table(
        TableRecord(4, "T", {"variant": "classic"}, "Ann", None, "playing", seats, 7, 1)
    )
    store.save_session(digest("tok"), "s1", "Ann", 4)
    match_id = store.start_match(4, "T", {"variant": "classic"}, 99, ["Ann", "Ada"], [False, True])
    store.append(match_id, 1, ["draw", 0], 8, {"turn": 1000, "next_round": None, "windows": []})
    store.close()
    again = Store(path)
    (table,) = again.open_tables()
    assert (table.id, table.status, table.seats, table.match_id) == (4, "playing", seats, 1)
    assert again.next_table_id() == 5
    (session,) = again.sessions()
    assert (session.token_sha256, session.id, session.table_id) == (digest("tok"), "s1", 4)
    (entry,) = again.journal(match_id)
    assert (entry.n, entry.action, entry.seq, entry.timers["turn"]) == (1, ["draw", 0], 8, 1000)
    again.close_table(4)
    assert again.open_tables() == []


def test_results_make_the_leaderboard(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    names = ["Ann", "Ada", "Bob"]
    bots = [False, True, False]
    first = store.start_match(1, "T", {"variant": "classic"}, 1, names, bots)
    store.round_over(first, 1, 0, 30, [0, 10, 20])
    store.round_over(first, 2, 0, 160, [0, 100, 60])
    store.finish_match(first, 0, [0, 100, 60])
    second = store.start_match(1, "T", {"variant": "classic"}, 2, names, bots)
    store.round_over(second, 1, 2, 150, [90, 60, 0])
    store.finish_match(second, 2, [90, 60, 0])
    unfinished = store.start_match(1, "T", {"variant": "classic"}, 3, names, bots)
    board = store.leaderboard(10)
    assert [row["name"] for row in board] == ["Ann", "Bob"]  # one win each: higher average
    assert board[0] == {
        "name": "Ann",
        "matches": 2,
        "wins": 1,
        "rounds_won": 2,
        "average_score": 45.0,
    }
    assert store.player_stats("Bob") == {
        "name": "Bob",
        "matches": 2,
        "wins": 1,
        "rounds_won": 1,
        "average_score": 30.0,
    }
    assert store.player_stats("Ada") is None  # bots are not ranked
    finished = store.finished_matches(10)
    assert [m.id for m in finished] == [second, first]
    assert unfinished not in [m.id for m in finished]
    assert [m.id for m in store.finished_matches(10, name="Ann")] == [second, first]
    assert store.finished_matches(10, name="Ada") == []


def test_two_servers_cannot_share_a_database(tmp_path: Path) -> None:
    first = Store(tmp_path / "s.db")
    with pytest.raises(StoreError, match="another maumau-server"):
        Store(tmp_path / "s.db")
    first.close()
    Store(tmp_path / "s.db").close()


def test_a_file_that_is_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="cannot use"):
        Store(path)


def test_database_runs_in_wal_mode(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    (mode,) = store.db.execute("PRAGMA journal_mode").fetchone()
    assert mode == "wal"
    store.close()
    with sqlite3.connect(tmp_path / "s.db") as db:
        assert db.execute("SELECT value FROM meta WHERE key='schema'").fetchone() == (
            str(SCHEMA_VERSION),
        )


def _rows(path: Path, table: str) -> list[tuple[int, int]]:
    with sqlite3.connect(path) as db:
        return db.execute(f"SELECT match_id, n FROM {table} ORDER BY match_id, n").fetchall()


def test_running_journals_are_appended_then_archived_once_their_match_ends(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.db"
    store = Store(path)
    timers = {"turn": 1000, "next_round": None, "windows": []}
    seats = [{"name": "Ann", "bot": False}, {"name": "Ada", "bot": True}]
    ids = []
    for table in (1, 2, 3):
        store.save_table(
            TableRecord(table, "T", {"variant": "classic"}, "Ann", None, "playing", seats, 0, None)
        )
        match_id = store.start_match(table, "T", {}, 1, ["Ann", "Ada"], [False, True])
        store.save_table(TableRecord(table, "T", {}, "Ann", None, "playing", seats, 0, match_id))
        ids.append(match_id)
    for n in (1, 2, 3):
        for match_id in ids:  # interleaved, as running tables write them
            store.append(match_id, n, ["draw", n % 2], n, timers)
    store.commit()
    assert _rows(path, "journal") == []
    assert len(_rows(path, "live_journal")) == 9
    assert not store.archive_due and store.archive() == 0
    store.round_over(ids[0], 1, 0, 150, [150, 0])
    store.finish_match(ids[0], 0, [150, 0])
    store.close_table(2)  # abandoned: its match ends unfinished
    assert store.archive_due
    assert store.archive() == 6
    assert _rows(path, "journal") == [(ids[0], n) for n in (1, 2, 3)] + [
        (ids[1], n) for n in (1, 2, 3)
    ]
    assert _rows(path, "live_journal") == [(ids[2], n) for n in (1, 2, 3)]
    for match_id in ids:  # read the same wherever the rows are
        assert [e.n for e in store.journal(match_id)] == [1, 2, 3]
        assert [e.action for e in store.journal(match_id)] == [
            ["draw", 1],
            ["draw", 0],
            ["draw", 1],
        ]
        assert store.journal_length(match_id) == 3
    store.close()


def test_a_crash_before_archiving_is_made_good_at_the_next_start(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = Store(path)
    seats = [{"name": "Ann", "bot": False}]
    store.save_table(TableRecord(1, "T", {}, "Ann", None, "playing", seats, 0, None))
    match_id = store.start_match(1, "T", {}, 1, ["Ann"], [False])
    store.save_table(TableRecord(1, "T", {}, "Ann", None, "playing", seats, 0, match_id))
    store.append(match_id, 1, ["draw", 0], 1, {})
    store.close_table(1)
    store.commit()
    store.db.close()  # as a crash would: no archive, and the lock let go
    assert store._lock is not None
    store._lock.close()
    again = Store(path)
    assert again.archive_due
    assert again.archive() == 1
    assert _rows(path, "journal") == [(match_id, 1)]
    again.close()


def test_a_version_1_database_is_upgraded_and_its_running_journals_kept(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = Store(path)
    seats = [{"name": "Ann", "bot": False}]
    store.save_table(TableRecord(1, "T", {}, "Ann", None, "playing", seats, 0, None))
    match_id = store.start_match(1, "T", {}, 1, ["Ann"], [False])
    store.save_table(TableRecord(1, "T", {}, "Ann", None, "playing", seats, 0, match_id))
    store.close()
    with sqlite3.connect(path) as db:  # as version 1 left it: the journal keyed by match
        db.execute("DROP TABLE live_journal")
        db.execute("UPDATE meta SET value='1' WHERE key='schema'")
        db.execute("INSERT INTO journal VALUES (?, 1, '[\"draw\",0]', 1, '{}', 0)", (match_id,))
    again = Store(path)
    again.append(match_id, 2, ["pass", 0], 2, {})
    assert [(e.n, e.action) for e in again.journal(match_id)] == [
        (1, ["draw", 0]),
        (2, ["pass", 0]),
    ]
    assert not again.archive_due  # the match still runs
    again.close()
    with sqlite3.connect(path) as db:
        schema = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
    assert schema == (str(SCHEMA_VERSION),)
