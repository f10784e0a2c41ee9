"""SSH party end to end: guests log in with ``ssh -tt`` and land in the lobby; what the
party's sshd drops, refuses and how a failed setup cleans up after itself.

Starts its own ``sshd`` (Debian's openssh-server) on 127.0.0.1 with a temporary config,
host key and client key, and a real ``maumau-server`` on 127.0.0.1. The sshd config
is the one ``scripts/ssh-party`` writes (``sshd_config()``, fitted to the installed
sshd by ``fit_config()``), with only what a test needs put in front (sshd keeps the
first value of a keyword): the current user instead of a guest account, a key
instead of a password. Its ``ForceCommand`` is the very wrapper a guest's login runs
(``scripts/ssh-party --guest-session``). The time limits tests give it limits of a
few seconds. Nothing system-wide is created except sshd's own privilege separation
directory /run/sshd when it is missing (as its init script does).

The setup tests (root only) run ``scripts/ssh-party`` itself with every path under a
temporary prefix (MAUMAU_SSH_PARTY_PREFIX) and an account of a made-up name, which
the script must make and take away again itself.

Guests are ``ssh -tt`` in tmux at 80x24 with TERM=xterm, on a tmux server of their
own. A guest's ``maumau-client`` on the host must not outlive the guest's connection,
whether it drops at once or after stalling: the test finds those processes under its
own sshd in /proc, by the ``--name=`` the wrapper gives them, and ends any left over
by its pid. Without /usr/sbin/sshd (or ssh, ssh-keygen, tmux) the test is skipped,
unless MAUMAU_REQUIRE_SSHD=1 (set by .ci/run once it has installed them): then it
fails.
"""

from __future__ import annotations

import contextlib
import fcntl
import getpass
import grp
import os
import pwd
import secrets
import shlex
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

import pytest

from support.processes import (
    ancestors,
    blocked_on_terminal,
    cmdline,
    descendants,
    running,
    started,
    wait_gone,
    waiting_in,
)
from support.wire import free_port, load_script

ROOT = Path(__file__).resolve().parents[2]
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
    return load_script("ssh-party", "ssh_party")


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


class Sshd(NamedTuple):
    """A running party sshd: its port, the config keywords this sshd did not know and
    so left out, its log, and its pid (every login's processes are under it)."""

    port: int
    omitted: frozenset[str]
    log: Path
    pid: int


@contextlib.contextmanager
def party_sshd(tmp: Path, server_port: int, limits: dict[str, int] | None = None) -> Iterator[Sshd]:
    """sshd on 127.0.0.1 whose ForceCommand is the guest wrapper, with the party's
    time ``limits`` (``Limits`` fields; the script's defaults otherwise)."""
    user = getpass.getuser()
    for name in ("host_key", "user_key"):
        if not (tmp / name).exists():
            subprocess.run(
                ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp / name)],
                check=True,
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

        def build(omit: frozenset[str], port: int = port) -> str:
            # The test's own settings first: sshd keeps the first value of a keyword.
            return str(
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
                    limits=party.Limits(**(limits or {})),
                    omit=omit,
                )
            )

        omitted = party.fit_config(build, config)
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
            yield Sshd(port, omitted, log, process.pid)
        finally:
            stop(process)
        return
    raise AssertionError("sshd found no free port")


def require_sshd_tools() -> None:
    require(Path(SSHD).exists(), SSHD)
    for tool in ("ssh", "ssh-keygen", "tmux"):
        require(shutil.which(tool), tool)


def ssh(tmp: Path, port: int, *options: str) -> list[str]:
    """A non-interactive ssh command line that logs in to the party sshd by key."""
    return [
        "ssh", "-F", "/dev/null", "-p", str(port), "-i", str(tmp / "user_key"),
        "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
        "-o", "BatchMode=yes", "-o", "LogLevel=VERBOSE", *options,
        f"{getpass.getuser()}@127.0.0.1",
    ]  # fmt: skip


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

    def login(self, session: str, lang: str = "C.UTF-8") -> None:
        """Log in from a terminal whose ``LANG`` is ``lang`` (ssh sends it)."""
        command = f"env TERM=xterm LANG={lang} {self.ssh}; echo SSH-ENDED; sleep 60"
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

    def enter(
        self,
        session: str,
        name: str,
        pin: str,
        ask: str = "Your name:",
        ask_pin: str = "PIN to keep the name {name}",
    ) -> None:
        self.wait_for(session, ask)
        self.type(session, name)
        self.wait_for(session, ask_pin.format(name=name))
        self.type(session, pin)

    def close(self) -> None:
        for session in self.sessions:
            self.tmux("kill-session", "-t", session)
        self.tmux("kill-server")  # our own server, on our own socket
        if self.socket_path:
            Path(self.socket_path).unlink(missing_ok=True)


