"""A training baseline: masked PPO, in one file, on one seat of a subtable game.

    pip install '.[train]'    # PyTorch (CPU is enough) and matplotlib
    python -m subtable.rl.train red-november --out runs/rn     # solo, heuristic teammates
    python -m subtable.rl.train submarine --out runs/sub       # against two heuristic captains
    python -m subtable.rl.train --evaluate runs/rn/agent.npz   # held-out deals only

One seat learns in the Gymnasium environment (:func:`subtable.rl.gym_env`), the other seats
are subtable's heuristic bots. The policy is an MLP over the seat's encoding with one logit per
flat action id; illegal ids are masked out of the softmax (Huang & Ontañón, "A Closer Look at
Invalid Action Masking in Policy Gradient Algorithms", 2022). PPO with clipping, GAE and
advantage normalisation, after CleanRL's ``ppo.py`` (Huang et al., 2022): a file to read and
copy. Rewards are the environment's ``reward="shaped"`` (the 0/1 outcome plus potential-based
shaping) unless ``--reward outcome``.

Deals: training episode ``k`` is ``reset(seed=TRAIN_SEEDS + k)`` (seeds from 1,000,000 on); the
learning curve and the final evaluation play the held-out deals ``reset(seed=d)``,
``d = 0 .. N-1``, which training never sees. The evaluation plays the same deals with the
agent, a uniformly random player and the heuristic in the learning seat, and reports win rates
with Wilson intervals and the paired differences with Agresti-Min intervals.

The run writes, in ``--out``: ``agent.npz`` (the actor in numpy form,
:mod:`subtable.rl.policy`; ``--seats human,agent:path=…`` plays it), ``curve.csv`` and
``curve.png`` (the learning curve), and ``report.json`` (configuration, curve, evaluation).
Randomness: the ``--seed`` (network initialisation, action sampling) and the deal seeds; one
CPU thread unless ``--threads``; ``--device cuda`` trains on a GPU where there is one.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Unpack

import numpy as np
import numpy.typing as npt

from subtable.bots.base import make_bot, observe
from subtable.bots.policy import TrainedFor
from subtable.core.options import OptionValue
from subtable.core.registry import registration
from subtable.core.rng import Rng
from subtable.rl.common import Obs, TrainPreset
from subtable.rl.policy import FORMAT, NumpyPolicy
from subtable.rl.train_report import (
    Evaluation,
    PairedFigures,
    PlayerFigures,
    TrainReport,
    paired,
)
from subtable.sim.stats import mcnemar_exact_p, paired_difference_interval, wilson_interval

#: training episode ``k`` deals ``reset(seed=TRAIN_SEEDS + k)``; held-out deals lie below
TRAIN_SEEDS = 1_000_000
#: imitation episode ``k`` (the heuristic's demonstrations) deals ``reset(seed=DEMO_SEEDS + k)``
DEMO_SEEDS = 2_000_000_000
#: salts the seed of the bot that plays the learning seat in evaluations
_SEAT_SALT = 0xA6E7_5EA7

#: what a game trains by default (its ``rl`` part's ``train`` preset, see
#: :class:`~subtable.rl.common.RLSupport`) over these: its options, the learning seat and the
#: other seats' bots. ``max_steps`` truncates an episode that a policy drags on (a captain who
#: never collects can keep a game going for ever). The games' recipes imitate the heuristic
#: first (``imitate`` episodes of its play), then fine-tune with PPO at a lower learning rate
#: and entropy bonus; ``--imitate 0 --lr 3e-4 --ent-coef 0.01`` is PPO from scratch.
BASE_PRESET: TrainPreset = {"options": {}, "seat": 0, "opponents": "heuristic"}


def presets() -> dict[str, TrainPreset]:
    """The training preset of each registered game with an encoder."""
    from subtable.core.registry import registrations
    from subtable.rl.common import support

    return {
        p.name: {**BASE_PRESET, **support(p.name).train}
        for p in registrations()
        if p.has("encoder")
    }


class TrainSettings(TrainPreset, total=False):
    """What a run may be told beyond its game's preset (:class:`TrainConfig`'s fields)."""

    seed: int
    curve_deals: int
    curve_points: int
    eval_deals: int
    device: str
    threads: int


@dataclass
class TrainConfig:
    """Everything a run depends on (saved in ``report.json``)."""

    game: str
    options: dict[str, OptionValue] = field(default_factory=dict)
    seat: int = 0
    opponents: str = "heuristic"
    reward: str = "shaped"
    max_steps: int | None = 400
    total_steps: int = 300_000
    num_envs: int = 8
    rollout: int = 256
    epochs: int = 4
    minibatch: int = 512
    lr: float = 3e-4
    gamma: float = 0.99
    lam: float = 0.95
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    hidden: tuple[int, ...] = (256, 256)
    seed: int = 1
    #: before PPO: episodes of the heuristic's play to imitate (0: PPO from scratch), and the
    #: passes over them
    imitate: int = 0
    imitate_epochs: int = 8
    #: held-out deals per point of the learning curve, and how many points
    curve_deals: int = 200
    curve_points: int = 10
    #: held-out deals of the final evaluation
    eval_deals: int = 1000
    device: str = "cpu"
    threads: int = 1

    @classmethod
    def preset(cls, game: str, **overrides: Unpack[TrainSettings]) -> TrainConfig:
        """The defaults for ``game`` (its preset, :func:`presets`) with ``overrides``."""
        from subtable.rl.common import support

        name = registration(game).name
        base: TrainPreset = {**BASE_PRESET, **support(name).train}
        values: TrainSettings = {**base, **overrides}
        values["options"] = {**base.get("options", {}), **overrides.get("options", {})}
        return cls(name, **values)


def _torch() -> Any:
    try:
        import torch  # pyright: ignore[reportMissingImports]  (the optional train extra)
    except ImportError:
        raise SystemExit(
            "training needs PyTorch: pip install 'subtable[train]' "
            "(evaluating an exported agent needs numpy only: --evaluate FILE)"
        ) from None
    return torch


def _make_env(config: TrainConfig) -> Any:
    from subtable.rl import gym_env

    return gym_env(
        config.game,
        seat=config.seat,
        opponents=config.opponents,
        reward=config.reward,
        max_steps=config.max_steps,
        **config.options,
    )


# -- the networks ---------------------------------------------------------------------------
def build_networks(obs_size: int, num_actions: int, hidden: Sequence[int]) -> tuple[Any, Any]:
    """The actor (logits per action id) and the critic (one value), tanh MLPs with CleanRL's
    orthogonal initialisation."""
    torch = _torch()
    nn = torch.nn

    def mlp(out: int, last_std: float) -> Any:
        layers: list[Any] = []
        width = obs_size
        for h in hidden:
            layer = nn.Linear(width, h)
            nn.init.orthogonal_(layer.weight, math.sqrt(2))
            nn.init.zeros_(layer.bias)
            layers += [layer, nn.Tanh()]
            width = h
        head = nn.Linear(width, out)
        nn.init.orthogonal_(head.weight, last_std)
        nn.init.zeros_(head.bias)
        layers.append(head)
        return nn.Sequential(*layers)

    return mlp(num_actions, 0.01), mlp(1, 1.0)


def export_actor(actor: Any, meta: TrainedFor) -> NumpyPolicy:
    """The actor's linear layers as a :class:`NumpyPolicy` (``x @ w + b``)."""
    layers = []
    for module in actor:
        if hasattr(module, "weight"):
            w = module.weight.detach().cpu().numpy().T.astype(np.float32)
            b = module.bias.detach().cpu().numpy().astype(np.float32)
            layers.append((np.ascontiguousarray(w), b))
    return NumpyPolicy(layers, {"format": FORMAT, **meta})


