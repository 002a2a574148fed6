"""Bots: the registries, legal play through ``make_bot``, no peeking, basic strength."""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import pickle
import subprocess
import sys
from typing import Any, ClassVar

import pytest

from subtable.bots import bot_names, make_bot, observe
from subtable.bots.base import bot_params, parse_bot_spec
from subtable.bots.experts import (
    expert_class,
    expert_games,
    expert_params,
    has_expert,
    make_expert,
)
from subtable.bots.heuristic import HeuristicBot, SearchHooks, search_hooks
from subtable.bots.red_november import Params, RNExpert
from subtable.bots.submarine import SubExpert, SubParams
from subtable.bots.weights import FORMAT, load_model, model_json, parse_model
from subtable.core.errors import OptionError
from subtable.core.game import Game, GameInfo
from subtable.core.registry import GamePlugin, make_game, register_game, unregister_game
from subtable.core.rng import Rng
from subtable.core.view import SeatView
from subtable.games.red_november.view import RedNovemberView
from subtable.games.submarine.game import Submarine
from subtable.games.submarine.view import SubmarineView
from subtable.sim.runner import SimConfig, play_game, simulate

RN_CONFIGS = [
    {"players": 4},
    {"players": 3, "greater_challenge": 2},
    {"players": 6, "crazed_gnomes": True, "less_deadly_dying": True},
    {"players": 2},
    {"players": 1, "gnomes": 5, "heroic_sacrifice": True},
    {"players": 8},
]


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


def _decisions(
    game: Game[Any], bot_name: str, seed: int, steps: int, peek: bool, **params: Any
) -> list[int]:
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


@pytest.mark.parametrize("name, params", [("heuristic", {}), ("ismcts", {"budget": 4, "depth": 6})])
@pytest.mark.parametrize("game_name", ["red-november", "submarine"])
def test_bots_decide_from_the_view_only(name: str, params: dict[str, Any], game_name: str) -> None:
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