def guest_dirs() -> set[Path]:
    return set(Path(tempfile.gettempdir()).glob("maumau-guest-*"))


CLIENT_GONE = 5.0  # seconds a guest's client may outlive its connection (its own bound: 2)


def guest_clients(sshd: Sshd) -> dict[int, tuple[str, int | None]]:
    """The guests' ``maumau-client`` processes on the host (under the party sshd, as
    the wrapper starts them with ``--name=NAME``): pid -> (name, start time)."""
    found: dict[int, tuple[str, int | None]] = {}
    for pid in descendants(sshd.pid):
        words = cmdline(pid)
        names = [word.removeprefix("--name=") for word in words if word.startswith("--name=")]
        if names and any(word.endswith("maumau-client") for word in words):
            found[pid] = (names[0], started(pid))
    return found


def stall_until_blocked(sshd: Sshd, client: int) -> None:
    """Stop the host's sshd processes of the login ``client`` runs under (the party
    sshd's children above it), so that nobody reads the login's terminal; redraw the
    client (new terminal sizes: SIGWINCH) until its writes block, its loop included;
    then end those sshd processes (the test's own sshd's children, by their pids): the
    terminal is gone."""
    above = ancestors(client)
    session = [
        pid for pid in above[: above.index(sshd.pid)] if " ".join(cmdline(pid))[:4] == "sshd"
    ]
    assert session, [cmdline(pid) for pid in above]
    for pid in session:
        os.kill(pid, signal.SIGSTOP)
    try:
        terminal = os.open(f"/proc/{client}/fd/0", os.O_RDWR | os.O_NOCTTY)
        try:
            deadline = time.monotonic() + DEADLINE
            blocked = 0
            size = 0
            while blocked < 5:
                assert time.monotonic() < deadline, (
                    f"the client never blocked: {waiting_in(client)}"
                )
                size += 1
                winsize = struct.pack("HHHH", 24 + size % 3, 80 + size % 5, 0, 0)
                fcntl.ioctl(terminal, termios.TIOCSWINSZ, winsize)
                time.sleep(0.05)
                blocked = blocked + 1 if blocked_on_terminal(client) else 0
        finally:
            os.close(terminal)
    finally:
        for pid in session:
            os.kill(pid, signal.SIGKILL)


def ssh_of(guests: Guests, session: str) -> int:
    """The pid of the ``ssh -tt`` a guest's tmux session runs (under its pane's shell)."""
    pane = int(guests.tmux("list-panes", "-t", session, "-F", "#{pane_pid}").stdout.split()[0])
    found = [pid for pid in descendants(pane) if cmdline(pid)[:2] == ["ssh", "-tt"]]
    assert len(found) == 1, [cmdline(pid) for pid in descendants(pane)]
    return found[0]


