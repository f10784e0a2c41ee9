"""``docs/protocol.md`` against the code it documents, and ``scripts/protocol-example``.

The document is the contract for clients written from it alone, so it must name:
every message type in ``MESSAGE_TYPES`` with a section of its own, and every field of
that message (nested map fields included) in code formatting inside that section;
every card code; every table setting; every event kind; and every error code that
the protocol package, the server and the rules engine raise with a string literal.
Error codes are collected by parsing those sources, so a new code fails this test
until it is documented.

The example script must run by itself and print frames whose hex is the real bytes
of the decoded map printed beside them.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack

from maumau.protocol.cards import CARD_BY_CODE
from maumau.protocol.codec import DEFAULT_MAX_FRAME
from maumau.protocol.messages import MESSAGE_TYPES, PROTOCOL_VERSION, MessageError, decode_message
from maumau.server.rules import Settings
from maumau.server.rules import events as rule_events
from maumau.server.server import DEFAULT_PORT

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "protocol.md"
SCRIPT = ROOT / "scripts" / "protocol-example"
SOURCES = [ROOT / "protocol" / "maumau" / "protocol", ROOT / "server" / "maumau" / "server"]
ERROR_RAISERS = {
    "Error",
    "TableError",
    "IllegalAction",
    "RemoteProtocolError",
    "MessageError",
    "_fail",
    "_refuse",
}


def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


def sections(text: str) -> dict[str, str]:
    """Heading text -> body, each up to the next heading of the same or a higher level."""
    lines = text.splitlines()
    heads = []
    in_fence = False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            in_fence = not in_fence
        elif not in_fence and (m := re.match(r"^(#{1,6}) (.+)$", line)):
            heads.append((i, len(m.group(1)), m.group(2).strip()))
    out = {}
    for n, (i, level, title) in enumerate(heads):
        end = len(lines)
        for j, other_level, _ in heads[n + 1 :]:
            if other_level <= level:
                end = j
                break
        out[title] = "\n".join(lines[i + 1 : end])
    return out


def section_starting(text: str, prefix: str) -> str:
    found = [body for title, body in sections(text).items() if title.startswith(prefix)]
    assert len(found) == 1, f"expected one section titled {prefix!r}..., found {len(found)}"
    return found[0]


def message_section(text: str, kind: str) -> str:
    found = [
        body
        for title, body in sections(text).items()
        if re.fullmatch(rf"`{re.escape(kind)}`(\s.*)?", title)
    ]
    assert len(found) == 1, f"docs/protocol.md needs one section headed `{kind}`"
    return found[0]


def nested_fields(validator: Any, seen: set[int] | None = None) -> set[str]:
    """Field names of every map nested in a schema validator (records inside arrays,
    optionals and records), found through the validators' closures."""
    seen = set() if seen is None else seen
    if id(validator) in seen:
        return set()
    seen.add(id(validator))
    names: set[str] = set()
    for cell in getattr(validator, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:
            continue
        if (
            isinstance(value, dict)
            and value
            and all(isinstance(k, str) and callable(v) for k, v in value.items())
        ):
            names |= set(value)
            for inner in value.values():
                names |= nested_fields(inner, seen)
        elif callable(value) and not isinstance(value, type):
            names |= nested_fields(value, seen)
    return names


def error_codes_in_sources() -> dict[str, str]:
    """code -> first file raising it: string literals given to the error raisers."""
    found: dict[str, str] = {}
    for folder in SOURCES:
        for path in sorted(folder.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                if isinstance(func, ast.Name):
                    name = func.id
                elif isinstance(func, ast.Attribute):
                    name = func.attr
                else:
                    continue
                if name not in ERROR_RAISERS:
                    continue
                if name == "_fail" and not (
                    isinstance(func, ast.Attribute)
                    and isinstance(func.value, ast.Name)
                    and func.value.id == "self"
                ):
                    continue
                candidates = list(node.args[:1])
                candidates += [k.value for k in node.keywords if k.arg == "code"]
                for arg in candidates:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        found.setdefault(arg.value, str(path.relative_to(ROOT)))
    return found


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


# --- the document --------------------------------------------------------------------


def test_every_message_type_has_a_section_naming_all_its_fields() -> None:
    text = doc_text()
    missing = []
    for kind, cls in MESSAGE_TYPES.items():
        body = message_section(text, kind)
        names = set(cls.SCHEMA)
        for validator in cls.SCHEMA.values():
            names |= nested_fields(validator)
        missing += [f"{kind}.{name}" for name in sorted(names) if f"`{name}`" not in body]
    assert missing == [], f"fields not named in their message's section: {missing}"


def test_nested_field_discovery_sees_the_view_records() -> None:
    view = MESSAGE_TYPES["view"]
    found = set().union(*(nested_fields(v) for v in view.SCHEMA.values()))
    assert {"catchable", "hand_points", "kind", "target", "named", "call"} <= found


def test_every_card_code_is_listed() -> None:
    body = section_starting(doc_text(), "Cards")
    missing = [code for code in CARD_BY_CODE if f"`{code}`" not in body]
    assert missing == [], f"card codes missing from the Cards section: {missing}"
    for letter in "SHDCRYGB":
        assert f"`{letter}`" in body, f"suit or colour letter {letter} is not listed"


def test_every_error_code_raised_in_the_sources_is_documented() -> None:
    codes = error_codes_in_sources()
    assert len(codes) >= 40, f"the source scan found too few codes: {sorted(codes)}"
    for known in ("frame_too_large", "bad_message", "name_taken", "not_creator", "must_name"):
        assert known in codes, f"the source scan missed {known}"
    body = section_starting(doc_text(), "Errors")
    missing = sorted(
        f"{code} ({where})" for code, where in codes.items() if f"`{code}`" not in body
    )
    assert missing == [], f"error codes missing from the Errors section: {missing}"


def test_every_table_setting_is_documented() -> None:
    body = section_starting(doc_text(), "Table settings")
    names = set(Settings.defaults("classic")) | set(Settings.defaults("american"))
    missing = sorted(name for name in names if f"`{name}`" not in body)
    assert missing == [], f"settings missing from the Table settings section: {missing}"


def test_every_event_kind_is_documented() -> None:
    body = message_section(doc_text(), "event")
    kinds = [snake(cls.__name__) for cls in typing.get_args(rule_events.Event)]
    assert len(kinds) > 10
    missing = [kind for kind in kinds if f"`{kind}`" not in body]
    assert missing == [], f"event kinds missing from the event section: {missing}"


def test_constants_match_the_code() -> None:
    text = doc_text()
    assert f"port {DEFAULT_PORT}" in text
    assert DEFAULT_MAX_FRAME == 64 * 1024 and "65536" in text and "64 KiB" in text
    assert f"`version` {PROTOCOL_VERSION}" in text or f'"version": {PROTOCOL_VERSION}' in text


# --- the example script ----------------------------------------------------------------


def frames_in(output: str) -> Iterator[tuple[str, bytes | None, Any]]:
    """(heading, bytes or None if trimmed, decoded map) for each printed frame."""
    pattern = re.compile(
        r"^\*\*(client → server|server → client)\*\* `(\w+)`.*?\n\n"
        r"```text\n(.*?)\n```\n\n```json\n(.*?)\n```",
        re.M | re.S,
    )
    for m in pattern.finditer(output):
        direction, kind, hex_block, json_block = m.groups()
        lines = hex_block.splitlines()
        raw: bytes | None = b""
        if re.match(r"^[0-9a-f]{4}  ", lines[0]):  # a hex dump: offset, then 16 bytes
            for line in lines:
                if line.startswith("…"):
                    raw = None
                    break
                raw += bytes.fromhex(line[6:53])
        else:  # byte by byte: the hex column is 48 characters wide
            for line in lines:
                raw += bytes.fromhex(line[:48])
        yield f"{direction} {kind}", raw, json.loads(json_block)


def test_protocol_example_runs_and_prints_real_frames() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    out = result.stdout
    assert "**client → server** `hello`" in out
    assert "**server → client** `welcome`" in out
    frames = list(frames_in(out))
    kinds = [heading for heading, _, _ in frames]
    assert kinds[:2] == ["client → server hello", "server → client welcome"]
    for needed in ("lobby", "table", "event", "view", "error", "goodbye"):
        assert f"server → client {needed}" in kinds, f"no {needed} frame in the example"
    for heading, raw, decoded in frames:
        assert decoded["type"] == heading.split()[-1]
        assert raw is not None, f"{heading}: the default run should not trim hex"
        length = int.from_bytes(raw[:4], "big")
        assert length == len(raw) - 4, f"{heading}: the length prefix is wrong"
        assert msgpack.unpackb(raw[4:], raw=False) == decoded, f"{heading}: hex and map differ"


def without_deadlines(text: str) -> str:
    """``text`` with every ``turn_deadline_ms`` value the same (it depends on timing)."""
    return re.sub(r'"turn_deadline_ms": \d+', '"turn_deadline_ms": N', text)


def test_the_annotated_example_is_the_scripts_output() -> None:
    """The doc's annotated session is what the real server says now: it fails when
    the protocol changes and the example is not generated again (the tokens come
    from the script's seed; only the turn deadline may differ)."""
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--hex-limit", "64"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    text = doc_text()
    start = text.index("### Handshake\n\nThe client opens a TCP connection")
    shown = text[start : text.index("## Known deviations")].rstrip()
    assert without_deadlines(shown) == without_deadlines(result.stdout.rstrip())


def json_examples(text: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every map of every ```json block of ``text``, with the heading it is under."""
    decoder = json.JSONDecoder()
    for found in re.finditer(r"```json\n(.*?)```", text, re.S):
        heading = re.findall(r"^#+ (.*)$", text[: found.start()], re.M)[-1]
        block, at = found.group(1), 0
        while True:
            while at < len(block) and block[at].isspace():
                at += 1
            if at == len(block):
                break
            value, at = decoder.raw_decode(block, at)
            yield heading, value


def test_every_json_example_decodes_with_the_real_codec() -> None:
    """Every message map the doc shows is one the real decoder accepts, but the one
    shown to be malformed."""
    examples = list(json_examples(doc_text()))
    assert len(examples) > 30
    refused = []
    for heading, value in examples:
        cls = MESSAGE_TYPES[value["type"]]
        sender = "client" if cls.SENDER == "client" else "server"
        try:
            decode_message(value, sender)
        except MessageError as error:
            refused.append((heading, value["type"], error.code))
    assert refused == [("A malformed message", "play", "bad_message")]
