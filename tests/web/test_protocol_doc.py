"""``docs/protocol.md`` against the protocol's models: every message a client may send and
every frame the server sends is documented, with its fields, and nothing is documented that
has no model."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

from pydantic import BaseModel

from subtable.web import PROTOCOL_VERSION
from subtable.web.protocol import (
    MESSAGE_TYPES,
    SERVER_FRAMES,
    AdviceAsked,
    AdviceAskedFrame,
    AdviceChoice,
    AdviceFrame,
    AnyMessage,
    AskedRef,
    ChatFrame,
    ChatLine,
    Entry,
    PlayerSeat,
    WelcomeFrame,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
#: a field's name as the document writes it: ``name`` or, inside a JSON sketch, ``"name"``
_NAME = re.compile(r'^[a-z_]+$|"([a-z_]+)"')
#: the parts documented in the item of the frame that carries them
NESTED: dict[type[BaseModel], type[BaseModel]] = {
    PlayerSeat: WelcomeFrame,
    AdviceChoice: AdviceFrame,
    ChatLine: ChatFrame,
    AskedRef: AdviceAskedFrame,
    AdviceAsked: AdviceAskedFrame,
}


def _section(text: str, heading: str) -> str:
    start = text.index(f"\n### {heading}\n")
    end = text.find("\n#", start + 1)
    return text[start : end if end != -1 else len(text)]


def _names(text: str, *, quoted: bool) -> set[str]:
    """The names written in ``text``'s code spans (and, with ``quoted``, the keys of its
    JSON sketches: ``{"n", "seq"}``)."""
    found: set[str] = set()
    for span in re.findall(r"`([^`]+)`", text):
        for m in _NAME.finditer(span.strip()):
            if m.group(1) is None or quoted:
                found.add(m.group(1) or m.group(0))
    return found


def client_messages(text: str) -> dict[str, set[str]]:
    """Each documented client message (a row of the table) and the fields it names."""
    rows: dict[str, set[str]] = {}
    for line in _section(text, "Client → server").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        kind = re.fullmatch(r"`([a-z_]+)`", cells[0]) if len(cells) == 3 else None
        if kind is not None:
            rows[kind.group(1)] = _names(cells[1], quoted=False)
    return rows


def server_frames(text: str) -> dict[str, set[str]]:
    """Each documented server frame (an item of the list) and the names it writes."""
    items: dict[str, set[str]] = {}
    for item in re.split(r"\n- ", _section(text, "Server → client"))[1:]:
        kind = re.match(r"`([a-z_]+)`", item)
        if kind is not None:
            items[kind.group(1)] = _names(item.split("\n\n")[0], quoted=True)
    return items


def _fields(model: type[BaseModel]) -> set[str]:
    return set(model.model_fields) - {"v", "type"}


def _kind(model: type[BaseModel]) -> str:
    (kind,) = get_args(model.model_fields["type"].annotation)
    return str(kind)


def problems(text: str) -> list[str]:
    """What the document and the models disagree on (nothing, when they agree)."""
    found: list[str] = []
    version = re.search(r"^# .*\(version (\d+)\)", text, re.MULTILINE)
    if version is None or int(version.group(1)) != PROTOCOL_VERSION:
        found.append(f"the title's version is not {PROTOCOL_VERSION}")
    messages = {_kind(m): _fields(m) for m in get_args(AnyMessage)}
    assert set(messages) == set(MESSAGE_TYPES)
    documented = client_messages(text)
    for kind in sorted(set(messages) ^ set(documented)):
        found.append(
            f"client message {kind!r}: " + ("undocumented" if kind in messages else "no model")
        )
    for kind in sorted(set(messages) & set(documented)):
        if messages[kind] - documented[kind]:
            missing = sorted(messages[kind] - documented[kind])
            found.append(f"client message {kind!r}: fields not documented: {missing}")
        if documented[kind] - messages[kind]:
            extra = sorted(documented[kind] - messages[kind])
            found.append(f"client message {kind!r}: documented, no field: {extra}")
    frames = {_kind(f): f for f in SERVER_FRAMES}
    written = server_frames(text)
    for kind in sorted(set(frames) ^ set(written)):
        found.append(f"frame {kind!r}: " + ("undocumented" if kind in frames else "no model"))
    parts: list[tuple[str, set[str]]] = [
        (k, _fields(frames[k])) for k in sorted(set(frames) & set(written))
    ]
    parts += [(_kind(frame), _fields(part)) for part, frame in NESTED.items()]
    for kind, fields in parts:
        missing = fields - written.get(kind, set())
        if missing:
            found.append(f"frame {kind!r}: fields not documented: {sorted(missing)}")
    entry = re.search(r"\nAn `entry`: (.*?)\n\n", text, re.DOTALL)
    missing = _fields(Entry) - _names(entry.group(1) if entry else "", quoted=True)
    if missing:
        found.append(f"an entry: fields not documented: {sorted(missing)}")
    return found


def test_the_document_describes_every_message_and_frame_with_its_fields() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert set(server_frames(text)) >= {"welcome", "update", "advice"}
    assert client_messages(text)["hello"] >= {"table", "token", "last_seq"}
    assert problems(text) == []


def test_the_comparison_catches_a_frame_a_field_and_a_message_left_out() -> None:
    text = DOC.read_text(encoding="utf-8")
    no_rematch = re.sub(r"\n- `rematch`:[^\n]*(\n  [^\n]*)*", "", text)
    assert problems(no_rematch) == ["frame 'rematch': undocumented"]
    no_about = text.replace('`about` (`"hint"`: the refusal answers a `hint`), ', "")
    assert problems(no_about) == ["frame 'error': fields not documented: ['about']"]
    no_ping = re.sub(r"\n\| `ping` \|[^\n]*", "", text)
    assert problems(no_ping) == ["client message 'ping': undocumented"]
    extra = text.replace("\n- `pong`: `seq`.", "\n- `pong`: `seq`.\n- `bye`: `reason`.")
    assert problems(extra) == ["frame 'bye': no model"]
    no_render = text.replace('`render` (`"html"`), ', "")
    assert problems(no_render) == ["client message 'hello': fields not documented: ['render']"]
    seat_too = text.replace("| `undo` | `seq` |", "| `undo` | `seq`, `seat` |")
    assert problems(seat_too) == ["client message 'undo': documented, no field: ['seat']"]
    no_stage = text.replace("`lines`\nand `stage` (below)", "`lines`")
    assert problems(no_stage) == ["an entry: fields not documented: ['stage']"]
    old = text.replace("(version 1)", "(version 0)")
    assert problems(old) == [f"the title's version is not {PROTOCOL_VERSION}"]
