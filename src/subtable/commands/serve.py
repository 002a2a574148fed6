"""``subtable serve``: the web table (HTTP API and WebSocket play)."""

from __future__ import annotations

import gc
import logging
import socket
import threading
import time
import webbrowser
from typing import TYPE_CHECKING, Annotated

import typer

from subtable.web.botpool import DEFAULT_MAX_BUDGET
from subtable.web.limits import Limits

if TYPE_CHECKING:
    from starlette.types import ASGIApp

    from subtable.web.settings import Settings

_DEFAULTS = Limits()


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="database URL: sqlite:///FILE or postgresql://… "
            "(default: SQLite in the user's data directory)"
        ),
    ] = None,
    bot_workers: Annotated[int, typer.Option(help="processes in which bots think")] = 1,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-origin", help="another origin allowed to open WebSockets (repeatable)"
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            metavar="ADDR[,ADDR]",
            help="the reverse proxies (addresses or networks, * for any) whose "
            "X-Forwarded-For and X-Forwarded-Proto are believed: the per-address limits and "
            "the logs then see the client the proxy names; without it, forwarded headers "
            "are ignored",
        ),
    ] = None,
    open_browser: Annotated[
        bool, typer.Option("--open", help="open the home page in a web browser once serving")
    ] = False,
    max_budget: Annotated[
        int,
        typer.Option(
            min=1,
            help="most iterations a search bot may think per decision (a seat asking more "
            "is refused)",
        ),
    ] = DEFAULT_MAX_BUDGET,
    max_tables: Annotated[
        int, typer.Option(min=1, help="most unfinished tables on the server")
    ] = _DEFAULTS.max_tables,
    max_tables_per_client: Annotated[
        int, typer.Option(min=1, help="most unfinished tables one client address may open")
    ] = _DEFAULTS.max_tables_per_client,
    tables_per_minute: Annotated[
        float, typer.Option(min=0.1, help="tables one client address may open a minute")
    ] = _DEFAULTS.tables_per_minute,
    abandon_after: Annotated[
        float,
        typer.Option(
            min=0.01,
            help="hours without a move and with nobody at the table before it is "
            "closed as abandoned (its record is kept)",
        ),
    ] = _DEFAULTS.abandon_after / 3600,
) -> None:
    """Serve tables over HTTP and WebSockets, and the browser's pages (docs/protocol.md)."""
    from subtable.web.app import Settings, create_app

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    limits = Limits(
        max_budget=max_budget,
        max_tables=max_tables,
        max_tables_per_client=max_tables_per_client,
        tables_per_minute=tables_per_minute,
        abandon_after=abandon_after * 3600,
    )
    settings = Settings(
        db=db,
        bot_workers=bot_workers,
        allowed_origins=tuple(allow_origin or ()),
        forwarded_allow_ips=_addresses(forwarded_allow_ips),
        gc_freeze=5.0,
        limits=limits,
    )
    _run(create_app(settings), settings, host, port, open_browser)


def _run(app: ASGIApp, settings: Settings, host: str, port: int, open_browser: bool) -> None:
    """Serve ``app`` with uvicorn until stopped."""
    import uvicorn

    # Tables keep many small long-lived objects (positions, logs): with the default
    # thresholds the collector's full passes stall the loop for 100+ ms under load.
    # Collect the young generation in larger steps and rarely walk the old ones; the
    # server also moves what is alive into the permanent generation from time to time
    # (``Settings.gc_freeze``).
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 1000)
    local = "127.0.0.1" if host in ("0.0.0.0", "::") else host  # a wildcard: reach it locally
    url = f"http://{local}:{port}/"
    typer.echo(f"subtable: the tables are at {url}", err=True)
    if open_browser:
        threading.Thread(target=_open_when_ready, args=(url, local, port), daemon=True).start()
    # no access log: paths are not secret, but nothing about a connection needs logging
    uvicorn.run(
        app,
        host=host,
        port=port,
        access_log=False,
        # forwarded headers believed from --forwarded-allow-ips only (uvicorn's own
        # default would believe any from 127.0.0.1); the app applies the same rule
        proxy_headers=bool(settings.forwarded_allow_ips),
        forwarded_allow_ips=list(settings.forwarded_allow_ips) or None,
        log_level="info",
        ws_max_size=4 * settings.max_message,
        ws_ping_interval=20,
        ws_ping_timeout=20,
    )


def _addresses(text: str | None) -> tuple[str, ...]:
    """``ADDR[,ADDR]`` as a tuple (empty: none given)."""
    return tuple(part.strip() for part in (text or "").split(",") if part.strip())


def _open_when_ready(url: str, host: str, port: int) -> None:
    """Open ``url`` in a browser as soon as the server accepts connections (20 s at most)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), 0.5):
                break
        except OSError:
            time.sleep(0.1)
    if not webbrowser.open(url):  # no browser on this machine (a server, a container)
        typer.echo(f"subtable: no web browser could be opened: open {url} yourself", err=True)
