"""The client's tournaments: the view model fed ``lobby``/``tournament`` messages, and
the real app (``run_test``) driven by keys, its requests recorded and answered as the
server's contract says (a ``tournament`` message for ``watch_tournament``).

No server yet: the app's ``send`` is replaced by one that records each message and
posts the answer through the app's own message handling, as the network would.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator

import pytest

from maumau.client import i18n
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.result import ResultScreen
from maumau.client.screens.table import TableScreen
from maumau.client.screens.table_keys import key_means_something, why_key
from maumau.client.screens.tournament import TournamentScreen
from maumau.client.widgets.lobby_lists import TournamentList
from maumau.client.words import error_line
from maumau.protocol.messages import (
    CreateTournament,
    JoinTournament,
    LeaveTable,
    LeaveTournament,
    Lobby,
    Message,
    StartTournament,
    WatchTable,
    WatchTournament,
)
from support.ascii import screen_text
from support.client_snapshots import WELCOME, lobby
from support.client_tournament import (
    TOURNAMENT_NAMES,
    Answering,
    Clock,
    drive,
    footer,
    model_with,
)
from support.client_tournament_data import (
    registering,
    tournament,
    tournament_lobby,
    tournament_table,
)
from support.i18n_pseudo import ALLOWED, WORD, Pseudo, extracted


def test_the_lobby_lists_its_tournaments() -> None:
    model = model_with(*tournament_lobby())
    assert [t["name"] for t in model.tournaments] == ["Friday Cup", "Newbies Open"]
    assert model_with(WELCOME).tournaments == ()


def test_the_series_clock_counts_on_from_the_message() -> None:
    clock = Clock()
    model = model_with(WELCOME, tournament(), clock=clock)
    following = model.tournament
    assert following is not None and following.series_clock(clock()) == 754.0
    assert following.clock_words(clock()) == "series clock 12:34"
    clock.now += 30.4
    assert following.clock_words(clock()) == "series clock 13:04"
    # A new message sets it right again.
    model.apply(tournament(clock=10.0))
    assert model.tournament is not None
    assert model.tournament.clock_words(clock()) == "series clock 00:10"


def test_the_countdown_counts_down_and_stops_at_zero() -> None:
    clock = Clock()
    model = model_with(WELCOME, registering(starts_in=120.0), clock=clock)
    following = model.tournament
    assert following is not None
    assert following.clock_words(clock()) == "starts in 02:00"
    clock.now += 90
    assert following.clock_words(clock()) == "starts in 00:30"
    clock.now += 600
    assert following.clock_words(clock()) == "starts in 00:00"
    waiting = model_with(WELCOME, registering()).tournament
    assert waiting is not None and waiting.clock_words(0) == "waiting for Cleo's go"


def test_where_the_player_sits_is_said_in_words() -> None:
    playing = model_with(WELCOME, tournament()).tournament
    assert playing is not None and playing.my_table() == 12
    # Tables by their labels (table 12 is the second of series 2), never their ids.
    assert playing.you_words("Ann", seated_at=12) == "You sit at table 2.2."
    # Not at it (she left it): watching it seats her again.
    assert playing.you_words("Ann") == "You left table 2.2: Enter takes your seat back."
    assert playing.can_withdraw() and not playing.can_register() and not playing.can_go("Ann")
    bye = model_with(WELCOME, tournament(you=6)).tournament  # Hal: no table this series
    assert bye is not None and bye.you_words("Hal") == "You have a bye this series."
    gone = model_with(WELCOME, tournament(you=10)).tournament  # Ivy withdrew
    assert gone is not None and not gone.registered and not gone.keeps_following()
    assert gone.you_words("Ivy").startswith("You have withdrawn")
    before = model_with(WELCOME, registering()).tournament
    assert before is not None and before.can_register() and not before.can_unregister()
    assert before.can_go("Cleo") and not before.can_go("Ann")
    over = model_with(WELCOME, tournament(state="finished", clock=None)).tournament
    assert over is not None
    # With a final, the standings' order is the final's first: said, so that 2nd with
    # fewer points than 3rd is no riddle.
    assert over.you_words("Ann") == (
        "Final standings: you are number 2 of 11 "
        "(the final decided places 1 to 4, the points the rest)."
    )
    no_final = model_with(WELCOME, tournament(state="finished", clock=None, final=False)).tournament
    assert no_final is not None
    assert no_final.you_words("Ann") == "Final standings: you are number 2 of 11."
    # Someone following, not registered, while a series runs: when may they join?
    late = model_with(WELCOME, tournament(you=None, late_join=True)).tournament
    assert late is not None
    assert "late arrivals may register (r) in the break after this series" in late.you_words("Zed")
    closed = model_with(WELCOME, tournament(you=None, late_join=False)).tournament
    assert closed is not None
    assert closed.you_words("Zed").endswith("its registration is closed.")


def test_unfollowing_drops_the_updates_already_on_their_way() -> None:
    model = model_with(WELCOME, tournament())
    model.unfollow()
    assert model.tournament is None
    assert model.apply(tournament()) is False and model.tournament is None
    model.follow()  # the player asks for it again
    assert model.apply(tournament()) is True and model.tournament is not None


def test_a_tournament_table_offers_no_rematch() -> None:
    messages = tournament_table()
    model = model_with(*messages)
    assert model.at_tournament_table
    assert not key_means_something(model, "rematch")
    assert why_key(model, "rematch") == (
        "A tournament's table has no rematch: the next series seats you."
    )


def test_the_new_refusals_are_written_in_the_players_language() -> None:
    i18n.set_language("de")
    try:
        full = error_line("tournament_full", {"limit": 40}, "tournament is full")
        assert full == "Dieses Turnier ist voll (40 Spieler)."
        locked = error_line("wrong_password", {"tournament": 7}, "wrong password")
        assert locked == "Dieses Turnier ist privat; das Passwort ist falsch."
        director = error_line("not_director", {"name": "Cleo"}, "only the director")
        assert director.startswith("Das kann nur Cleo, die Turnierleitung; vor dem Start")
    finally:
        i18n.set_language("en")
    assert error_line("tournament_table", None, "") == (
        "This is a tournament's table: no rematch; the next series seats you."
    )


def test_t_in_the_lobby_follows_the_tournament_and_shows_its_screen() -> None:
    # Two tournaments: t moves into their list (nothing opened behind the player's
    # back); t again, or Enter, opens the one under the cursor.
    app = Answering(tournament_lobby())
    focused: list[object] = []
    drive(app, ["t"], then=lambda app: focused.append(app.focused))
    assert app.sent == []
    assert isinstance(app.shown, LobbyScreen)
    assert [type(widget) for widget in focused] == [TournamentList]
    for keys in (["t", "t"], ["t", "enter"]):
        app = Answering(tournament_lobby())
        shown = drive(app, keys)
        assert app.sent == [WatchTournament(7, None)]
        assert isinstance(app.shown, TournamentScreen)
    assert "Friday Cup · Mau Mau · series 2 of 3" in shown
    assert "You left table 2.2: Enter takes your seat back." in shown
    assert "r withdraw" in footer(shown) and "Esc lobby" in footer(shown)
    # One tournament: t opens it.
    base = tournament_lobby()[1]
    assert isinstance(base, Lobby)
    one = Lobby(base.tables, base.online, 0, base.tournaments[:1])
    app = Answering([WELCOME, one])
    drive(app, ["t"])
    assert app.sent == [WatchTournament(7, None)]
    assert isinstance(app.shown, TournamentScreen)


def test_the_lobby_footer_offers_T_where_every_key_still_fits() -> None:
    for messages in (tournament_lobby(), lobby()):
        wide = footer(drive(Answering(messages), [], size=(100, 24)))
        assert "T new tournament" in wide and wide.rstrip().endswith("q quit")
        # At 80 columns it does not fit beside the other keys, which all stay.
        usual = footer(drive(Answering(messages), [], size=(80, 24)))
        assert "T new" not in usual and usual.rstrip().endswith("q quit")
        assert "T new" not in footer(drive(Answering(messages), [], size=(60, 20)))
    app = Answering(lobby())
    drive(app, ["T"])  # the key works wherever it is shown or not
    assert type(app.shown).__name__ == "NewTournamentScreen"


def test_up_from_the_first_table_reaches_the_tournaments_and_enter_opens_one() -> None:
    app = Answering(tournament_lobby(), answer=registering())
    drive(app, ["up", "down", "up", "up", "enter"])  # tables -> Newbies Open -> ...
    # up: into the list (its cursor on the first); down: back to the tables; up, up:
    # the list, then nothing above its first row; Enter opens Friday Cup.
    assert app.sent == [WatchTournament(7, None)]
    assert isinstance(app.shown, TournamentScreen)


def test_a_locked_tournament_asks_for_its_password_first() -> None:
    app = Answering(tournament_lobby(), answer=registering())
    drive(app, ["up", "down", "t"])
    assert app.sent == []  # the password dialog is open
    drive_more = ["s", "e", "c", "r", "e", "t", "enter"]
    app = Answering(tournament_lobby(), answer=tournament(id=8, locked=True, you=None))
    shown = drive(app, ["up", "down", "t", *drive_more])
    assert app.sent == [WatchTournament(8, "secret")]
    assert "Friday Cup" in shown  # the answer's name (the fixture keeps it)
    following = app.model.tournament
    assert following is not None and following.password == "secret"


def test_the_new_tournament_dialog_sends_an_evenings_defaults() -> None:
    app = Answering(tournament_lobby())
    drive(app, ["T", "enter"])
    [create] = app.sent
    assert create == CreateTournament(
        name="Ann's tournament",
        settings={"variant": "classic", "seats": 4, "target_score": 150},
        series=3,
        final=True,
        bots=False,
        late_join=True,
        deals=3,
        password=None,
        starts_in=None,
    )
    assert isinstance(app.shown, TournamentScreen)  # shown when the answer came


def test_the_new_tournament_dialog_says_what_is_wrong() -> None:
    app = Answering(tournament_lobby())
    # name, game, table size: 5 is too many for Mau Mau.
    shown = drive(app, ["T", "tab", "tab", "backspace", "5", "enter"])
    assert app.sent == []
    assert "Table size: 3 to 4 players for Mau Mau" in shown
    # American Mau-Mau takes 5; a series of 0 deals is a match to the target; in 10
    # minutes.
    app = Answering(tournament_lobby())
    keys = ["T", "tab", "space", "tab", "backspace", "5", "tab", "tab", "backspace", "0"]
    keys += ["tab", "tab", "tab", "tab", "tab", "tab", "1", "0", "enter"]
    drive(app, keys)
    [create] = app.sent
    assert isinstance(create, CreateTournament)
    assert create.settings == {"variant": "american", "seats": 5, "target_score": 500}
    assert create.deals is None and create.starts_in == 600


def test_enter_on_the_tournament_screen_watches_the_players_table() -> None:
    app = Answering([WELCOME, tournament()], TournamentScreen)
    drive(app, ["enter"])
    assert app.sent == [WatchTable(12, None)]
    app = Answering([WELCOME, tournament()], TournamentScreen)
    drive(app, ["up", "w"])
    assert app.sent == [WatchTable(11, None)]


def test_r_registers_unregisters_or_withdraws_as_the_state_allows() -> None:
    app = Answering([WELCOME, registering()], TournamentScreen)
    assert "r register" in footer(drive(app, []))
    app = Answering([WELCOME, registering()], TournamentScreen, answer=registering(you=1))
    shown = drive(app, ["r"])
    assert app.sent == [JoinTournament(7, None)]
    assert "r unregister" in footer(shown)  # drawn again from the answer
    app = Answering([WELCOME, registering(you=1)], TournamentScreen)
    shown = drive(app, ["r"])
    assert app.sent == [LeaveTournament(7)]
    assert "r unregister" in footer(shown)
    app = Answering([WELCOME, tournament()], TournamentScreen)
    drive(app, ["r", "n"])  # asked first: no
    assert app.sent == []
    drive(app := Answering([WELCOME, tournament()], TournamentScreen), ["r", "y"])
    assert app.sent == [LeaveTournament(7)]


def test_only_the_director_says_go() -> None:
    app = Answering([WELCOME, registering(you=None)], TournamentScreen)
    shown = drive(app, ["g"])
    assert app.sent == [] and "g go" not in footer(shown)
    # A registered player may ask while the start waits for the go (the server lets
    # it through once the director has been away two minutes), not before a set time.
    app = Answering([WELCOME, registering(you=1, starts_in=300.0)], TournamentScreen)
    shown = drive(app, ["g"])
    assert app.sent == [] and "g go" not in footer(shown)
    drive(app := Answering([WELCOME, registering(you=1)], TournamentScreen), ["g", "y"])
    assert app.sent == [StartTournament(7)]
    app = Answering([WELCOME, registering(director="Ann")], TournamentScreen)
    shown = drive(app, ["g"])
    assert "Start the tournament now" in shown
    drive(app := Answering([WELCOME, registering(director="Ann")], TournamentScreen), ["g", "y"])
    assert app.sent == [StartTournament(7)]


def test_esc_keeps_following_only_with_series_to_play() -> None:
    app = Answering([WELCOME, *tournament_lobby()[1:], tournament()], TournamentScreen)
    drive(app, ["escape"])
    assert app.sent == [] and app.model.tournament is not None
    app = Answering([WELCOME, *tournament_lobby()[1:], tournament(you=None)], TournamentScreen)
    drive(app, ["escape"])
    assert app.sent == [WatchTournament(None)]
    assert app.model.tournament is None
    assert app.model.apply(tournament(you=None)) is False  # a late update is dropped


def test_the_result_of_a_tournament_table_goes_back_to_the_tournament() -> None:
    messages = [*tournament_table(), tournament()]
    app = Answering(messages, LobbyScreen)

    def at_table(app: Answering) -> None:
        app.push_screen(TableScreen())

    async def scenario() -> tuple[str, str]:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            at_table(app)
            await pilot.pause(0.1)
            assert isinstance(app.screen, ResultScreen)
            await pilot.pause(0.1)  # its footer is drawn after it
            result = screen_text(app)
            await pilot.press("r")  # no rematch here
            await pilot.press("t")
            await pilot.pause(0.1)
            app.shown = app.screen
            return result, screen_text(app)

    result, after = asyncio.run(scenario())
    assert "t: back to the tournament" in result and "rematch" not in result
    assert "t back to the tournament" in footer(result)
    assert app.sent == [LeaveTable()]
    assert isinstance(app.shown, TournamentScreen)
    assert "You left table 2.2: Enter takes your seat back." in after


def test_other_peoples_words_are_shown_as_written() -> None:
    hostile = "[red]x[/]"
    lobby = tournament_lobby()[1]
    assert isinstance(lobby, Lobby)
    listed = ({**lobby.tournaments[0], "name": hostile, "director": "[b]Bob[/b]"},)
    messages: list[Message] = [WELCOME, Lobby(lobby.tables, lobby.online, 0, listed)]
    shown = drive(Answering(messages), [])
    assert hostile in shown and "[b]Bob[/b]" in shown
    standings = list(tournament().standings)
    standings[0] = {**standings[0], "name": "[@click=app.quit]Eve[/]"}
    info = tournament(name=hostile, director="[b]Bob[/b]", standings=tuple(standings))
    shown = drive(Answering([WELCOME, info], TournamentScreen), [])
    assert hostile in shown and "[b]Bob[/b]" in shown and "[@click=app.quit]Eve[/]" in shown


def test_ascii_mode_draws_the_tournament_screen_in_plain_ascii() -> None:
    app = Answering([WELCOME, tournament()], TournamentScreen)
    app.ascii_only = True
    shown = drive(app, [])
    assert shown.isascii(), {c for c in shown if not c.isascii()}
    assert ">2 " in shown and ">2.2 " in shown  # the player's line and table, marked


def test_the_tournament_screen_speaks_german() -> None:
    i18n.set_language("de")
    try:
        shown = drive(Answering([WELCOME, tournament()], TournamentScreen), [])
    finally:
        i18n.set_language("en")
    assert "Serie 2 von 3" in shown and "Du hast Tisch 2.2 verlassen" in shown
    assert "Freilos" in shown and "zurückgezogen" in shown
    assert "r zurückziehen" in footer(shown)


def test_the_header_clock_moves_between_messages() -> None:
    app = Answering([WELCOME, tournament()], TournamentScreen)

    def later(app: Answering) -> None:
        clock = app.model.clock
        assert isinstance(clock, Clock)
        clock.now += 61
        screen = app.screen
        assert isinstance(screen, TournamentScreen)  # (still running here)
        screen.tick()

    shown = drive(app, [], then=later)
    assert "series clock 13:35" in shown.splitlines()[0]


@pytest.fixture
def pseudo_locale() -> Iterator[None]:
    """The client speaks the pseudo-locale of ``test_i18n_pseudo`` (every message
    of the code accented), as German."""
    i18n.use(Pseudo(extracted()), "de")
    try:
        yield
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize(
    "case",
    ["tournament", "registering", "dialog", "lobby", "result", "withdraw", "locked"],
)
def test_the_tournament_screens_say_every_word_through_the_catalogs(
    case: str, pseudo_locale: None
) -> None:
    cases: dict[str, tuple[Callable[[], Answering], list[str]]] = {
        "tournament": (lambda: Answering([WELCOME, tournament("Friday")], TournamentScreen), []),
        "registering": (
            lambda: Answering(
                [WELCOME, registering(name="Friday", director="Ann")], TournamentScreen
            ),
            [],
        ),
        "dialog": (lambda: Answering(tournament_lobby()), ["T", "tab", "tab", "9", "enter"]),
        "lobby": (lambda: Answering(tournament_lobby()), ["up"]),
        "result": (
            lambda: Answering([*tournament_table(), tournament("Friday")], TableScreen),
            [],
        ),
        "withdraw": (
            lambda: Answering([WELCOME, tournament("Friday")], TournamentScreen),
            ["r"],
        ),
        "locked": (lambda: Answering(tournament_lobby()), ["up", "down", "t", "enter"]),
    }
    make, keys = cases[case]
    text = drive(make(), keys)
    bare = [
        line
        for line in text.splitlines()
        if any(w not in ALLOWED | TOURNAMENT_NAMES for w in WORD.findall(line))
    ]
    assert not bare, "\n".join(bare) + "\n---\n" + text
