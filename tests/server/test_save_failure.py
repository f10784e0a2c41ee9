"""Never acknowledge what is not saved: a database that cannot commit pauses play.

The database is really full here: SQLite's ``PRAGMA max_page_count`` caps the file at
the pages it has, so the next page the journal needs fails with SQLITE_FULL, as on a
full disk. (``test_full_disk.py`` fills a real small filesystem.) The checks:

- every ``view`` and ``event`` a client got is in the committed journal (read by a
  second connection to the file while the server runs);
- the table pauses and says so (``table.paused``), moves are refused with
  ``cannot_save``, and no timer or bot moves while it lasts;
- once the database can grow again, play resumes by itself: the held frames come in
  order with no gap in ``seq``, and the journal has no gap either, so a restart
  rebuilds the match exactly.
"""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path

import pytest
import trio
import trio.testing

from maumau.protocol.messages import (
    DrawCard,
    Error,
    GameEvent,
    MauDecision,
    Message,
    TableInfo,
    View,
)
from maumau.server.rules import action_from_record, apply, new_match
from maumau.server.store import Store, digest
from support.names_server import refused as refused_hello
from support.server_mock import seat_players, start_server


@pytest.fixture
def autojump_clock() -> trio.testing.MockClock:
    return trio.testing.MockClock(autojump_threshold=0)


def committed(path: Path, match_id: int) -> list[tuple[int, int]]:
    """(n, seq) of every journal row of the match that is committed, as another
    process would read them."""
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT n, seq FROM live_journal WHERE match_id=? UNION ALL "
            "SELECT n, seq FROM journal WHERE match_id=? ORDER BY n",
            (match_id, match_id),
        ).fetchall()
    return [(int(n), int(seq)) for n, seq in rows]


def fill_up(store: Store) -> None:
    """Let the database file grow no more."""
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count = {pages}")


def make_room(store: Store) -> None:
    store.db.execute("PRAGMA max_page_count = 1073741823")


def seqs(messages: list[Message], decisions: bool = True) -> list[int]:
    """The table sequence numbers of what a client got; a ``mau_decision`` follows the
    journaled action it decides, with a number of its own."""
    kinds = (View, GameEvent, MauDecision) if decisions else (View, GameEvent)
    return [m.seq for m in messages if isinstance(m, kinds)]


@pytest.mark.deadline(3000)
async def test_a_full_database_pauses_play_and_loses_nothing(
    nursery, autojump_clock, tmp_path: Path
) -> None:
    path = tmp_path / "s.db"
    store = Store(path)
    server = await start_server(nursery, bot_delay=0.1, store=store)
    settings = {"variant": "classic", "seats": 2, "target_score": 500, "turn_timeout_s": 30}
    (ann,), table = await seat_players(server, nursery, ["Ann"], settings, bots=(1,))
    table.seats[0].away = True  # a bot plays Ann's seat: both seats move by themselves
    table.schedule.update()
    assert table.match_id is not None
    fill_up(store)

    # Play goes on until the journal needs a page it cannot have.
    paused = await ann.wait_for(lambda m: isinstance(m, TableInfo) and m.paused, 600)
    assert paused.paused == "cannot_save" and server.cannot_save
    told = seqs(ann.received)
    assert told, "some play happened before the database was full"
    journal = committed(path, table.match_id)
    assert journal and max(seq for _, seq in journal) >= max(seqs(ann.received, False)), (
        "a client was told of something the database does not hold"
    )

    # The news of the pause tells only what was saved: the table as last told.
    infos = [m for m in ann.received if isinstance(m, TableInfo)]
    assert infos[-1] is paused and infos[-2].paused is None
    assert {**paused.to_wire(), "paused": None} == {**infos[-2].to_wire(), "paused": None}

    # A new player cannot come in (nothing about them could be kept).
    bob = await refused_hello(server, nursery, "Bob")
    assert bob.code == "cannot_save" and bob.fatal

    # While it lasts: moves are refused, nothing moves, nothing about the table is sent.
    await ann.send(DrawCard())
    refused = await ann.wait_for(Error)
    assert refused.code == "cannot_save" and "disk" in refused.message
    before = len(ann.received)
    with trio.move_on_after(120):  # four turn timeouts, and many bot moves, if time ran on
        while True:
            await ann.receive()  # (and answer the server's pings)
    assert not [m for m in ann.received[before:] if isinstance(m, View | GameEvent)]
    assert table.match is not None and server.cannot_save

    # Room again: the server notices by itself and play resumes where it stopped.
    make_room(store)
    resumed = await ann.wait_for(lambda m: isinstance(m, TableInfo) and not m.paused, 10)
    assert resumed.state == "playing" and not server.cannot_save
    await ann.wait_for(lambda m: isinstance(m, View) and m.seq > max(told) + 20, 600)
    after = seqs(ann.received)
    assert after == sorted(after) and after[0] <= min(told)
    gaps = [b - a for a, b in itertools.pairwise(after) if b - a > 1]
    assert not gaps, f"seq jumps by {gaps}: something told was not sent"

    # Every action is journaled once, in order, and a restart rebuilds the match.
    server.commit()
    journal = committed(path, table.match_id)
    assert [n for n, _ in journal] == list(range(1, len(journal) + 1))
    assert journal[-1][1] >= ann.view.seq
    state = table.match
    record = store.match(table.match_id)
    assert record is not None
    rebuilt, _ = new_match(table.settings, record.seed)
    for entry in store.journal(table.match_id):
        apply(rebuilt, action_from_record(entry.action))
    assert rebuilt.hands == state.hands and rebuilt.discard == state.discard
    assert rebuilt.scores == state.scores and rebuilt.turn == state.turn


