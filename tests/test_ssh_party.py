"""SSH party end to end: guests log in with ``ssh -tt`` and land in the lobby.

Starts its own ``sshd`` (Debian's openssh-server) on 127.0.0.1 with a temporary config,
host key and client key, and a real ``maumau-server`` on 127.0.0.1. The sshd config
is the one ``scripts/ssh-party`` writes (``sshd_config()``), with only what a test
needs put in front (sshd keeps the first value of a keyword): the current user
instead of a guest account, a key instead of a password. Its ``ForceCommand`` is the
very wrapper a guest's login runs (``scripts/ssh-party --guest-session``). Nothing
system-wide is created except sshd's own privilege separation directory /run/sshd
when it is missing (as its init script does).

Guests are ``ssh -tt`` in tmux at 80x24 with TERM=xterm, on a tmux server of their
own. Without /usr/sbin/sshd (or ssh, ssh-keygen, tmux) the test is skipped, unless
MAUMAU_REQUIRE_SSHD=1 (set by .ci/run once it has installed them): then it fails.
"""

from __future__ import annotations

import contextlib
import getpass
import importlib.machinery
import importlib.util
import os
import secrets
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from wire_helpers import free_port

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
SSHD = "/usr/sbin/sshd"
DEADLINE = 20.0  # seconds for any one thing to appear on a guest's screen


def require(found: object, what: str) -> None:
    if found:
        return
    reason = f"{what} is not installed (Debian: apt-get install openssh-server tmux)"
    if os.environ.get("MAUMAU_REQUIRE_SSHD") == "1":
        pytest.fail(f"{reason}, and MAUMAU_REQUIRE_SSHD=1", pytrace=False)
    pytest.skip(reason)


def load_ssh_party() -> ModuleType:
    path = str(ROOT / "scripts" / "ssh-party")
    loader = importlib.machinery.SourceFileLoader("ssh_party", path)
    spec = importlib.util.spec_from_loader("ssh_party", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def wait_for_line(log: Path, needle: str, process: subprocess.Popen[bytes]) -> str:
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace")
        for line in text.splitlines():
            if needle in line:
                return line
        if process.poll() is not None:
            break
        time.sleep(0.05)
    raise AssertionError(f"never saw {needle!r} in {log.name}:\n{log.read_text()[-2000:]}")


@contextlib.contextmanager
def game_server(tmp: Path) -> Iterator[int]:
    log = tmp / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                str(BIN / "maumau-server"), "--host", "127.0.0.1", "--port", "0",
                "--db", str(tmp / "server.db"), "--bot-delay", "0.2",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
    try:
        line = wait_for_line(log, "listening on port", process)
        yield int(line.split("listening on port")[1].split()[0].rstrip("."))
    finally:
        stop(process)


@contextlib.contextmanager
def party_sshd(tmp: Path, server_port: int) -> Iterator[int]:
    """sshd on 127.0.0.1 whose ForceCommand is the guest wrapper; yields its port."""
    user = getpass.getuser()
    for name in ("host_key", "user_key"):
        subprocess.run(
            ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp / name)], check=True
        )
    shutil.copy(tmp / "user_key.pub", tmp / "authorized_keys")
    (tmp / "name-key").write_text(secrets.token_hex(32))
    if os.geteuid() == 0:
        # sshd started by root insists on its privilege separation directory.
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)
    wrapper = [
        sys.executable, str(ROOT / "scripts" / "ssh-party"), "--guest-session",
        "--server", f"127.0.0.1:{server_port}", "--client", str(BIN / "maumau-client"),
        "--name-key", str(tmp / "name-key"),
    ]  # fmt: skip
    party = load_ssh_party()
    for _attempt in range(5):
        port = free_port()
        config = tmp / "sshd_config"
        config.write_text(
            # The test's own settings first: sshd keeps the first value of a keyword.
            "PermitRootLogin yes\n"
            "PubkeyAuthentication yes\n"
            f"AuthorizedKeysFile {tmp / 'authorized_keys'}\n"
            "PasswordAuthentication no\n"
            "StrictModes no\n"
            + party.sshd_config(
                user=user,
                port=port,
                listen=["127.0.0.1"],
                host_key=str(tmp / "host_key"),
                pid_file=str(tmp / "sshd.pid"),
                force_command=shlex.join(wrapper),
            )
        )
        log = tmp / "sshd.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                [SSHD, "-D", "-e", "-f", str(config)], stdout=out, stderr=subprocess.STDOUT
            )
        try:
            wait_for_line(log, "Server listening on", process)
        except AssertionError:
            stop(process)
            if "Address already in use" in log.read_text():
                continue  # somebody took the free port first: another one
            raise
        try:
            yield port
        finally:
            stop(process)
        return
    raise AssertionError("sshd found no free port")