def test_ismcts_takes_its_budget_depth_widening_walks_and_extension_from_the_expert(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sub, rn = make_game("submarine", players=3), make_game("red-november", players=4)
    searchers = {
        "sub": make_bot("ismcts", sub, 0, Rng(1)),
        "rn": make_bot("ismcts", rn, 0, Rng(1)),
        "sub 50": make_bot("ismcts", sub, 0, Rng(1), budget=50),
        "rn widened": make_bot("ismcts", rn, 0, Rng(1), widen=1, walk="true", extend=1),
        "sub random": make_bot("ismcts", sub, 0, Rng(1), rollout="random"),
    }
    got = {
        k: (b.budget, b.depth, b.widen, b.hooks is not None and b.hooks._walk is not None, b.extend)  # type: ignore[attr-defined]
        for k, b in searchers.items()
    }
    rn_extend = RNExpert.search_extend
    assert got == {
        "sub": (SubExpert.search_budget, SubExpert.rollout_depth, 0.0, False, 1.0),
        "rn": (RNExpert.search_budget, RNExpert.rollout_depth, 0.0, False, rn_extend),
        "sub 50": (50, SubExpert.rollout_depth, 0.0, False, 1.0),
        "rn widened": (RNExpert.search_budget, RNExpert.rollout_depth, 1.0, True, 1.0),
        "sub random": (100, 10, 0.0, False, 1.0),
    }
    # each game's own advice is read (the two defaults may be equal: tell them apart)
    monkeypatch.setattr(RNExpert, "search_budget", SubExpert.search_budget + 7)
    assert make_bot("ismcts", rn, 0, Rng(1)).budget == SubExpert.search_budget + 7  # type: ignore[attr-defined]
    assert make_bot("ismcts", sub, 0, Rng(1)).budget == SubExpert.search_budget  # type: ignore[attr-defined]
    # Red November's search widens no tree, follows no walk and plays on past its budget
    # only if asked (playing on measured no stronger: docs/strength/history.md); the advice is read
    assert RNExpert.search_widen == 0.0 and RNExpert.search_walk is False
    assert rn_extend == 1.0 and not hasattr(SubExpert, "search_extend")
    monkeypatch.setattr(RNExpert, "search_extend", 3.0)
    assert make_bot("ismcts", rn, 0, Rng(1)).extend == 3.0  # type: ignore[attr-defined]
    assert make_bot("ismcts", rn, 0, Rng(1), extend=2).extend == 2.0  # type: ignore[attr-defined]


@pytest.mark.parametrize("expand", [True, False])
def test_a_flat_search_plays_each_root_option_out_and_grows_no_tree(expand: bool) -> None:
    from subtable.bots.ismcts import ISMCTSBot, _Node

    game = make_game("red-november", players=4)
    state = game.new_state(3)
    seat = state.current_seat()
    assert seat is not None
    bot = make_bot("ismcts", game, seat, Rng(1), expand=expand)
    assert isinstance(bot, ISMCTSBot)
    view = observe(state, seat).view
    root = _Node(-1)
    option = state.legal_action_ids()[0]
    for _ in range(6):
        bot._iterate(root, game.determinize(view, bot.rng), option)
    child = root.children[option]
    assert child.visits == 6 and set(root.children) == {option}
    assert bool(child.children) is expand  # a tree grows below the option only when asked


def test_progressive_widening_bounds_each_nodes_children_by_its_visits() -> None:
    from subtable.bots.ismcts import ISMCTSBot, _Node

    game = make_game("red-november", players=4)
    state = game.new_state(3)
    seat = state.current_seat()
    assert seat is not None
    view = observe(state, seat).view
    option = state.legal_action_ids()[0]
    widths: dict[float, list[tuple[int, int]]] = {}
    for widen in (0.0, 0.5):
        bot = make_bot("ismcts", game, seat, Rng(1), widen=widen)
        assert isinstance(bot, ISMCTSBot)
        root = _Node(-1)
        for _ in range(60):
            bot._iterate(root, game.determinize(view, bot.rng), option)
        nodes, seen = [root.children[option]], []
        while nodes:
            node = nodes.pop()
            seen += [(len(node.children), node.visits)] if node.children else []
            nodes += node.children.values()
        widths[widen] = seen

    def within(children: int, visits: int) -> bool:  # full once 1 + 0.5 sqrt(visits) is held
        return children - 1 < 1 + 0.5 * math.sqrt(visits)

    assert all(within(*node) for node in widths[0.5])
    assert max(children for children, _ in widths[0.5]) >= 3  # it widens as visits grow
    assert not all(within(*node) for node in widths[0.0])  # without it, every world's new idea


def test_a_rollout_with_turns_2_is_judged_at_the_second_turn_start_it_reaches() -> None:
    from subtable.bots.ismcts import ISMCTSBot

    game = make_game("red-november", players=4)
    state = game.new_state(3)
    seat = state.current_seat()
    assert seat is not None
    start = game.determinize(observe(state, seat).view, Rng(5))
    start.apply_unchecked(start.legal_action_ids()[0])
    ends = {}
    for turns in (1, 2):
        bot = make_bot("ismcts", game, seat, Rng(1), turns=turns)
        assert isinstance(bot, ISMCTSBot) and bot.hooks is not None
        world = start.clone()
        bot._playout(world)
        ends[turns] = world
    one, two = ends[1], ends[2]
    assert two.history[: len(one.history)] == one.history  # the same expert, the same world
    # replay the longer rollout: the leaf's positions it passes, from `depth` decisions on
    hooks = bot.hooks
    replay = start.clone()
    judged = []
    for step, action in enumerate(two.history[len(start.history) :]):
        if step >= bot.depth and hooks.judges(replay):
            judged.append(len(replay.history))
        replay.apply_unchecked(action)
    judged += [len(replay.history)] if hooks.judges(replay) else []
    assert judged == [len(one.history), len(two.history)]


@pytest.mark.parametrize(
    "z, better, expected",
    [
        (1.0, [0.8, 0.2, 0.7, 0.1], 10),  # +0.05, standard error 0.12: the expert stays
        (0.0, [0.8, 0.2, 0.7, 0.1], 11),  # no guard: the best mean wins
        (1.0, [0.7, 0.6, 0.7, 0.6], 11),  # +0.25, standard error 0.03: overruled
    ],
)
def test_ismcts_overrules_the_expert_only_when_sure(
    z: float, better: list[float], expected: int
) -> None:
    from subtable.bots.paired import overrule

    same_worlds = {10: [0.5, 0.3, 0.5, 0.3], 11: better, 12: [0.4, 0.2, 0.4, 0.2]}
    assert overrule([10, 11, 12], same_worlds, z) == expected


@pytest.mark.parametrize(
    ("alternatives", "expected"),
    [
        ({11: [0.7, 0.2, 0.5, 0.3]}, True),  # +0.025 ahead, standard error 0.063: still open
        ({11: [0.7, 0.6, 0.7, 0.6]}, False),  # +0.25, surely better: decided (overruled)
        ({11: [0.4, 0.2, 0.4, 0.2]}, False),  # behind on every world: decided (the expert)
        ({11: [0.4, 0.2, 0.4, 0.2], 12: [0.7, 0.2, 0.5, 0.3]}, True),  # one ahead is enough
        ({11: [0.7, 0.2, 0.5, 0.3], 12: [0.7, 0.6, 0.7, 0.6]}, False),  # one sure is decisive
    ],
)
def test_a_choice_is_open_while_an_alternative_leads_the_expert_but_not_surely(
    alternatives: dict[int, list[float]], expected: bool
) -> None:
    from subtable.bots.paired import undecided

    same_worlds = {10: [0.5, 0.3, 0.5, 0.3]} | alternatives
    assert undecided([10, *alternatives], same_worlds, 1.0) is expected


def _extended(
    monkeypatch: pytest.MonkeyPatch, open_choice: bool | None, **params: Any
) -> tuple[int, int]:
    """The iterations and root options of one Red November decision (budget 20, no extra
    effort at the turn's start, nothing dropped by the race) with the choice held open
    (``True``), closed (``False``) or judged (``None``)."""
    import subtable.bots.ismcts as ismcts

    if open_choice is not None:
        monkeypatch.setattr(ismcts, "undecided", lambda *_: open_choice)
    overrule, options = ismcts.overrule, []

    def counted(root_options: list[int], *args: Any) -> int:
        options.append(len(root_options))
        return overrule(root_options, *args)

    monkeypatch.setattr(ismcts, "overrule", counted)
    state = make_game("red-november", players=4).new_state(3)
    seat = state.current_seat()
    assert seat is not None
    ceiling = params.pop("ceiling", None)
    bot = make_bot("ismcts", state.game, seat, Rng(3), budget=20, race=100, start=1, **params)
    bot.ceiling = ceiling  # type: ignore[attr-defined]
    bot.choose(observe(state, seat))
    monkeypatch.undo()
    assert len(options) == 1
    return int(bot.last_iterations), options[0]


def test_an_open_choice_is_searched_on_up_to_extend_times_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plain, options = _extended(monkeypatch, None, extend=1)
    worlds = math.ceil(20 / options)  # the budget's worlds, every option played in each
    assert options > 1 and plain == options * worlds

    def iterations(open_choice: bool | None, **params: Any) -> int:
        return _extended(monkeypatch, open_choice, **params)[0]

    assert iterations(False, extend=3) == plain  # decided: the budget alone
    assert iterations(True, extend=3) == options * worlds * 3  # open: to the cap
    assert iterations(True, extend=1) == plain  # extend 1: never past the budget
    # a server's ceiling bounds the extension too (web/botpool.py sets it to its max_budget)
    assert iterations(True, extend=3, ceiling=20) == plain
    assert plain <= iterations(None, extend=3) <= options * worlds * 3


@pytest.mark.parametrize("stratify", [True, False])
def test_a_stratified_search_puts_each_unseen_event_card_on_top_once_a_cycle(
    stratify: bool,
) -> None:
    game = make_game("red-november", players=4)
    state = game.new_state(3)
    seat = state.current_seat()
    assert seat is not None
    view = state.observe(seat)
    strata = game.strata(view)
    tops: list[int] = []
    sample = game.determinize

    def spied(view: SeatView, rng: Rng, stratum: int | None = None) -> Any:
        world = sample(view, rng, stratum)
        tops.append(world.event_deck[-1])  # type: ignore[attr-defined]
        return world

    game.determinize = spied  # type: ignore[method-assign]
    bot = make_bot("ismcts", game, seat, Rng(4), budget=4 * strata, race=0, stratify=stratify)
    bot.choose(observe(state, seat))
    assert len(tops) >= strata > 20
    cycle = tops[:strata]
    if stratify:  # a cycle draws every card once; the next cycle starts again
        assert sorted(cycle) == sorted(set(tops)) and len(set(cycle)) == strata
    else:  # drawn independently, some card comes up twice within as many worlds
        assert len(set(cycle)) < strata


@pytest.mark.slow
def test_heuristic_beats_random_at_red_november() -> None:
    config = SimConfig("red-november", {"players": 4}, 40, 3, ["heuristic"])
    heuristic = simulate(config)
    config.bots = ["random"]
    assert heuristic["wins"] >= 6 and simulate(config)["wins"] <= 1


def test_heuristic_beats_random_at_submarine() -> None:
    config = SimConfig("submarine", {"players": 3}, 12, 3, ["heuristic", "random", "random"])
    assert simulate(config)["wins_by_seat"][0] >= 10


# -- the experts' registry ---------------------------------------------------------------
class _Unknown(Submarine):
    """A game no expert is registered for, and that cannot sample states from a view."""

    info: ClassVar[GameInfo] = dataclasses.replace(Submarine.info, name="no-such-game")
    determinize = Game.determinize


def test_every_game_has_its_expert_by_name() -> None:
    assert expert_games() == ["red-november", "submarine"]
    assert expert_class("red-november") is RNExpert
    assert expert_class("submarine") is SubExpert
    assert isinstance(make_expert(make_game("red-november", players=4)), RNExpert)
    expert = make_expert(make_game("submarine", players=3), new_value=12.0, horizon=3)
    assert isinstance(expert, SubExpert) and expert.p == SubParams(new_value=12.0)
    assert isinstance(search_hooks(make_game("submarine", players=3)), SearchHooks)


def test_heuristic_takes_every_experts_weights() -> None:
    names = {f.name for f in dataclasses.fields(Params)} | {
        f.name for f in dataclasses.fields(SubParams)
    }
    # the expert's weights, and the bot's own ``mistakes``
    assert (
        bot_params("heuristic") == expert_params() | {"mistakes"} == frozenset(names) | {"mistakes"}
    )
    assert HeuristicBot.params == frozenset(names) | {"mistakes"}
    game = make_game("red-november", players=4)
    bot = make_bot("heuristic", game, 0, Rng(0), horizon=3, toll_weight=2.0)
    assert bot._expert.p == Params(horizon=3)  # type: ignore[attr-defined]


def test_an_unknown_game_has_no_expert() -> None:
    game = _Unknown(players=3)
    assert not has_expert("no-such-game")
    with pytest.raises(OptionError, match="no heuristic bot for no-such-game") as err:
        make_bot("heuristic", game, 0, Rng(0))
    assert err.value.code == "unknown_bot"
    assert search_hooks(game) is None
    assert not game.can_determinize
    with pytest.raises(OptionError, match="cannot sample states"):
        make_bot("ismcts", game, 0, Rng(0))


def test_register_an_expert() -> None:
    """A game's expert is a part of its registration (one line)."""
    with pytest.raises(ValueError, match="module:attribute"):
        GamePlugin("no-such-game", _Unknown, expert="subtable.bots.submarine.SubExpert")
    register_game(GamePlugin("no-such-game", _Unknown, expert="subtable.bots.submarine:SubExpert"))
    try:
        assert has_expert("no-such-game")
        game = _Unknown(players=3)
        bot = make_bot("heuristic", game, 0, Rng(0))
        state = game.new_state(4)
        seat = state.current_seat()
        assert seat is not None
        assert state.is_legal(bot.choose(observe(state, seat)))
    finally:
        unregister_game("no-such-game")
    assert not has_expert("no-such-game")


def test_experts_are_imported_on_first_use() -> None:
    code = (
        "import sys, subtable.bots.experts, subtable.bots.heuristic; "
        "import json; print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    loaded = set(json.loads(out))
    assert not {
        m for m in loaded if m.startswith(("subtable.bots.red_november", "subtable.bots.submarine"))
    }


# -- typed views in ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "game_name, players, view_type",
    [("red-november", 4, RedNovemberView), ("submarine", 3, SubmarineView)],
)
def test_observation_gives_the_typed_view(
    game_name: str, players: int, view_type: type[SeatView]
) -> None:
    game = make_game(game_name, players=players)
    state = game.new_state(2)
    obs = observe(state)
    assert isinstance(obs.view, view_type)
    assert obs.view == state.observe(obs.seat)
    assert obs.view.to_json() == state.view(obs.seat)


def _positions(game: Game[Any], seed: int, steps: int) -> list[Any]:
    """States along a random game, every third decision."""
    state = game.new_state(seed)
    driver = Rng(seed)
    out = []
    for step in range(steps):
        if state.is_terminal():
            break
        if step % 3 == 0:
            out.append(state.clone())
        ids = state.legal_action_ids()
        state.apply_unchecked(ids[driver.below(len(ids))])
    return out


class _ViewOnly:
    """An observation made of a view and nothing else (no state behind it)."""

    def __init__(self, game: Game[Any], view: SeatView) -> None:
        assert view.seat is not None
        self.game = game
        self.seat = view.seat
        self.view = view
        self.legal_ids = list(view.legal)  # type: ignore[attr-defined]
        self.legal_actions = [game.action_space[i] for i in self.legal_ids]


@pytest.mark.parametrize("name, params", [("heuristic", {}), ("ismcts", {"budget": 4, "depth": 5})])
@pytest.mark.parametrize(
    "options",
    [
        {"game": "red-november", "players": 4},
        {"game": "submarine", "players": 3},
        {"game": "red-november", "players": 5, "crazed_gnomes": True},
    ],
)
def test_a_bots_choice_depends_only_on_its_view(
    name: str, params: dict[str, Any], options: dict[str, Any]
) -> None:
    """The same view gives the same choice: from the true state, from worlds sampled from
    that view (other hidden cards, other generator), and from the bare view."""
    options = dict(options)
    game = make_game(options.pop("game"), **options)
    steps = 60 if name == "heuristic" else 15
    for i, state in enumerate(_positions(game, 8, steps)):
        seat = state.current_seat()
        view = state.observe(seat)
        worlds = [game.determinize(view, Rng(100 + k)) for k in range(2)]
        assert all(w.observe(seat) == view for w in worlds)
        choices = set()
        for source in [
            observe(state, seat),
            *(observe(w, seat) for w in worlds),
            _ViewOnly(game, view),
        ]:
            bot = make_bot(name, game, seat, Rng(i), **params)
            choices.add(bot.choose(source).id)  # type: ignore[arg-type]
        assert len(choices) == 1, (i, choices)


def test_search_hooks_read_the_deciders_view() -> None:
    """Inside a sampled world the expert sees the world through the decider's view: under
    Crazed Gnomes the other gnomes' hands are hidden from it too."""
    game = make_game("red-november", players=4, crazed_gnomes=True)
    state = game.new_state(3)
    hooks = SearchHooks(game)
    seat = state.current_seat()
    assert seat is not None
    board = hooks._board(state, seat)
    assert [h is not None for h in board.hands] == [g == seat for g in range(4)]


# -- fitted weights as packaged data --------------------------------------------------------
@pytest.mark.parametrize("game_name, players", [("red-november", 4), ("submarine", 3)])
def test_packaged_weights_fit_the_features(game_name: str, players: int) -> None:
    game = make_game(game_name, players=players)
    expert: Any = make_expert(game)
    state = game.new_state(1)
    while expert.evaluate(expert.board(state.observe(state.current_seat()))) is None:
        ids = state.legal_action_ids()
        state.apply_unchecked(ids[0])
    board = expert.board(state.observe(state.current_seat()))
    package = "red_november" if game_name == "red-november" else "submarine"
    model = load_model(f"subtable.bots.{package}")
    if game_name == "red-november":
        assert len(expert.features(board)) == len(model.weights) == 28
    else:
        assert len(expert.seat_features(board, 0)) == len(model.weights) == 13
    values = expert.evaluate(board)
    assert len(values) == players and all(0.0 <= v <= 1.0 for v in values)


def test_weights_files_round_trip_and_are_checked() -> None:
    text = model_json([0.5, -1.25], refit="python scripts/fit_values.py --game x")
    model = parse_model(json.loads(text))
    assert model.weights == (0.5, -1.25)
    assert model.probability([1.0, 0.0]) == pytest.approx(0.6224593)
    assert model.probability([1e6, 0.0]) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="not a"):
        parse_model({"weights": [1.0]})
    with pytest.raises(ValueError, match="2 weights for 3 features"):
        parse_model({"format": FORMAT, "features": 3, "weights": [1.0, 2.0]})
    with pytest.raises(ValueError, match="list of numbers"):
        parse_model({"format": FORMAT, "features": 1, "weights": ["x"]})


