"""The client's side of the server's host (issue 26, protocol 9): the host key in
every hello, the server's password asked by the connect screen, being sent away or
banned, the host's notices, the host screen and the lobby's X.

The model and the words are tested as pure functions; the hello against a small fake
server on 127.0.0.1 (``FakeServer``, which decodes every hello); the screens in the
real app (``run_test``), fed messages as the server would send them, with what the
app sends recorded.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.screen import Screen
from textual.widgets import RichLog

from maumau.client import cli, i18n, net, words
from maumau.client.app import MauMauApp
from maumau.client.connection import ServerMessage
from maumau.client.host_words import cut, fit
from maumau.client.model import Model
from maumau.client.net import same_machine
from maumau.client.screens.connect import ConnectScreen
from maumau.client.screens.help import HelpScreen
from maumau.client.screens.host import HostScreen
from maumau.client.screens.host_dialogs import AskScreen, LastingScreen, cancel_tournament
from maumau.client.screens.lobby import LobbyScreen
from maumau.client.screens.table import TableScreen
from maumau.protocol import host_key
from maumau.protocol.messages import (
    Announce,
    Ban,
    CancelTournament,
    CloseTable,
    Error,
    Goodbye,
    Hello,
    HostList,
    HostView,
    Kick,
    Lobby,
    Message,
    Mute,
    Notice,
    SetPassword,
    Unban,
    Welcome,
)
from support.ascii import screen_text
from support.client_clicks import until
from support.client_hostile import FakeServer, screen_is
from support.client_snapshots import StillApp, classic_table, lobby

SIZE = (80, 24)
KEY = bytes(range(32))
MARKUP = "[b]x[/b] [@click=app.quit]y[/]"


@pytest.fixture(autouse=True)
def homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A config and a data folder of the test's own (the data folder is where the
    default host key is looked for)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


def host_welcome(host: bool = True, resumed: bool = False) -> Welcome:
    return Welcome(9, "s", "r", "Ann", resumed, host)


def connection(session: str, name: str, **fields: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "session": session,
        "name": name,
        "since": 60.0,
        "rate": 0.5,
        "host": False,
        "muted": 0,
    }
    entry.update(fields)
    return entry


VIEW = HostView(
    connections=(
        connection("s1", "Ann", address="127.0.0.1", since=3700.0, host=True),
        connection("s2", MARKUP, address="192.168.100.123", table=1, since=725.0, muted=540.0),
        connection("s3", "Cleo with a long name", address="fe80::1234:5678:9abc:def0:1"),
    ),
    connections_total=3,
    bans=(
        {"what": "name", "target": "Mallory", "lasting": "ever", "by": "Ann", "reason": MARKUP},
        {"what": "address", "target": "10.0.0.66", "lasting": "life", "by": "Ann"},
    ),
    password=True,
)


def run(scenario: Callable[[], Any], timeout: float = 60) -> None:
    asyncio.run(asyncio.wait_for(scenario(), timeout))


class Recorded(StillApp):
    """The client with a fixed model and a screen, recording what it sends."""

    def __init__(
        self, messages: list[Message], screen: Callable[[], Screen[Any]], ascii_only: bool = False
    ) -> None:
        super().__init__(messages, screen)
        self.ascii_only = ascii_only
        self.sent: list[Message] = []

    async def send(self, message: Message) -> None:
        self.sent.append(message)

    def deliver(self, message: Message) -> None:
        """``message`` as if the server had sent it."""
        self.post_message(ServerMessage(message))

    def without_lists(self) -> list[Message]:
        return [m for m in self.sent if not isinstance(m, HostList)]


def host_lobby(ascii_only: bool = False, host: bool = True) -> Recorded:
    return Recorded([*lobby(), host_welcome(host), VIEW], LobbyScreen, ascii_only)


def flat(app: MauMauApp) -> str:
    """The screen's text, its lines joined (a long line wraps)."""
    return " ".join(screen_text(app).replace("│", " ").replace("|", " ").split())