class Guests:
    """ssh -tt logins, each in a tmux session of 80x24 on a tmux server of our own."""

    def __init__(self, tmp: Path, port: int) -> None:
        self.socket = f"maumau-ssh-test-{os.getpid()}-{secrets.token_hex(3)}"
        self.sessions: list[str] = []
        self.socket_path: str | None = None
        self.ssh = shlex.join(
            [
                "ssh", "-tt", "-F", "/dev/null", "-p", str(port), "-i", str(tmp / "user_key"),
                "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                "-o", "BatchMode=yes", "-o", "LogLevel=ERROR", "-o", "SendEnv=LANG",
                f"{getpass.getuser()}@127.0.0.1",
            ]
        )  # fmt: skip

    def tmux(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=10
        )

    def login(self, session: str) -> None:
        command = f"env TERM=xterm LANG=C.UTF-8 {self.ssh}; echo SSH-ENDED; sleep 60"
        done = self.tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", command)
        assert done.returncode == 0, done.stderr
        self.sessions.append(session)
        if self.socket_path is None:
            self.socket_path = self.tmux("display-message", "-p", "#{socket_path}").stdout.strip()

    def screen(self, session: str) -> str:
        return self.tmux("capture-pane", "-t", session, "-p").stdout

    def wait_for(self, session: str, *texts: str) -> str:
        deadline = time.monotonic() + DEADLINE
        while True:
            screen = self.screen(session)
            if all(text in screen for text in texts):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{session} never showed {texts}. Screen:\n{screen}")
            time.sleep(0.1)

    def type(self, session: str, text: str) -> None:
        if text:
            self.tmux("send-keys", "-t", session, "-l", text)
        self.tmux("send-keys", "-t", session, "Enter")

    def enter(self, session: str, name: str, pin: str) -> None:
        self.wait_for(session, "Your name:")
        self.type(session, name)
        self.wait_for(session, f"PIN to keep the name {name}")
        self.type(session, pin)

    def close(self) -> None:
        for session in self.sessions:
            self.tmux("kill-session", "-t", session)
        self.tmux("kill-server")  # our own server, on our own socket
        if self.socket_path:
            Path(self.socket_path).unlink(missing_ok=True)


def guest_dirs() -> set[Path]:
    return set(Path(tempfile.gettempdir()).glob("maumau-guest-*"))


def test_guests_log_in_over_ssh_and_see_the_lobby(tmp_path: Path) -> None:
    require(Path(SSHD).exists(), SSHD)
    for tool in ("ssh", "ssh-keygen", "tmux"):
        require(shutil.which(tool), tool)
    before = guest_dirs()
    with game_server(tmp_path) as server_port, party_sshd(tmp_path, server_port) as port:
        guests = Guests(tmp_path, port)
        try:
            # Two guests at once, on the one account, each with a name of their own.
            guests.login("ann")
            guests.enter("ann", "Ann", "4242")
            lobby = guests.wait_for("ann", "you: Ann", "online (1)", "n new table", "q quit")
            assert f"127.0.0.1:{server_port}" in lobby
            guests.login("bob")
            guests.enter("bob", "Bob", "")
            guests.wait_for("bob", "you: Bob", "online (2)", "Ann  Bob")
            guests.wait_for("ann", "online (2)", "Ann  Bob")

            # Ann quits: her ssh session ends, and so does her place in the lobby.
            guests.tmux("send-keys", "-t", "ann", "q")
            guests.wait_for("ann", "SSH-ENDED")
            guests.wait_for("bob", "online (1)")

            # The server keeps records, so her name is reserved: not for a wrong PIN,
            # but hers again on her next login with hers.
            guests.login("not-ann")
            guests.enter("not-ann", "Ann", "1111")
            guests.wait_for("not-ann", "belongs to another player")
            guests.login("ann-again")
            guests.enter("ann-again", "Ann", "4242")
            guests.wait_for("ann-again", "you: Ann", "online (2)")
        finally:
            guests.close()
        # Every login's private config directory is gone once it ends.
        deadline = time.monotonic() + 10
        while guest_dirs() - before and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not guest_dirs() - before, (tmp_path / "sshd.log").read_text()[-2000:]
