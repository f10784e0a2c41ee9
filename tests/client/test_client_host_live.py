"""The host's evening end to end: the real ``maumau-server`` (with a database, so a
host key beside it, and a server password), the host's real client driven by keys
(``run_test``), and a guest speaking through the client's own link
(:class:`~maumau.client.net.ServerLink`) on the same loop.

The host's client proves the key from the file the server wrote, sees the guest on
the host screen, announces, mutes, closes the guest's table from the lobby, sends
the guest away, bans the name for good and lifts the ban, and changes the password;
the guest reads each of it as the server sends it.
"""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from maumau.client.app import MauMauApp
from maumau.client.net import LinkClosed, ServerLink
from maumau.client.screens.host import HostScreen
from maumau.client.screens.host_dialogs import AskScreen, LastingScreen
from maumau.client.screens.lobby import LobbyScreen
from maumau.protocol import host_key
from maumau.protocol.messages import CreateTable, Message, Notice, TableInfo, Welcome
from support.ascii import screen_text
from support.client_clicks import until
from support.wire import start_server_process, stop_server_process

SIZE = (80, 24)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[int, bytes]]:
    """A real server with a database and the password ``tuna``: its port, and the
    host key it wrote beside its database."""
    db = tmp_path / "party" / "server.db"
    process, port = start_server_process(
        "--host", "127.0.0.1", "--port", "0", "--db", str(db), "--no-announce",
        "--password", "tuna", stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        key = host_key.parse_key(db.with_name(host_key.FILE_NAME).read_text())
        assert key is not None
        yield port, key
    finally:
        stop_server_process(process)


@pytest.fixture(autouse=True)
def homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


class Guest:
    """A guest's connection, through the client's own link; what it received."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.received: list[Message] = []
        self.closed: LinkClosed | None = None
        self.link: ServerLink | None = None
        self.task: asyncio.Task[None] | None = None

    async def connect(self, name: str, password: str | None) -> None:
        self.received, self.closed = [], None
        self.link = await ServerLink.open("127.0.0.1", self.port, name, password=password)
        self.task = asyncio.create_task(self._run(self.link))

    async def _run(self, link: ServerLink) -> None:
        try:
            await link.run(self.received.append)
        except LinkClosed as closed:
            self.closed = closed

    def welcomed(self) -> bool:
        return any(isinstance(m, Welcome) for m in self.received)

    def notices(self, kind: str) -> list[Notice]:
        return [m for m in self.received if isinstance(m, Notice) and m.kind == kind]

    def close(self) -> None:
        if self.link is not None:
            self.link.close()
        if self.task is not None:
            self.task.cancel()


def listed(app: MauMauApp) -> list[str]:
    view = app.model.host_view
    return [str(c["name"]) for c in view.connections] if view is not None else []


async def pick(pilot: Any, app: MauMauApp, name: str) -> None:
    """Highlight ``name`` in the host screen's list of connections."""
    await until(pilot, lambda: name in listed(app))
    await until(pilot, lambda: isinstance(app.screen, HostScreen))
    app.screen.query_one("#host-connections").focus()
    table = app.screen.query_one("#host-connections")
    table.move_cursor(row=listed(app).index(name))  # type: ignore[attr-defined]
    await pilot.pause(0.05)


def test_the_hosts_evening_against_the_real_server(server: tuple[int, bytes]) -> None:
    port, key = server
    guest = Guest(port)

    async def scenario() -> None:
        app = MauMauApp("127.0.0.1", port, "Hana", remember=False, host_key=key)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.model.is_host)
            # A newcomer without the password is refused; with it, welcome.
            await guest.connect("Zed", None)
            await until(pilot, lambda: guest.closed is not None)
            assert guest.closed is not None and guest.closed.fatal_error is not None
            assert guest.closed.fatal_error.code == "password_required"
            await guest.connect("Zed", "tuna")
            await until(pilot, guest.welcomed)
            await pilot.press("H")
            await pick(pilot, app, "Zed")
            shown = screen_text(app)
            assert "Hana (you)" in shown and "127.0.0.1" in shown
            assert "server password: set" in shown
            # An announcement and a mute reach the guest.
            await pilot.press("n", *"pizza at eight", "enter")
            await until(pilot, lambda: guest.notices("announcement"))
            assert guest.notices("announcement")[0].text == "pizza at eight"
            assert "Announcement from Hana: pizza at eight" in app.model.lobby_chat
            await pilot.press("m", "enter", *"calm down", "enter")
            await until(pilot, lambda: guest.notices("muted"))
            muted = guest.notices("muted")[0]
            assert (muted.seconds, muted.text, muted.by) == (600, "calm down", "Hana")
            # The guest's table, closed from the lobby with X.
            assert guest.link is not None
            await guest.link.send(CreateTable("Zed's", {"variant": "classic", "seats": 2}, ()))
            await until(pilot, lambda: any(isinstance(m, TableInfo) for m in guest.received))
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await until(pilot, lambda: app.model.lobby is not None and app.model.lobby.tables)
            lobby = app.model.lobby
            assert lobby is not None and lobby.tables[0]["name"] == "Zed's"
            await pilot.press("X")
            await until(pilot, lambda: isinstance(app.screen, AskScreen))
            await pilot.press(*"closing time", "enter")
            await until(pilot, lambda: guest.notices("table_closed"))
            assert guest.notices("table_closed")[0].text == "closing time"
            # Sent away: the goodbye names the host and gives the words.
            await pilot.press("H")
            await pick(pilot, app, "Zed")
            await pilot.press("k", *"bedtime", "enter")
            await until(pilot, lambda: guest.closed is not None)
            assert guest.closed is not None and guest.closed.sent_away
            assert guest.closed.reason == "The host (Hana) sent you away: bedtime"
            # Back, and banned for good by name; refused at hello after that.
            await guest.connect("Zed", "tuna")
            await until(pilot, guest.welcomed)
            await pick(pilot, app, "Zed")
            await pilot.press("b")
            await until(pilot, lambda: isinstance(app.screen, LastingScreen))
            await pilot.press("g", "enter")
            await until(pilot, lambda: guest.closed is not None)
            assert guest.closed is not None and guest.closed.goodbye_code == "banned"
            await guest.connect("Zed", "tuna")
            await until(pilot, lambda: guest.closed is not None)
            refusal = guest.closed.fatal_error if guest.closed is not None else None
            assert refusal is not None and refusal.code == "banned"
            await until(pilot, lambda: app.model.host_view and app.model.host_view.bans)
            await until(pilot, lambda: "Zed" in screen_text(app) and "for good" in screen_text(app))
            await pilot.press("u")
            await until(pilot, lambda: app.model.host_view and not app.model.host_view.bans)
            # A new password: the old one is wrong now.
            await pilot.press("p", *"swordfish", "enter")
            await until(pilot, lambda: isinstance(app.screen, HostScreen))
            await pilot.pause(0.3)
            await guest.connect("Zed", "tuna")
            await until(pilot, lambda: guest.closed is not None)
            refusal = guest.closed.fatal_error if guest.closed is not None else None
            assert refusal is not None and refusal.code == "wrong_password"
            await guest.connect("Zed", "swordfish")
            await until(pilot, guest.welcomed)
            guest.close()

    try:
        asyncio.run(asyncio.wait_for(scenario(), 120))
    finally:
        guest.close()
