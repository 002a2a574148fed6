"""A search's hooks remember the expert's candidates by what they are a function of: the
remembered answer is the one the expert would give, and a search decides as it would
without the memo."""

from __future__ import annotations

from typing import Any

import pytest

from subtable.bots.base import make_bot, observe
from subtable.core.registry import make_game
from subtable.core.rng import Rng

pytestmark = pytest.mark.slow  # most tests here take over two seconds


class _Forgetful(dict[tuple[Any, ...], list[int]]):
    """A memo that keeps nothing: every candidate list is the expert's, asked afresh."""

    def __setitem__(self, key: tuple[Any, ...], value: list[int]) -> None:
        pass

    def get(self, key: Any, default: Any = None) -> Any:
        return default


def _decisions(game_name: str, forget: bool, decisions: int, **options: Any) -> list[Any]:
    """The first ``decisions`` searched decisions of a game of ``ismcts`` seats (40
    iterations): each action, and the iterations it took."""
    game = make_game(game_name, **options)
    state = game.new_state(11)
    bots: list[Any] = [
        make_bot("ismcts", game, i, Rng(100 + i), budget=40) for i in range(game.num_seats)
    ]
    if forget:
        for bot in bots:
            bot.hooks._given = _Forgetful()
    out = []
    while not state.is_terminal() and len(out) < decisions:
        seat = state.current_seat()
        assert seat is not None
        bot = bots[seat]
        action = bot.choose(observe(state, seat))
        if bot.last_iterations:
            out.append((action.id, bot.last_iterations))
        state.apply_unchecked(action.id)
    return out


@pytest.mark.parametrize("players", [4, 6])
def test_a_search_decides_as_it_would_without_the_memo(players: int) -> None:
    remembered = _decisions("red-november", False, 6, players=players)
    assert len(remembered) == 6
    assert remembered == _decisions("red-november", True, 6, players=players)


def test_only_an_expert_that_advises_it_is_remembered_and_never_with_walks() -> None:
    assert make_bot("ismcts", make_game("red-november"), 0, Rng(1)).hooks._memo
    assert not make_bot("ismcts", make_game("red-november"), 0, Rng(1), walk=True).hooks._memo
    assert not make_bot("ismcts", make_game("submarine"), 0, Rng(1)).hooks._memo


def test_the_memo_answers_for_worlds_alike_and_asks_again_where_they_differ() -> None:
    game = make_game("red-november", players=4)
    bot: Any = make_bot("ismcts", game, 0, Rng(5), budget=40)
    hooks = bot.hooks
    asked: list[tuple[Any, ...]] = []
    expert = hooks._expert
    inner = expert.candidates

    class Counting:
        """The expert, counting what its candidates are asked for (the compiled expert's
        methods cannot be replaced: its hooks are handed this instead)."""

        def __getattr__(self, name: str) -> Any:
            return getattr(expert, name)

        def candidates(self, b: Any, seat: int, legal: Any, width: int, rng: Rng) -> list[int]:
            asked.append((b, tuple(legal), width))
            out: list[int] = inner(b, seat, legal, width, rng)
            return out

    hooks._expert = Counting()
    state = game.new_state(3)
    view = observe(state, 0).view
    worlds = [game.determinize(view, Rng(w)) for w in range(3)]
    ids = worlds[0].legal_action_ids()
    first = hooks.candidates(worlds[0], ids, 4)
    assert len(first) > 1
    # the other worlds differ in what seat 0 cannot see: the expert is not asked again
    assert [hooks.candidates(w, ids, 4) for w in worlds[1:]] == [first, first]
    assert len(asked) == 1
    # fewer legal actions, a narrower width: each its own answer, the expert's
    fewer = [a for a in ids if a != first[1]]
    assert hooks.candidates(worlds[0], fewer, 4) == inner(view, 0, fewer, 4, Rng(0))
    assert first[1] not in hooks.candidates(worlds[0], fewer, 4)
    assert hooks.candidates(worlds[0], ids, 2) == first[:2]
    assert len(asked) == 3
    # what the seat sees changed (an action played): asked again
    moved = worlds[0].clone()
    moved.apply_unchecked(first[0])
    hooks.candidates(moved, moved.legal_action_ids(), 4)
    assert len(asked) == 4
    # the answer handed out is a copy: changing it changes no later answer
    first.clear()
    assert hooks.candidates(worlds[1], ids, 4) != []