def toasts(app: MauMauApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


# --- the model -------------------------------------------------------------------------


def test_the_model_folds_the_hosts_messages() -> None:
    model = Model()
    now = [100.0]
    model.clock = lambda: now[0]
    model.apply(host_welcome(host=False))
    assert model.is_host is False
    model.apply(host_welcome(host=True))
    assert model.is_host is True
    model.apply(VIEW)
    assert model.host_view is VIEW
    model.apply(Notice("announcement", "Ann", "Pizza at eight"))
    assert [n.text for n in model.announcements] == ["Pizza at eight"]
    assert model.lobby_chat[-1] == "Announcement from Ann: Pizza at eight"
    assert not model.chat  # not at a table: the lobby's chat only
    model.apply(Notice("muted", "Ann", "calm down", seconds=600))
    assert model.muted_seconds == 600
    now[0] += 100
    assert model.muted_seconds == 500
    model.apply(Notice("unmuted", "Ann"))
    assert model.muted_seconds == 0
    model.apply(Error("muted", "muted", "chat", details={"seconds": 30.0}))
    assert model.muted_seconds == 30
    # No longer the host (after a reconnect): its view goes.
    model.apply(host_welcome(host=False, resumed=True))
    assert model.is_host is False and model.host_view is None


def test_a_closed_table_is_left_and_an_announcement_reaches_the_tables_chat() -> None:
    model = Model()
    for message in classic_table():
        model.apply(message)
    assert model.table is not None
    model.apply(Notice("announcement", "Ann", "last round"))
    assert model.chat[-1] == "Announcement from Ann: last round"
    model.apply(Notice("table_closed", "Ann", "closing time", table=model.table.id + 1))
    assert model.table is not None  # another table's closing is not this one's
    closed = model.table.id
    model.apply(Notice("table_closed", "Ann", "closing time", table=closed))
    assert model.table is None and model.left_table_id == closed


# --- the words -------------------------------------------------------------------------


def test_the_hosts_words() -> None:
    assert words.goodbye_line("kicked", "kicked by the host", "Ann", "too loud") == (
        "The host (Ann) sent you away: too loud"
    )
    assert words.goodbye_line("kicked", "kicked", "Ann") == "The host (Ann) sent you away."
    assert (
        words.goodbye_line("banned", "banned", "Ann", "cheat") == "The host (Ann) banned you: cheat"
    )
    assert words.notice_line("muted", "Ann", None, 90) == "Ann muted you in chat for 2 minutes."
    assert words.notice_line("tournament_cancelled", "Ann", "late", None, "Cup") == (
        "Ann called the tournament Cup off: late"
    )
    assert words.notice_line("brand_new", "Ann") is None
    assert words.duration_words(7 * 86400) == "7 days"
    assert words.short_duration(725) == "12 min"
    assert words.short_duration(599.5, up=True) == "10 min"  # a mute just begun
    assert fit([["name", "a" * 40], ["x", "y" * 40]], 30, [0]) == [4, 40]  # never below 4
    assert sum(fit([["name", "a" * 40], ["addr", "b" * 40]], 30, [0, 1])) == 30
    assert cut("abcdef", 4, ascii_only=True) == "abc~"


def test_the_new_refusals_in_german() -> None:
    i18n.set_language("de")
    try:
        for code in ("not_host", "no_such_session", "no_such_ban", "password_required"):
            line = words.error_line(code, None, "english")
            assert line != "english" and line in i18n._(words._ERRORS[code][0])
        own = words.error_line("bad_target", {"why": "own"}, "english")
        loopback = words.error_line("bad_target", {"why": "loopback"}, "english")
        assert own != loopback and "english" not in (own, loopback)
        assert "30" in words.error_line("too_many_bans", {"limit": 30}, "english")
        assert words.error_line("banned", {"why": "address"}, "e") != words.error_line(
            "banned", {"why": "name"}, "e"
        )
        muted = words.error_line("muted", {"seconds": 120.0}, "english")
        assert "2 Minuten" in muted, muted
        assert "(Ann)" in words.goodbye_line("kicked", "kicked", "Ann", "laut")
    finally:
        i18n.set_language("en")


def test_a_tournament_is_called_off_with_the_hosts_words() -> None:
    assert cancel_tournament(4, "too late") == CancelTournament(4, "too late")
    assert cancel_tournament(4, None) == CancelTournament(4)


# --- the command line ------------------------------------------------------------------


def cli_run(*argv: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "LANG": "C.UTF-8",
        "LANGUAGE": "",
        "LC_ALL": "",
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
    }
    return subprocess.run(
        [sys.executable, "-m", "maumau.client.cli", *argv],
        capture_output=True,
        text=True,
        timeout=30,
        env=env,
    )


def test_an_unusable_admin_key_is_refused_clearly(homes: Path) -> None:
    missing = cli_run("--admin-key", str(homes / "nope.key"), "127.0.0.1:1", home=homes)
    assert missing.returncode == 2
    assert "cannot read the host key" in missing.stderr and "nope.key" in missing.stderr
    bad = homes / "bad.key"
    bad.write_text("not a key\n")
    wrong = cli_run("--admin-key", str(bad), "127.0.0.1:1", home=homes)
    assert wrong.returncode == 2 and "holds no host key" in wrong.stderr
    local = cli_run("--admin-key", str(bad), "--local", home=homes)
    assert local.returncode == 2 and "--admin-key does not go with --local" in local.stderr


def captured_app(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> MauMauApp:
    """The app ``maumau-client argv`` makes (not run)."""
    made: list[MauMauApp] = []
    monkeypatch.setattr(MauMauApp, "run", lambda self, *a, **k: made.append(self))
    cli.main(argv)
    return made[0]


def test_the_key_file_of_a_server_on_this_machine_is_used_by_default(
    homes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cli.default_key_path() == homes / "data" / "maumau" / "host.key"
    app = captured_app(monkeypatch, ["127.0.0.1:7766"])
    assert app.connection.host_key is None  # no key file: no key, and not a word said
    path = cli.default_key_path()
    path.parent.mkdir(parents=True)
    path.write_text(host_key.new_key() + "\n")
    key = host_key.parse_key(path.read_text())
    app = captured_app(monkeypatch, ["127.0.0.1:7766"])
    assert app.connection.host_key == key and app.connection.key_only_here
    app = captured_app(monkeypatch, [])  # the connect screen's server too
    assert app.connection.host_key == key
    given = homes / "given.key"
    given.write_text(KEY.hex())
    app = captured_app(monkeypatch, ["--admin-key", str(given), "box:7766"])
    assert app.connection.host_key == KEY and not app.connection.key_only_here
    for argv in (["--local"], ["--replay", "3", "127.0.0.1:7766"]):
        assert captured_app(monkeypatch, argv).connection.host_key is None
    path.write_text("garbage")
    assert captured_app(monkeypatch, ["127.0.0.1:7766"]).connection.host_key is None


def test_a_browser_guest_never_gets_a_key(homes: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from maumau.client.web import guest

    path = cli.default_key_path()
    path.parent.mkdir(parents=True)
    path.write_text(KEY.hex())
    made: list[MauMauApp] = []
    monkeypatch.setattr(MauMauApp, "run", lambda self, *a, **k: made.append(self))
    monkeypatch.setenv("MAUMAU_WEB_GAME", "127.0.0.1:7766")
    monkeypatch.setenv("MAUMAU_WEB_KEY", "ab" * 32)
    guest.main()
    assert made[0].connecting.web_key is not None and made[0].connection.host_key is None
    app = MauMauApp("127.0.0.1", 7766, "", web_key=b"k" * 32, host_key=KEY)
    assert app.connection.host_key is None


# --- the hello, against a fake server ----------------------------------------------------


def hellos(server: FakeServer) -> list[Hello]:
    return [m for m in server.received if isinstance(m, Hello)]


def test_every_hello_proves_the_key_and_carries_the_password_once_asked() -> None:
    lobby_message = lobby()[1]
    server = FakeServer(
        [
            [Error("password_required", "this server asks a password", "hello", fatal=True)],
            [Error("wrong_password", "wrong password", "hello", fatal=True)],
            [host_welcome(), lobby_message],
            [host_welcome(resumed=True), lobby_message],
        ]
    )

    async def scenario() -> None:
        async with server.running():
            app = MauMauApp("127.0.0.1", server.port, "Ann", remember=False, host_key=KEY)
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: server.hellos == 1 and screen_is(app, ConnectScreen)())
                screen = app.screen
                field = screen.query_one("#server-password")
                await until(pilot, lambda: field.has_focus)
                assert field.display and field.password  # type: ignore[attr-defined]
                assert "asks for a password" in screen_text(app)
                await pilot.press("enter")  # nothing typed: not sent
                await pilot.pause(0.2)
                assert server.hellos == 1 and "Type the server's password" in screen_text(app)
                await pilot.press(*"wrong", "enter")
                await until(pilot, lambda: server.hellos == 2 and screen_is(app, ConnectScreen)())
                assert app.screen is not screen and "password is wrong" in screen_text(app)
                await until(pilot, lambda: app.screen.query_one("#server-password").has_focus)
                await pilot.press(*"sesame", "enter")
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
                assert app.model.is_host
                # A dropped connection: the reconnect says hello with both again.
                assert server.writer is not None
                server.writer.close()
                await until(pilot, lambda: server.hellos == 4 and app.model.resume == "r")
                await until(pilot, lambda: app.banner_text is None)

    run(scenario)
    sent = hellos(server)
    assert [h.password for h in sent] == [None, "wrong", "sesame", "sesame"]
    assert sent[3].resume == "r"
    for hello in sent:
        assert hello.host is not None and host_key.valid(KEY, hello.name, hello.host)
    assert len({h.host["nonce"] for h in sent if h.host}) == 4  # a fresh proof each time


def test_a_browser_guest_is_asked_the_password_too_and_proves_no_key() -> None:
    from maumau.client.screens.web_login import WebLoginScreen

    server = FakeServer(
        [
            [Error("password_required", "this server asks a password", "hello", fatal=True)],
            [host_welcome(host=False), lobby()[1]],
        ]
    )

    async def scenario() -> None:
        async with server.running():
            app = MauMauApp(
                "127.0.0.1", server.port, "", remember=False, web_key=b"w" * 32, host_key=KEY
            )
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, screen_is(app, WebLoginScreen))
                assert not app.screen.query_one("#server-password").display
                await pilot.press(*"Zoe", "enter", "enter")
                await until(pilot, lambda: server.hellos == 1 and screen_is(app, WebLoginScreen)())
                await until(pilot, lambda: app.screen.query_one("#server-password").has_focus)
                await pilot.press(*"sesame", "enter")
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen))

    run(scenario)
    assert [(h.name, h.password, h.host) for h in hellos(server)] == [
        ("Zoe", None, None),
        ("Zoe", "sesame", None),
    ]


