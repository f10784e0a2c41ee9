"""Finding a server on the LAN: what a maumau server announces with DNS-SD.

A server announces one service of type SERVICE_TYPE (multicast DNS, as printers and
music players do: RFC 6762/6763), named after the server, at its game port, with
a TXT record of these keys: ``name`` (the server's name), ``version`` (the protocol
version it speaks), ``players`` (players online), and ``web`` (the address browser
guests open, when it serves them). Clients browse for that type and list what they
find (see ``maumau.client.discovery``). This module is what both sides share: the
type, the keys, and :func:`read_txt`, which turns what a browser found into a
:class:`Found` server, taking what others announce as claims (bounded, decoded with
replacement, never trusted further than a line in a list). No network here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

SERVICE_TYPE = "_maumau._tcp.local."
TXT_MAX = 100  # characters of a TXT value that are read


@dataclass(frozen=True, slots=True)
class Found:
    """A server a browser found: its name, where it listens, what it says of itself."""

    name: str
    host: str
    port: int
    version: int | None
    players: int | None
    web: str | None

    @property
    def address(self) -> str:
        """``host:port`` as ``maumau-client`` takes it (IPv6 in brackets)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


def txt(name: str, version: int, players: int, web: str | None) -> dict[str, str]:
    """The TXT record a server announces."""
    record = {"name": name[:TXT_MAX], "version": str(version), "players": str(players)}
    if web:
        record["web"] = web[:TXT_MAX]
    return record


def _text(value: bytes | str | None) -> str | None:
    if value is None:
        return None
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    shown = "".join(c for c in value[:TXT_MAX] if c.isprintable())
    return shown or None


def _number(value: bytes | str | None, high: int) -> int | None:
    shown = _text(value)
    if shown is None or not shown.isdigit() or len(shown) > 9:
        return None
    number = int(shown)
    return number if number <= high else None


def read_txt(
    instance: str, host: str, port: int, properties: Mapping[bytes | str, bytes | str | None]
) -> Found | None:
    """The server a browser found (``instance``: the service's own name, used when
    the TXT has none); None when it is not one a client could connect to."""
    if not host or not 0 < port < 65536:
        return None
    values = {
        (k.decode("utf-8", "replace") if isinstance(k, bytes) else k): v
        for k, v in properties.items()
    }
    label = instance.removesuffix("." + SERVICE_TYPE).removesuffix(SERVICE_TYPE)
    name = _text(values.get("name")) or _text(label) or host
    return Found(
        name=name,
        host=host,
        port=port,
        version=_number(values.get("version"), 65535),
        players=_number(values.get("players"), 1_000_000),
        web=_text(values.get("web")),
    )
