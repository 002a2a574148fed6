"""The links of ``subtable join``: an invite link read as the server's WebSocket, the table
and the token; and the next table's link, asked of the server (``again``)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from urllib.parse import urljoin, urlsplit

#: seconds a request waits for its answer
REPLY_TIMEOUT = 30.0


class JoinError(Exception):
    """A link or a connection that does not lead to a seat."""


def parse_link(url: str) -> tuple[str, str, str]:
    """``http://host:port/t/ID#TOKEN`` → (WebSocket URL, table id, token)."""
    parts = urlsplit(url.strip())
    segments = [s for s in parts.path.split("/") if s]
    if (
        parts.scheme not in ("http", "https", "ws", "wss")
        or len(segments) < 2
        or segments[-2] != "t"
        or not parts.fragment
    ):
        raise JoinError(f"not an invite link: {url!r} (expected http://HOST/t/TABLE#TOKEN)")
    return "ws" + http_base(url).removeprefix("http") + "/ws", segments[-1], parts.fragment


def http_base(url: str) -> str:
    """``http://host:port`` (or ``https://``) of an invite link: where the server answers
    requests; its WebSocket is the same with ``ws``/``wss``."""
    parts = urlsplit(url.strip())
    scheme = "https" if parts.scheme in ("https", "wss") else "http"
    return f"{scheme}://{parts.netloc}"


def open_again(base: str, table: str, token: str) -> str:
    """The link of this seat at the table that follows ``table`` (``POST
    /api/tables/{id}/again``, opened now if nobody has yet), else :class:`JoinError` with
    the server's reason."""
    request = urllib.request.Request(
        f"{base}/api/tables/{table}/again",
        data=json.dumps({"token": token}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=REPLY_TIMEOUT) as answer:
            url = str(json.loads(answer.read())["url"])
        return urljoin(base + "/", url)  # the server's link is relative
    except urllib.error.HTTPError as exc:
        try:
            reason = str(json.loads(exc.read())["message"])
        except (ValueError, KeyError, TypeError):
            reason = f"HTTP {exc.code}"
        raise JoinError(reason) from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise JoinError(str(exc)) from None