class Ends:
    """A writer's two ends, as ``same_machine`` asks them."""

    def __init__(self, peer: Any, own: Any) -> None:
        self.ends = {"peername": peer, "sockname": own}

    def get_extra_info(self, name: str) -> Any:
        return self.ends[name]


def test_which_servers_are_on_this_machine() -> None:
    assert same_machine(Ends(("127.0.0.1", 7766), ("127.0.0.1", 5000)))  # type: ignore[arg-type]
    assert same_machine(Ends(("::1", 7766, 0, 0), ("::1", 5000, 0, 0)))  # type: ignore[arg-type]
    assert same_machine(Ends(("::ffff:127.0.0.1", 1), ("::1", 2)))  # type: ignore[arg-type]
    # Its own LAN address: both ends the same address.
    assert same_machine(Ends(("192.168.1.5", 7766), ("192.168.1.5", 5000)))  # type: ignore[arg-type]
    assert not same_machine(Ends(("192.168.1.9", 7766), ("192.168.1.5", 5000)))  # type: ignore[arg-type]
    assert not same_machine(Ends(None, None))  # type: ignore[arg-type]


def test_a_key_found_is_proved_only_to_a_server_on_this_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(net, "same_machine", lambda writer: False)  # as if elsewhere
    server = FakeServer([[Error("name_taken", "name taken", "hello", fatal=True)]])

    async def scenario() -> None:
        async with server.running():
            for here in (True, False):
                app = MauMauApp(
                    "127.0.0.1",
                    server.port,
                    "Ann",
                    remember=False,
                    host_key=KEY,
                    key_only_here=here,
                )
                async with app.run_test(size=SIZE) as pilot:
                    await until(pilot, screen_is(app, ConnectScreen))

    run(scenario)
    found, given = hellos(server)
    assert found.host is None  # the default key file's: not to a server elsewhere
    assert given.host is not None and host_key.valid(KEY, "Ann", given.host)  # --admin-key's


