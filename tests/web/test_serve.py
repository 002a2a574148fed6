"""``subtable serve``'s own words (the app it serves is tested beside)."""

from __future__ import annotations

import socket
import webbrowser
from typing import Any

import pytest

from subtable.commands.serve import _open_when_ready


def test_open_says_so_when_no_browser_opens(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    opened: list[str] = []

    def no_browser(url: str, *args: Any, **kwargs: Any) -> bool:
        opened.append(url)
        return False  # what webbrowser.open answers on a machine without a browser

    monkeypatch.setattr(webbrowser, "open", no_browser)
    with socket.socket() as listening:  # the server, ready
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = listening.getsockname()[1]
        url = f"http://127.0.0.1:{port}/"
        _open_when_ready(url, "127.0.0.1", port)
    assert opened == [url]
    said = capsys.readouterr().err
    assert "no web browser could be opened" in said
    assert url in said