def test_value_networks_are_checked_and_serve_only_the_counts_they_saw() -> None:
    from subtable.bots.weights import (
        NET_FORMAT,
        LeafModel,
        LeafNet,
        leaf_model,
        load_net,
        net_json,
        parse_net,
    )

    # two inputs, two ReLU units, one output: relu(x0 - x1) - relu(x1) + 0.5
    text = net_json([1.0, 0.0], [2.0, 1.0], [([[1, -1], [0, 1]], [0, 0]), ([[1, -1]], [0.5])], [4])
    net = parse_net(json.loads(text))
    z = max(0.0, (3.0 - 1.0) / 2.0 - 0.5) - max(0.0, 0.5) + 0.5
    assert net.probability([3.0, 0.5]) == pytest.approx(1.0 / (1.0 + math.exp(-z)))
    assert net.players == frozenset({4})
    with pytest.raises(ValueError, match="not a"):
        parse_net({"format": FORMAT})
    broken = json.loads(text)
    broken["layers"][0]["units"][1] = [1.0]
    with pytest.raises(ValueError, match="2 units of 2 inputs each"):
        parse_net(broken)
    broken = json.loads(text)
    broken["layers"] = broken["layers"][:1]
    with pytest.raises(ValueError, match="last layer must have one unit"):
        parse_net(broken)
    with pytest.raises(ValueError, match="'players'"):
        parse_net({**json.loads(text), "players": "four"})
    assert json.loads(text)["format"] == NET_FORMAT

    # the packaged network plays the counts it was trained on, the logistic model the others
    package = "subtable.bots.red_november"
    shipped = load_net(package)
    assert isinstance(shipped, LeafNet) and shipped.players == frozenset({4})
    assert leaf_model(package, 4) is shipped
    assert isinstance(leaf_model(package, 6), LeafModel)
    game = make_game("red-november", players=4)
    assert make_expert(game).value.model is shipped
    assert isinstance(make_expert(make_game("red-november", players=3)).value.model, LeafModel)
    assert load_net("subtable.bots.submarine") is None