def test_no_key_no_proof_and_no_password_field() -> None:
    server = FakeServer([[Error("name_taken", "name taken", "hello", fatal=True)]])

    async def scenario() -> None:
        async with server.running():
            app = MauMauApp("127.0.0.1", server.port, "Ann", remember=False)
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: server.hellos == 1 and screen_is(app, ConnectScreen)())
                assert not app.screen.query_one("#server-password").display

    run(scenario)
    [hello] = hellos(server)
    assert hello.host is None and hello.password is None


@pytest.mark.parametrize(
    ("goodbye", "said"),
    [
        (
            Goodbye("kicked by the host", "kicked", "Root", MARKUP),
            f"The host (Root) sent you away: {MARKUP}",
        ),
        (Goodbye("banned", "banned", "Root"), "The host (Root) banned you."),
    ],
)
def test_sent_away_the_connect_screen_says_so_as_written_and_nobody_reconnects(
    goodbye: Goodbye, said: str
) -> None:
    server = FakeServer([[host_welcome(host=False), lobby()[1]]])

    async def scenario() -> None:
        async with server.running():
            app = MauMauApp("127.0.0.1", server.port, "Ann", remember=False)
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
                await server.push(goodbye)
                assert server.writer is not None
                server.writer.close()
                await until(pilot, screen_is(app, ConnectScreen))
                await pilot.pause(1.5)  # the first reconnect would come after 0.5 s
                assert server.hellos == 1
                assert said in flat(app)
                assert app.banner_text is None

    run(scenario)


