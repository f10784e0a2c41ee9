"""The shape of the code: every module in its layer, imports only downwards, no circles.

``docs/architecture.md`` draws the layers; :data:`LAYERS` is the same list, from the
bottom up. Each module of the three packages must match exactly one layer (a new
module is placed on purpose), and may import only modules of its own layer or a layer
below. Across all modules, imports may not form a circle, not even within a layer.

Imports are read from the source with ``ast``: module-level ones, those under
``if TYPE_CHECKING:`` and those inside functions all count (a circle of type-only
imports is still a circle in the design). The one exception is the client's embedded
server for local play (``maumau.client.local``), which imports the server inside a
function, on purpose, and only when local play starts. A package's ``__init__`` that
re-exports its modules counts as importing them; a module is not taken to import its
own package's ``__init__``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "protocol", ROOT / "server", ROOT / "client"]

# From the bottom up: (layer, patterns of module names). A pattern ending in ".*"
# matches the package and everything in it.
LAYERS: list[tuple[str, list[str]]] = [
    ("namespace", ["maumau"]),
    ("protocol", ["maumau.protocol.*"]),
    ("rules", ["maumau.server.rules.*"]),
    (
        "server helpers",
        [
            "maumau.server",
            "maumau.server.names",
            "maumau.server.arbiter",
            "maumau.server.latency",
            "maumau.server.kernel_rtt",
            "maumau.server.rollout",
            "maumau.server.search",
            "maumau.server.bots",
            "maumau.server.errors",
            "maumau.server.host_rights",
        ],
    ),
    ("tournament rules", ["maumau.server.tournament.*"]),
    ("store", ["maumau.server.store.*"]),
    ("tables", ["maumau.server.table.*", "maumau.server.replay"]),
    ("links", ["maumau.server.link", "maumau.server.inbox"]),
    ("sessions", ["maumau.server.session"]),
    (
        "lobby",
        [
            "maumau.server.saving",
            "maumau.server.lobby",
            "maumau.server.bounds",
            "maumau.server.history",
            "maumau.server.bans",
            "maumau.server.moderation",
            "maumau.server.handshake",
            "maumau.server.tournaments.presence",
            "maumau.server.tournaments.audience",
            "maumau.server.tournaments.tables",
            "maumau.server.tournaments.service",
            "maumau.server.tournaments.api",
            "maumau.server.tournaments.restore",
            "maumau.server.tournaments",
            "maumau.server.dispatch",
            "maumau.server.restore",
        ],
    ),
    ("connections", ["maumau.server.connection"]),
    ("server", ["maumau.server.server", "maumau.server.config"]),
    (
        "server cli",
        [
            "maumau.server.cli",
            "maumau.server.web_guests",
            "maumau.server.wheelhouse",
            "maumau.server.announce",
        ],
    ),
    (
        "client model",
        [
            "maumau.client",
            "maumau.client.i18n",
            "maumau.client.words",
            "maumau.client.literal",
            "maumau.client.config",
            "maumau.client.host_words",
            "maumau.client.lobby_words",
            "maumau.client.tournament_words",
            "maumau.client.model_parts",
            "maumau.client.model_table",
            "maumau.client.model_moves",
            "maumau.client.model_lobby",
            "maumau.client.model_tournament",
            "maumau.client.model_host",
            "maumau.client.model_records",
            "maumau.client.model",
            "maumau.client.checks",
            "maumau.client.render",
            "maumau.client.host",
            "maumau.client.tournament",
            "maumau.client.party",
            "maumau.client.web.identity",
        ],
    ),
    ("client net", ["maumau.client.net", "maumau.client.address", "maumau.client.discovery"]),
    ("client widgets", ["maumau.client.widgets.*"]),
    ("client screens", ["maumau.client.screens.*"]),
    (
        "client app",
        [
            "maumau.client.connection",
            "maumau.client.exit_guard",
            "maumau.client.app_shell",
            "maumau.client.app_connect",
            "maumau.client.app_routes",
            "maumau.client.app",
        ],
    ),
    ("client cli", ["maumau.client.cli", "maumau.client.local"]),
    (
        "client web",
        [
            "maumau.client.web",
            "maumau.client.web.guest",
            "maumau.client.web.service",
            "maumau.client.web.server",
            "maumau.client.web.cli",
            "maumau.client.web.__main__",
        ],
    ),
]
LAZY_ON_PURPOSE = {("maumau.client.local", "maumau.server")}


def all_modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for base in SOURCES:
        for path in (base / "maumau").rglob("*.py"):
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    found.setdefault("maumau", SOURCES[0] / "maumau")
    return found


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project's modules that ``name`` (at ``path``) imports, anywhere in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            targets = [source] + [f"{source}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                found.add(target)
    return found


def layer_of(name: str) -> int:
    matches = [
        index
        for index, (_, patterns) in enumerate(LAYERS)
        for pattern in patterns
        if name == pattern or (pattern.endswith(".*") and (name + ".").startswith(pattern[:-1]))
    ]
    assert len(set(matches)) == 1, f"{name} is in layers {matches}: place it in one"
    return matches[0]


def graph() -> dict[str, set[str]]:
    modules = all_modules()
    return {
        name: {t for t in imports_of(name, path, modules) if (name, t) not in LAZY_ON_PURPOSE}
        for name, path in modules.items()
        if path.suffix == ".py"
    }


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def upward(edges: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{name} ({LAYERS[layer_of(name)][0]}) imports {target} ({LAYERS[layer_of(target)][0]})"
        for name, targets in edges.items()
        for target in targets
        if layer_of(target) > layer_of(name)
    )


def test_every_module_has_one_layer() -> None:
    for name in all_modules():
        layer_of(name)


def test_imports_go_only_downwards() -> None:
    assert upward(graph()) == []


def test_no_module_imports_another_in_a_circle() -> None:
    assert circles(graph()) == []


def test_the_checks_see_a_circle_and_an_upward_import() -> None:
    edges = {"maumau.server.lobby": {"maumau.server.session"}}
    assert circles(edges) == []
    edges["maumau.server.session"] = {"maumau.server.lobby"}
    assert circles(edges) == [["maumau.server.lobby", "maumau.server.session"]]
    assert upward(edges) == ["maumau.server.session (sessions) imports maumau.server.lobby (lobby)"]


def test_type_only_and_relative_imports_are_read(tmp_path: Path) -> None:
    modules = {"maumau.server.table": tmp_path, "maumau.server.server": tmp_path}
    source = tmp_path / "journal.py"
    source.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..server import Server\n"
    )
    modules["maumau.server.table.journal"] = source
    found = imports_of("maumau.server.table.journal", source, modules)
    assert found == {"maumau.server.server"}


@pytest.mark.parametrize("layer", [name for name, _ in LAYERS])
def test_layers_are_written_down(layer: str) -> None:
    text = (ROOT / "docs" / "architecture.md").read_text()
    assert re.search(rf"\b{re.escape(layer)}\b", text), f"docs/architecture.md omits {layer}"
