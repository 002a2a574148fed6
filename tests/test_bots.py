"""Bots: the registry, legal play through ``make_bot``, no peeking, basic strength."""

from __future__ import annotations

from typing import Any

import pytest

from subtable.bots import bot_names, make_bot, observe
from subtable.bots.base import parse_bot_spec
from subtable.core.errors import OptionError
from subtable.core.game import Game
from subtable.core.registry import make_game
from subtable.core.rng import Rng
from subtable.sim.runner import SimConfig, play_game, simulate

RN_CONFIGS = [{"players": 4}, {"players": 3, "greater_challenge": 2},
              {"players": 6, "crazed_gnomes": True, "less_deadly_dying": True},
              {"players": 2}, {"players": 1, "gnomes": 5, "heroic_sacrifice": True},
              {"players": 8}]


def test_registry_lists_every_bot() -> None:
    assert {"random", "heuristic", "ismcts"} <= set(bot_names())


def test_bot_specs_and_parameters() -> None:
    assert parse_bot_spec("ismcts:budget=20:c=0.5") == ("ismcts", {"budget": 20, "c": 0.5})
    assert parse_bot_spec("ismcts", {"budget": 9}) == ("ismcts", {"budget": 9})
    assert parse_bot_spec("random", {"budget": 9}) == ("random", {})  # not for random
    assert parse_bot_spec("ismcts:budget=3", {"budget": 9})[1] == {"budget": 3}
    game = make_game("red-november", players=4)
    with pytest.raises(OptionError, match="no parameter"):
        make_bot("random", game, 0, Rng(0), budget=3)
    with pytest.raises(OptionError, match="key=value"):
        parse_bot_spec("ismcts:budget")
    with pytest.raises(OptionError, match="unknown bot"):
        make_bot("genius", game, 0, Rng(0))


@pytest.mark.parametrize("options", RN_CONFIGS, ids=lambda o: ",".join(map(str, o.values())))
def test_heuristic_plays_red_november_to_the_end(options: dict[str, Any]) -> None:
    game = make_game("red-november", **options)
    for seed in range(2):
        result = play_game(game, seed, ["heuristic"] * game.num_seats)
        assert result.reason in game.info.end_reasons


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_heuristic_plays_submarine_to_the_end(players: int) -> None:
    game = make_game("submarine", players=players)
    result = play_game(game, players, ["heuristic"] * players)
    assert result.reason in game.info.end_reasons


def _decisions(game: Game[Any], bot_name: str, seed: int, steps: int, peek: bool,
               **params: Any) -> list[int]:
    """A bot's choices along a game; with ``peek`` the hidden cards are reshuffled first."""
    state = game.new_state(seed)
    driver = Rng(seed)
    out = []
    for step in range(steps):
        if state.is_terminal():
            break
        seat = state.current_seat()
        probe = state.clone()
        if peek:  # change only what no seat may see
            scramble = Rng(step + 99)
            if hasattr(probe, "event_deck"):
                scramble.shuffle(probe.event_deck)
                scramble.shuffle(probe.item_deck)
            else:
                for pile in probe.pile:
                    scramble.shuffle(pile)
            probe.rng = Rng(step + 7)
            probe._legal = None
        bot = make_bot(bot_name, game, seat, Rng(seed * 31 + step), **params)
        out.append(bot.choose(observe(probe, seat)).id)
        ids = state.legal_action_ids()
        state.apply_unchecked(ids[driver.below(len(ids))])
    return out


@pytest.mark.parametrize("name, params", [("heuristic", {}),
                                          ("ismcts", {"budget": 4, "depth": 6})])
@pytest.mark.parametrize("game_name", ["red-november", "submarine"])
def test_bots_decide_from_the_view_only(name: str, params: dict[str, Any],
                                        game_name: str) -> None:
    game = make_game(game_name, players=4 if game_name == "red-november" else 3)
    steps = 40 if name == "heuristic" else 12
    honest = _decisions(game, name, 3, steps, peek=False, **params)
    scrambled = _decisions(game, name, 3, steps, peek=True, **params)
    assert honest == scrambled


@pytest.mark.parametrize("game_name, players", [("red-november", 4), ("submarine", 3)])
def test_ismcts_plays_legally_and_reproducibly(game_name: str, players: int) -> None:
    game = make_game(game_name, players=players)
    state = game.new_state(5)
    bots = [make_bot("ismcts", game, s, Rng(s), budget=6, depth=8) for s in range(players)]
    twins = [make_bot("ismcts", game, s, Rng(s), budget=6, depth=8) for s in range(players)]
    for _ in range(25):
        if state.is_terminal():
            break
        seat = state.current_seat()
        assert seat is not None
        a = bots[seat].choose(observe(state, seat))
        b = twins[seat].choose(observe(state, seat))
        assert a == b and state.is_legal(a)
        state.apply(a)


def test_ismcts_random_rollouts_and_time_budget() -> None:
    game = make_game("submarine", players=2)
    state = game.new_state(1)
    seat = state.current_seat()
    assert seat is not None
    bot = make_bot("ismcts", game, seat, Rng(1), rollout="random", ms=30, depth=10)
    assert state.is_legal(bot.choose(observe(state, seat)))
    with pytest.raises(OptionError, match="rollout"):
        make_bot("ismcts", game, 0, Rng(1), rollout="psychic")


@pytest.mark.parametrize("z, better, expected", [
    (1.0, [0.8, 0.2, 0.7, 0.1], 10),   # +0.05, standard error 0.12: the expert stays
    (0.0, [0.8, 0.2, 0.7, 0.1], 11),   # no guard: the best mean wins
    (1.0, [0.7, 0.6, 0.7, 0.6], 11),   # +0.25, standard error 0.03: overruled
])
def test_ismcts_overrules_the_expert_only_when_sure(z: float, better: list[float],
                                                    expected: int) -> None:
    game = make_game("red-november", players=4)
    bot = make_bot("ismcts", game, 0, Rng(1), z=z)
    same_worlds = {10: [0.5, 0.3, 0.5, 0.3], 11: better, 12: [0.4, 0.2, 0.4, 0.2]}
    assert bot._overrule([10, 11, 12], same_worlds) == expected


def test_heuristic_beats_random_at_red_november() -> None:
    config = SimConfig("red-november", {"players": 4}, 40, 3, ["heuristic"])
    heuristic = simulate(config)
    config.bots = ["random"]
    assert heuristic["wins"] >= 6 and simulate(config)["wins"] <= 1


def test_heuristic_beats_random_at_submarine() -> None:
    config = SimConfig("submarine", {"players": 3}, 12, 3, ["heuristic", "random", "random"])
    assert simulate(config)["wins_by_seat"][0] >= 10
