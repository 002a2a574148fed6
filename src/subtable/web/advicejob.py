"""Advice thought in the bot pool: one seat's view in, the expert's advice out.

A :class:`AdviceJob` carries what :func:`~subtable.bots.advice.advise` reads — the game's
name and options, the seat's view, its legal actions, the seed and the budget — and
nothing else: the worker never sees the table's state, so the answer is a function of the
seat's view by construction (``tests/web/test_hint.py`` checks it byte for byte). The view
travels pickled, its game replaced by a reference (a view holds its game: about 400 kB
pickled) and rebuilt on the worker's side from the name and options, once per process.

:func:`advising` is the job as a search that can be paused (:func:`subtable.bots.advice.
advising`): the pool's workers think for it a slice at a time, in turn with the other tables'
bots, so a question to the expert never holds another table's move up for long.
"""

from __future__ import annotations

import io
import json
import pickle
from collections import OrderedDict
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from subtable.bots.advice import Advice
from subtable.bots.advice import advising as advice_search
from subtable.core.game import Game
from subtable.core.registry import make_game
from subtable.core.view import SeatView
from subtable.web.wire import Options

_GAME_REF = "game"
_GAMES: OrderedDict[str, Game[Any]] = OrderedDict()
_GAMES_KEPT = 16


@dataclass(frozen=True, slots=True)
class AdviceJob:
    """One question to the expert: a seat's view (pickled, :func:`pack_view`) and its
    legal actions, with the seed and the search's budget."""

    key: str
    game: str
    options: Options
    view: bytes
    legal: tuple[int, ...]
    seed: int
    budget: int
    top: int


def _game(name: str, options: Options) -> Game[Any]:
    key = json.dumps([name, options], sort_keys=True)
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = make_game(name, None, **options)
    _GAMES.move_to_end(key)
    while len(_GAMES) > _GAMES_KEPT:
        _GAMES.popitem(last=False)
    return game


class _Pickler(pickle.Pickler):
    def persistent_id(self, obj: Any) -> Any:
        return _GAME_REF if isinstance(obj, Game) else None


class _Unpickler(pickle.Unpickler):
    def __init__(self, data: bytes, game: Game[Any]) -> None:
        super().__init__(io.BytesIO(data))
        self._game = game

    def persistent_load(self, pid: Any) -> Any:
        if pid != _GAME_REF:
            raise pickle.UnpicklingError(f"unknown reference {pid!r}")
        return self._game


def pack_view(view: SeatView) -> bytes:
    """A view as bytes, its game left out (a reference)."""
    buf = io.BytesIO()
    _Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL).dump(view)
    return buf.getvalue()


def unpack_view(data: bytes, game: Game[Any]) -> SeatView:
    """The view :func:`pack_view` packed, holding ``game`` again."""
    view: SeatView = _Unpickler(data, game).load()
    return view


def advising(job: AdviceJob) -> Generator[int, None, Advice]:
    """The job's advice as a search that can be paused."""
    game = _game(job.game, job.options)
    view = unpack_view(job.view, game)
    advice = yield from advice_search(
        game, view, job.legal, seed=job.seed, budget=job.budget, top=job.top
    )
    return advice
