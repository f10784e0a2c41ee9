"""Saving: when the store commits, and what happens while it cannot.

Theory of operation
-------------------
Writes to the store are grouped: tables and the lobby write into the store's open
group as things happen, and :meth:`Saver.commit` closes it. The outbox commits before
every round of writes to the sockets (see :mod:`maumau.server.link`), so the rule
"journaled before broadcast" holds while many changes that arrive together share one
commit. A table's record is written once per commit, however often it changed
(:meth:`Saver.save_later`).

When the store cannot save (a full disk), nothing that depends on the failed writes
is sent: the commit fails, every link *holds* its frames, and the outbox holds the
frames that tell of a table from then on. Every open table pauses
(:meth:`~maumau.server.table.schedule.Schedule.pause`): its timers stop and its players are
told (a ``table`` with ``paused: "cannot_save"``, sent past the held frames); the
lobby refuses moves and other changes with ``cannot_save``. A task retries the commit
with backoff; once one succeeds, the held frames go out in order, the tables resume
with their timers shifted by the pause, and nothing that any client was told is lost.
(The store keeps the failed group in memory and replays it: see
:mod:`maumau.server.store`.)

Every ARCHIVE_INTERVAL the journals of matches that ended meanwhile move to the
store's archive (:meth:`Saver.archive`). Every HEARTBEAT_INTERVAL while a match runs
the store is marked with the time (:meth:`Saver._heartbeat`), so that after a crash
each timer comes back with the time it had then (within that interval).
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable

import trio

from .link import Link, Outbox
from .store import Store
from .table import Table

log = logging.getLogger("maumau.server")

ARCHIVE_INTERVAL = 30.0  # seconds between moves of ended matches' journals
HEARTBEAT_INTERVAL = 1.0  # seconds between the marks that the server runs (while one plays)
SAVE_RETRY = 0.25  # seconds before the first retry of a failed commit; doubles each time
SAVE_RETRY_MAX = 5.0


class Saver:
    """Commits the store, and pauses and resumes play around a failing one.

    ``links`` and ``tables`` are the server's own collections (the saver holds and
    releases the one, pauses and resumes the other); ``on_restored`` are called with
    the length of a pause once the store saves again."""

    def __init__(
        self,
        store: Store | None,
        outbox: Outbox,
        links: set[Link],
        tables: dict[int, Table],
        save_retry: float = SAVE_RETRY,
    ) -> None:
        self.store = store
        self.outbox = outbox
        self.links = links
        self.tables = tables
        self.save_retry = save_retry
        self.on_restored: list[Callable[[float], None]] = []
        self._unsaved: dict[int, Table] = {}  # tables whose record the next commit writes
        self._writers: dict[object, Callable[[], None]] = {}  # other records, by a key
        self._infos_sent: set[Table] = set()  # tables whose info_sent the commit saves
        self._nursery: trio.Nursery | None = None
        outbox.commit = self.commit

    @property
    def cannot_save(self) -> bool:
        """The store failed to commit and has not saved since (see the module docstring)."""
        return self.outbox.holding

    def start(self, nursery: trio.Nursery) -> None:
        """Start the archiver and the heartbeat in ``nursery``, where retries will run
        too."""
        self._nursery = nursery
        nursery.start_soon(self._archiver)
        nursery.start_soon(self._heartbeat)

    async def _heartbeat(self) -> None:
        """Every HEARTBEAT_INTERVAL while a match runs, mark in the store that the
        server still runs (:meth:`Store.mark_alive`): after a crash, the timers come
        back with the time they had then, not with what they had at the last action."""
        while True:
            await trio.sleep(HEARTBEAT_INTERVAL)
            store = self.store
            if store is None or self.cannot_save:
                continue
            if any(t.status == "playing" for t in self.tables.values()):
                try:
                    store.mark_alive(time.time())
                except sqlite3.Error:
                    log.exception("the heartbeat could not be written")
                self.commit_soon()

    def commit_soon(self) -> None:
        """Have the flusher commit the store's open group with its next batch."""
        if self.store is not None and (self.store.dirty or self._unsaved or self._writers):
            self.outbox.wake()

    def save_later(self, table: Table) -> None:
        """Write ``table``'s record just before the next commit."""
        self._unsaved[table.id] = table
        self.outbox.wake()

    def write_later(self, key: object, write: Callable[[], None]) -> None:
        """Call ``write`` (which writes a record to the store) just before the next
        commit: once, however often it is asked for with the same ``key`` before then
        (a tournament whose every table's end would write it whole)."""
        self._writers[key] = write
        self.outbox.wake()

    def info_sent(self, table: Table) -> None:
        """``table`` sent a table_info: once the next commit succeeds, it is saved."""
        self._infos_sent.add(table)

    def commit(self) -> bool:
        """Commit the store's open group of writes (see :mod:`maumau.server.store`),
        with the records of the tables changed since the last commit; False if what
        was written is not saved (the store cannot save: see the module docstring)."""
        if self._unsaved:
            tables, self._unsaved = self._unsaved, {}
            for table in tables.values():
                table.write_record()
        if self._writers:
            writers, self._writers = self._writers, {}
            for write in writers.values():
                write()
        store = self.store
        if store is None or not store.dirty:
            self._saved()
            return True
        if self.cannot_save:
            return False  # _retry_saving tries again, with backoff
        try:
            store.commit()
        except sqlite3.Error as error:
            self._saving_failed(error)
            return False
        self._saved()
        return True

    def _saved(self) -> None:
        """Everything sent so far is saved: so is each table's last table_info."""
        if self._infos_sent:
            for table in self._infos_sent:
                table.info_saved = table.info_sent
            self._infos_sent.clear()

    def _saving_failed(self, error: sqlite3.Error) -> None:
        """The store could not commit: hold every frame that may depend on it, pause
        every table, and retry until the store saves again."""
        assert self.store is not None
        log.error(
            "the database cannot save (%s): play is paused, nothing is sent that is not "
            "saved; retrying (%s)",
            error,
            self.store.path,
        )
        self.outbox.holding = True
        for link in self.links:
            link.hold()
        for table in list(self.tables.values()):
            table.pause()
        if self._nursery is not None:
            self._nursery.start_soon(self._retry_saving)

    async def _retry_saving(self) -> None:
        assert self.store is not None
        delay = max(self.save_retry, 0.01)
        started = trio.current_time()
        while self.cannot_save:
            await trio.sleep(delay)
            delay = min(2 * delay, SAVE_RETRY_MAX)
            if self._unsaved:
                tables, self._unsaved = self._unsaved, {}
                for table in tables.values():
                    table.write_record()
            try:
                self.store.commit()
                self._saved()
            except sqlite3.Error as error:
                log.warning(
                    "the database still cannot save (%s); %d changes wait; next try in %g s",
                    error,
                    self.store.unsaved,
                    delay,
                )
                continue
            self._saving_restored(trio.current_time() - started)

    def _saving_restored(self, paused_for: float) -> None:
        """The store saved again: send what was held and let the tables play on."""
        log.warning("the database saves again after %.1f s; play resumes", paused_for)
        self.outbox.holding = False
        for restored in self.on_restored:
            restored(paused_for)
        for link in list(self.links):
            link.release()
        for table in list(self.tables.values()):
            table.resume()
        self.outbox.wake()

    async def _archiver(self) -> None:
        """Every ARCHIVE_INTERVAL, move the journals of matches that ended meanwhile to
        the store's archive (see :meth:`Store.archive`)."""
        while True:
            await trio.sleep(ARCHIVE_INTERVAL)
            self.archive()

    def archive(self) -> None:
        if self.store is not None and self.store.archive_due and self.commit():
            try:
                moved = self.store.archive()
            except sqlite3.Error:
                log.exception("ended matches' journals could not be archived")
            else:
                log.debug("archived %d journal rows", moved)
