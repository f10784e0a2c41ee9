"""Finding maumau servers on the LAN: browsing for their DNS-SD announcements.

:class:`Discovery` runs python-zeroconf's browser for the service type of
:mod:`maumau.protocol.discovery` (in zeroconf's own thread) and keeps the servers
found, by service name, as :class:`~maumau.protocol.discovery.Found`: added when
announced, changed when a server's announcement changes (its address, its players),
removed when it says goodbye. Each change calls ``changed`` with the whole list,
sorted by name, from zeroconf's thread: the connect screen hands it to Textual with
``call_from_thread``. At most MAX_FOUND servers are kept (a LAN of pranksters
announcing thousands stays a list of a few). :meth:`Discovery.close` stops it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, cast

from maumau.protocol.discovery import SERVICE_TYPE, Found, read_txt

log = logging.getLogger("maumau.client")

MAX_FOUND = 50
LOOKUP_MS = 3000  # how long to wait for a server's address once it is announced


class Discovery:
    """Browses the LAN for maumau servers (see the module docstring)."""

    def __init__(self, changed: Callable[[list[Found]], None]) -> None:
        self.changed = changed
        self.found: dict[str, Found] = {}
        self._lock = threading.Lock()
        self._zeroconf: Any = None
        self._browser: Any = None

    def start(self) -> bool:
        """Start browsing; False (and a line in the log) if this machine cannot."""
        try:
            from zeroconf import IPVersion, ServiceBrowser, Zeroconf

            self._zeroconf = Zeroconf(ip_version=IPVersion.V4Only)
            self._browser = ServiceBrowser(self._zeroconf, SERVICE_TYPE, listener=cast(Any, self))
        except Exception as error:  # no multicast, no network: typing an address works
            log.warning("cannot look for servers on the LAN: %s", error)
            self.close()
            return False
        return True

    def close(self) -> None:
        zeroconf, self._zeroconf = self._zeroconf, None
        if zeroconf is not None:
            try:
                zeroconf.close()
            except Exception:  # closing what failed to open
                log.debug("closing the LAN browser failed", exc_info=True)

    # --- zeroconf's listener (called in zeroconf's thread) ----------------------------

    def add_service(self, zeroconf: Any, kind: str, name: str) -> None:
        self._look(zeroconf, kind, name)

    def update_service(self, zeroconf: Any, kind: str, name: str) -> None:
        self._look(zeroconf, kind, name)

    def remove_service(self, zeroconf: Any, kind: str, name: str) -> None:
        with self._lock:
            gone = self.found.pop(name, None)
        if gone is not None:
            self._tell()

    def _look(self, zeroconf: Any, kind: str, name: str) -> None:
        info = zeroconf.get_service_info(kind, name, LOOKUP_MS)
        if info is None:
            return
        hosts = info.parsed_addresses()
        found = read_txt(name, hosts[0] if hosts else "", info.port or 0, info.properties or {})
        if found is None:
            return
        with self._lock:
            if name not in self.found and len(self.found) >= MAX_FOUND:
                return
            if self.found.get(name) == found:
                return
            self.found[name] = found
        self._tell()

    def _tell(self) -> None:
        with self._lock:
            servers = sorted(self.found.values(), key=lambda f: (f.name.casefold(), f.address))
        self.changed(servers)