# -- evaluation (numpy only) -----------------------------------------------------------------
Chooser = Callable[[Any, Obs, int], int]


def policy_chooser(policy: NumpyPolicy, sample: bool = False) -> Chooser:
    """The greedy policy (the legal action with the highest logit), or with ``sample`` a draw
    from its masked softmax, seeded by the deal (as ``agent:sample=1`` plays)."""
    rngs: dict[int, Rng] = {}

    def choose(env: Any, obs: Obs, deal: int) -> int:
        legal = np.flatnonzero(obs["action_mask"])
        if not sample:
            return policy.act(obs["observation"], legal)
        rng = rngs.get(deal)
        if rng is None:
            rngs.clear()
            rng = rngs[deal] = Rng(deal ^ _SEAT_SALT)
        return policy.sample(obs["observation"], legal, rng.next64() / 2.0**64)

    return choose


def bot_chooser(name: str) -> Chooser:
    """A subtable bot in the learning seat, seeded from the deal."""
    bots: dict[int, Any] = {}

    def choose(env: Any, obs: Obs, deal: int) -> int:
        bot = bots.get(deal)
        if bot is None:
            bots.clear()
            bot = bots[deal] = make_bot(name, env.game, env.seat, Rng(deal ^ _SEAT_SALT))
        return int(bot.choose(observe(env.state, env.seat)).id)

    return choose


