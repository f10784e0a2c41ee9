"""Build hook: compile the client's gettext catalogs (``.po``) to ``.mo`` files.

The ``.po`` files are the source, kept in git; the ``.mo`` files gettext reads are
made here, at install time (also for an editable install, where they land beside
the ``.po`` files and are ignored by git), with Babel, the library made for this.
A catalog whose ``.mo`` is newer than its ``.po`` is left alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # scripts/catalogs compiles without hatchling
    BuildHookInterface = object

LOCALE = Path("client") / "maumau" / "client" / "locale"


def compile_catalogs(root: Path) -> list[Path]:
    """Compile every ``locale/*/LC_MESSAGES/*.po`` under ``root``; the ``.mo`` paths."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written: list[Path] = []
    for po in sorted((root / LOCALE).glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            with po.open("rb") as source:
                catalog = read_po(source, locale=po.parent.parent.name)
            with mo.open("wb") as target:
                write_mo(target, catalog, use_fuzzy=False)
        written.append(mo)
    return written


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        for mo in compile_catalogs(root):
            build_data["artifacts"].append(mo.relative_to(root).as_posix())
