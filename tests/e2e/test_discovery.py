"""Finding the server on the LAN, on a LAN of its own: two network namespaces the
test makes (as root), joined by a veth pair. The real ``maumau-server`` announces
itself in one; the client's browser (``maumau.client.discovery``) in the other finds
it, with its name, port and protocol version, connects to the address found, and
finds it again at its new address once the host's address changes. Nothing is sent
on this machine's own interfaces. Also: what others announce is read as a claim."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from maumau.protocol.discovery import SERVICE_TYPE, read_txt, txt
from maumau.protocol.messages import PROTOCOL_VERSION
from support.discovery import (
    BROWSER,
    ENV,
    SERVER,
    ended,
    in_ns,
    ip,
    sightings,
    started,
)


def test_what_others_announce_is_read_as_a_claim() -> None:
    found = read_txt(f"x.{SERVICE_TYPE}", "10.0.0.5", 7766, txt("Party room", 8, 3, None))
    assert found is not None
    assert (found.name, found.address, found.version, found.players) == (
        "Party room",
        "10.0.0.5:7766",
        8,
        3,
    )
    hostile = {b"name": b"\x1b[31m" + b"A" * 500, b"version": b"-1", b"players": b"9" * 40}
    odd = read_txt(f"Odd.{SERVICE_TYPE}", "fe80::1", 80, hostile)
    assert odd is not None
    assert "\x1b" not in odd.name and len(odd.name) <= 100
    assert (odd.version, odd.players, odd.address) == (None, None, "[fe80::1]:80")
    assert read_txt(f"Named.{SERVICE_TYPE}", "10.0.0.6", 1, {}).name == "Named"
    assert read_txt("x", "", 7766, {}) is None
    assert read_txt("x", "10.0.0.7", 0, {}) is None


def test_the_client_finds_the_announced_server_and_again_at_its_new_address(lan) -> None:
    host, guest, device = lan
    server = started(host, *SERVER, "--announce-name", "Party room")
    browser = started(guest, sys.executable, "-c", BROWSER, "40")
    try:
        assert server.stdout is not None
        listening = server.stdout.readline()
        assert "listening on port" in listening, listening + server.stderr.read()
        port = int(listening.split("port ")[1].split(".")[0])
        first = sightings(browser, lambda f: f["host"] == "10.213.0.1", 20)
        assert first == {
            "name": "Party room",
            "host": "10.213.0.1",
            "port": port,
            "version": PROTOCOL_VERSION,
            "players": 0,
            "reached": True,
        }
        # The host's address changes (a new DHCP lease): it is found at the new one.
        ip("-n", host, "addr", "del", "10.213.0.1/24", "dev", device)
        ip("-n", host, "addr", "add", "10.213.0.5/24", "dev", device)
        try:
            again = sightings(browser, lambda f: f["host"] == "10.213.0.5", 25)
        except AssertionError:
            os.killpg(server.pid, signal.SIGTERM)
            raise AssertionError(server.communicate(timeout=10)[1][-3000:]) from None
        assert again["reached"] and again["port"] == port
    finally:
        ended(browser, server)


def test_a_server_on_loopback_only_is_not_announced(lan) -> None:
    host, guest, _ = lan
    server = started(host, *SERVER, "--host", "127.0.0.1")
    try:
        assert server.stdout is not None
        assert "listening on port" in server.stdout.readline()
        browser = subprocess.run(
            in_ns(guest, sys.executable, "-c", BROWSER, "6"),
            capture_output=True,
            text=True,
            env=ENV,
            timeout=60,
        )
        assert browser.returncode == 0, browser.stderr
        assert browser.stdout == ""
    finally:
        ended(server)
