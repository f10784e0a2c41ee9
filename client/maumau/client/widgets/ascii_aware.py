"""The ``ascii`` class on screens of a client run with ``--ascii``."""

from __future__ import annotations

from ..host import host_of


class AsciiAware:
    """Screens that draw plain ASCII borders when the client runs with --ascii (the
    stylesheet keys them on the ``ascii`` class). Mixed in before the Screen class."""

    def on_mount(self) -> None:
        ascii_only = host_of(self.app).ascii_only  # type: ignore[attr-defined]
        self.set_class(bool(ascii_only), "ascii")  # type: ignore[attr-defined]
