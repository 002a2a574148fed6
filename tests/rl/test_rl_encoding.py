"""The observation encodings: built from the seat's view only, bounded, documented."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from honesty import resample_hidden
from subtable.core.game import State
from subtable.core.registry import make_game
from subtable.core.rng import Rng
from subtable.rl import make_encoder

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"

CASES: list[tuple[str, dict[str, Any]]] = [
    ("red-november", {"players": 4}),
    ("red-november", {"players": 5, "crazed_gnomes": True}),
    ("red-november", {"players": 1, "gnomes": 3, "less_deadly_dying": True}),
    ("red-november", {"players": 3, "greater_challenge": 2, "heroic_sacrifice": True}),
    ("submarine", {"players": 2}),
    ("submarine", {"players": 3}),
    ("submarine", {"players": 5}),
]


def _positions(state: State[Any], rng: Rng, every: int, limit: int) -> list[State[Any]]:
    out = []
    step = 0
    while not state.is_terminal() and len(out) < limit:
        if step % every == 0:
            out.append(state.clone())
        ids = state.legal_action_ids()
        state.apply_unchecked(ids[rng.below(len(ids))])
        step += 1
    out.append(state)
    return out


@pytest.mark.parametrize(("name", "options"), CASES)
def test_encoding_ignores_what_the_seat_cannot_see(name: str, options: dict[str, Any]) -> None:
    game = make_game(name, **options)
    enc = make_encoder(game)
    rng = Rng(11)
    every = 5 if name == "red-november" else 60
    changed = 0
    for seed in (1, 2):
        for state in _positions(game.new_state(seed), Rng(seed), every, 25):
            for seat in range(game.num_seats):
                x = enc.encode(state.observe(seat))
                assert x.shape == (enc.size,) and x.dtype == np.float32
                assert x.min() >= 0.0 and x.max() <= 1.0
                for _ in range(2):
                    twin = resample_hidden(state, seat, rng)
                    changed += twin.to_json() != state.to_json()
                    assert np.array_equal(enc.encode(twin.observe(seat)), x)
    assert changed  # the re-sampling did change hidden things


def test_hidden_hands_are_not_encoded() -> None:
    game = make_game("red-november", players=4, crazed_gnomes=True)
    enc = make_encoder(game)
    state = game.new_state(5)
    view = state.observe(0)
    fields = enc.views(enc.encode(view))
    gnomes = fields["gnomes"]
    hand = slice(enc.g_hand, enc.g_hand + enc.k)
    assert gnomes[0, enc.g_known] == 1 and gnomes[0, hand].sum() > 0
    for g in range(1, 4):
        assert gnomes[g, enc.g_known] == 0 and gnomes[g, hand].sum() == 0


def test_the_seat_field_tells_who_looks() -> None:
    game = make_game("submarine", players=3)
    enc = make_encoder(game)
    state = game.new_state(3)
    for seat in range(3):
        assert list(enc.views(enc.encode(state.observe(seat)))["seat"]) == [
            float(s == seat) for s in range(3)
        ]


@pytest.mark.parametrize(("name", "options"), [CASES[0], CASES[5]])
def test_layout_is_contiguous_and_documented(name: str, options: dict[str, Any]) -> None:
    enc = make_encoder(make_game(name, **options))
    pos = 0
    for f in enc.fields:
        assert f.start == pos
        pos = f.stop
    assert pos == enc.size
    text = DOCS.read_text()
    section = text.split(f"<!-- fields:{name} -->")[1].split("<!-- /fields -->")[0]
    documented = re.findall(r"^\| `(\w+)` \|", section, flags=re.M)
    assert documented == [f.name for f in enc.fields]


def test_the_package_never_imports_the_rl_libraries() -> None:
    code = (
        "import sys, subtable, subtable.cli, subtable.bots, subtable.sim.runner, "
        "subtable.core.registry as r\n"
        "for n in r.game_names(): r.make_game(n).new_state(1)\n"
        "bad = [m for m in ('gymnasium', 'pettingzoo', 'pyspiel') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
