"""The client at a tournament's tables, as a play-test found it wanting.

- When the server moves the player to another table (the next series), no dialog of
  the old table survives: a "Leave this table?" answered after the move must not
  leave the new table, and a result dialog of the old match goes with it.
- A table of a series of N deals says "deal n of N" (its target, 100000, means
  nothing), in the header, the result dialog and the help.
- The tournament screen calls tables by their labels (``2.1``, ``final``), never by
  the server's ids; a finished table always shows its scores, and Enter on it says
  where its match is (the history) instead of asking the server for a closed table;
  the player's own table, which they left, is theirs again with Enter.
- The break before the final counts down to the final.

The app is the real one over fixed messages (``Answering`` records what it sends);
a message "from the server" goes through the app's own handling, as the network
delivers it.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from maumau.client import i18n, render
from maumau.client.connection import ServerMessage
from maumau.client.model import Model
from maumau.client.screens.confirm import ConfirmScreen
from maumau.client.screens.help import rules_summary
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.result import ResultScreen
from maumau.client.screens.table import TableScreen
from maumau.client.screens.tournament import TournamentScreen
from maumau.client.widgets.series_tables import SeriesTables
from maumau.protocol.messages import (
    LeaveTable,
    LeaveTournament,
    Message,
    TableInfo,
    Tournament,
    View,
    WatchTable,
)
from support.ascii import screen_text
from support.client_app import until
from support.client_snapshots import WELCOME
from support.client_tournament import Answering, drive, model_with
from support.client_tournament_data import (
    SETTINGS,
    series_table,
    tournament,
    tournament_lobby,
    tournament_table,
    wire,
)

# A series of three deals, as the server sets its tables up: the target means nothing.
DEALS_SETTINGS = {**SETTINGS, "deals": 3, "target_score": 100_000}


def table_at(table_id: int, series: int, phase: str = "playing") -> list[Message]:
    """Ann seated at a tournament table of series ``series`` of three deals: its
    first deal being played, or (``match_over``) its match over after three."""
    _, info, view = tournament_table()
    assert isinstance(info, TableInfo) and isinstance(view, View)
    info = dataclasses.replace(
        info,
        id=table_id,
        name=f"Friday Cup {series}.1",
        settings=DEALS_SETTINGS,
        state="playing",
        tournament={"id": 7, "series": series},
    )
    if phase == "playing":
        view = dataclasses.replace(
            view,
            table=table_id,
            phase="playing",
            round=1,
            hand=("7S", "8D"),
            hand_counts=(2, 5, 5, 5),
            scores=(0, 0, 0, 0),
            last_round=None,
            winner=None,
        )
    else:
        view = dataclasses.replace(view, table=table_id)
    return [WELCOME, wire(info), wire(view)]


def arrive(app: Answering, messages: list[Message]) -> None:
    """``messages`` reach the app as from the network."""
    for message in messages:
        app.post_message(ServerMessage(message))


def run(scenario: Any) -> Any:
    return asyncio.run(asyncio.wait_for(scenario(), 60))


# --- moved to another table ---------------------------------------------------------------


def test_a_leave_question_of_the_old_table_does_not_survive_a_move() -> None:
    app = Answering(table_at(12, 2), TableScreen)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            # The next series: the server seats Ann at table 21.
            arrive(app, table_at(21, 3)[1:])
            await until(pilot, lambda: app.model.view is not None and app.model.view.table == 21)
            await pilot.pause(0.05)
            assert not any(isinstance(s, ConfirmScreen) for s in app.screen_stack)
            await pilot.press("y")  # answered to nothing: it must not leave table 21
            await pilot.pause(0.05)
            screen = app.screen
            assert isinstance(screen, TableScreen) and screen.table_id == 21
            assert [type(s) for s in app.screen_stack].count(TableScreen) == 1
            assert "Friday Cup 3.1" in screen_text(app).splitlines()[0]

    run(scenario)
    assert not any(isinstance(m, LeaveTable) for m in app.sent)


def test_the_old_matchs_result_goes_with_its_table() -> None:
    app = Answering(table_at(12, 2, "match_over"), TableScreen)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ResultScreen))
            # The new table, before its first deal (no view yet).
            arrive(app, table_at(21, 3)[1:2])
            await until(pilot, lambda: app.model.table is not None and app.model.table.id == 21)
            await pilot.pause(0.05)
            assert [type(s) for s in app.screen_stack][-1:] == [TableScreen]
            assert not any(isinstance(s, ResultScreen) for s in app.screen_stack)
            await pilot.press("t")  # the old dialog's "back to the tournament": gone
            await pilot.pause(0.05)
            assert isinstance(app.screen, TableScreen)

    run(scenario)
    assert not any(isinstance(m, LeaveTable) for m in app.sent)


def test_a_question_over_the_tournament_screen_goes_when_a_table_is_given() -> None:
    app = Answering([*tournament_lobby(), tournament()], LobbyScreen)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.push_screen(TournamentScreen())  # over the lobby, as the app shows it
            await until(pilot, lambda: isinstance(app.screen, TournamentScreen))
            await pilot.press("r")  # "Withdraw from the tournament?"
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            arrive(app, table_at(21, 3)[1:])
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            await pilot.press("q")  # leave the table (asked), and back
            await pilot.press("y")
            await until(pilot, lambda: isinstance(app.screen, TournamentScreen))
            await pilot.press("y")  # nothing asks any more
            await pilot.pause(0.05)

    run(scenario)
    assert not any(isinstance(m, LeaveTournament) for m in app.sent)
    assert app.sent == [LeaveTable()]


# --- a series of so many deals ---------------------------------------------------------------


def test_a_table_of_so_many_deals_says_which_deal_not_the_target() -> None:
    model = Model()
    for message in table_at(21, 3):
        model.apply(message)
    for ascii_only, width in ((False, 80), (True, 60)):
        title = render.title(model, ascii_only, width).plain
        assert "deal 1 of 3" in title and "100000" not in title, title
        assert len(title) <= width
    lines = rules_summary(DEALS_SETTINGS).splitlines()
    assert lines[0].strip() == "Game: Mau Mau, 4 seats, 3 deals"
    # A table played to its target says so, as before.
    model.apply(dataclasses.replace(model.table, settings=SETTINGS))  # type: ignore[arg-type]
    assert "round 1 · to 150" in render.title(model, False, 80).plain


def test_the_result_of_a_series_says_the_deal_and_scales_the_bars_to_the_leader() -> None:
    app = Answering(table_at(12, 2, "match_over"), TableScreen)

    async def scenario() -> tuple[str, str]:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ResultScreen))
            await pilot.pause(0.05)
            shown = screen_text(app)
            await pilot.press("escape")
            await pilot.pause(0.05)
            return shown, screen_text(app)

    result, table = run(scenario)
    assert "Scores after each round (deal 3 of 3)" in result, result
    assert "100000" not in result and "100000" not in table
    assert "deal 3 of 3" in table.splitlines()[0]
    # Ann leads with 30: a full bar; Finn's 7 a little of it.
    chart = result[result.index("Scores after each round") :].splitlines()
    [ann] = [line for line in chart if " Ann " in line]
    assert "█" * 8 in ann and "░" not in ann
    [finn] = [line for line in chart if " Finn " in line]
    assert "░" in finn and finn.count("█") < finn.count("░")


def test_the_deal_is_said_in_german() -> None:
    model = Model()
    for message in table_at(21, 3):
        model.apply(message)
    i18n.set_language("de")
    try:
        title = render.title(model, False, 80).plain
    finally:
        i18n.set_language("en")
    assert "Spiel 1 von 3" in title


# --- the tournament screen's tables ------------------------------------------------------------


def final_tournament(state: str = "final", table_state: str = "playing") -> Tournament:
    """The same tournament at its final (series 4 of 3 + 1): Ann at its table, 40."""
    final = series_table(40, 4, ["Cleo", "Ann", "Bob", "Eve"], table_state, 2, [50, 60, 0, 9])
    standings = list(tournament().standings)
    for i in range(4):
        standings[i] = {**standings[i], "table": 40}
    for i in range(4, len(standings)):
        standings[i] = {k: v for k, v in standings[i].items() if k != "table"}
    return tournament(
        state=state,
        series_no=4,
        standings=tuple(standings),
        tables=(*tournament().tables, final),
    )


def series_tables(app: Answering) -> list[list[str]]:
    screen = app.screen
    assert isinstance(screen, TournamentScreen)
    table = screen.query_one(SeriesTables)
    return [[cell.plain for cell in table.get_row_at(i)] for i in range(table.row_count)]


def test_tables_are_called_by_their_labels_never_their_ids() -> None:
    rows: list[list[list[str]]] = []
    app = Answering([WELCOME, tournament()], TournamentScreen)
    shown = drive(app, [], then=lambda app: rows.append(series_tables(app)))
    assert [row[0].strip("▶ ") for row in rows[0]] == ["2.1", "2.2", "2.3"]
    assert rows[0][1][0] == "▶2.2"  # the player's own, marked
    assert "You left table 2.2" in shown
    [cleo] = [line for line in shown.splitlines() if " Cleo " in line and "152" in line]
    assert cleo.rstrip().endswith("table 2.1")
    assert "table 11" not in shown and "table 12" not in shown
    # The final: its table is "final", wherever it is named.
    rows.clear()
    app = Answering([WELCOME, final_tournament()], TournamentScreen)
    shown = drive(app, [], then=lambda app: rows.append(series_tables(app)))
    assert [row[0] for row in rows[0]] == ["▶final"]
    assert "You left the final: Enter takes your seat back." in shown
    following = model_with(WELCOME, final_tournament()).tournament
    assert following is not None
    assert following.you_words("Ann", seated_at=40) == "You play in the final."
    assert following.where_words(40) == "final" and following.label(12) == "2.2"


def test_finished_tables_show_their_scores_even_at_round_zero() -> None:
    # As an older server says it: a finished table whose round is 0.
    done = series_table(12, 2, ["Ann", "Finn", "Kim", "Dan"], "finished", 0, [150, 40, 12, 3])
    tables = tuple(done if t["id"] == 12 else t for t in tournament().tables)
    rows: list[list[list[str]]] = []
    app = Answering([WELCOME, tournament(tables=tables)], TournamentScreen)
    drive(app, [], then=lambda app: rows.append(series_tables(app)))
    [mine] = [row for row in rows[0] if row[0] == "▶2.2"]
    assert "Ann 150" in mine[1] and "Dan(bot) 3" in mine[1] and mine[2] == "finished"
    # A playing table of a series of deals says which deal it is at.
    [first] = [row for row in rows[0] if row[0].strip() == "2.1"]
    assert first[2] == "deal 2 of 3"


class Noting(Answering):
    """The app, with every toast it shows recorded in ``said``."""

    said: list[str]

    def notify(self, message: str, **options: Any) -> None:
        if not hasattr(self, "said"):
            self.said = []
        self.said.append(message)
        super().notify(message, **options)


def test_enter_on_a_finished_table_says_where_its_match_is() -> None:
    done = series_table(12, 2, ["Ann", "Finn", "Kim", "Dan"], "finished", 3, [150, 40, 12, 3])
    tables = tuple(done if t["id"] == 12 else t for t in tournament().tables)
    app = Noting([WELCOME, tournament(tables=tables)], TournamentScreen)
    shown = drive(app, ["enter"])  # the cursor starts on the player's own table
    assert app.sent == []
    assert app.said == ["Table 2.2 is over: its match is in the history (h in the lobby)."]
    assert "Your match at table 2.2 is over." in shown
    # A table still playing is watched (the player's own, left: it seats them again).
    app = Answering([WELCOME, tournament(tables=tables)], TournamentScreen)
    drive(app, ["up", "w"])
    assert app.sent == [WatchTable(11, None)]
    app = Answering([WELCOME, tournament()], TournamentScreen)
    drive(app, ["enter"])
    assert app.sent == [WatchTable(12, None)]


def test_the_break_before_the_final_counts_down_to_the_final() -> None:
    standings = tuple(
        {k: v for k, v in line.items() if k != "table"} for line in tournament().standings
    )
    before_final = model_with(
        WELCOME,
        tournament(state="break", series_no=3, clock=None, starts_in=65.0, standings=standings),
    ).tournament
    assert before_final is not None
    assert before_final.clock_words(before_final.arrived) == "final in 01:05"
    assert before_final.state_words() == "break before the final"
    between = model_with(
        WELCOME,
        tournament(state="break", series_no=2, clock=None, starts_in=65.0, standings=standings),
    ).tournament
    assert between is not None
    assert between.clock_words(between.arrived) == "next series in 01:05"
