"""A dead connection looks dead: ``kill -9`` of the real server during the client's
turn freezes the table (banner, no move in the footer, a move's key says why, the
turn's countdown stopped), and after the restart the countdown starts from the
server's new view, never from one counted on by the client across the gap."""

from __future__ import annotations

from pathlib import Path

from maumau.client.app import MauMauApp
from maumau.client.screens.table import TableScreen
from maumau.client.widgets.pile import Pile
from support.client_app import create_table, run_async, until
from support.client_crash import quiet_turn, start_server, stop
from support.wire import free_port

MOVES = {"play", "draw", "take", "keep", "challenge", "mau", "maumau", "catch", "cursor"}


def footer_actions(app: MauMauApp) -> set[str]:
    """The actions the footer offers now (shown bindings that are on)."""
    return {
        active.binding.action.split("(")[0]
        for active in app.screen.active_bindings.values()
        if active.binding.show and active.enabled
    }


@run_async
async def test_a_dead_connection_freezes_the_table_until_the_server_is_back(
    tmp_path: Path,
) -> None:
    port, db = free_port(), str(tmp_path / "server.db")
    server = start_server(port, "--db", db)
    try:
        app = MauMauApp("127.0.0.1", port, "Ann")
        async with app.run_test(size=(80, 24)) as pilot:
            await create_table(pilot, app)
            await quiet_turn(pilot, app)
            screen = app.screen
            assert isinstance(screen, TableScreen)
            pile = screen.query_one(Pile)
            assert footer_actions(app) & {"play", "draw", "take"}  # it is our turn
            await until(pilot, lambda: pile.seconds_left is not None)
            before = app.model.view
            server.kill()
            server.wait()
            banner = screen.query_one("#banner")
            await until(pilot, lambda: banner.display and "frozen" in str(banner.content))
            assert app.model.offline
            assert not footer_actions(app) & MOVES
            assert pile.stopped and "clock stopped" in str(pile.content)
            frozen = pile.seconds_left
            await pilot.pause(2.2)  # two ticks of the countdown
            assert pile.seconds_left == frozen  # nothing counted while down
            await pilot.press("d")
            assert screen.problem is not None and screen.problem.startswith("Not connected")

            server = start_server(port, "--db", db)
            await until(
                pilot,
                lambda: app.model.view is not None and app.model.view.seq >= before.seq + 1000,
                timeout=30,
            )
            await pilot.pause(0.1)
            assert not app.model.offline and not banner.display
            assert not pile.stopped and "clock stopped" not in str(pile.content)
            after = app.model.view
            assert after is not None and after.turn_deadline_ms is not None
            server_seconds = after.turn_deadline_ms / 1000
            if pile._timed_view is after:  # (no later view yet: count from this one)
                assert server_seconds - 1 <= (pile.seconds_left or 0) <= server_seconds
            assert footer_actions(app) & {"play", "draw", "take"}
    finally:
        stop(server)
