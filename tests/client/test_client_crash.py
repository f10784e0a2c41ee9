"""The client through a server crash: ``kill -9`` of the real server in the middle of
a match, a restart on the same port and database, and the client takes its seat back
by itself (resume token, backoff), with the same hand.

The kill happens when it is the client's turn and the table is quiet (no call window
open, nothing arrived for a moment), so the client's last view is the server's state
at the kill. The restarted server's sequence numbers jump by 1000, which tells a view
from the new server from one of the old.
"""

from __future__ import annotations

from pathlib import Path

from maumau.client.app import MauMauApp
from maumau.client.net import LinkClosed
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.table import TableScreen
from support.client_app import create_table, run_async, until
from support.client_crash import (
    quiet_turn,
    start_server,
    stop,
)
from support.wire import free_port


@run_async
async def test_the_client_resumes_its_seat_after_a_server_crash(tmp_path: Path) -> None:
    port, db = free_port(), str(tmp_path / "server.db")
    server = start_server(port, "--db", db)
    try:
        app = MauMauApp("127.0.0.1", port, "Ann")
        async with app.run_test(size=(80, 24)) as pilot:
            await create_table(pilot, app)
            await quiet_turn(pilot, app)
            view = app.model.view
            table_id = app.model.table.id
            server.kill()  # SIGKILL: no goodbye, nothing flushed but the journal
            server.wait()
            banner = app.screen.query_one("#banner")
            await until(pilot, lambda: banner.display and "reconnecting" in str(banner.content))
            server = start_server(port, "--db", db)
            await until(
                pilot,
                lambda: app.model.view is not None and app.model.view.seq >= view.seq + 1000,
                timeout=30,
            )
            assert not banner.display
            assert isinstance(app.screen, TableScreen)
            assert app.model.table is not None and app.model.table.id == table_id
            assert app.model.table.you == 0
            after = app.model.view
            assert sorted(after.hand) == sorted(view.hand)
            assert (after.round, after.turn, after.top, after.hand_counts, after.scores) == (
                view.round,
                view.turn,
                view.top,
                view.hand_counts,
                view.scores,
            )
            assert app.model.my_turn
    finally:
        stop(server)


@run_async
async def test_a_server_that_forgot_everything_sends_the_client_to_the_lobby(
    tmp_path: Path,
) -> None:
    port = free_port()
    server = start_server(port, "--db", str(tmp_path / "server.db"))
    try:
        app = MauMauApp("127.0.0.1", port, "Ann")
        async with app.run_test(size=(80, 24)) as pilot:
            await create_table(pilot, app)
            server.kill()
            server.wait()
            server = start_server(port, "--no-db")  # the token means nothing here
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), timeout=30)
            assert app.model.table is None and app.model.name == "Ann"
    finally:
        stop(server)


@run_async
async def test_a_client_closed_without_quitting_is_back_at_its_table_next_time(
    tmp_path: Path,
) -> None:
    port = free_port()
    server = start_server(port, "--db", str(tmp_path / "server.db"))
    try:
        first = MauMauApp("127.0.0.1", port, "Ann")
        async with first.run_test(size=(80, 24)) as pilot:
            await create_table(pilot, first)
            table_id = first.model.table.id
            hand = sorted(first.model.view.hand)
        # The terminal was closed: no bye, the seat is kept, the token is lost; the
        # name's secret (kept in the config) takes the session back.
        again = MauMauApp("127.0.0.1", port, "Ann")
        async with again.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: again.model.view is not None, timeout=20)
            assert isinstance(again.screen, TableScreen)
            assert again.model.table.id == table_id
            assert again.model.view.round > 1 or sorted(again.model.view.hand) == hand
            await again.action_quit()  # bye: the session ends, and the seat with it
        fresh = MauMauApp("127.0.0.1", port, "Ann")
        async with fresh.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(fresh.screen, LobbyScreen), timeout=20)
    finally:
        stop(server)


def test_a_goodbye_for_a_replaced_connection_is_told_apart() -> None:
    assert LinkClosed("x", None, "replaced by a new connection", "replaced").replaced
    assert not LinkClosed("x", None, "the server is shutting down", "shutdown").replaced
    assert not LinkClosed("x").replaced