def test_guests_log_in_over_ssh_and_see_the_lobby(tmp_path: Path) -> None:
    require_sshd_tools()
    before = guest_dirs()
    with game_server(tmp_path) as server_port, party_sshd(tmp_path, server_port) as sshd:
        guests = Guests(tmp_path, sshd.port)
        seen: dict[int, tuple[str, int | None]] = {}  # every guest's client found
        try:
            # Two guests at once, on the one account, each with a name of their own.
            guests.login("ann")
            guests.enter("ann", "Ann", "4242")
            lobby = guests.wait_for("ann", "you: Ann", "online (1)", "n new table", "q quit")
            assert f"127.0.0.1:{server_port}" in lobby
            # Jo's terminal speaks German: ssh sends his LANG, and the login asks in
            # German, as the client speaks. Jo is a name a bot once had: it is his.
            guests.login("jo", lang="de_DE.UTF-8")
            welcome = guests.wait_for("jo", "Willkommen", "Dein Name:")
            assert "Welcome" not in welcome and "Your name" not in welcome
            guests.enter("jo", "Jo", "", ask="Dein Name:", ask_pin="PIN, damit {name}")
            guests.wait_for("jo", "du: Jo", "online (2)", "Ann  Jo", "n neu", "? Hilfe")
            guests.wait_for("ann", "online (2)", "Ann  Jo")

            # Ann quits: her ssh session ends, and so does her place in the lobby.
            guests.tmux("send-keys", "-t", "ann", "q")
            guests.wait_for("ann", "SSH-ENDED")
            guests.wait_for("jo", "online (1)")

            # The server keeps records, so her name is reserved: not for a wrong PIN,
            # but hers again on her next login with hers.
            guests.login("not-ann")
            guests.enter("not-ann", "Ann", "1111")
            guests.wait_for("not-ann", "belongs to another player")
            guests.login("ann-again")
            guests.enter("ann-again", "Ann", "4242")
            guests.wait_for("ann-again", "you: Ann", "online (2)")

            # Ann's connection drops (her ssh is gone at once, as when her network
            # goes): her client on the host does not outlive it. Hers is the newest
            # "Ann" (not-ann's was refused, and waits on its connect screen).
            clients = guest_clients(sshd)
            seen.update(clients)
            anns = sorted(
                (since or 0, pid) for pid, (name, since) in clients.items() if name == "Ann"
            )
            ann = (anns[-1][1], anns[-1][0])
            os.kill(ssh_of(guests, "ann-again"), signal.SIGKILL)
            took = wait_gone([ann], CLIENT_GONE)
            print(f"ssh dropped: the guest's client left after {took} s")
            assert took is not None, f"Ann's client still runs {CLIENT_GONE} s after her ssh died"
            guests.wait_for("jo", "online (1)")

            # Jo's connection stalls, then drops: nothing reads his terminal any more
            # (the host's sshd of his login stopped), his client draws until its writes
            # block, then his sshd is gone. His client does not outlive it either.
            jo = [(pid, since) for pid, (name, since) in clients.items() if name == "Jo"]
            assert len(jo) == 1, clients
            stall_until_blocked(sshd, jo[0][0])
            took = wait_gone(jo, CLIENT_GONE)
            print(f"ssh stalled, then dropped: the guest's client left after {took} s")
            assert took is not None, f"Jo's client still runs {CLIENT_GONE} s after his sshd went"
            others = [
                (pid, since) for pid, (_, since) in clients.items() if pid not in (ann[0], jo[0][0])
            ]
            assert all(running(*other) for other in others)  # not-ann's, on its connect screen
        finally:
            seen.update(guest_clients(sshd))
            guests.close()
            # Every guest's client ends with its connection (one left over is ended by
            # its pid: this test started it).
            left = wait_gone([(pid, since) for pid, (_, since) in seen.items()], CLIENT_GONE)
            stray = [pid for pid, (_, since) in seen.items() if running(pid, since)]
            for pid in stray:
                os.kill(pid, signal.SIGKILL)
        assert left is not None, [seen[pid] for pid in stray]
        # Every login's private config directory is gone once it ends.
        deadline = time.monotonic() + 10
        while guest_dirs() - before and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not guest_dirs() - before, (tmp_path / "sshd.log").read_text()[-2000:]


# --- what the party's sshd drops and refuses ---------------------------------------------

# Limits of a few seconds, so that each drop is seen within seconds.
SHORT = {"login_grace": 3, "unused": 2, "idle": 3}
SLACK = 6.0  # seconds a drop may come later than its limit (sshd checks once a second)


def require_limits(sshd: Sshd, *keywords: str) -> None:
    missing = sorted(set(keywords) & sshd.omitted)
    require(not missing, f"an sshd that knows {', '.join(missing)} (OpenSSH 9.2 or newer)")


def timed(command: list[str], limit: float) -> tuple[float, subprocess.CompletedProcess[str]]:
    start = time.monotonic()
    done = subprocess.run(
        command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=limit
    )
    return time.monotonic() - start, done


def test_a_login_that_opens_no_session_is_dropped(tmp_path: Path) -> None:
    """``ssh -N`` logs in and opens nothing: UnusedConnectionTimeout drops it."""
    require_sshd_tools()
    with party_sshd(tmp_path, free_port(), SHORT) as sshd:
        require_limits(sshd, "UnusedConnectionTimeout")
        try:
            took, done = timed(ssh(tmp_path, sshd.port, "-N"), SHORT["unused"] + SLACK)
        except subprocess.TimeoutExpired:
            raise AssertionError(
                f"ssh -N still connected after {SHORT['unused'] + SLACK} s"
            ) from None
    assert "Authenticated to 127.0.0.1" in done.stderr, done.stderr  # dropped after login
    assert done.returncode == 255, done.stderr
    assert took >= SHORT["unused"] - 0.5, f"dropped after {took:.1f} s: {done.stderr}"


