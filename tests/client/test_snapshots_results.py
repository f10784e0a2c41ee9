"""Snapshots of the waiting room and the results, at 80x24 and at the minimum 60x20:
a 10-seat waiting room (every state a seat can be in), a 10-player American round
result after six rounds (the keys and the countdown in sight, the chart saying which
rounds it leaves out), and a match result with its keys. Plus the behaviour behind
them: the countdown stops while a banner is up, Enter says ready, q leaves a
finished match, the leave question after a match.

The countdown's clock is held still (``result.now``), so the pictures do not depend
on how fast the machine draws.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from maumau.client import render
from maumau.client.screens import result
from maumau.client.screens.confirm import ConfirmScreen
from maumau.client.screens.result import ResultScreen
from maumau.client.screens.table import TableScreen
from maumau.protocol.messages import LeaveTable, Ready, Rematch, View
from support.client_snapshots import StillApp
from support.snapshots_results import (
    SIZES,
    Recording,
    american_rounds,
    classic_match_over,
    run,
    shows,
    until,
    waiting_room,
)


@pytest.fixture(autouse=True)
def still_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """The countdown's clock, held still; tests move it by hand."""
    clock = [1000.0]
    monkeypatch.setattr(result, "now", lambda: clock[0])
    yield clock


@pytest.mark.parametrize("size", SIZES)
def test_waiting_room_ten_seats(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(StillApp(waiting_room(), TableScreen), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_round_result_ten_players(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(StillApp(american_rounds(), TableScreen), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_match_result(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(StillApp(classic_match_over(), TableScreen), terminal_size=size)


def test_match_result_ascii(snap_compare: Any) -> None:
    app = StillApp(classic_match_over(), TableScreen)
    app.ascii_only = True
    assert snap_compare(app, terminal_size=(60, 20))


def test_ten_seats_all_shown_with_their_states() -> None:
    for width in (80, 60):
        app = StillApp(waiting_room(), TableScreen)
        for message in app.messages:
            app.model.apply(message)
        text = render.opponents(app.model, False, width).plain
        lines = text.splitlines()
        assert len(lines) <= 6, lines  # the opponents' area holds six lines
        for n in range(1, 11):
            assert f" {n} " in text
        for state in ("free", "Ada (hard)", "Bert (easy)", "not ready", "offline", "away"):
            assert state in text
        assert "round 0" not in render.title(app.model, False).plain


def test_the_chart_says_which_rounds_it_leaves_out() -> None:
    app = StillApp(american_rounds(12), TableScreen)
    for message in app.messages:
        app.model.apply(message)
    assert len(app.model.score_history) == 12
    chart = render.score_chart(app.model, False, 54).plain
    assert "not shown" in chart
    assert "r12" in chart
    first = int(chart.split("rounds 1-")[1].split()[0]) + 1
    assert f"r{first}" in chart and f"r{first - 1} " not in chart
    assert "Lea (easy)" in chart  # names are never cut
    wide = render.score_chart(app.model, False, 200).plain
    assert "not shown" not in wide and "r1 " in wide


def test_the_keys_and_countdown_stay_in_sight_and_stop_with_a_banner(
    still_clock: list[float],
) -> None:
    async def scenario() -> None:
        app = Recording(american_rounds())
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ResultScreen))
            screen = app.screen
            text = await shows(
                pilot, app, "Enter: ready for the next round", "next deal in 20 s", "⏎ ready"
            )
            assert "⏎ ready" in text.splitlines()[-1]  # the footer
            assert screen.query_one("#result-body").max_scroll_y > 0  # ten hands scroll
            still_clock[0] += 6.2
            screen.tick()
            await shows(pilot, app, "next deal in 14 s")
            app.set_banner("Connection lost: trying again in 2 s")
            still_clock[0] += 5
            screen.tick()
            # The banner's words are over the keys; the countdown says why it stopped.
            await shows(pilot, app, "next deal on hold (connection down)", "Connection lost")
            app.set_banner(None)
            still_clock[0] += 1
            screen.tick()
            await shows(pilot, app, "next deal in 13 s")
            await pilot.press("enter")
            await until(pilot, lambda: any(isinstance(m, Ready) and m.ready for m in app.sent))
            assert isinstance(app.screen, TableScreen)

    run(scenario())


def test_the_match_result_offers_rematch_and_leaving() -> None:
    async def scenario() -> None:
        app = Recording(classic_match_over())
        async with app.run_test(size=(60, 20)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ResultScreen))
            text = await shows(pilot, app, "Cleo wins the match with 152 points!", "rematch")
            assert "r: ask for a rematch" in text and "q: leave the table" in text
            assert "next deal" not in text
            await shows(pilot, app, "r rematch  q leave")  # the footer
            assert app.screen.query_one("#result-body").max_scroll_y == 0  # all in sight
            await pilot.press("r")
            await until(pilot, lambda: any(isinstance(m, Rematch) for m in app.sent))

    run(scenario())


def test_q_on_the_match_result_leaves_the_table() -> None:
    async def scenario() -> None:
        app = Recording(classic_match_over())
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ResultScreen))
            await pilot.press("q")
            await until(pilot, lambda: any(isinstance(m, LeaveTable) for m in app.sent))
            assert app.model.table is None

    run(scenario())


def test_leaving_after_the_match_says_the_seat_is_kept_for_the_rematch() -> None:
    async def scenario() -> None:
        app = Recording(classic_match_over())
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ResultScreen))
            await pilot.press("escape")
            await pilot.pause(0.05)
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            question = app.screen.question
            assert "bot plays your seat" not in question
            assert "kept for the rematch" in question and "Enter on this table" in question

    run(scenario())


def test_the_waiting_room_is_drawn_again_to_a_new_width() -> None:
    async def scenario() -> None:
        app = Recording(waiting_room())
        async with app.run_test(size=(80, 24)) as pilot:
            await shows(pilot, app, "10 -")
            await pilot.resize_terminal(60, 20)
            text = await shows(pilot, app, "Waiting for the match to start")
            seats = text.splitlines()[2:7]
            assert all("│" in line for line in seats), seats  # both columns on each line
            assert " 6 -" in seats[0] and " 1 Ann (you)" in seats[0]

    run(scenario())


def test_the_countdown_starts_from_what_the_server_says(still_clock: list[float]) -> None:
    """A view with ``next_round_ms`` (after a resume, say) sets the countdown; the
    documented 20 s is only for a server that does not say."""
    messages = american_rounds()
    last = messages[-1]
    assert isinstance(last, View)
    messages[-1] = dataclasses.replace(last, next_round_ms=7400)

    async def scenario() -> None:
        app = Recording(messages)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ResultScreen))
            await shows(pilot, app, "next deal in 8 s")
            still_clock[0] += 3
            app.screen.tick()  # type: ignore[attr-defined]
            await shows(pilot, app, "next deal in 5 s")

    run(scenario())