@pytest.mark.deadline(3000)
async def test_a_database_that_never_saves_again_keeps_the_table_paused(
    nursery, autojump_clock, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = Store(tmp_path / "s.db")
    server = await start_server(nursery, bot_delay=0.1, store=store)
    settings = {"variant": "classic", "seats": 2, "target_score": 1}
    (ann,), table = await seat_players(server, nursery, ["Ann"], settings, bots=(1,))
    store.db.close()  # from now on every write fails
    table.seats[0].away = True
    table.schedule.update()
    paused = await ann.wait_for(lambda m: isinstance(m, TableInfo) and m.paused, 600)
    assert paused.paused == "cannot_save"
    await trio.sleep(600)
    assert not any(isinstance(m, View) and m.phase == "match_over" for m in ann.received)
    assert "the database cannot save" in caplog.text
    assert "still cannot save" in caplog.text


def test_a_write_that_can_never_succeed_is_dropped_not_retried_forever(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = Store(tmp_path / "s.db")
    assert store.check_player("Ann", "ann-secret-0123456789") == "new"
    store.commit()
    # A bug's write: the same player row again (a constraint error, every time).
    store._write("INSERT INTO players VALUES (?, ?, ?)", ("Ann", "x", 0.0))
    store.save_session("k", "s1", "Bob", None)
    store.commit()  # the rest of the group is saved; the store is not stuck
    assert not store.failing and not store.dirty
    assert "a write was refused and dropped" in caplog.text
    with sqlite3.connect(tmp_path / "s.db") as db:
        assert db.execute("SELECT name FROM sessions").fetchall() == [("Bob",)]


def test_a_full_database_keeps_the_group_and_saves_it_once_there_is_room(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "s.db")
    store.commit()
    fill_up(store)
    for n in range(1, 400):
        store.append(7, n, ["draw", 0], n, {"turn": 1000})
    with pytest.raises(sqlite3.Error):
        store.commit()
    assert store.failing and store.dirty
    store.save_session("k", "s1", "Bob", None)  # kept with the group, not run
    with pytest.raises(sqlite3.Error):
        store.commit()
    make_room(store)
    store.commit()
    assert not store.failing and not store.dirty
    assert [entry.n for entry in store.journal(7)] == list(range(1, 400))
    with sqlite3.connect(tmp_path / "s.db") as db:
        assert db.execute("SELECT name FROM sessions").fetchall() == [("Bob",)]


def test_names_reserved_before_look_alikes_were_refused_keep_their_owners(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.db"
    Store(path).close()
    with sqlite3.connect(path) as db:  # an older server reserved both, and a damaged name
        db.execute("INSERT INTO players VALUES ('Ann', ?, 1)", (digest("ann-secret-0123456789"),))
        db.execute("INSERT INTO players VALUES ('ANN', ?, 2)", (digest("ANN-secret-0123456789"),))
        db.execute("INSERT INTO players VALUES (CAST(x'4361ff726f6c' AS TEXT), 'x', 3)")
    store = Store(path)
    assert store.check_player("Ann", "ann-secret-0123456789") == "ok"
    assert store.check_player("ANN", "ANN-secret-0123456789") == "ok"
    assert store.check_player("ANN", "ann-secret-0123456789") == "reserved"
    assert store.check_player("aNN", "new-secret-0123456789") == "reserved"
    assert store.check_player("Zoë", "zoe-secret-0123456789") == "new"