def test_a_connection_that_never_logs_in_is_dropped(tmp_path: Path) -> None:
    """A TCP connection that says nothing gets sshd's banner, then LoginGraceTime ends it."""
    require_sshd_tools()
    with party_sshd(tmp_path, free_port(), SHORT) as sshd:
        start = time.monotonic()
        with socket.create_connection(
            ("127.0.0.1", sshd.port), timeout=SHORT["login_grace"] + SLACK
        ) as peer:
            received = b""
            try:
                while chunk := peer.recv(4096):
                    received += chunk
            except TimeoutError:
                raise AssertionError(
                    f"a silent connection still open after {SHORT['login_grace'] + SLACK} s"
                ) from None
        took = time.monotonic() - start
    assert received.startswith(b"SSH-2.0-"), received
    assert took >= SHORT["login_grace"] - 0.5, f"closed after {took:.1f} s"


def test_a_quiet_session_is_closed(tmp_path: Path) -> None:
    """A guest who lets the session sit (here at the name prompt) is closed by
    ChannelTimeout session*, and the login's private directory goes with it."""
    require_sshd_tools()
    before = guest_dirs()
    with party_sshd(tmp_path, free_port(), SHORT) as sshd:
        require_limits(sshd, "ChannelTimeout")
        guests = Guests(tmp_path, sshd.port)
        try:
            guests.login("idle")
            guests.wait_for("idle", "Your name:")
            start = time.monotonic()
            deadline = start + SHORT["idle"] + SLACK
            while "SSH-ENDED" not in guests.screen("idle"):
                assert time.monotonic() < deadline, guests.screen("idle")
                time.sleep(0.1)
            assert time.monotonic() - start >= SHORT["idle"] - 1.0
        finally:
            guests.close()
    deadline = time.monotonic() + 10
    while guest_dirs() - before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not guest_dirs() - before


