"""Whole tournaments over real TCP against the real ``maumau-server``: twelve players
(protocol clients, and two whose seats bots play) to the final standings; and a
``kill -9`` in the middle of a series, after which the tournament, its tables and
every player's hand come back as they were, and it plays on to its end."""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest
import trio
from wireclient import ServerClosed, WireClient

from maumau.protocol.messages import (
    CreateTournament,
    JoinTournament,
    StartTournament,
    TableInfo,
    Tournament,
    View,
    WatchTournament,
)
from maumau.server.tournament.standings import placing_points
from support.wire import free_port, play_scripted, start_server_process

FAST = {"mau_window_ms": 100, "reconnect_grace_s": 0}
COMPARED = [
    "seat",
    "phase",
    "round",
    "turn",
    "top",
    "named",
    "penalty",
    "hand_counts",
    "scores",
    "stock",
    "discard",
    "hand",
    "legal",
]


def start(db: Path, port: int = 0) -> tuple[subprocess.Popen[str], int]:
    options = ["--host", "127.0.0.1", "--port", str(port), "--db", str(db), "--seed", "7"]
    options += ["--bot-delay", "0.02", "--hard-budget-ms", "0", "--tournament-break", "0.3"]
    return start_server_process(*options)


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


async def tournament_of(client: WireClient, predicate, timeout: float = 60) -> Tournament:
    return await client.wait_for(
        lambda m: isinstance(m, Tournament) and predicate(m), timeout=timeout
    )


async def register(port: int, names: list[str], **options) -> tuple[list[WireClient], int]:
    clients = [await WireClient.connect("127.0.0.1", port, name) for name in names]
    values = {
        "settings": {"variant": "classic", "seats": 4, **FAST},
        "series": 2,
        "final": True,
        "bots": False,
        "late_join": False,
        "deals": 1,
        **options,
    }
    await clients[0].send(CreateTournament(name="Friday night", **values))
    made = await tournament_of(clients[0], lambda t: True)
    for client in clients:
        await client.send(JoinTournament(made.id))
        await tournament_of(client, lambda t: t.you is not None)
    return clients, made.id


async def keep_playing(client: WireClient, seed: int, on_current: bool = False) -> None:
    """Play series after series; ``on_current``: first act on the view already held."""
    rng = random.Random(seed)
    try:
        while True:
            await play_scripted(client, rng, act_on_current=on_current)
            on_current = False
    except ServerClosed:
        return


async def every_series(client: WireClient, tid: int, count: int) -> dict[int, list[dict]]:
    """The tables of series 1 to ``count``, asked for one series at a time (a
    tournament message shows one series' tables)."""
    found = {}
    for n in range(1, count + 1):
        await client.send(WatchTournament(tid, series=n))
        shown = await tournament_of(
            client, lambda t, n=n: bool(t.tables) and t.tables[0]["series"] == n
        )
        assert shown.tables_total == len(shown.tables)
        found[n] = list(shown.tables)
    return found


def pairs(names) -> set[frozenset[str]]:
    return {frozenset((a, b)) for i, a in enumerate(names) for b in names[i + 1 :]}


@pytest.mark.deadline(240)
async def test_twelve_players_play_a_tournament_to_its_final_standings(tmp_path: Path) -> None:
    db = tmp_path / "server.db"
    server, port = start(db)
    try:
        names = [f"P{i:02d}" for i in range(12)]
        clients, tid = await register(port, names)
        # Two registered players leave before the start: bots play their seats.
        for gone in clients[10:]:
            await gone.aclose()
        zed = await WireClient.connect("127.0.0.1", port, "Zed")
        await zed.send(WatchTournament(tid))
        await clients[0].send(StartTournament(tid))
        async with trio.open_nursery() as nursery:
            for i, client in enumerate(clients[:10]):
                nursery.start_soon(keep_playing, client, i)
            done = await tournament_of(zed, lambda t: t.state == "finished", timeout=200)
            nursery.cancel_scope.cancel()
        series = await every_series(zed, tid, 3)
    finally:
        stop(server)
    assert [len(series[n]) for n in (1, 2, 3)] == [3, 3, 1]
    for n in (1, 2):  # every player at exactly one table of four, no byes
        assert sorted(name for t in series[n] for name in t["names"]) == names
        assert all(len(t["names"]) == 4 and not any(t["bots"]) for t in series[n])
    # Twelve players from three tables of four cannot all meet new people at tables of
    # four (four players from three tables: two of them met), but each table of the
    # second series needs no more than that one pair who met before.
    met = set().union(*(pairs(t["names"]) for t in series[1]))
    assert [len(met & pairs(t["names"])) for t in series[2]] == [1, 1, 1]
    for table in [t for tables in series.values() for t in tables]:
        assert table["state"] == "finished"
        assert list(table["points"]) == placing_points(table["scores"])
    # The four finalists were the top four after two series (points, then score).
    totals = {name: [0, 0] for name in names}
    for table in series[1] + series[2]:
        for name, p, s in zip(table["names"], table["points"], table["scores"], strict=True):
            totals[name][0] += p
            totals[name][1] += s
    [final] = series[3]
    worst_finalist = min(tuple(totals[n]) for n in final["names"])
    assert all(tuple(totals[n]) <= worst_finalist for n in names if n not in final["names"])
    # Final standings: the final decides places 1-4, everyone has a rank.
    assert [line["rank"] for line in done.standings] == list(range(1, 13))
    top = [line["name"] for line in done.standings[:4]]
    assert sorted(top) == sorted(final["names"])
    by_name = dict(zip(final["names"], final["scores"], strict=True))
    assert [by_name[n] for n in top] == sorted(final["scores"], reverse=True)
    # Kept: the tournament, finished, and every table's match, for replays.
    with sqlite3.connect(db) as check:
        (state,) = check.execute("SELECT state FROM tournaments WHERE id=?", (tid,)).fetchone()
        finished = {
            row[0]
            for row in check.execute("SELECT table_id FROM matches WHERE finished IS NOT NULL")
        }
    assert state == "finished"
    assert {t["id"] for tables in series.values() for t in tables} <= finished


