"""Submarine's vocabulary is data: random play emits only declared words, and uses them all."""

from __future__ import annotations

from collections import Counter

import pytest

from subtable.core.rng import Rng
from subtable.games.submarine import Submarine, SubmarineState
from subtable.games.submarine.actions import Kind, SubAction
from subtable.games.submarine.view import PHASE_NAMES, Phase

pytestmark = pytest.mark.slow  # most tests here take over two seconds

#: declared but unreachable in play: a ``move``/``done`` refused with nothing else wrong
#: (the engine never refuses them then); kept in why_illegal as a defensive answer
UNREACHABLE = {"not_available"}


def _candidates(st: SubmarineState, rng: Rng) -> list[SubAction]:
    """Every non-collect action, the collections of the tokens under (or near) the boat with
    every interesting payment, and a few collections at random."""
    g = st.game
    acts, ix, c = g.actions, g.index, g.components
    out = [a for a in acts if a.kind != Kind.COLLECT]
    col = st.column if st.column >= 0 else rng.below(c.columns)
    for cell in range(col * c.levels, col * c.levels + c.levels):
        for t in st.cells[cell]:
            out.append(acts[ix.collect_id(t, -1)])
            for j in {*st.spare[st.seat], *st.placed, rng.below(c.tokens)}:
                out.append(acts[ix.collect_id(t, j)])
    out += [acts[ix.collect_id(rng.below(c.tokens), rng.below(c.tokens + 1) - 1)] for _ in range(5)]
    return out


def test_random_games_use_exactly_the_declared_words() -> None:
    vocab = Submarine.vocabulary
    keys: set[str] = set()
    codes: Counter[str] = Counter()
    reasons: set[str] = set()
    swap_states: list[SubmarineState] = []
    for players in (2, 3, 4, 5):
        g = Submarine(players=players)
        for seed in range(4):
            st = g.new_state(seed)
            rng = Rng(seed * 31 + players)
            keys |= {e.key for e in st.opening_events}
            step = 0
            while not st.is_terminal():
                ids = st.legal_action_ids()
                assert st.observe(st.seat).phase.label in vocab.phases
                if step % 5 == 0:
                    legal = set(ids)
                    for a in _candidates(st, rng):
                        if a.id not in legal:
                            code, message, _ = st.why_illegal(a)
                            assert code in vocab.illegal_reasons, (code, message)
                            codes[code] += 1
                if st.phase == Phase.SWAP and len(swap_states) < 3:
                    swap_states.append(st.clone())
                pick = ids[rng.below(len(ids))]
                events = st.apply(pick) if step % 7 == 0 else st.apply_unchecked(pick)
                for e in events:
                    assert e.key in vocab.event_keys, e.key
                    keys.add(e.key)
                step += 1
            out = st.outcome()
            assert out is not None and out.reason in vocab.end_reasons
            reasons.add(out.reason)
    # the rare one, by hand: a swap asked with an empty pile (piles last most of a game)
    assert swap_states
    st = swap_states[0]
    st.pile[st.seat] = []
    colour = next(col for col, k in enumerate(st.hand[st.seat]) if k)
    code, _, _ = st.why_illegal(st.game.actions[st.game.index.swap + colour])
    codes[code] += 1
    assert code == "empty_pile"
    assert keys == vocab.event_keys
    assert set(codes) == vocab.illegal_reasons - UNREACHABLE, sorted(codes)
    assert reasons <= set(vocab.end_reasons)


def test_the_vocabulary_matches_the_game() -> None:
    vocab = Submarine.vocabulary
    assert vocab.end_reasons == Submarine.info.end_reasons
    assert vocab.phases == PHASE_NAMES == tuple(p.label for p in Phase)
    assert len(set(vocab.phases)) == len(Phase)
    assert vocab.illegal_reasons >= UNREACHABLE
