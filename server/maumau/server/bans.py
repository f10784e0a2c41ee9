"""Bans: the names and addresses the host keeps out.

A ban is of a ``name`` (compared as names are, by their skeleton: a look-alike of a
banned name is banned too) or of an ``address`` (one IP address, written as
:mod:`ipaddress` writes it). It lasts for the server's ``life`` (kept in memory) or
for ``ever`` (kept in the database, :mod:`maumau.server.store.bans`, and loaded again
at every start). Together they are capped at
:data:`~maumau.protocol.messages.BANS_MAX`: the list has an end, and the host's
screen shows all of it.
"""

from __future__ import annotations

import ipaddress
import logging
import sqlite3
from dataclasses import dataclass

from maumau.protocol.messages import BANS_MAX

from . import names
from .errors import TableError
from .store import Store

log = logging.getLogger("maumau.server")


@dataclass(frozen=True, slots=True)
class Ban:
    what: str  # "name" or "address"
    target: str  # the name as the host typed it, or the address
    lasting: str  # "life" or "ever"
    by: str
    reason: str | None

    def shown(self) -> dict[str, object]:
        """As ``host_view.bans`` lists it."""
        shown: dict[str, object] = {
            "what": self.what,
            "target": self.target,
            "lasting": self.lasting,
            "by": self.by,
        }
        if self.reason:
            shown["reason"] = self.reason
        return shown


def address_of(text: str) -> str | None:
    """``text`` as one IP address is written (an IPv4 address mapped into IPv6 as
    IPv4), or None when it is none."""
    try:
        address = ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return str(address)


def is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


class Bans:
    """Every ban, by what it matches (see the module docstring)."""

    def __init__(self, store: Store | None) -> None:
        self.store = store
        self._bans: dict[tuple[str, str], Ban] = {}

    def restore(self) -> None:
        """Load the bans for good from the database."""
        if self.store is None:
            return
        try:
            records = self.store.bans()
        except sqlite3.Error:
            log.exception("the bans could not be read")
            return
        for record in records:
            key = self._key(record.what, record.target)
            if key is not None:
                self._bans[key] = Ban(record.what, record.target, "ever", record.by, record.reason)
        if self._bans:
            count = len(self._bans)
            log.info("%d ban%s for good in force", count, "" if count == 1 else "s")

    @staticmethod
    def _key(what: str, target: str) -> tuple[str, str] | None:
        if what == "name":
            return ("name", names.skeleton(target))
        address = address_of(target)
        return None if address is None else ("address", address)

    def all(self) -> list[Ban]:
        return list(self._bans.values())

    def add(self, what: str, target: str, lasting: str, by: str, reason: str | None) -> Ban:
        """Ban ``target`` (replacing a ban of the same target). Raises ``TableError``
        for an address that is none, or when the list is full."""
        key = self._key(what, target)
        if key is None:
            raise TableError("bad_target", f"{target} is not an IP address", {"why": "address"})
        if key not in self._bans and len(self._bans) >= BANS_MAX:
            raise TableError(
                "too_many_bans",
                f"the server keeps at most {BANS_MAX} bans: lift one first",
                {"limit": BANS_MAX},
            )
        if lasting == "ever" and self.store is None:
            raise TableError(
                "no_store", "this server keeps no database (--no-db): ban for its life instead"
            )
        written = target if what == "name" else key[1]
        old = self._bans.get(key)
        if old is not None and old.lasting == "ever" and self.store is not None:
            self.store.drop_ban(what, old.target)
        if lasting == "ever" and self.store is not None:
            self.store.save_ban(what, written, by, reason)
        ban = Ban(what, written, lasting, by, reason)
        self._bans[key] = ban
        return ban

    def remove(self, what: str, target: str) -> Ban:
        """Lift the ban of ``target``; ``no_such_ban`` if there is none."""
        key = self._key(what, target)
        ban = self._bans.pop(key, None) if key is not None else None
        if ban is None:
            raise TableError("no_such_ban", f"{target} is not banned", {"name": target[:64]})
        if ban.lasting == "ever" and self.store is not None:
            self.store.drop_ban(what, ban.target)
        return ban

    def of_name(self, name: str) -> Ban | None:
        return self._bans.get(("name", names.skeleton(name)))

    def of_address(self, address: str | None) -> Ban | None:
        if address is None:
            return None
        written = address_of(address)
        return None if written is None else self._bans.get(("address", written))