# -- the rules come from the engine -------------------------------------------------------
def _sub_board(**fields: Any) -> Any:
    from subtable.bots.submarine.board import SubBoard
    from subtable.games.submarine.view import Phase

    b = SubBoard()
    b.n = 2
    b.cells = [[] for _ in range(24)]
    b.baths = [[0], [5]]
    b.boat = [0, -1]
    b.owned = [[-1] * 12, [-1] * 12]
    b.spare = [[], []]
    b.hand = [[1, 0, 0, 0, 0], None]
    b.hand_size = [1, 1]
    b.pile_size = [4, 4]
    b.phase = Phase.ACT
    b.seat = 0
    b.column = 0
    b.turn = 9
    for name, value in fields.items():
        setattr(b, name, value)
    return b


def test_submarine_expert_prices_the_end_as_the_engine_rules_it() -> None:
    """Taking a column's last treasure ends the game, unless the joker paid is a treasure
    (a duplicate): it stays in the column (``rules.end_after_collection``). Ahead, an end is
    worth ``end_weight``."""
    expert: Any = make_expert(make_game("submarine", players=2))
    prices = expert.prices
    amphora_red, anchor_red, shell = 0, 5, 60
    owned = [[-1] * 12, [-1] * 12]
    owned[0][1] = 6  # seat 0 already holds an anchor: anchor-red is a duplicate
    b = _sub_board(
        cells=[[amphora_red]] + [[] for _ in range(23)],
        owned=owned,
        spare=[[anchor_red, shell], []],
    )
    assert prices.end_value(b, 0, amphora_red, 0, shell) == expert.p.end_weight
    assert prices.end_value(b, 0, amphora_red, 0, anchor_red) == 0.0  # the column keeps one
    assert prices.end_value(b, 0, amphora_red, 0, -1) == expert.p.end_weight
    # a card paid when it is the last card in play ends the game too (cards exhausted)
    far = [[] for _ in range(24)]
    far[0], far[1] = [amphora_red], [anchor_red]  # the column keeps a treasure
    b = _sub_board(cells=far, owned=owned, hand_size=[1, 0], pile_size=[0, 0])
    assert prices.end_value(b, 0, amphora_red, 0, -1) == expert.p.end_weight
    b = _sub_board(cells=far, owned=owned)
    assert prices.end_value(b, 0, amphora_red, 0, -1) == 0.0


