"""Bots think in worker processes, never on the server's event loop.

A worker rebuilds the position from the table's game, options, seed and
effective actions (it keeps the last position of each table to avoid
replaying from the start), builds the seat's bot with a generator seeded from
the table's seed and the entry's sequence number, and returns its choice in
notation. Bots decide by iteration budget, never by the clock, so a table
replays the same way on any machine.
"""

from __future__ import annotations

import multiprocessing
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from subtable.bots.base import make_bot, observe, parse_bot_spec
from subtable.core.game import State
from subtable.core.registry import make_game
from subtable.core.rng import Rng

_BOT_SALT = 0x5E12_B07B_07B0_0001
_CACHE_SIZE = 64
_cache: OrderedDict[str, tuple[list[str], State[Any]]] = OrderedDict()


def bot_seed(seed: int, seat: int, seq: int) -> int:
    """The seed of the bot deciding for ``seat`` at entry ``seq`` of a table seeded ``seed``."""
    return Rng(seed ^ _BOT_SALT ^ (seat << 40) ^ seq).next64()


def _position(
    key: str, game: str, options: dict[str, Any], seed: int, actions: list[str]
) -> State[Any]:
    cached = _cache.get(key)
    if cached is not None and cached[0] == actions[: len(cached[0])]:
        done, state = cached
    else:
        done, state = [], make_game(game, **options).new_state(seed)
    for text in actions[len(done) :]:
        state.apply(text)
    _cache[key] = (list(actions), state)
    _cache.move_to_end(key)
    while len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return state


def choose(
    key: str,
    game: str,
    options: dict[str, Any],
    seed: int,
    actions: list[str],
    seat: int,
    spec: str,
    seq: int,
) -> str:
    """The action (notation) the bot of ``seat`` plays at the position after ``actions``."""
    state = _position(key, game, options, seed, actions)
    name, params = parse_bot_spec(spec)
    bot = make_bot(name, state.game, seat, Rng(bot_seed(seed, seat, seq)), **params)
    action = bot.choose(observe(state, seat))
    if action.id not in state.legal_action_ids():
        action = state.legal_actions()[0]
    return action.notation()


def make_pool(workers: int) -> Executor:
    """A process pool (spawned workers: the server runs threads, which fork does not copy well)."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
