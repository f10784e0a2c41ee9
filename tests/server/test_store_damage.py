"""A damaged database, end to end: the real ``maumau-server`` on real damaged files.

One database is made once by the real server (three tables, one of them in the
middle of a match against bots, and four players' sessions), the server is killed
with ``kill -9`` and its WAL folded into the file. Each test damages a copy of it the
way disks, editors and people do, and starts the real command on it:

- a row whose JSON or a column cannot be read: the server starts, that table (or
  session) is logged by its id and left out, the others come back, a client sees
  them in the lobby and a player resumes with their token;
- damaged pages, a truncated file, a text file, another program's database: the
  command exits with 1 at once, with one line on stderr naming the file and what to
  do, no traceback, and nothing written to the file.

A few in-process tests check the store's reading row by row and the time budget of
the check at opening.
"""

from __future__ import annotations

import logging
import random
import shutil
import signal
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import trio
from wireclient import ServerClosed, WireClient

from maumau.protocol.messages import CreateTable, Lobby, StartMatch, TableInfo, View
from maumau.server.store import Store, StoreDamaged, TableRecord
from maumau.server.store import check as store_module
from support.wire import SERVER_CLI, start_server_process

OPTIONS = ["--host", "127.0.0.1", "--port", "0"]
SERVER = [*SERVER_CLI, *OPTIONS]
NAMES = ("Alpha", "Bravo", "Charlie")


@dataclass(frozen=True, slots=True)
class Built:
    """A database made by the real server, and what its clients were told."""

    path: Path
    tables: dict[str, int]  # table name -> id
    tokens: dict[str, str]  # player -> resume token
    session_ids: dict[str, str]  # player -> session id


def start(db: Path) -> tuple[subprocess.Popen[str], int]:
    """Start the real server on ``db``; its port once it listens."""
    return start_server_process(*OPTIONS, "--db", str(db), "--seed", "7", "--bot-delay", "0.05")


def stop(process: subprocess.Popen[str]) -> str:
    """SIGTERM; the server's stderr."""
    process.send_signal(signal.SIGTERM)
    try:
        _, err = process.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate(timeout=10)
    return err