# --- the notices -----------------------------------------------------------------------


def test_notices_are_toasts_and_an_announcement_joins_the_lobbys_chat() -> None:
    app = Recorded([*lobby(), host_welcome(host=False)], LobbyScreen)

    async def scenario() -> None:
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.pause()
            app.deliver(Notice("announcement", "Root", MARKUP))
            app.deliver(Notice("muted", "Root", None, seconds=600))
            await pilot.pause(0.2)
            shown = toasts(app)
            assert f"Announcement from Root: {MARKUP}" in shown
            assert "Root muted you in chat for 10 minutes." in shown
            chat = app.screen.query_one("#lobby-chat", RichLog)
            written = " ".join(" ".join(line.text for line in chat.lines).split())
            assert f"Announcement from Root: {MARKUP}" in written  # the chat, as typed
            announcement = next(n for n in app._notifications if "Announcement" in str(n.message))
            assert announcement.timeout >= 15

    run(scenario)


def test_a_closed_table_takes_the_player_to_the_lobby() -> None:
    app = Recorded([*lobby(), *classic_table()], TableScreen)

    async def scenario() -> None:
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.pause()
            assert app.model.table is not None
            closed = app.model.table.id
            app.deliver(Notice("table_closed", "Root", "closing time", table=closed))
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            assert app.model.table is None
            assert "Root closed the table: closing time" in toasts(app)

    run(scenario)


# --- the lobby's keys and the host screen --------------------------------------------------


def footer(app: MauMauApp) -> str:
    return screen_text(app).rstrip("\n").splitlines()[-1]