def play_deals(config: TrainConfig, choose: Chooser, deals: Sequence[int]) -> list[int]:
    """1 per held-out deal the learning seat won, else 0 (outcome only, shaping ignored)."""
    return [won for won, _ in play_scored(config, choose, deals)]


def play_scored(
    config: TrainConfig, choose: Chooser, deals: Sequence[int]
) -> list[tuple[int, float]]:
    """Per held-out deal: whether the learning seat won, and its *score* at the end — the
    shaped reward's measure read from its final view (Submarine: the treasure lead over the
    best other captain, in twelfths; Red November: the disaster-track margin)."""
    from subtable.rl.common import support

    env = _make_env(config)
    measure = support(env.game).potential
    out = []
    for deal in deals:
        obs, _ = env.reset(seed=deal)
        done = truncated = False
        while not (done or truncated):
            obs, _, done, truncated, _ = env.step(choose(env, obs, deal))
        state = env.state
        score = 0.0 if measure is None else measure(state.observe(config.seat))
        out.append((int(state.returns()[config.seat] > 0), score))
    return out


def _mean_interval(xs: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its normal 95% interval."""
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / max(1, n - 1)
    half = 1.959964 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def _player_figures(games: Sequence[tuple[int, float]]) -> PlayerFigures:
    """Wins with their Wilson interval and the mean end score with its interval."""
    wins = sum(w for w, _ in games)
    lo, hi = wilson_interval(wins, len(games))
    score = _mean_interval([x for _, x in games])
    return {
        "wins": wins,
        "games": len(games),
        "rate": wins / len(games),
        "wilson95": [lo, hi],
        "score": score[0],
        "score95": [score[1], score[2]],
    }


def _paired_figures(
    agent: Sequence[tuple[int, float]], theirs: Sequence[tuple[int, float]]
) -> PairedFigures:
    """The agent minus another player on the same deals: wins and end scores."""
    b = sum(1 for (x, _), (y, _) in zip(agent, theirs, strict=True) if x and not y)
    c = sum(1 for (x, _), (y, _) in zip(agent, theirs, strict=True) if y and not x)
    diff, lo, hi = paired_difference_interval(b, c, len(agent))
    score = _mean_interval([x - y for (_, x), (_, y) in zip(agent, theirs, strict=True)])
    return {
        "difference": -diff,
        "agresti_min95": [-hi, -lo],
        "agent_only": b,
        "other_only": c,
        "mcnemar_p": mcnemar_exact_p(b, c),
        "score_difference": score[0],
        "score95": [score[1], score[2]],
    }


def compare(config: TrainConfig, policy: NumpyPolicy, deals: int) -> Evaluation:
    """The agent (greedy, and sampling from its policy), a random player and the heuristic in
    the learning seat, on the same held-out deals ``0 .. deals-1``: win rates with Wilson
    intervals, paired differences (Agresti-Min intervals, McNemar's exact test), and the mean
    end score of each with the paired differences of the agent's (normal intervals)."""
    seeds = list(range(deals))
    played = {
        "agent": play_scored(config, policy_chooser(policy), seeds),
        "agent_sampled": play_scored(config, policy_chooser(policy, sample=True), seeds),
        "random": play_scored(config, bot_chooser("random"), seeds),
        "heuristic": play_scored(config, bot_chooser("heuristic"), seeds),
    }
    return {
        "deals": f"reset(seed=d), d = 0..{deals - 1}",
        "players": {name: _player_figures(games) for name, games in played.items()},
        "agent_minus_random": _paired_figures(played["agent"], played["random"]),
        "agent_minus_heuristic": _paired_figures(played["agent"], played["heuristic"]),
        "agent_sampled_minus_random": _paired_figures(played["agent_sampled"], played["random"]),
        "agent_sampled_minus_heuristic": _paired_figures(
            played["agent_sampled"], played["heuristic"]
        ),
    }


# -- imitation (behaviour cloning of the heuristic) ---------------------------------------------
def demonstrations(config: TrainConfig, episodes: int) -> dict[str, npt.NDArray[Any]]:
    """The heuristic's play in the learning seat: observations (float16), legal masks,
    actions, and the discounted returns-to-go of the environment's rewards (critic targets).
    Deals ``reset(seed=DEMO_SEEDS + k)``, apart from the training and held-out deals."""
    env = _make_env(config)
    choose = bot_chooser("heuristic")
    obs_l: list[npt.NDArray[Any]] = []
    mask_l: list[npt.NDArray[Any]] = []
    act_l: list[int] = []
    ret_l: list[float] = []
    for k in range(episodes):
        deal = DEMO_SEEDS + k
        obs, _ = env.reset(seed=deal)
        rewards: list[float] = []
        done = truncated = False
        while not (done or truncated):
            a = choose(env, obs, deal)
            obs_l.append(obs["observation"].astype(np.float16))
            mask_l.append(np.packbits(obs["action_mask"].astype(np.bool_)))
            act_l.append(a)
            obs, r, done, truncated, _ = env.step(a)
            rewards.append(float(r))
        g = 0.0
        tail = []
        for r in reversed(rewards):
            g = r + config.gamma * g
            tail.append(g)
        ret_l.extend(reversed(tail))
    return {
        "obs": np.stack(obs_l),
        "mask": np.stack(mask_l),
        "act": np.asarray(act_l, dtype=np.int64),
        "ret": np.asarray(ret_l, dtype=np.float32),
    }


def imitate(
    config: TrainConfig,
    actor: Any,
    critic: Any,
    data: dict[str, npt.NDArray[Any]],
    num_actions: int,
    device: Any,
) -> dict[str, float]:
    """Fit the actor to the demonstrations' actions (masked cross-entropy) and the critic to
    their returns; the share of actions matched on the last pass."""
    torch = _torch()
    params = list(actor.parameters()) + list(critic.parameters())
    optimizer = torch.optim.Adam(params, lr=1e-3)
    n = len(data["act"])
    order = np.arange(n)
    rng = np.random.default_rng(config.seed)
    matched = 0.0
    for _ in range(config.imitate_epochs):
        rng.shuffle(order)
        hits = 0
        for start in range(0, n, config.minibatch):
            idx = order[start : start + config.minibatch]
            x = torch.as_tensor(data["obs"][idx].astype(np.float32), device=device)
            bits = np.unpackbits(data["mask"][idx], axis=1)[:, :num_actions].astype(np.bool_)
            m = torch.as_tensor(bits, device=device)
            a = torch.as_tensor(data["act"][idx], device=device)
            logits = actor(x).masked_fill(~m, -1e8)
            loss = torch.nn.functional.cross_entropy(logits, a)
            v = critic(x).squeeze(-1)
            ret = torch.as_tensor(data["ret"][idx], device=device)
            loss = loss + config.vf_coef * ((v - ret) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, config.max_grad_norm)
            optimizer.step()
            hits += int((logits.argmax(1) == a).sum())
        matched = hits / n
    return {"samples": float(n), "matched": matched}


# -- PPO ---------------------------------------------------------------------------------------
@dataclass
class _Learner:
    """The networks, their optimiser, the device they run on and the action sampler's
    generator."""

    torch: Any
    device: Any
    actor: Any
    critic: Any
    params: list[Any]
    optimizer: Any
    sampler: Any

    @classmethod
    def build(cls, config: TrainConfig, obs_size: int, num_actions: int) -> _Learner:
        """Seeded networks on ``config.device`` (``auto``: a GPU where there is one)."""
        torch = _torch()
        torch.set_num_threads(max(1, config.threads))
        torch.manual_seed(config.seed)
        device = torch.device(
            ("cuda" if torch.cuda.is_available() else "cpu")
            if config.device == "auto"
            else config.device
        )
        actor, critic = build_networks(obs_size, num_actions, config.hidden)
        actor.to(device)
        critic.to(device)
        params = list(actor.parameters()) + list(critic.parameters())
        optimizer = torch.optim.Adam(params, lr=config.lr, eps=1e-5)
        sampler = torch.Generator(device=device)
        sampler.manual_seed(config.seed)
        return cls(torch, device, actor, critic, params, optimizer, sampler)

    def tensor(self, array: Any) -> Any:
        """``array`` on the learner's device."""
        return self.torch.as_tensor(array, device=self.device)

    def step(self, loss: Any, config: TrainConfig) -> None:
        """One clipped gradient step on ``loss``."""
        self.optimizer.zero_grad()
        loss.backward()
        self.torch.nn.utils.clip_grad_norm_(self.params, config.max_grad_norm)
        self.optimizer.step()


@dataclass
class _Rollout:
    """One update's experience, ``horizon`` steps of every environment."""

    obs: npt.NDArray[np.float32]
    mask: npt.NDArray[np.bool_]
    act: npt.NDArray[np.int64]
    logp: npt.NDArray[np.float32]
    val: npt.NDArray[np.float32]
    rew: npt.NDArray[np.float32]
    done: npt.NDArray[np.float32]

    @classmethod
    def empty(cls, horizon: int, n_env: int, obs_size: int, num_actions: int) -> _Rollout:
        """Zeroed buffers."""
        return cls(
            np.zeros((horizon, n_env, obs_size), dtype=np.float32),
            np.zeros((horizon, n_env, num_actions), dtype=np.bool_),
            np.zeros((horizon, n_env), dtype=np.int64),
            np.zeros((horizon, n_env), dtype=np.float32),
            np.zeros((horizon, n_env), dtype=np.float32),
            np.zeros((horizon, n_env), dtype=np.float32),
            np.zeros((horizon, n_env), dtype=np.float32),
        )


@dataclass
class _Episodes:
    """The training environments, their current observations, the next training deal and the
    episodes played (``recent``: the wins of this update's finished episodes)."""

    envs: list[Any]
    current: list[Any] = field(default_factory=list)
    next_deal: int = TRAIN_SEEDS
    episodes: int = 0
    wins: int = 0
    recent: list[int] = field(default_factory=list)

    def start(self) -> None:
        """Deal every environment its first training deal."""
        for env in self.envs:
            self.current.append(self._reset(env))

    def _reset(self, env: Any) -> Any:
        o, _ = env.reset(seed=self.next_deal)
        self.next_deal += 1
        return o

    def step(self, t: int, actions: npt.NDArray[np.int64], buf: _Rollout, seat: int) -> None:
        """Play ``actions`` (one per environment) as step ``t``; a finished episode counts
        and its environment is dealt the next training deal."""
        for i, env in enumerate(self.envs):
            o, r, term, trunc, _ = env.step(int(actions[i]))
            buf.rew[t, i] = float(r)
            buf.done[t, i] = float(term or trunc)
            if term or trunc:
                won = int(env.state.returns()[seat] > 0)
                self.episodes += 1
                self.wins += won
                self.recent.append(won)
                o = self._reset(env)
            self.current[i] = o


def _collect(config: TrainConfig, learner: _Learner, play: _Episodes, buf: _Rollout) -> None:
    """Fill ``buf`` with ``config.rollout`` steps of every environment, the actions drawn from
    the masked policy (Gumbel-max with the learner's generator)."""
    torch = learner.torch
    for t in range(config.rollout):
        for i, o in enumerate(play.current):
            buf.obs[t, i] = o["observation"]
            buf.mask[t, i] = o["action_mask"].astype(np.bool_)
        with torch.no_grad():
            x = learner.tensor(buf.obs[t])
            m = learner.tensor(buf.mask[t])
            logits = learner.actor(x).masked_fill(~m, -1e8)
            dist = torch.distributions.Categorical(logits=logits)
            u = torch.rand(logits.shape, generator=learner.sampler, device=learner.device)
            action = torch.argmax(logits - torch.log(-torch.log(u.clamp_min(1e-12))), dim=1)
            logp = dist.log_prob(action)
            value = learner.critic(x).squeeze(-1)
        buf.act[t] = action.cpu().numpy()
        buf.logp[t] = logp.cpu().numpy()
        buf.val[t] = value.cpu().numpy()
        play.step(t, buf.act[t], buf, config.seat)


def _advantages(
    config: TrainConfig, learner: _Learner, play: _Episodes, buf: _Rollout
) -> npt.NDArray[np.float32]:
    """Generalised advantage estimation (an episode's end cuts the bootstrap)."""
    with learner.torch.no_grad():
        last = np.stack([o["observation"] for o in play.current]).astype(np.float32)
        next_value = learner.critic(learner.tensor(last)).squeeze(-1).cpu().numpy()
    adv = np.zeros_like(buf.rew)
    gae = np.zeros(config.num_envs, dtype=np.float32)
    for t in reversed(range(config.rollout)):
        nv = next_value if t == config.rollout - 1 else buf.val[t + 1]
        live = 1.0 - buf.done[t]
        delta = buf.rew[t] + config.gamma * nv * live - buf.val[t]
        gae = delta + config.gamma * config.lam * live * gae
        adv[t] = gae
    return adv


def _optimise(
    config: TrainConfig,
    learner: _Learner,
    buf: _Rollout,
    adv: npt.NDArray[np.float32],
    update: int,
) -> None:
    """``config.epochs`` passes of clipped-PPO minibatch steps over the rollout, whose
    advantages are ``adv``."""
    torch = learner.torch
    batch = config.num_envs * config.rollout
    b_obs = learner.tensor(buf.obs.reshape(batch, -1))
    b_mask = learner.tensor(buf.mask.reshape(batch, -1))
    b_act = learner.tensor(buf.act.reshape(batch))
    b_logp = learner.tensor(buf.logp.reshape(batch))
    b_adv = learner.tensor(adv.reshape(batch))
    b_ret = learner.tensor((adv + buf.val).reshape(batch))
    order = np.arange(batch)
    shuffle = np.random.default_rng(config.seed * 100_003 + update)
    for _ in range(config.epochs):
        shuffle.shuffle(order)
        for start in range(0, batch, config.minibatch):
            idx = learner.tensor(order[start : start + config.minibatch])
            logits = learner.actor(b_obs[idx]).masked_fill(~b_mask[idx], -1e8)
            dist = torch.distributions.Categorical(logits=logits)
            ratio = torch.exp(dist.log_prob(b_act[idx]) - b_logp[idx])
            a = b_adv[idx]
            a = (a - a.mean()) / (a.std() + 1e-8)
            pg = torch.max(-a * ratio, -a * ratio.clamp(1 - config.clip, 1 + config.clip))
            # the entropy over the legal actions only (masked logits carry no mass)
            p = dist.probs
            entropy = -(p * torch.log(p.clamp_min(1e-12))).sum(-1)
            v = learner.critic(b_obs[idx]).squeeze(-1)
            v_loss = 0.5 * ((v - b_ret[idx]) ** 2).mean()
            learner.step(
                pg.mean() - config.ent_coef * entropy.mean() + config.vf_coef * v_loss, config
            )


def _policy_meta(config: TrainConfig, obs_size: int, num_actions: int) -> TrainedFor:
    """What the exported policy says of its training (:mod:`subtable.rl.policy`)."""
    return {
        "game": config.game,
        "options": config.options,
        "seat": config.seat,
        "opponents": config.opponents,
        "obs_size": obs_size,
        "num_actions": num_actions,
        "hidden": list(config.hidden),
        "trained": {
            "command": "python -m subtable.rl.train " + " ".join(sys.argv[1:])
            if sys.argv[0].endswith("train.py") or "subtable.rl.train" in sys.argv[0]
            else "subtable.rl.train.train()",
            "seed": config.seed,
            "train_deals": f"reset(seed={TRAIN_SEEDS} + k)",
        },
    }


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """One point of the learning curve (a row of ``curve.csv``)."""

    phase: str
    update: int
    steps: int
    episodes: int
    train_win_rate: float
    heldout_win_rate: float
    heldout_lo: float
    heldout_hi: float
    cpu_seconds: float


@dataclass
class _Curve:
    """The learning curve: the held-out win rate of the greedy actor, measured now and then."""

    config: TrainConfig
    meta: TrainedFor
    updates: int
    log: Callable[[str], None]
    points: list[CurvePoint] = field(default_factory=list)
    started: float = field(default_factory=time.process_time)

    def measure(self, actor: Any, play: _Episodes, update: int, phase: str = "ppo") -> None:
        """Play the curve's held-out deals with the actor as it is after ``update`` updates."""
        config = self.config
        policy = export_actor(actor, self.meta)
        rate = float(np.mean(play_deals(config, policy_chooser(policy), range(config.curve_deals))))
        lo, hi = wilson_interval(round(rate * config.curve_deals), config.curve_deals)
        point = CurvePoint(
            phase=phase if update or phase == "imitation" else "init",
            update=update,
            steps=update * config.num_envs * config.rollout,
            episodes=play.episodes,
            train_win_rate=float(np.mean(play.recent)) if play.recent else float("nan"),
            heldout_win_rate=rate,
            heldout_lo=lo,
            heldout_hi=hi,
            cpu_seconds=time.process_time() - self.started,
        )
        self.points.append(point)
        self.log(
            f"update {update}/{self.updates}: {point.steps:,} steps, "
            f"{play.episodes:,} episodes, "
            f"train win {point.train_win_rate:.3f}, held-out win {rate:.3f} "
            f"[{lo:.3f}, {hi:.3f}] ({config.curve_deals} deals), "
            f"{point.cpu_seconds:.0f} CPU s"
        )


def _imitation(config: TrainConfig, learner: _Learner, num_actions: int) -> dict[str, float]:
    """Imitate the heuristic first when the configuration asks it (else nothing)."""
    if config.imitate <= 0:
        return {}
    data = demonstrations(config, config.imitate)
    return imitate(config, learner.actor, learner.critic, data, num_actions, learner.device)


def train(
    config: TrainConfig,
    out: Path | None = None,
    log: Callable[[str], None] = print,
) -> TrainReport:
    """Train, write ``agent.npz``, ``curve.csv``, ``curve.png`` and ``report.json`` in ``out``
    (nothing is written without it), and return the report."""
    wall = time.perf_counter()
    play = _Episodes([_make_env(config) for _ in range(config.num_envs)])
    obs_size, num_actions = play.envs[0].encoder.size, play.envs[0].num_actions
    learner = _Learner.build(config, obs_size, num_actions)
    batch = config.num_envs * config.rollout
    updates = max(1, config.total_steps // batch)
    buf = _Rollout.empty(config.rollout, config.num_envs, obs_size, num_actions)
    play.start()
    meta = _policy_meta(config, obs_size, num_actions)
    curve = _Curve(config, meta, updates, log)
    curve_every = max(1, updates // max(1, config.curve_points))
    curve.measure(learner.actor, play, 0)
    imitation = _imitation(config, learner, num_actions)
    if imitation:
        log(
            f"imitation: {config.imitate} episodes of the heuristic, "
            f"{int(imitation['samples']):,} decisions, {imitation['matched']:.3f} matched"
        )
        curve.measure(learner.actor, play, 0, "imitation")
    for update in range(1, updates + 1):
        for group in learner.optimizer.param_groups:
            group["lr"] = (1.0 - (update - 1) / updates) * config.lr
        play.recent = []
        _collect(config, learner, play, buf)
        _optimise(config, learner, buf, _advantages(config, learner, play, buf), update)
        if update % curve_every == 0 or update == updates:
            curve.measure(learner.actor, play, update)
    policy = export_actor(learner.actor, meta)
    cpu = time.process_time() - curve.started
    policy.meta["trained"].update(
        {"steps": updates * batch, "episodes": play.episodes, "cpu_seconds": cpu}
    )
    log(f"evaluating on {config.eval_deals} held-out deals ...")
    evaluation = compare(config, policy, config.eval_deals)
    report: TrainReport = {
        "config": {**asdict(config), "hidden": list(config.hidden)},
        "steps": updates * batch,
        "episodes": play.episodes,
        "cpu_seconds": time.process_time() - curve.started,
        "wall_seconds": time.perf_counter() - wall,
        "device": str(learner.device),
        "torch": str(learner.torch.__version__),
        "imitation": imitation,
        "curve": [asdict(p) for p in curve.points],
        "evaluation": evaluation,
    }
    log(summary(evaluation))
    if out is not None:
        write_outputs(out, policy, report)
    return report


def summary(ev: Evaluation) -> str:
    """The evaluation in a few lines."""
    lines = [f"held-out deals: {ev['deals']}"]
    for name, r in ev["players"].items():
        lo, hi = r["wilson95"]
        line = f"  {name:9s} won {r['wins']:5d}/{r['games']} = {r['rate']:.3f} [{lo:.3f}, {hi:.3f}]"
        slo, shi = r["score95"]
        lines.append(line + f"; end score {r['score']:+.3f} [{slo:+.3f}, {shi:+.3f}]")
    for key, d in paired(ev):
        lo, hi = d["agresti_min95"]
        line = (
            f"  {key.replace('_minus_', ' - ')}: wins {d['difference']:+.3f} "
            f"[{lo:+.3f}, {hi:+.3f}] (McNemar p = {d['mcnemar_p']:.2g})"
        )
        slo, shi = d["score95"]
        lines.append(line + f"; end score {d['score_difference']:+.3f} [{slo:+.3f}, {shi:+.3f}]")
    return "\n".join(lines)


def write_outputs(out: Path, policy: NumpyPolicy, report: TrainReport) -> None:
    """``agent.npz``, ``curve.csv``, ``report.json`` and (with matplotlib) ``curve.png``."""
    out.mkdir(parents=True, exist_ok=True)
    policy.save(out / "agent.npz")
    with (out / "curve.csv").open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(report["curve"][0]))
        writer.writeheader()
        writer.writerows(report["curve"])
    (out / "report.json").write_text(json.dumps(report, indent=2, sort_keys=True) + "\n")
    plot_curve(report, out / "curve.png")


def plot_curve(report: TrainReport, path: Path) -> bool:
    """The held-out win rate (with its interval) and the training win rate against steps,
    with the random and heuristic players' held-out rates; ``False`` without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    curve = report["curve"]
    steps = [p["steps"] for p in curve]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(steps, [p["heldout_win_rate"] for p in curve], "o-", label="agent, held-out deals")
    ax.fill_between(
        steps, [p["heldout_lo"] for p in curve], [p["heldout_hi"] for p in curve], alpha=0.2
    )
    ax.plot(steps, [p["train_win_rate"] for p in curve], ".--", label="agent, training episodes")
    players = report["evaluation"]["players"]
    for name, style in (("random", ":"), ("heuristic", "-.")):
        ax.axhline(players[name]["rate"], linestyle=style, color="grey", label=f"{name} (held-out)")
    cfg = report["config"]
    opts = ", ".join(f"{k}={v}" for k, v in cfg["options"].items())
    recipe = "masked PPO"
    if cfg.get("imitate"):
        recipe = f"imitation ({cfg['imitate']} heuristic games), then masked PPO"
        first = curve[0]
        ax.plot([first["steps"]], [first["heldout_win_rate"]], "kx", label="untrained")
    ax.set_title(f"{cfg['game']} ({opts}), seat {cfg['seat']} vs {cfg['opponents']}", fontsize=10)
    ax.set_xlabel(f"PPO learner steps ({recipe})")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def evaluate_file(path: Path, deals: int) -> Evaluation:
    """Evaluate an exported agent on ``deals`` held-out deals (numpy only)."""
    policy = NumpyPolicy.load(path)
    meta = policy.meta
    config = TrainConfig.preset(
        meta["game"], options=meta["options"], seat=meta["seat"], opponents=meta["opponents"]
    )
    return compare(config, policy, deals)


def main(argv: Sequence[str] | None = None) -> None:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("game", nargs="?", choices=sorted(presets()))
    parser.add_argument("--out", type=Path, help="directory for agent.npz, curve, report")
    parser.add_argument("--steps", type=int, help="learner steps (default 300,000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--envs", type=int, help="environments stepped together (8)")
    parser.add_argument("--rollout", type=int, help="steps per environment per update (256)")
    parser.add_argument("--reward", choices=["shaped", "outcome"], default="shaped")
    parser.add_argument(
        "--imitate", type=int, help="episodes of the heuristic to imitate before PPO (0: none)"
    )
    parser.add_argument("--imitate-epochs", type=int, help="passes over the demonstrations (8)")
    parser.add_argument("--lr", type=float, help="PPO's learning rate (1e-4 after imitation)")
    parser.add_argument("--ent-coef", type=float, help="entropy bonus (0.003 after imitation)")
    parser.add_argument("--hidden", type=str, help="hidden widths, e.g. 256,256")
    parser.add_argument("--curve-deals", type=int, help="held-out deals per curve point (200)")
    parser.add_argument("--curve-points", type=int, help="points on the curve (10)")
    parser.add_argument("--eval-deals", type=int, help="held-out deals at the end (1000)")
    parser.add_argument("--device", default="cpu", help="cpu, cuda or auto")
    parser.add_argument("--threads", type=int, default=1, help="CPU threads for PyTorch")
    parser.add_argument("--evaluate", type=Path, metavar="FILE", help="only evaluate agent.npz")
    args = parser.parse_args(argv)
    if args.evaluate:
        report = evaluate_file(args.evaluate, args.eval_deals or 1000)
        print(summary(report))
        return
    if not args.game:
        parser.error("give a game (or --evaluate FILE)")
    overrides: dict[str, Any] = {"seed": args.seed, "reward": args.reward, "device": args.device}
    overrides["threads"] = args.threads
    for key, value in (
        ("total_steps", args.steps),
        ("num_envs", args.envs),
        ("rollout", args.rollout),
        ("curve_deals", args.curve_deals),
        ("curve_points", args.curve_points),
        ("eval_deals", args.eval_deals),
        ("imitate", args.imitate),
        ("imitate_epochs", args.imitate_epochs),
        ("lr", args.lr),
        ("ent_coef", args.ent_coef),
    ):
        if value is not None:
            overrides[key] = value
    if args.hidden:
        overrides["hidden"] = tuple(int(x) for x in args.hidden.split(","))
    config = TrainConfig.preset(args.game, **overrides)
    train(config, args.out)


if __name__ == "__main__":
    main()