async def _build(path: Path) -> Built:
    process, port = start(path)
    try:
        ann = await WireClient.connect("127.0.0.1", port, "Ann", secret="ann-secret-0123456789")
        await ann.send(CreateTable("Alpha", {"seats": 3}, bots=()))
        alpha = await ann.wait_for(TableInfo)
        bob = await WireClient.connect("127.0.0.1", port, "Bob", secret="bob-secret-0123456789")
        await bob.send(CreateTable("Bravo", {"seats": 3}, bots=(1, 2)))
        bravo = await bob.wait_for(TableInfo)
        await bob.send(StartMatch())
        await bob.wait_for(lambda m: isinstance(m, View) and m.phase == "playing")
        cid = await WireClient.connect("127.0.0.1", port, "Cid")
        await cid.send(CreateTable("Charlie", {"seats": 4}, bots=(1,)))
        charlie = await cid.wait_for(TableInfo)
        dee = await WireClient.connect("127.0.0.1", port, "Dee")  # in the lobby
        await dee.wait_for(lambda m: isinstance(m, Lobby) and len(m.tables) == 3)
        with trio.move_on_after(0.5):  # the bots play up to Bob's turn
            while True:
                await bob.receive()
        clients = (ann, bob, cid, dee)
    finally:
        process.kill()  # kill -9: everything a client was told is committed
        process.communicate(timeout=10)
    with sqlite3.connect(path) as db:  # fold the WAL into the file
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    for client in clients:
        await client.aclose()
    with sqlite3.connect(path) as db:
        (journaled,) = db.execute("SELECT COUNT(*) FROM live_journal").fetchone()
    db.close()
    assert journaled > 0, "Bravo's match must have a journal to replay"
    return Built(
        path,
        {"Alpha": alpha.id, "Bravo": bravo.id, "Charlie": charlie.id},
        {c.name: c.welcome.resume for c in clients if c.welcome is not None},
        {c.name: c.welcome.session for c in clients if c.welcome is not None},
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    return trio.run(_build, tmp_path_factory.mktemp("built") / "server.db")


@pytest.fixture
def copy(built: Built, tmp_path: Path) -> Iterator[Path]:
    """A fresh copy of the built database, to damage."""
    path = tmp_path / "server.db"
    shutil.copyfile(built.path, path)
    yield path


def execute(path: Path, *statements: str) -> None:
    """Run statements on the file with plain sqlite3, each on a fresh connection."""
    for statement in statements:
        db = sqlite3.connect(path, isolation_level=None)
        try:
            db.executescript(statement)
        finally:
            db.close()


def set_null(path: Path, table: str, column: str, where: str) -> None:
    """Put a NULL in a NOT NULL column, as a damaged record header does: the schema
    is loosened for the update and then put back as it was."""
    loosened = f"replace(sql, '{column} TEXT NOT NULL', '{column} TEXT')"
    tightened = f"replace(sql, '{column} TEXT,', '{column} TEXT NOT NULL,')"
    execute(
        path,
        f"PRAGMA writable_schema=ON; UPDATE sqlite_master SET sql={loosened} WHERE name='{table}'",
        f"UPDATE {table} SET {column}=NULL WHERE {where}",
        f"PRAGMA writable_schema=ON; UPDATE sqlite_master SET sql={tightened} WHERE name='{table}'",
    )
    db = sqlite3.connect(path)
    (sql,) = db.execute("SELECT sql FROM sqlite_master WHERE name=?", (table,)).fetchone()
    db.close()
    assert f"{column} TEXT NOT NULL" in sql


def page_of(path: Path, table: str) -> tuple[int, int]:
    """The offset and size of ``table``'s root page (a small table's only page)."""
    db = sqlite3.connect(path)
    (size,) = db.execute("PRAGMA page_size").fetchone()
    (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name=?", (table,)).fetchone()
    db.close()
    return (root - 1) * size, size


def overwrite(path: Path, offset: int, data: bytes) -> None:
    with path.open("r+b") as handle:
        handle.seek(offset)
        handle.write(data)


async def lobby_of(port: int, name: str) -> set[str]:
    """The tables a new player sees in the lobby."""
    client = await WireClient.connect("127.0.0.1", port, name)
    lobby = await client.wait_for(Lobby)
    await client.aclose()
    return {table["name"] for table in lobby.tables}


async def resume(port: int, built: Built, name: str) -> WireClient:
    client = await WireClient.connect("127.0.0.1", port, name, resume=built.tokens[name])
    assert client.welcome is not None and client.welcome.resumed
    return client


def refused(path: Path) -> str:
    """Start the real command on a damaged file: it must refuse at once, with one
    line on stderr (no traceback) naming the file; that line."""
    started = time.monotonic()
    done = subprocess.run([*SERVER, "--db", str(path)], capture_output=True, text=True, timeout=30)
    assert time.monotonic() - started < 15
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert str(path) in lines[0] and "--no-db" in lines[0]
    assert "listening" not in done.stdout
    return lines[0]


# --- rows that cannot be read: the rest starts --------------------------------------------


async def test_the_undamaged_database_brings_everything_back(built: Built, copy: Path) -> None:
    process, port = start(copy)
    try:
        assert await lobby_of(port, "Eve") == set(NAMES)
        bob = await resume(port, built, "Bob")
        info = await bob.wait_for(TableInfo)
        assert info.id == built.tables["Bravo"] and info.state == "playing"
        await bob.aclose()
    finally:
        err = stop(process)
    assert "cannot be read" not in err and "Traceback" not in err


async def test_a_table_whose_json_is_broken_is_logged_by_id_and_the_rest_start(
    built: Built, copy: Path
) -> None:
    bravo = built.tables["Bravo"]
    execute(copy, f"""UPDATE tables SET settings='{{"variant": "clas' WHERE id={bravo}""")
    process, port = start(copy)
    try:
        assert await lobby_of(port, "Eve") == {"Alpha", "Charlie"}
        bob = await resume(port, built, "Bob")  # Bob sat at Bravo: back in the lobby
        lobby = await bob.wait_for(Lobby)
        assert {t["name"] for t in lobby.tables} == {"Alpha", "Charlie"}
        assert bob.table is None
        await bob.aclose()
        ann = await resume(port, built, "Ann")
        assert (await ann.wait_for(TableInfo)).id == built.tables["Alpha"]
        await ann.aclose()
    finally:
        err = stop(process)
    assert f"table {bravo} cannot be read (settings: " in err
    assert "Traceback" not in err
    db = sqlite3.connect(copy)
    (still_open,) = db.execute("SELECT open FROM tables WHERE id=?", (bravo,)).fetchone()
    db.close()
    assert still_open == 1  # left as it was, to be reported again until repaired


async def test_null_columns_of_a_table_and_a_session_are_logged_and_skipped(
    built: Built, copy: Path
) -> None:
    alpha = built.tables["Alpha"]
    set_null(copy, "tables", "seats", f"id={alpha}")
    set_null(copy, "sessions", "name", f"id='{built.session_ids['Dee']}'")
    process, port = start(copy)
    try:
        assert await lobby_of(port, "Eve") == {"Bravo", "Charlie"}
        cid = await resume(port, built, "Cid")
        assert (await cid.wait_for(TableInfo)).id == built.tables["Charlie"]
        await cid.aclose()
        with pytest.raises(ServerClosed):  # refused: "unknown_resume"
            await WireClient.connect("127.0.0.1", port, "Dee", resume=built.tokens["Dee"])
        assert await lobby_of(port, "Dee") == {"Bravo", "Charlie"}  # Dee comes in afresh
    finally:
        err = stop(process)
    assert "NULL value in tables.seats" in err  # the check's warning: it started anyway
    assert f"table {alpha} cannot be read (seats is None)" in err
    assert f"session '{built.session_ids['Dee']}' (row " in err
    assert "Traceback" not in err


async def test_damaged_bytes_inside_a_row_skip_that_table(built: Built, copy: Path) -> None:
    offset, size = page_of(copy, "tables")
    page = copy.read_bytes()[offset : offset + size]
    at = page.index(b'Bravo{"')  # the row's name, then its settings
    overwrite(copy, offset + at + 5, b"\x07\x00\xff")  # bytes of the JSON: no longer JSON
    process, port = start(copy)
    try:
        assert await lobby_of(port, "Eve") == {"Alpha", "Charlie"}
    finally:
        err = stop(process)
    assert f"table {built.tables['Bravo']} cannot be read" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "action",
    [
        "x'c1'",  # not msgpack: the journal cannot be read
        "x'92a3666c7901'",  # ["fly", 1]: read, but no action (the seats are set by then)
    ],
)
async def test_a_match_whose_journal_cannot_be_replayed_closes_its_table(
    built: Built, copy: Path, action: str
) -> None:
    bravo = built.tables["Bravo"]
    execute(copy, f"UPDATE live_journal SET action={action} WHERE n=1")
    process, port = start(copy)
    try:
        assert await lobby_of(port, "Eve") == {"Alpha", "Charlie"}
        bob = await resume(port, built, "Bob")  # seated there: back in the lobby
        await bob.wait_for(Lobby)
        with trio.move_on_after(0.3):
            await bob.wait_for(TableInfo)
        assert bob.table is None
        await bob.aclose()
    finally:
        err = stop(process)
    assert f"table {bravo} could not be restored (" in err
    assert "Traceback" not in err
    db = sqlite3.connect(copy)
    (still_open,) = db.execute("SELECT open FROM tables WHERE id=?", (bravo,)).fetchone()
    db.close()
    assert still_open == 0


# --- a file that cannot be used: one line, exit 1 ---------------------------------------


def test_a_damaged_page_of_the_tables_refuses_to_start(copy: Path) -> None:
    offset, size = page_of(copy, "tables")
    overwrite(copy, offset, random.Random(1).randbytes(size))
    before = copy.read_bytes()
    line = refused(copy)
    assert "is damaged (database disk image is malformed)" in line
    assert ".recover" in line and "Move it aside" in line
    assert copy.read_bytes() == before  # nothing written to it


def test_damaged_pages_in_the_middle_of_the_file_refuse_to_start(copy: Path) -> None:
    offset, size = page_of(copy, "live_journal")
    overwrite(copy, offset + 100, random.Random(2).randbytes(2 * size))
    assert "is damaged (" in refused(copy)


def test_a_truncated_file_refuses_to_start(copy: Path) -> None:
    with copy.open("r+b") as handle:
        handle.truncate(copy.stat().st_size // 2)
    assert "is damaged (" in refused(copy)


def test_a_file_cut_inside_its_header_refuses_to_start(copy: Path) -> None:
    with copy.open("r+b") as handle:
        handle.truncate(60)
    assert "is damaged (" in refused(copy)


def test_a_text_file_refuses_to_start(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("shopping: milk, eggs\n" * 200)
    line = refused(path)
    assert "is not a SQLite database" in line and "--db PATH" in line
    assert path.read_text() == "shopping: milk, eggs\n" * 200


def test_another_programs_database_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "places.sqlite"
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT);")
    db.execute("INSERT INTO moz_places VALUES (1, 'https://example.org/')")
    db.commit()
    db.close()
    before = path.read_bytes()
    line = refused(path)
    assert "is not maumau's" in line and "moz_places" in line
    assert path.read_bytes() == before


# --- in process: reading row by row, the check's budget --------------------------------


def record(id: int) -> TableRecord:
    return TableRecord(id, f"T{id}", {"variant": "classic"}, "Ann", None, "waiting", [{}], 0, None)


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        ("settings='{'", "settings: Expecting property name"),
        ("settings='[1, 2]'", "settings is [1, 2]"),
        ("seats='[\"Ann\"]'", "a seat is 'Ann'"),
        ("seats=x'00ff'", "seats is b'\\x00\\xff'"),
        ("seq='many'", "seq is 'many'"),
        ("name=x'414e'", "name is b'AN'"),
        ("match_id='one'", "match_id is 'one'"),
        ("creator=x'01'", "creator is b'\\x01'"),
        ("seats='" + "[" * 100_000 + "]" * 100_000 + "'", "maximum recursion depth"),
    ],
)
def test_each_unreadable_table_row_is_skipped(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, damage: str, said: str
) -> None:
    path = tmp_path / "s.db"
    store = Store(path)
    for id in (1, 2, 3):
        store.save_table(record(id))
    store.save_session("a" * 64, "s1", "Ann", 1)
    store.save_session("b" * 64, "s2", "Bob", None)
    store.commit()
    store.db.execute(f"UPDATE tables SET {damage} WHERE id=2")
    store.db.execute("UPDATE sessions SET table_id='two' WHERE id='s2'")
    with caplog.at_level(logging.ERROR, "maumau.server.store"):
        assert [t.id for t in store.open_tables()] == [1, 3]
        assert [s.id for s in store.sessions()] == ["s1"]
    assert f"table 2 cannot be read ({said}" in caplog.text
    assert "session 's2' (row 2) cannot be read (table_id is 'two')" in caplog.text
    store.close()


