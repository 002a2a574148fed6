"""Submarine: invariants over seeded random games (players 2..5).

Run as a script to measure the speed of random 3-player games::

    PYTHONPATH=src python tests/test_submarine_random.py [players] [games]
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter

import pytest

from subtable.core.events import Event
from subtable.core.rng import Rng
from subtable.games.submarine import Submarine, SubmarineState
from subtable.games.submarine.state import P_ACT, P_GIVE, P_OVER, P_TO

_GAMES: dict[int, Submarine] = {}


def game(players: int) -> Submarine:
    if players not in _GAMES:
        _GAMES[players] = Submarine(players=players)
    return _GAMES[players]


def play_random(g: Submarine, seed: int) -> SubmarineState:
    """A whole game of uniformly random legal actions, on the unchecked path."""
    st = g.new_state(seed)
    rng = Rng(seed ^ 0x5EED)
    while not st.is_terminal():
        ids = st.legal_action_ids()
        st.apply_unchecked(ids[rng.below(len(ids))])
    return st


def check_conservation(st: SubmarineState) -> None:
    """Every token and every card is in exactly one place; hands and bathyscaphes are sane."""
    c = st.c
    tokens: Counter[int] = Counter()
    for cell in st.cells:
        tokens.update(cell)
    for s in range(st.n):
        tokens.update(t for t in st.owned[s] if t >= 0)
        tokens.update(st.spare[s])
        for typ, t in enumerate(st.owned[s]):
            assert t < 0 or t // 5 == typ
    tokens.update(st.box_tokens)
    if st.pend_token >= 0:
        tokens[st.pend_token] += 1
    assert tokens == Counter(range(c.tokens))
    for colour in range(5):
        total = st.discard[colour] + st.box_cards[colour]
        total += sum(st.hand[s][colour] + st.pile[s].count(colour) for s in range(st.n))
        assert total == c.cards_per_colour
    baths = c.setups[st.n].bathyscaphes
    for s in range(st.n):
        assert all(h >= 0 for h in st.hand[s]) and sum(st.hand[s]) <= 3
        if s != st.seat or st.phase not in (P_ACT, P_GIVE, P_TO, P_OVER):
            # outside its own bathyscaphe actions (and the turn that ended the game, which
            # stops at once) a hand is full unless the pile is empty
            assert sum(st.hand[s]) == 3 or not st.pile[s]
        if st.to_place == 0:
            assert len(st.baths[s]) == baths
        assert all(0 <= b < c.cells for b in st.baths[s])
        assert -1 <= st.boat[s] <= c.columns


@pytest.mark.parametrize("seed", range(50))
def test_random_game_invariants(seed: int) -> None:
    players = 2 + seed % 4
    g = game(players)
    space = g.action_space
    st = g.new_state(seed)
    rng = Rng(seed * 7919 + 1)
    check_conservation(st)
    steps = 0
    while not st.is_terminal():
        ids = st.legal_action_ids()
        assert ids, "a live state must offer an action"
        assert ids == sorted(set(ids))
        assert len(ids) > 1, "forced decisions are played automatically"
        for i in ids:
            a = space[i]
            assert a.id == i and space.parse(a.notation()) is a
        assert st.current_seat() == st.seat
        action = ids[rng.below(len(ids))]
        if steps % 25 == 0:
            twin = st.clone()
            assert twin.to_json() == st.to_json()
            twin.apply_unchecked(action)
            assert twin.to_json() != st.to_json()  # the clone is independent
            back = g.state_from_json(json.loads(json.dumps(st.to_json())))
            assert back.to_json() == st.to_json()
            json.dumps(st.view(st.seat))
            json.dumps(st.view(None))
        events = st.apply(action) if steps % 3 == 0 else st.apply_unchecked(action)
        assert events and all(isinstance(e, Event) for e in events)
        check_conservation(st)
        steps += 1
        assert steps <= g.info.max_game_length
    out = st.outcome()
    assert out is not None
    assert out.reason in ("twelve_treasures", "column_emptied", "cards_exhausted")
    assert out.winners and st.returns() == [
        1.0 if s in out.winners else 0.0 for s in range(players)
    ]
    scores = [(d["treasures"], d["jokers"], d["cards"]) for d in out.details["scores"]]
    assert all(scores[w] == max(scores) for w in out.winners)
    # replay from the seed and the recorded decisions (checked path) gives the same state
    replay = g.new_state(seed)
    for i in st.history:
        replay.apply(i)
    assert replay.digest() == st.digest()
    assert st.legal_action_ids() == []


def test_every_end_reason_occurs_in_random_games() -> None:
    """All three end conditions are reachable in play (cards run out in ~1% of random games)."""
    wanted = {"twelve_treasures", "column_emptied", "cards_exhausted"}
    reasons: Counter[str] = Counter()
    for seed in range(600):
        out = play_random(game(2 + seed % 4), seed).outcome()
        assert out is not None
        reasons[out.reason] += 1
        if set(reasons) == wanted:
            break
    assert set(reasons) == wanted


def test_same_seed_same_game() -> None:
    a = play_random(game(3), 12)
    b = play_random(game(3), 12)
    assert a.digest() == b.digest() and a.history == b.history


def _benchmark(players: int, games: int) -> float:
    g = game(players)
    best = 0.0
    for _ in range(3):
        start = time.process_time()
        for seed in range(games):
            play_random(g, seed)
        best = max(best, games / (time.process_time() - start))
    return best


if __name__ == "__main__":
    n_players = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    n_games = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    rate = _benchmark(n_players, n_games)
    print(f"{n_players} players: {rate:.0f} random games/s (best of 3 runs of {n_games})")
