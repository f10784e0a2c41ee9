"""The maumau-client command line: help, bad input, and the ASCII choice."""

from __future__ import annotations

import subprocess
import sys

import pytest

from maumau.client.cli import parse_args, wants_ascii

CLIENT = [sys.executable, "-m", "maumau.client.cli"]


def test_help_lists_every_option() -> None:
    done = subprocess.run([*CLIENT, "--help"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0
    for option in ("--name", "--ascii", "--local", "--variant", "--bots", "--replay"):
        assert option in done.stdout


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--local", "example:1"], "either an address or --local"),
        (["--local", "--bots", "4"], "--bots: 1 to 3"),
        (["--local", "--variant", "american", "--bots", "10"], "--bots: 1 to 9"),
        (["--name", "x" * 30], "--name"),
        (["--replay", "3"], "--replay needs the server's host:port"),
        (["--replay", "3", "--local"], "--replay needs the server's host:port"),
        (["--replay", "0", "box:7766"], "--replay: a match id is a number from 1"),
        (["--replay", "x", "box:7766"], "--replay"),
    ],
)
def test_bad_arguments_are_refused(argv: list[str], words: str) -> None:
    done = subprocess.run([*CLIENT, *argv], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert words in done.stderr


def test_an_address_without_port_is_refused() -> None:
    done = subprocess.run([*CLIENT, "lan-box"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "host:port" in done.stderr


def test_ascii_is_chosen_when_the_locale_is_not_utf8() -> None:
    assert wants_ascii({"LANG": "C"})
    assert wants_ascii({})
    assert wants_ascii({"LC_ALL": "POSIX", "LANG": "en_US.UTF-8"})
    assert not wants_ascii({"LANG": "en_US.UTF-8"})
    assert not wants_ascii({"LC_ALL": "C.utf8"})


def test_local_defaults() -> None:
    args = parse_args(["--local"])
    assert args.variant == "classic" and args.bots == 3


def test_replay_takes_a_match_and_an_address() -> None:
    args = parse_args(["--replay", "12", "box:7766"])
    assert args.replay == 12 and args.address == "box:7766"