async def drain_until_quiet(client: WireClient, quiet: float) -> None:
    while True:
        with trio.move_on_after(quiet) as scope:
            await client.receive()
        if scope.cancelled_caught:
            return


@pytest.mark.deadline(240)
async def test_kill_9_in_the_middle_of_a_series_brings_everything_back(tmp_path: Path) -> None:
    db = tmp_path / "server.db"
    port = free_port()
    server, _ = start(db, port)
    try:
        names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
        clients, tid = await register(
            port,
            names,
            deals=3,
            final=False,
            # The grace keeps a bot from playing a seat before its player is back.
            settings={"variant": "classic", "seats": 3, **FAST, "reconnect_grace_s": 60},
        )
        zed = await WireClient.connect("127.0.0.1", port, "Zed")
        await zed.send(WatchTournament(tid))
        await clients[0].send(StartTournament(tid))
        async with trio.open_nursery() as nursery:
            for i, client in enumerate(clients):
                nursery.start_soon(keep_playing, client, i)
            await trio.sleep(0.5)
            nursery.cancel_scope.cancel()
        for client in [*clients, zed]:
            await drain_until_quiet(client, 1.0)  # the tables wait for their humans now
        before_views = {c.name: c.view for c in clients}
        before_tables = {c.name: c.table for c in clients}
        before = zed.tournament
        assert before is not None and before.state == "playing" and before.series_no >= 1
        assert all(v is not None for v in before_views.values())
        # In the middle of the series: a table may be over, but not every one.
        assert any(v.phase in ("playing", "round_over") for v in before_views.values())
        tokens = {c.name: c.welcome.resume for c in [*clients, zed]}
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        server, _ = start(db, port)
        back = {}
        for name in names:
            client = await WireClient.connect("127.0.0.1", port, name, resume=tokens[name])
            assert client.welcome.resumed
            info = await client.wait_for(TableInfo)
            view = await client.wait_for(View)
            told = await tournament_of(client, lambda t: True)
            old_info, old_view = before_tables[name], before_views[name]
            assert (info.id, info.tournament, info.you) == (
                old_info.id,
                old_info.tournament,
                old_info.you,
            )
            assert {k: getattr(view, k) for k in COMPARED} == {
                k: getattr(old_view, k) for k in COMPARED
            }
            assert (told.state, told.series_no) == ("playing", before.series_no)
            assert told.you is not None
            back[name] = client
        zed = await WireClient.connect("127.0.0.1", port, "Zed", resume=tokens["Zed"])
        await zed.send(WatchTournament(tid))
        after = await tournament_of(zed, lambda t: True)
        same = ["state", "series_no", "series", "deals", "standings"]
        assert {k: getattr(after, k) for k in same} == {k: getattr(before, k) for k in same}
        assert [(t["id"], t["names"], t["series"]) for t in after.tables] == [
            (t["id"], t["names"], t["series"]) for t in before.tables
        ]
        # And it plays on to its end.
        async with trio.open_nursery() as nursery:
            for i, client in enumerate(back.values()):
                nursery.start_soon(keep_playing, client, 10 + i, True)
            done = await tournament_of(zed, lambda t: t.state == "finished", timeout=200)
            nursery.cancel_scope.cancel()
        assert done.series_no == 2
        assert [line["rank"] for line in done.standings] == [1, 2, 3, 4, 5, 6]
    finally:
        stop(server)


async def test_guests_on_loopback_each_make_a_tournament_and_the_last_director_gone_ends_it(
    tmp_path: Path,
) -> None:
    """At the SSH party every guest's client connects from 127.0.0.1: the caps per
    address would make the whole party one person, so loopback is capped per session
    (the third guest's tournament used to be refused). A tournament whose director
    and players are all gone is called off after the idle timeout."""
    options = ["--host", "127.0.0.1", "--port", "0", "--db", str(tmp_path / "s.db")]
    server, port = start_server_process(*options, "--idle-timeout", "3")
    try:
        guests = [await WireClient.connect("127.0.0.1", port, f"Guest{n}") for n in range(4)]
        made = []
        for n, guest in enumerate(guests):
            await guest.send(
                CreateTournament(
                    name=f"Guest{n}'s",
                    settings={"variant": "classic", "seats": 4},
                    series=1,
                    final=False,
                    bots=True,
                    late_join=False,
                )
            )
            made.append(await tournament_of(guest, lambda t, n=n: t.name == f"Guest{n}'s"))
        await guests[0].aclose()
        watcher = guests[1]
        await watcher.send(WatchTournament(made[0].id))
        off = await tournament_of(
            watcher, lambda t: t.id == made[0].id and t.state == "cancelled", timeout=30
        )
        assert off.director == "Guest0"
        await watcher.send(WatchTournament(made[1].id))
        still = await tournament_of(watcher, lambda t: t.id == made[1].id)
        assert still.state == "registering"  # its director is there
        for guest in guests[1:]:
            await guest.aclose()
    finally:
        stop(server)