def test_a_heuristic_that_makes_mistakes_plays_the_experts_other_favourites() -> None:
    game = make_game("red-november", players=4)
    state = game.new_state(3)
    sure = make_bot("heuristic", game, state.current_seat() or 0, Rng(1))
    seat = state.current_seat()
    assert seat is not None
    first = sure.choose(observe(state, seat))
    sloppy = make_bot("heuristic", game, seat, Rng(1), mistakes=1.0)
    other = sloppy.choose(observe(state, seat))
    assert other.id != first.id and other.id in state.legal_action_ids()
    with pytest.raises(OptionError, match="mistakes"):
        make_bot("heuristic", game, seat, Rng(1), mistakes=1.5)


def test_levels_stand_for_their_games_bot_specs() -> None:
    from subtable.bots.levels import LEVELS, level_specs, resolve_level
    from subtable.words.seats import parse_seats

    for name, options in (("red-november", {"players": 3}), ("submarine", {"players": 3})):
        game = make_game(name, **options)
        specs = level_specs(game)
        assert tuple(specs) == LEVELS
        assert resolve_level("strong", game) == specs["strong"]
        assert resolve_level("strong:c=0.5", game) == specs["strong"] + ":c=0.5"
        assert resolve_level("heuristic", game) == "heuristic"
        assert parse_seats("human,easy,strong", game) == ["human", specs["easy"], specs["strong"]]


