"""What the routes share, as FastAPI dependencies: the tables' manager, the server's
settings, the lobby's feed, the same-site check and the per-address allowance of new
tables."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from subtable.web.guard import Guard
from subtable.web.limits import too_fast
from subtable.web.live import Manager
from subtable.web.lobbyfeed import LobbyFeed
from subtable.web.routes.errors import ApiError
from subtable.web.settings import Settings


def get_manager(conn: HTTPConnection) -> Manager:
    """The live tables of this server."""
    manager: Manager = conn.app.state.manager
    return manager


def get_settings(conn: HTTPConnection) -> Settings:
    """How this server runs."""
    settings: Settings = conn.app.state.settings
    return settings


def get_guard(request: Request) -> Guard:
    """The checks of requests that open tables or take seats."""
    guard: Guard = request.app.state.guard
    return guard


async def get_feed(conn: HTTPConnection) -> LobbyFeed:
    """What tells open lobby pages that the lobby changed (made on first use, in the
    event loop: the feed's events belong to it)."""
    feed: LobbyFeed | None = getattr(conn.app.state, "lobby_feed", None)
    if feed is None:
        feed = conn.app.state.lobby_feed = LobbyFeed(get_manager(conn).lobby)
    return feed


ManagerDep = Annotated[Manager, Depends(get_manager)]
FeedDep = Annotated[LobbyFeed, Depends(get_feed)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
GuardDep = Annotated[Guard, Depends(get_guard)]


def same_site(request: Request, guard: GuardDep) -> None:
    """Refuse (403 ``cross_site``) a request a browser sent from another site's page."""
    if guard.cross_site(request):
        raise ApiError(403, "cross_site", "ask from this server's own pages")


@dataclass(frozen=True, slots=True)
class Allowance:
    """A client's allowance of tables (and seats) a minute, by its address."""

    guard: Guard
    request: Request

    @property
    def client(self) -> str:
        """The digest of the client's address (the caps per client count it)."""
        return self.guard.client(self.request)

    def available(self) -> bool:
        """Take one from the allowance if there is one left."""
        return self.guard.may_open(self.request)

    def take(self) -> None:
        """Take one from the allowance, or refuse (429 ``rate_limited``)."""
        if not self.available():
            raise ApiError(429, "rate_limited", too_fast(self.guard.limits))


def get_allowance(request: Request, guard: GuardDep) -> Allowance:
    """The calling address's allowance (taken once the request is known to be valid)."""
    return Allowance(guard, request)


AllowanceDep = Annotated[Allowance, Depends(get_allowance)]
SameSite = Depends(same_site)