def test_only_the_host_has_h_and_x_in_the_lobby() -> None:
    app = host_lobby(host=False)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "H host" not in footer(app)
            await pilot.press("H", "X")
            await pilot.pause(0.1)
            assert isinstance(app.screen, LobbyScreen) and not app.sent

    run(scenario)
    app = host_lobby()

    async def as_host() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "H host" in footer(app) and "X close" in footer(app)
            await pilot.press("X")
            await until(pilot, lambda: isinstance(app.screen, AskScreen))
            assert "Close the table “Friday”?" in screen_text(app)
            await pilot.press(*"last orders", "enter")
            await until(pilot, lambda: app.sent)
            await pilot.press("X", "escape")  # Esc: nothing sent
            await pilot.pause(0.1)

    run(as_host)
    assert app.sent == [CloseTable(1, "last orders")]


def test_x_on_a_tournament_in_the_lobby_calls_it_off_with_the_hosts_words() -> None:
    from support.client_tournament_data import summary

    base = lobby()[1]
    assert isinstance(base, Lobby)
    listed = (summary(7, "Spring Cup", "registering"), summary(8, "Open", "playing"))
    app = Recorded(
        [Lobby(base.tables, base.online, tournaments=listed), host_welcome()], LobbyScreen
    )

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("t")  # into the tournaments' list
            await pilot.press("X")
            await until(pilot, lambda: isinstance(app.screen, AskScreen))
            assert "Call the tournament “Spring Cup” off?" in screen_text(app)
            await pilot.press(*"rain", "enter")
            await until(pilot, lambda: app.sent)

    run(scenario)
    assert app.sent == [CancelTournament(7, "rain")]


async def open_host_screen(pilot: Any, app: Any) -> None:
    """From the lobby, H: until the host screen is shown."""
    await pilot.pause()
    await pilot.press("H")
    await until(pilot, lambda: isinstance(app.screen, HostScreen))


@pytest.mark.parametrize("ascii_only", [False, True])
def test_the_host_screen_shows_the_view_as_written_and_fits(ascii_only: bool) -> None:
    app = host_lobby(ascii_only)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await open_host_screen(pilot, app)
            await pilot.pause(0.1)
            shown = screen_text(app)
            lines = shown.splitlines()
            assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
            assert "[b]x[/b]" in shown  # a name as typed, never markup
            assert "Ann (you)" in shown and "192.168.100.123" in shown
            assert "Friday" in shown and "12 min" in shown and "9 min" in shown
            assert "Mallory" in shown and "for good" in shown and "server's life" in shown
            assert "server password: set" in shown
            for key in ("u unban", "n announce", "Esc back"):
                assert key in footer(app)
            assert "k kick" not in footer(app)  # the host's own line is highlighted
            await pilot.press("down")
            await pilot.pause(0.05)
            for key in ("k kick", "m mute", "b ban name", "a ban address"):
                assert key in footer(app)
            if ascii_only:
                assert shown.isascii()
            assert app.sent == [HostList()]
            await pilot.pause(2.3)  # asked again every 2 s while open
            assert app.sent.count(HostList()) >= 2
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            count = len(app.sent)
            await pilot.pause(2.3)
            assert len(app.sent) == count  # closed: no more asking

    run(scenario)


