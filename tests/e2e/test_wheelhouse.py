"""A party without internet: ``scripts/wheelhouse`` builds the folder of wheels, a
fresh venv with its network cut off (``unshare -n``, as root) installs maumau from it
and ``maumau-client --local`` starts; ``maumau-server --wheelhouse`` serves the folder
on the LAN, and pip installs from the address it prints (README, "A party without
internet").

Building the wheelhouse downloads the wheels maumau needs from the package index,
as installing maumau does; everything after that runs without a network (the
install and the client inside a network namespace of their own, the served
wheelhouse over loopback)."""

from __future__ import annotations

import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from support.wire import start_server_process

ROOT = Path(__file__).resolve().parents[2]
OFFLINE = {**os.environ, "PIP_CONFIG_FILE": os.devnull, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


@pytest.fixture(scope="module")
def wheelhouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("party") / "wheelhouse"
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "wheelhouse"), "--here", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"--find-links {out} maumau" in done.stdout
    return out


def test_the_wheelhouse_holds_maumau_with_its_styles_and_catalogs(wheelhouse: Path) -> None:
    [wheel] = wheelhouse.glob("maumau-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "maumau/client/maumau.tcss" in names
    assert "maumau/client/locale/de/LC_MESSAGES/maumau.mo" in names
    needed = ("msgpack", "trio", "textual", "aiohttp")
    found = {w.name.split("-")[0].lower() for w in wheelhouse.glob("*.whl")}
    assert set(needed) <= found


def offline(*command: str) -> list[str]:
    """``command`` in a network namespace of its own, with only loopback up."""
    script = 'ip link set lo up && exec "$@"'
    return ["unshare", "--net", "sh", "-c", script, "offline", *command]


@pytest.mark.skipif(
    os.geteuid() != 0 and not os.environ.get("MAUMAU_REQUIRE_NETNS"),
    reason="cutting the network off (unshare -n) needs root",
)
def test_a_fresh_venv_without_network_installs_from_it_and_the_client_starts(
    wheelhouse: Path, tmp_path: Path
) -> None:
    assert shutil.which("unshare") and shutil.which("ip"), "unshare and ip are needed"
    venv = tmp_path / "guest"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    install = subprocess.run(
        offline(
            str(venv / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "--no-index",
            "--find-links",
            str(wheelhouse),
            "maumau",
        ),
        capture_output=True,
        text=True,
        env=OFFLINE,
        timeout=300,
    )
    assert install.returncode == 0, install.stdout[-2000:] + install.stderr[-2000:]
    # The client, on a terminal, with a server of its own: its lobby shows.
    home = tmp_path / "home"
    home.mkdir()
    env = {**OFFLINE, "HOME": str(home), "TERM": "xterm", "LANG": "C.UTF-8"}
    env.pop("XDG_CONFIG_HOME", None)
    env.pop("XDG_DATA_HOME", None)
    main, terminal = pty.openpty()
    client = subprocess.Popen(
        offline(str(venv / "bin" / "maumau-client"), "--local", "--name", "Ann"),
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        env=env,
        start_new_session=True,
    )
    os.close(terminal)
    seen = b""
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and b"you: Ann" not in seen:
            ready, _, _ = select.select([main], [], [], 1.0)
            if ready:
                try:
                    seen += os.read(main, 65536)
                except OSError:
                    break
            if client.poll() is not None:
                break
        assert b"you: Ann" in seen, seen[-2000:]
    finally:
        if client.poll() is None:
            os.killpg(client.pid, signal.SIGTERM)
            try:
                client.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(client.pid, signal.SIGKILL)
                client.wait(10)
        os.close(main)


def test_the_server_serves_the_wheelhouse_and_pip_installs_from_its_address(
    wheelhouse: Path, tmp_path: Path
) -> None:
    server, _ = start_server_process(
        "--host", "127.0.0.1", "--port", "0", "--no-db",
        "--wheelhouse", str(wheelhouse), "--wheelhouse-port", "0",
    )  # fmt: skip
    try:
        assert server.stdout is not None
        lines = []
        while not any("python3 -m pip install" in line for line in lines) and len(lines) < 12:
            lines.append(server.stdout.readline())
        printed = "".join(lines)
        found = re.search(r"install maumau from (http://127\.0\.0\.1:\d+/)", printed)
        assert found, printed
        url = found.group(1)
        [pip_line] = [line for line in lines if "python3 -m pip install" in line]
        assert f"--find-links {url} --trusted-host 127.0.0.1 maumau" in pip_line
        fetched = tmp_path / "fetched"
        pip = [sys.executable, "-m", "pip", "download", "--no-index", "--find-links", url]
        download = subprocess.run(
            [*pip, "--trusted-host", "127.0.0.1", "--dest", str(fetched), "maumau"],
            capture_output=True,
            text=True,
            env=OFFLINE,
            timeout=300,
        )
        assert download.returncode == 0, download.stderr[-2000:]
        got = {w.name for w in fetched.glob("*.whl")}
        assert any(name.startswith("maumau-") for name in got)
        assert any(name.startswith("msgpack-") for name in got)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(10)


def test_a_folder_that_is_no_wheelhouse_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    cli = [sys.executable, "-m", "maumau.server.cli", "--host", "127.0.0.1", "--port", "0"]
    done = subprocess.run(
        [*cli, "--no-db", "--wheelhouse", str(empty), "--wheelhouse-port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2  # refused before anything starts
    assert "--wheelhouse:" in done.stderr and "has no maumau wheel" in done.stderr
