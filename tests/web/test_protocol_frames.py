"""The server's frames as the wire carries them: the version first, then the type and the
fields in the order declared; optional parts left out rather than sent as ``null``."""

from __future__ import annotations

import json
from typing import Any

from subtable.web import PROTOCOL_VERSION
from subtable.web.protocol import (
    ChatFrame,
    ChatLine,
    Entry,
    ErrorFrame,
    PeopleFrame,
    UpdateFrame,
    WhyFrame,
)


def _entry(**html: Any) -> Entry:
    return Entry(seq=3, kind="action", seat=1, action="swap", label="Swap", events=[], **html)


def test_a_frame_starts_with_the_version_and_its_type() -> None:
    text = ChatFrame(
        chat=ChatLine(n=1, seq=0, player=0, name=None, text="<b>hi</b>", at=12.5)
    ).text()
    assert text == (
        f'{{"v":{PROTOCOL_VERSION},"type":"chat","chat":{{"n":1,"seq":0,"player":0,'
        '"name":null,"text":"<b>hi</b>","at":12.5}}'
    )


def test_optional_parts_are_left_out_and_the_others_sent_as_null() -> None:
    plain = UpdateFrame(entry=_entry(), state={"seq": 3}).wire()
    assert list(plain["entry"]) == ["seq", "kind", "seat", "action", "label", "events"]
    page = UpdateFrame(entry=_entry(lines=["Swapped."], stage={"html": ""}), state={}).wire()
    assert page["entry"]["lines"] == ["Swapped."] and page["entry"]["stage"] == {"html": ""}
    assert "names" not in PeopleFrame(people=[None], state={}).wire()
    assert PeopleFrame(people=[None], state={}, names=[]).wire()["names"] == []
    legal = WhyFrame(action="dive", legal=True, why="yes").wire()
    assert list(legal) == ["v", "type", "action", "legal", "why"]
    refused = WhyFrame(action="dive", legal=False, code="c", message="m", why="no").wire()
    assert list(refused) == ["v", "type", "action", "legal", "code", "message", "why"]


def test_an_errors_extra_facts_follow_its_declared_fields() -> None:
    frame = ErrorFrame(code="stale_seq", message="late", seq=4, why="Too late.")
    assert list(frame.wire()) == ["v", "type", "code", "message", "why", "seq"]
    bare = ErrorFrame(code="bad_json", message="not JSON")
    assert json.loads(bare.text()) == {
        "v": PROTOCOL_VERSION,
        "type": "error",
        "code": "bad_json",
        "message": "not JSON",
    }


def test_free_form_parts_go_out_as_they_are() -> None:
    state: dict[str, Any] = {"views": [{"seat": 0, "view": {"hand": (1, 2)}}]}
    wire = UpdateFrame(entry=_entry(), state=state).wire()
    assert wire["state"]["views"] is state["views"]  # not copied, not walked again
    assert json.loads(json.dumps(wire))["state"]["views"][0]["view"]["hand"] == [1, 2]
