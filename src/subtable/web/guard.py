"""What the server checks of an HTTP request before it does any work for it: the size of
its body, where a browser sent it from, and how many tables its client opens."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from subtable.web.limits import Buckets, Limits, client_key, json_too_deep

#: where the JSON API lives
API = "/api/"


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """A request from a page of this server, a listed origin, or no browser at all."""
    if origin is None:
        return True  # not a browser (the terminal client, scripts): nothing to forge
    if origin in allowed:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and host is not None and parts.netloc == host


class BodyLimit:
    """ASGI middleware: an HTTP body larger than ``limit`` bytes is answered ``413`` before
    the application sees it (the body is neither read further nor echoed). A body of the
    JSON API (``/api/``) nesting deeper than ``depth`` is answered ``400`` before it is
    parsed, and is read as JSON whatever its declared type (``curl -d`` says it is a form).
    """

    def __init__(self, app: ASGIApp, limit: int, depth: int = 32) -> None:
        self.app = app
        self.limit = limit
        self.depth = depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(send, 413, "too_large", self._too_large())
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(send, 413, "too_large", self._too_large())
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if scope["path"].startswith(API):
            text = body.decode("utf-8", "replace")
            if json_too_deep(text, self.depth):
                await self._refuse(
                    send, 400, "bad_json", f"the body nests more than {self.depth} levels deep"
                )
                return
            scope = {**scope, "headers": _as_json(scope["headers"])}
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    def _too_large(self) -> str:
        return f"a request body may have at most {self.limit} bytes"

    async def _refuse(self, send: Send, status: int, code: str, message: str) -> None:
        data = json.dumps({"error": {"code": code, "message": message}}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(data)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": data})


def _as_json(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """``headers`` with the body's type said to be JSON."""
    kept = [(k, v) for k, v in headers if k.lower() != b"content-type"]
    return [*kept, (b"content-type", b"application/json")]


class Guard:
    """The checks of a request that opens a table: same origin, and the client's rate."""

    def __init__(self, limits: Limits, allowed_origins: tuple[str, ...]) -> None:
        self.limits = limits
        self.allowed = allowed_origins
        self._opened = Buckets(limits.tables_per_minute / 60.0, limits.tables_per_minute)

    def cross_site(self, request: Request) -> bool:
        """Whether a browser sent ``request`` from another site's page (``Origin``, or
        ``Referer`` when a browser sends no ``Origin``)."""
        host = request.headers.get("host")
        origin = request.headers.get("origin")
        if origin is None:
            referer = request.headers.get("referer")
            if referer:
                parts = urlsplit(referer)
                origin = f"{parts.scheme}://{parts.netloc}"
        return not origin_allowed(origin, host, self.allowed)

    def client(self, request: Request) -> str:
        """The digest of the client's address that the caps per client count."""
        return client_key(request.client.host if request.client else None)

    def may_open(self, request: Request) -> bool:
        """Take one table from the client's allowance of tables a minute."""
        return self._opened.allow(self.client(request))


def short(text: Any, limit: int = 300) -> str:
    """A message cut to ``limit`` characters: no answer echoes a large input back."""
    out = str(text)
    return out if len(out) <= limit else out[: limit - 1] + "…"
