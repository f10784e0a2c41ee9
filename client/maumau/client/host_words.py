"""The host's view in words: the rows of its two lists (connections and bans), the
line under them, and how a list's columns share the width.

Pure functions of the ``host_view`` message (without Textual), for the host screen
(:mod:`maumau.client.screens.host`) and its lists
(:class:`~maumau.client.widgets.host_table.HostTable`). A row is its key (a session,
or a ban's ``what:target``) and its cells as plain strings; names, addresses and
reasons in them are other people's words, shown only through
:func:`~maumau.client.literal.literal` by the list that draws them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.cells import cell_len

from maumau.protocol.messages import HostView

from .i18n import _, ngettext, pgettext
from .words import short_duration

# A list's rows: each row's key and its cells.
Rows = list[tuple[str, list[str]]]


def fit(columns: Sequence[Sequence[str]], room: int, shrinkable: Sequence[int]) -> list[int]:
    """The width of each column (its header first, then its cells) so that all fit
    ``room`` cells: as wide as their widest cell, the ``shrinkable`` ones narrowed
    (the widest first, never below their header or 4 cells) until they fit."""
    widths = [max((cell_len(c) for c in column), default=0) for column in columns]
    least = {i: max(4, cell_len(columns[i][0]) if columns[i] else 0) for i in shrinkable}
    while sum(widths) > room:
        wide = [i for i in shrinkable if widths[i] > least[i]]
        if not wide:
            break
        widest = max(wide, key=lambda i: widths[i])
        widths[widest] -= 1
    return widths


def cut(text: str, width: int, ascii_only: bool) -> str:
    """``text`` in ``width`` cells, its end marked when cut."""
    if cell_len(text) <= width:
        return text
    mark = "~" if ascii_only else "…"
    while text and cell_len(text) + 1 > width:
        text = text[:-1]
    return text + mark


def connection_headers() -> list[str]:
    """The headers of the connections' columns, in the player's language."""
    return [
        # NOTE: the host screen's columns of connections: the player's name, their
        # address, the table they are at, how long connected, messages a second,
        # how long still muted. Keep them short.
        pgettext("host column", "name"),
        pgettext("host column", "address"),
        pgettext("host column", "table"),
        pgettext("host column", "since"),
        pgettext("host column", "msg/s"),
        pgettext("host column", "muted"),
    ]


def connection_rows(view: HostView, you: str, tables: Mapping[int, str]) -> Rows:
    """A row for each connection, keyed by its session: the host's own marked
    (``you``: their name), other hosts marked, a table by its name (``tables``: the
    lobby's, by id) or its number."""
    rows: Rows = []
    for entry in view.connections:
        name = str(entry["name"])
        if name == you:
            name = _("{name} (you)").format(name=name)
        elif entry.get("host"):
            name = _("{name} (host)").format(name=name)
        table_id = entry.get("table")
        where = "" if table_id is None else tables.get(int(table_id), f"#{table_id}")
        muted = float(entry.get("muted") or 0)
        cells = [
            name,
            str(entry.get("address") or ""),
            where,
            short_duration(float(entry["since"])),
            f"{float(entry['rate']):.1f}",
            short_duration(muted, up=True) if muted > 0 else "",
        ]
        rows.append((str(entry["session"]), cells))
    return rows


def ban_headers() -> list[str]:
    """The headers of the bans' columns, in the player's language."""
    return [
        # NOTE: the host screen's columns of bans: a name or an address, which one,
        # how long it lasts, the host who banned, the reason given.
        pgettext("ban column", "banned"),
        pgettext("ban column", "what"),
        pgettext("ban column", "lasting"),
        pgettext("ban column", "by"),
        pgettext("ban column", "reason"),
    ]


def ban_rows(view: HostView) -> Rows:
    """A row for each ban, keyed by what it bans and its target."""
    rows: Rows = []
    for ban in view.bans:
        what = pgettext("ban", "name") if ban["what"] == "name" else pgettext("ban", "address")
        lasting = (
            pgettext("ban", "server's life")
            if ban["lasting"] == "life"
            else pgettext("ban", "for good")
        )
        cells = [
            str(ban["target"]),
            what,
            lasting,
            str(ban["by"]),
            str(ban.get("reason") or ""),
        ]
        rows.append((f"{ban['what']}:{ban['target']}", cells))
    return rows


def bans_heading(view: HostView) -> str:
    """The line above the bans' list: how many there are."""
    if not view.bans:
        return " " + _("Bans: none")
    n = len(view.bans)
    return " " + ngettext("Bans: {n}", "Bans: {n}", n).format(n=n)


def status_line(view: HostView, ascii_only: bool) -> str:
    """The line under the lists: the server's password, how many are connected (and
    listed, when not all are), and how to reach the other list."""
    listed, total = len(view.connections), view.connections_total
    parts = [
        _("server password: set") if view.password else _("server password: none"),
        ngettext("{n} connected", "{n} connected", total).format(n=total),
    ]
    if listed < total:
        parts.append(_("the first {n} listed").format(n=listed))
    # NOTE: the host screen's line under the lists; Tab moves to the bans' list.
    parts.append(_("Tab: the other list"))
    separator = " - " if ascii_only else " · "
    return " " + separator.join(parts)
