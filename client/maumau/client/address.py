"""Server addresses in words: parse what the player types, label what is shown.

Beside :mod:`maumau.client.net`, which opens the connection to the address parsed
here. Pure functions, no I/O.
"""

from __future__ import annotations


def parse_address(text: str) -> tuple[str, int] | None:
    """``host:port`` (an IPv6 host in brackets) as ``(host, port)``, or None when
    ``text`` is not one."""
    host, _, port = text.strip().rpartition(":")
    host = host.strip("[]")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        return None
    return host, int(port)


def server_label(host: str | None, port: int | None) -> str:
    """How the server is shown and remembered: ``host:port``, or "" without one."""
    return f"{host}:{port}" if host else ""
