"""This machine's IPv4 addresses, for the lines that tell guests what to type.

Both ``maumau-server`` (``maumau-client 192.168.1.20:7766``) and ``maumau-web``
(``http://192.168.1.20:8080/``) print the addresses other machines can reach them
at, never ``0.0.0.0``. Read from the interfaces themselves: no traffic is sent.
"""

from __future__ import annotations

import array
import socket
import struct

SIOCGIFADDR = 0x8915


def local_addresses() -> list[str]:
    """IPv4 addresses of this machine's interfaces, the LAN ones first and loopback
    last (``127.0.0.1`` alone when nothing else is found)."""
    found: list[str] = []
    try:
        names = [name for _, name in socket.if_nameindex()]
    except (OSError, AttributeError):
        names = []
    try:
        import fcntl
    except ImportError:  # Windows: no ioctl; the loopback address only
        names = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for name in names:
            try:
                packed = struct.pack("256s", name.encode()[:15])
                result = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, packed)
            except OSError:
                continue
            address = socket.inet_ntoa(array.array("B", result[20:24]).tobytes())
            if address not in found:
                found.append(address)
    found.sort(key=lambda a: (a.startswith("127."), a))
    return found or ["127.0.0.1"]


def shown_hosts(host: str | None) -> list[str]:
    """The hosts to print for a server listening on ``host``: that one, or every
    address of this machine when it listens on all of them."""
    return [host] if host not in (None, "", "0.0.0.0", "::") else local_addresses()