def test_the_host_screens_keys_send_the_hosts_requests() -> None:
    app = host_lobby()

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await open_host_screen(pilot, app)
            await pilot.pause(0.1)
            host = app.screen

            async def back() -> None:
                await until(pilot, lambda: app.screen is host)

            await pilot.press("down", "k")  # the second connection
            await until(pilot, lambda: isinstance(app.screen, AskScreen))
            assert MARKUP in screen_text(app)
            await pilot.press(*"too loud", "enter")
            await back()
            await pilot.press("m")
            await until(pilot, lambda: isinstance(app.screen, AskScreen))
            await pilot.press("enter", "enter")  # 10 minutes, no reason
            await back()
            await pilot.press("m", "backspace", "backspace", "0", "enter", "enter")  # lifted
            await back()
            await pilot.press("b")
            await until(pilot, lambda: isinstance(app.screen, LastingScreen))
            await pilot.press("g")
            await until(pilot, lambda: isinstance(app.screen, AskScreen))
            await pilot.press("enter")
            await back()
            await pilot.press("a", "l", "enter")
            await back()
            await pilot.press("a", "escape")  # cancelled: nothing
            await back()
            await pilot.press("u")  # the first ban
            await pilot.press("p")
            await until(pilot, lambda: isinstance(app.screen, AskScreen))
            await pilot.press(*"sesame", "enter")
            await back()
            await pilot.press("p", "enter")  # empty: no password
            await back()
            await pilot.press("n", "enter")  # nothing typed: not sent
            await pilot.pause(0.1)
            assert isinstance(app.screen, AskScreen)
            await pilot.press(*"pizza", "enter")
            await back()

    run(scenario)
    assert app.without_lists() == [
        Kick("s2", "too loud"),
        Mute("s2", 600),
        Mute("s2", 0),
        Ban("name", MARKUP, "ever"),
        Ban("address", "192.168.100.123", "life"),
        Unban("name", "Mallory"),
        SetPassword("sesame"),
        SetPassword(None),
        Announce("pizza"),
    ]


def test_the_host_screen_keeps_the_highlighted_player_when_redrawn() -> None:
    app = host_lobby()
    moved = HostView(
        connections=(connection("s9", "Zed"), *VIEW.connections),
        connections_total=4,
        bans=(),
        password=False,
    )

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await open_host_screen(pilot, app)
            await pilot.press("down")
            app.deliver(moved)
            await pilot.pause(0.2)
            host = app.screen
            assert isinstance(host, HostScreen)
            chosen = host.selected_connection()
            assert chosen is not None and chosen["session"] == "s2"
            assert "Bans: none" in screen_text(app) and "server password: none" in screen_text(app)
            assert host.check_action("unban", ()) is False

    run(scenario)


def test_the_help_tells_the_host_of_the_hosts_keys() -> None:
    for host, told in ((True, True), (False, False)):
        app = Recorded([*lobby(), host_welcome(host)], HelpScreen)

        async def scenario() -> None:
            async with app.run_test(size=SIZE) as pilot:  # noqa: B023
                await pilot.pause(0.1)
                text = str(app.screen.query_one("#help-text").render())  # noqa: B023
                assert ("Hosting" in text) is told, text  # noqa: B023

        run(scenario)


def test_a_refusal_of_a_hosts_request_is_a_toast_in_words() -> None:
    app = host_lobby()

    async def scenario() -> None:
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await open_host_screen(pilot, app)
            app.deliver(
                Error("bad_target", "that is your own address", "ban", details={"why": "own"})
            )
            await pilot.pause(0.2)
            assert "that is your own address" in toasts(app)
            assert isinstance(app.screen, HostScreen)

    run(scenario)


def test_the_lobby_chat_keeps_a_lobby_message_between_notices() -> None:
    """(A lobby message after an announcement keeps the announcement in the chat.)"""
    app = Recorded([*lobby(), host_welcome(host=False)], LobbyScreen)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            app.deliver(Notice("announcement", "Root", "hello all"))
            app.deliver(Lobby((), ("Ann",)))
            await pilot.pause(0.2)
            assert "Announcement from Root: hello all" in flat(app)

    run(scenario)


def test_a_hosts_question_wraps_whole_at_the_smallest_size() -> None:
    """At 60x20 the question naming a long name is shown to its last word."""
    app = host_lobby(ascii_only=True)

    async def scenario() -> None:
        async with app.run_test(size=(60, 20)) as pilot:
            await open_host_screen(pilot, app)
            await pilot.pause(0.1)
            await pilot.press("down", "k")
            await until(pilot, lambda: isinstance(app.screen, AskScreen))
            await pilot.pause(0.1)
            assert "They may come back, unless banned." in flat(app)

    run(scenario)
