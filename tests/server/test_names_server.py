"""Names people can tell apart, through the server: look-alikes of reserved, online and
bot names are refused, and so are names and chat lines that show nothing.
(``test_names.py`` tests the skeleton and the rules themselves.)"""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing
from wireclient import WireClient

from maumau.protocol.messages import (
    Chat,
    ChatLine,
    CreateTable,
    Error,
    TableInfo,
)
from maumau.server.store import Store
from support.names_server import (
    CYRILLIC_ANN,
    _pair,
    refused,
)
from support.server_mock import connect, start_server


@pytest.fixture
def autojump_clock() -> trio.testing.MockClock:
    return trio.testing.MockClock(autojump_threshold=0)


async def test_a_look_alike_of_a_reserved_name_is_refused(
    nursery, autojump_clock, tmp_path: Path
) -> None:
    server = await start_server(nursery, store=Store(tmp_path / "s.db"))
    ann = await WireClient.open(
        *await _pair(server, nursery), "Ann", secret="ann-secret-0123456789"
    )
    await ann.send(Chat("lobby", "hi"))
    await ann.aclose()
    await trio.sleep(1)
    for name, secret in (
        (CYRILLIC_ANN, None),
        (CYRILLIC_ANN, "other-secret-0123456789"),
        ("ANN", None),
    ):
        error = await refused(server, nursery, name, secret)
        assert error.code == "name_reserved", (name, error)
    # The owner still gets in, with the name as she reserved it.
    again = await WireClient.open(
        *await _pair(server, nursery), "Ann", secret="ann-secret-0123456789"
    )
    assert again.welcome is not None and again.welcome.name == "Ann"


async def test_a_look_alike_of_a_player_online_is_refused(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    await connect(server, nursery, "Ann")
    error = await refused(server, nursery, CYRILLIC_ANN)
    assert error.code == "name_taken" and "Ann looks the same" in error.message


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("Ada*", "asterisk"),  # a bot's name
        ("\u0410da\u204e", "asterisk"),  # a Cyrillic А and a low asterisk
        ("\u3164", "shows nothing"),
        ("\u2800", "shows nothing"),
        ("\u2800\u2800\u2800", "shows nothing"),
        ("a" + "\u0301" * 23, "accents"),
    ],
)
async def test_bot_names_and_names_that_show_nothing_are_refused(
    nursery, autojump_clock, name: str, why: str
) -> None:
    server = await start_server(nursery)
    error = await refused(server, nursery, name)
    assert error.code == "bad_name" and why in error.message


async def test_chat_and_table_names_that_show_nothing_are_refused(nursery, autojump_clock) -> None:
    server = await start_server(nursery)
    ann = await connect(server, nursery, "Ann")
    bob = await connect(server, nursery, "Bob")
    await ann.send(Chat("lobby", "\u2800" * 200))
    error = await ann.wait_for(Error)
    assert error.code == "bad_chat" and "shows nothing" in error.message
    await ann.send(Chat("lobby", "Zoë: gg 🎲"))
    line = await bob.wait_for(ChatLine)
    assert line.text == "Zoë: gg 🎲"
    assert not [m for m in bob.received if isinstance(m, ChatLine) and "\u2800" in m.text]
    await ann.send(CreateTable("\u3164\u3164", {"seats": 2}, ()))
    error = await ann.wait_for(Error)
    assert error.code == "bad_name" and "table" in error.message
    await ann.send(CreateTable("Zoë's", {"seats": 2}, ()))
    assert (await ann.wait_for(TableInfo)).name == "Zoë's"