def test_a_guest_cannot_forward_ports(tmp_path: Path) -> None:
    """No -W, -L or -R: every forwarding the guest asks for is refused, and the target
    the guest named never sees a connection."""
    require_sshd_tools()
    with (
        socket.create_server(("127.0.0.1", 0)) as target,
        party_sshd(tmp_path, free_port(), SHORT) as sshd,
    ):
        target.settimeout(0.5)
        to = f"127.0.0.1:{target.getsockname()[1]}"

        _, done = timed(ssh(tmp_path, sshd.port, "-W", to), 15)
        assert done.returncode == 255, done.stderr
        assert "administratively prohibited" in done.stderr, done.stderr

        remote = ["-N", "-o", "ExitOnForwardFailure=yes", "-R", f"127.0.0.1:0:{to}"]
        _, done = timed(ssh(tmp_path, sshd.port, *remote), 15)
        assert done.returncode == 255, done.stderr
        assert "remote port forwarding failed" in done.stderr, done.stderr

        local_port = free_port()
        tunnel = subprocess.Popen(
            ssh(tmp_path, sshd.port, "-N", "-L", f"127.0.0.1:{local_port}:{to}"),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            deadline = time.monotonic() + 10
            while True:  # until ssh listens on the local end
                try:
                    through = socket.create_connection(("127.0.0.1", local_port), timeout=5)
                    break
                except ConnectionRefusedError:
                    assert time.monotonic() < deadline and tunnel.poll() is None
                    time.sleep(0.05)
            with through:
                assert through.recv(1) == b""  # ssh closes it: the channel was refused
        finally:
            stop_text(tunnel)
        assert tunnel.stderr is not None
        assert "administratively prohibited" in tunnel.stderr.read()
        with pytest.raises(TimeoutError):
            target.accept()  # nothing ever reached the target


def stop_text(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_keywords_an_older_sshd_does_not_know_are_left_out(tmp_path: Path) -> None:
    """fit_config leaves out a keyword the installed sshd rejects as unknown (as an
    sshd older than 9.2 rejects UnusedConnectionTimeout), and only such a keyword: the
    config it keeps passes ``sshd -t``; any other error stops the setup."""
    require_sshd_tools()
    party = load_ssh_party()
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / "host_key")],
        check=True,
    )
    newer = {**party.NEWER, "MaumauFutureTimeout": "OpenSSH 99"}

    def build(omit: frozenset[str], extra: str = "MaumauFutureTimeout 5") -> str:
        config = party.sshd_config(
            user="nobody", port=free_port(), host_key=str(tmp_path / "host_key"),
            pid_file=str(tmp_path / "sshd.pid"), force_command="/bin/false", omit=omit,
        )  # fmt: skip
        return config if extra.split()[0] in omit else f"{extra}\n{config}"

    config = tmp_path / "sshd_config"
    omitted = party.fit_config(build, config, newer)
    assert "MaumauFutureTimeout" in omitted
    assert "MaumauFutureTimeout" not in config.read_text()
    assert "DisableForwarding yes" in config.read_text()
    checked = subprocess.run([SSHD, "-t", "-f", str(config)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr

    with pytest.raises(SystemExit):  # not a keyword it may leave out: a real error
        party.fit_config(lambda omit: build(omit, "Port notaport"), config, newer)


# --- a setup that fails leaves nothing behind ----------------------------------------------


@pytest.mark.parametrize("given", ["--python", "--client"])
def test_a_setup_the_guest_could_not_run_fails_and_leaves_nothing(
    tmp_path: Path, given: str
) -> None:
    """The host's Python lies under a directory only root may enter (like root's pyenv),
    given as the Python to make the guests' venv with (--python) or as the one an
    installed client runs (--client: a venv made with that Python). The setup makes the
    account, runs the Python as the account, sees it cannot, says why and exactly what
    to type instead (never the same Python again), and takes the account and every
    directory it made away."""
    require(Path(SSHD).exists(), SSHD)
    if os.geteuid() != 0:
        pytest.skip("makes a real account: needs root")
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    real = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    bad = private / "python3"
    bad.symlink_to(real)  # runs as itself for root, unreachable for anybody else
    prefix = tmp_path / "prefix"
    prefix.mkdir()
    user = f"mmt{secrets.token_hex(4)}"
    if given == "--python":
        option = ["--python", str(bad)]
        expected = f"the account {user!r} cannot use --python {bad}:"
    else:
        client = private / "bin" / "maumau-client"
        client.parent.mkdir()
        client.write_text(f"#!{bad}\nimport maumau.client.cli\n")
        client.chmod(0o755)
        option = ["--client", str(client)]
        expected = f"the account {user!r} cannot run {client} with {bad}:"
    try:
        done = subprocess.run(
            [
                sys.executable, str(ROOT / "scripts" / "ssh-party"), "--user", user,
                "--port", str(free_port()), "--listen", "127.0.0.1", *option,
            ],
            env={**os.environ, "MAUMAU_SSH_PARTY_PREFIX": str(prefix)},
            capture_output=True,
            text=True,
            timeout=120,
        )  # fmt: skip
        said = done.stderr
        assert done.returncode == 1, said + done.stdout
        assert expected in said, said
        assert "is mode 0700 (owner root)" in said, said  # why, not just that
        # The account was made (to run the Python as it) and taken away again.
        assert f"removed what this run had made: the account {user!r}" in said, said
        # One exact command to type next, which does not lead into the same failure.
        commands = [
            line.strip()
            for line in said.splitlines()
            if line.strip().startswith(("scripts/ssh-party ", "sudo scripts/ssh-party "))
        ]
        assert commands, said
        for command in commands:
            assert str(bad) not in command and "--client" not in command, said
            assert "--python /" in command, said
        with pytest.raises(KeyError):
            pwd.getpwnam(user)
        with pytest.raises(KeyError):
            grp.getgrnam(user)
        assert list(prefix.iterdir()) == [], list(prefix.rglob("*"))
    finally:
        with contextlib.suppress(KeyError):
            pwd.getpwnam(user)
            subprocess.run(["userdel", user], check=False)


@pytest.mark.parametrize(
    "env,expected",
    [
        ({"LANG": "de_DE.UTF-8"}, "de_DE"),
        ({"LANGUAGE": "cs:de", "LANG": "en_US.UTF-8"}, "cs"),
        ({"LC_MESSAGES": "gd_GB.UTF-8", "LANG": "de_DE.UTF-8"}, "gd_GB"),
        ({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, None),
        ({}, None),
        ({"LANG": "$(touch x)"}, None),
    ],
)
def test_the_guests_locale_chooses_the_language(env: dict[str, str], expected: str | None) -> None:
    """Only a plain language code of the guest's locale reaches the client (as its
    ``LANGUAGE``), read in gettext's order."""
    assert load_ssh_party().guest_language(env) == expected


def test_the_login_asks_in_the_guests_language() -> None:
    """The wrapper's questions come from the client's catalogs, in the language the
    guest's locale asks for; a name with the bots' mark is refused before the client."""
    from maumau.client import i18n

    party = load_ssh_party()
    try:
        german = party.Words({"LANG": "de_DE.UTF-8"})
        assert german("ASK_NAME", "Your name: ") == "Dein Name: "
        assert german("ASK_PIN", "PIN {name}", name="Jo").startswith("PIN, damit Jo")
        assert "Sternchen" in party.valid_name("Jo*", german)
        english = party.Words({"LANG": "C"})
        assert english("WELCOME", "", server="h:1") == "Welcome to the maumau party (h:1)."
        assert "asterisk" in party.valid_name("Ada*", english)
        assert party.valid_name("Ada", english) is None
    finally:
        i18n.set_language("en")
