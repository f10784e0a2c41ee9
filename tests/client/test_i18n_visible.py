"""No word reaches the player without going through the catalogs.

An AST check over the client's modules: a string literal (or an f-string's literal
part) with a word in it, passed straight to something that shows text (``Static``,
``Label``, ``Button``, ``Text(...)``, ``.append``, ``.update``, ``notify``,
``show_error``, ``set_banner``, a ``Binding``'s description, ``add_column``,
``add_row``, ``placeholder=``, ``title=``, ...), or a module-level sentence
constant, must be wrapped in ``_``/``N_``/``ngettext``/``pgettext``. What is not a
word is allowed: the few literals in :data:`ALLOWED` (the program's name, keys, the
example address and name in the connect screen's empty fields), and anything without
a run of two letters (symbols, spacing, numbers).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

CLIENT = Path(__file__).resolve().parents[2] / "client" / "maumau" / "client"
WRAPPERS = {"_", "N_", "ngettext", "pgettext"}
SINKS = {
    "Static",
    "Label",
    "Button",
    "Text",
    "append",
    "assemble",
    "update",
    "notify",
    "show_error",
    "set_banner",
    "show_problem",
    "complain",
    "add_column",
    "add_row",
    "write",
    "ConnectionChanged",
    "LinkClosed",
    "error",
    "__init__",  # super().__init__(text) of a Static
}
KEYWORD_SINKS = {"placeholder", "title", "description", "label", "tooltip"}
# Not words: the program's name, key names and the card's-face marks.
ALLOWED = {
    "maumau",
    " maumau  ",
    "MAUMAU_DEBUG",
    "bye",
    "Enter",
    "Esc",
    "Tab",
    "lan-party-box:7766",
    "Ann",
}
WORD = re.compile(r"[A-Za-z]{2,}")


def wordy(node: ast.AST) -> str | None:
    """The words of a literal (or f-string) shown as it is, else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(
            v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
        )
    else:
        return None
    if text in ALLOWED or not WORD.search(text):
        return None
    return text


def name_of(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def offences(source: str) -> list[str]:
    """Words shown without the catalogs, as ``line: text``."""
    tree = ast.parse(source)
    found: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = name_of(node)
        if name in WRAPPERS:
            continue
        shown: list[ast.AST] = []
        if name == "Binding":
            shown += node.args[2:3]
        elif name in SINKS:
            shown += node.args[:1]
        shown += [k.value for k in node.keywords if k.arg in KEYWORD_SINKS]
        for value in shown:
            parts = [value]
            if isinstance(value, ast.BinOp):  # "  " + _("...") + "\n"
                parts = [value.left, value.right]
            for part in parts:
                text = wordy(part)
                if text is not None:
                    found.append(f"{node.lineno}: {text!r}")
    for statement in tree.body:  # module-level sentences
        if isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value is not None:
            text = wordy(statement.value)
            # A sentence has spaces: "maumau.client.web.guest" is a name.
            if text is not None and " " in text.strip() and len(WORD.findall(text)) >= 3:
                found.append(f"{statement.lineno}: {text!r}")
    return found


# maumau-web's command line speaks to the host, in English like maumau-server: what
# it prints goes to the host's terminal, never to a guest's screen.
HOST_MODULES = {"web/cli.py"}
MODULES = sorted(
    name
    for name in (str(path.relative_to(CLIENT)) for path in CLIENT.rglob("*.py"))
    if name not in HOST_MODULES
)


@pytest.mark.parametrize("module", MODULES)
def test_every_word_goes_through_the_catalogs(module: str) -> None:
    assert offences((CLIENT / module).read_text()) == []


def test_the_check_sees_a_bare_word() -> None:
    source = (
        'Static("Leave the table?")\n'
        'text.append(f"{name} plays")\n'
        'Binding("q", "quit", "quit")\n'
        'NOTE = "the server is full now"\n'
        'Static(_("Fine"))\n'
        'text.append(" ")\n'
        'MODULE = "maumau.client.web.guest"\n'
        'PREFIX = "maumau-web-guest-"\n'
    )
    assert [line.split(":")[0] for line in offences(source)] == ["1", "2", "3", "4"]