def test_a_seat_chosen_by_level_is_told_from_its_spec_alike_in_every_front_end() -> None:
    from subtable.bots.levels import chosen_level, declared_levels

    for name in ("red-november", "submarine"):
        specs = declared_levels(name)
        assert chosen_level(name, "strong") == "strong"
        assert chosen_level(name, "easy:mistakes=0.3") == "easy"  # a level, retuned
        assert chosen_level(name, specs["normal"]) == "normal"  # as a table records it
        assert chosen_level(name, specs["strong"]) == "strong"
        assert chosen_level(name, specs["strong"] + ":c=0.5") is None  # a spec of one's own
        assert chosen_level(name, "heuristic") is None
        assert chosen_level(name, "random") is None
    assert chosen_level("no-such-game", "strong") is None  # no expert: no levels


def test_each_level_shows_its_measured_win_rate_in_the_readers_language() -> None:
    from subtable.bots.levels import LEVELS, level_rates
    from subtable.i18n import translator
    from subtable.words.seat_words import levels_measured

    for name in ("red-november", "submarine"):
        rates = level_rates(name)
        assert tuple(rates) == LEVELS
        assert all(0.0 <= r <= 1.0 for r in rates.values())
        assert rates["easy"] < rates["normal"]
        for lang, level, space in (
            ("en", "normal", ""),
            ("fr", "normal", " "),
            ("pt", "fácil", ""),
        ):
            text = levels_measured(name, translator(lang))
            assert text is not None
            text = text.replace("\u202f", " ").replace("\xa0", " ")  # French: a narrow space
            key = {"normal": "normal", "fácil": "easy"}[level]
            assert f"{level} {round(rates[key] * 100)}{space}%" in text, text
    assert "crew of 4" in (levels_measured("red-november", translator("en")) or "")
    assert "two heuristic bots" in (levels_measured("submarine", translator("en")) or "")


def test_an_expert_copies_and_pickles_with_its_weights() -> None:
    # the installed expert is compiled (hatch_build.py): its classes have no instance
    # dictionary, so a copy is rebuilt from the game and the weights, which must survive
    game = make_game("red-november", players=4)
    weights = Params(minutes_per_risk=37.0, horizon=3)
    expert = RNExpert(game, weights)
    state = game.new_state(11)
    view = observe(state, state.current_seat() or 0).view
    seat, ids = view.seat or 0, state.legal_action_ids()
    for twin in (copy.deepcopy(expert), pickle.loads(pickle.dumps(expert))):
        assert twin is not expert and twin.p is not expert.p
        assert twin.p == weights and twin.p.horizon == 3 and twin.p.minutes_per_risk == 37.0
        assert twin.candidates(view, seat, ids, 4, Rng(0)) == expert.candidates(
            view, seat, ids, 4, Rng(0)
        )
    assert copy.deepcopy(weights) == weights != Params()
