"""Announcing the server on the LAN with DNS-SD, so that guests find it by itself.

:func:`announce` registers the service of :mod:`maumau.protocol.discovery` with
python-zeroconf (multicast DNS on every interface of this machine, IPv4) and keeps it
true: every CHECK_S seconds it reads this machine's addresses again and the number of
players online. New players update the announcement; a new address withdraws it and
announces it again (the goodbye makes browsers drop the old address at once), so a
host whose DHCP address changed is found at the new one. Zeroconf runs its own thread; its
blocking calls are made in trio's worker threads. On the way out the service is
withdrawn (a goodbye packet, so browsers drop it at once), within STOP_S.
``maumau-server --no-announce`` does not announce at all.
"""

from __future__ import annotations

import functools
import logging
import socket
from collections.abc import Callable
from typing import Any

import trio

from maumau.protocol.discovery import SERVICE_TYPE, txt
from maumau.protocol.lan import local_addresses

log = logging.getLogger("maumau.server")

CHECK_S = 5.0  # seconds between looks at the addresses and the players
STOP_S = 3.0  # seconds the goodbye may take


def _addresses(host: str | None) -> list[str]:
    """The IPv4 addresses to announce: the one listened on, or every one of this
    machine's (loopback left out)."""
    if host not in (None, "", "0.0.0.0", "::"):
        return [host] if ":" not in host else []
    return [a for a in local_addresses() if ":" not in a and not a.startswith("127.")]


async def announce(
    name: str,
    port: int,
    host: str | None,
    version: int,
    players: Callable[[], int],
    web: str | None = None,
    *,
    task_status: Any = trio.TASK_STATUS_IGNORED,
) -> None:
    """Announce the server until cancelled (see the module docstring)."""
    from zeroconf import IPVersion, ServiceInfo, Zeroconf  # imported here: it is heavy

    def info(addresses: list[str], online: int, service: str) -> Any:
        return ServiceInfo(
            SERVICE_TYPE,
            service,
            port=port,
            server=machine,
            addresses=[socket.inet_aton(a) for a in addresses],
            properties=txt(name, version, online, web),
        )

    label = "".join(c if c.isalnum() or c == "-" else "-" for c in socket.gethostname())
    machine = f"{label.strip('-')[:63] or 'maumau'}.local."  # the host name announced

    def start() -> Any:
        return Zeroconf(ip_version=IPVersion.V4Only)

    zeroconf = await trio.to_thread.run_sync(start)
    addresses, online = _addresses(host), players()
    current = info(addresses, online, f"{name}.{SERVICE_TYPE}")
    try:
        await trio.to_thread.run_sync(
            lambda: zeroconf.register_service(current, allow_name_change=True)
        )
        log.info("announced on the LAN as %r (%s)", current.name, ", ".join(addresses))
        task_status.started()
        while True:
            await trio.sleep(CHECK_S)
            now = _addresses(host), players()
            if now == (addresses, online):
                continue
            moved = now[0] != addresses
            addresses, online = now
            fresh = info(addresses, online, current.name)  # (renamed, if it was taken)
            if moved:
                # Withdrawn and announced again, from a new zeroconf (its sockets are
                # bound to the addresses it started with): the goodbye makes browsers
                # forget the old address at once, where an update would leave it
                # cached for minutes.
                await trio.to_thread.run_sync(_stop, zeroconf, current)
                zeroconf = await trio.to_thread.run_sync(start)
                current = fresh
                await trio.to_thread.run_sync(
                    functools.partial(zeroconf.register_service, fresh, allow_name_change=True)
                )
                log.info("announced again at %s", ", ".join(addresses) or "no address")
            else:
                current = fresh
                await trio.to_thread.run_sync(zeroconf.update_service, current)
    finally:
        with trio.move_on_after(STOP_S) as scope:
            scope.shield = True
            await trio.to_thread.run_sync(_stop, zeroconf, current, abandon_on_cancel=True)


def _stop(zeroconf: Any, info: Any) -> None:
    try:
        zeroconf.unregister_service(info)
    except Exception as error:  # an address that is gone: nothing to say goodbye from
        log.debug("the goodbye was not sent: %s", error)
    finally:
        zeroconf.close()