def test_a_check_past_its_budget_is_cut_short_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.db"
    store = Store(path)
    store.save_table(record(1))
    store.commit()
    store.db.execute(  # 7 MB of journal: the check takes about 0.1 s
        "INSERT INTO live_journal WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL "
        "SELECT n + 1 FROM c WHERE n < 100000) "
        "SELECT 1, n, randomblob(40), n, randomblob(10), 0.0 FROM c"
    )
    store.close()
    db = sqlite3.connect(path)
    assert store_module._quick_check(db, 0.001, 5) is None
    assert store_module._quick_check(db, 10.0, 5) == []  # the same check, given the time
    db.close()
    monkeypatch.setattr(store_module, "CHECK_BUDGET_S", 0.001)
    with caplog.at_level(logging.WARNING, "maumau.server.store"):
        store = Store(path)
    assert "the integrity check was cut short after 0.001 s" in caplog.text
    assert [t.id for t in store.open_tables()] == [1]
    store.close()


def test_a_scan_that_meets_a_damaged_page_keeps_the_rows_before_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.db"
    store = Store(path)
    for id in range(1, 200):
        store.save_table(record(id))
    store.close()
    offset, size = page_of(path, "tables")
    root = path.read_bytes()[offset : offset + size]
    assert root[0] == 0x05  # an interior page: its right-most child is the last leaf
    last_leaf = int.from_bytes(root[8:12], "big")
    overwrite(path, (last_leaf - 1) * size, b"\xff" * size)
    monkeypatch.setattr(store_module, "_quick_check", lambda *_: None)  # cut short before it
    store = Store(path)
    with caplog.at_level(logging.ERROR, "maumau.server.store"):
        ids = [t.id for t in store.open_tables()]
    assert ids == list(range(1, len(ids) + 1)) and 0 < len(ids) < 199
    assert "the tables after those read so far cannot be read" in caplog.text
    store.db.close()


def test_a_refused_file_keeps_no_lock(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    path.write_text("not a database" * 100)
    with pytest.raises(StoreDamaged) as caught:
        Store(path)
    assert caught.value.kind == "not-a-database" and caught.value.path == str(path)
    with pytest.raises(StoreDamaged):  # not "another maumau-server is using it"
        Store(path)
