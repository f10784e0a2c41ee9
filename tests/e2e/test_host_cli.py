"""The host's evening through the real commands: ``maumau-server`` writes its host key
(the user's alone) beside the database and says where; a client proving that key
over real TCP has the host's powers, a newcomer without the password (given in the
environment, unseen by ``ps``) is refused, and a ban for good outlives the server
process; every host action is in the server's log with the host's name
(README, "Hosting: keeping order")."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
import trio
from wireclient import Refused, WireClient

from maumau.protocol import host_key
from maumau.protocol.messages import Ban, Goodbye, HostList, HostView, Kick
from support.wire import SERVER_CLI, start_server_process
from support.wire import stop_server_process as stop


def started(db: Path, *options: str) -> tuple[subprocess.Popen[str], int]:
    os.environ["MAUMAU_PASSWORD"] = "tuna"
    try:
        return start_server_process("--host", "127.0.0.1", "--port", "0", "--db", str(db), *options)
    finally:
        del os.environ["MAUMAU_PASSWORD"]


async def test_the_host_key_the_password_and_a_ban_for_good_across_a_restart(
    tmp_path: Path,
) -> None:
    db = tmp_path / "party" / "server.db"
    process, port = started(db, "--no-announce")
    try:
        # (read here: communicate() reads the pipe itself, past what readline buffered)
        assert process.stdout is not None
        said = [process.stdout.readline() for _ in range(4)]
        key_path = db.with_name("host.key")
        assert stat.S_IMODE(key_path.stat().st_mode) == 0o600
        key = host_key.parse_key(key_path.read_text())
        assert key is not None
        proof = host_key.make(key, "Hana", time.time())
        hana = await WireClient.connect("127.0.0.1", port, "Hana", host_proof=proof)
        assert hana.welcome is not None and hana.welcome.host
        with pytest.raises(Refused) as caught:
            await WireClient.connect("127.0.0.1", port, "Zed")
        assert caught.value.error.code == "password_required"
        zed = await WireClient.connect("127.0.0.1", port, "Zed", password="tuna")
        await hana.send(HostList())
        shown = await hana.wait_for(HostView)
        assert [line["name"] for line in shown.connections] == ["Hana", "Zed"]
        assert shown.connections[1]["address"] == "127.0.0.1" and shown.password
        await hana.send(Ban("name", "Zed", "ever", "cheating"))
        bye = await zed.wait_for(Goodbye)
        assert (bye.code, bye.by, bye.note) == ("banned", "Hana", "cheating")
        await hana.wait_for(HostView)
        amy = await WireClient.connect("127.0.0.1", port, "Amy", password="tuna")
        await hana.send(HostList())
        amy_id = [c for c in (await hana.wait_for(HostView)).connections if c["name"] == "Amy"]
        await hana.send(Kick(amy_id[0]["session"], "bedtime"))
        assert (await amy.wait_for(Goodbye)).code == "kicked"
        await hana.aclose()
    finally:
        out, err = stop(process)
    said.append(out)
    assert f"The host key is {key_path}" in said[2]
    assert "Newcomers must give the server password." in said[3]
    assert "Hana connected (('127.0.0.1'" in err and "with the host's powers" in err
    assert "host Hana banned the name Zed for good: cheating" in err
    assert "host Hana sent Amy (127.0.0.1) away: bedtime" in err
    assert "refused a hello (password_required)" in err
    assert "tuna" not in "".join(said) + err

    process, port = started(db, "--no-announce")
    try:
        with pytest.raises(Refused) as caught:
            await WireClient.connect("127.0.0.1", port, "zed", password="tuna")
        assert (caught.value.error.code, caught.value.error.details) == (
            "banned",
            {"why": "name", "name": "zed"},
        )
        await WireClient.connect("127.0.0.1", port, "Amy", password="tuna")
        # The key stays the same across restarts: an older proof is no use, a new one is.
        stale = await WireClient.connect(
            "127.0.0.1", port, "Hana", host_proof=proof, password="tuna"
        )
        assert stale.welcome is not None and not stale.welcome.host
        await stale.aclose()
        await trio.sleep(0.2)
    finally:
        stop(process)


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        (["--no-db", "--admin", "Ann"], "--admin needs the database"),
        (["--admin", "Bot*"], "--admin Bot*"),
        (["--password", "x" * 65], "--password must be 1 to 64 characters"),
    ],
)
def test_bad_host_options_are_refused_with_the_reason(options: list[str], problem: str) -> None:
    result = subprocess.run(
        [*SERVER_CLI, *options], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 2 and problem in result.stderr, result.stderr


def test_the_help_names_the_host_options() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "maumau.server.cli", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "--admin NAME" in result.stdout and "--password WORD" in result.stdout
