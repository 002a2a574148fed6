"""``subtable serve``: the web table (HTTP API and WebSocket play)."""

from __future__ import annotations

import gc
import logging
from typing import Annotated

import typer


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
) -> None:
    """Serve tables over HTTP and WebSockets (docs/protocol.md)."""
    import uvicorn

    from subtable.web.app import Settings, create_app

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    settings = Settings(
        db=db, bot_workers=bot_workers, allowed_origins=tuple(allow_origin or ()), gc_freeze=5.0
    )
    app = create_app(settings)
    # Tables keep many small long-lived objects (positions, logs): with the default
    # thresholds the collector's full passes stall the loop for 100+ ms under load.
    # Collect the young generation in larger steps and rarely walk the old ones; the
    # server also moves what is alive into the permanent generation from time to time
    # (``Settings.gc_freeze``).
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 1000)
    # no access log: paths are not secret, but nothing about a connection needs logging
    uvicorn.run(
        app,
        host=host,
        port=port,
        access_log=False,
        log_level="info",
        ws_max_size=4 * settings.max_message,
        ws_ping_interval=20,
        ws_ping_timeout=20,
    )
