"""The leaf value of a search: the crew's fitted chance of rescue at a turn's start.

:meth:`ValueModel.features` describes a position for the team (Time Keepers,
disaster tracks and their risk, Destruction tokens against the nearest gnome,
fires, floods, blocked hatches, items, intoxication); the logistic weights in
``weights.json`` beside this module turn them into a win probability. Refit with
``python scripts/fit_values.py --game red-november --games 3000``.
"""

from __future__ import annotations

from subtable.bots.red_november.board import Board
from subtable.bots.red_november.items import ItemValues
from subtable.bots.red_november.paths import Routes
from subtable.bots.red_november.risk import DeckOdds, track_risk
from subtable.bots.weights import WinModel, leaf_model
from subtable.games.red_november.components import ROOMS, SEA, Components
from subtable.games.red_november.view import Phase

#: the risk horizon of the features: fixed, not ``Params.horizon`` (the weights assume it)
FEATURE_HORIZON = 15


class ValueModel:
    """Position features and the fitted model over them."""

    def __init__(
        self,
        c: Components,
        gnomes: int,
        routes: Routes,
        odds: DeckOdds,
        items: ItemValues,
        model: WinModel | None = None,
    ) -> None:
        self.c = c
        self.n = gnomes
        self.routes = routes
        self.odds = odds
        self.items = items
        self.model = model or leaf_model(__package__ or "subtable.bots.red_november", gnomes)
        self._repair_of_token: dict[int, str] = {}
        for name, rep in c.repairs.items():
            if rep.token >= 0:
                self._repair_of_token.setdefault(rep.token, name)

    def features(self, b: Board) -> list[float]:
        """Team-level features of a position (for the fitted win-probability model)."""
        c = self.c
        routes = self.routes
        on = [g for g in range(self.n) if b.on_board(g) and b.keeper[g] >= 0]
        keepers = [b.keeper[g] for g in on] or [0]
        counts, total = self.odds.deck_counts(b)
        rates = self.odds.track_rates(b, counts, total)
        remaining = self.odds.remaining_events(b)
        f = [1.0, max(keepers) / c.time_top, min(keepers) / c.time_top, len(on) / self.n]
        for t in range(len(c.tracks)):
            f.append(b.track[t] / c.track_length)
        for horizon in (remaining, min(remaining, FEATURE_HORIZON)):
            for t in range(len(c.tracks)):
                q1, q2 = rates[t]
                f.append(track_risk(b.track[t], horizon, q1, q2, c.track_length))
        active = [t for t, pos in enumerate(b.token) if pos >= 0]
        danger = 0.0
        it = self.items.item
        held_by = self.items.held
        lungs = sum(held_by(b, g)[it["aqualung"]] for g in on)
        for t in active:
            room = c.repairs[self._repair_of_token[t]].room
            best = -99
            for g in on:
                if b.room[g] in (0, SEA):
                    d = 0 if room == SEA else 3
                else:
                    dists = routes.distances(b.room[g], b)
                    if room == SEA:
                        d = min((dists[r] + 2 for r in c.exterior if r in dists), default=30)
                        d += 0 if lungs else 10
                    else:
                        d = dists.get(room, 30)
                best = max(best, b.keeper[g] - d - b.token[t])
            danger += max(0.0, min(1.0, (10 - best) / 10))
        f += [len(active) / 2, danger]
        fires = [r for r in range(1, SEA) if b.fire[r]]
        rooms, critical = len(ROOMS), len(routes.critical)
        f += [len(fires) / rooms, sum(1 for r in fires if r in routes.critical) / critical]
        f += [
            sum(1 for r in range(1, SEA) if b.water[r] == 2) / rooms,
            sum(1 for r in range(1, SEA) if b.water[r] == 1) / rooms,
            sum(1 for r in routes.critical if b.water[r] == 2) / critical,
        ]
        f += [
            sum(b.blocked) / len(c.hatches),
            (routes.walks(tuple(b.blocked)) - routes.walks(routes.open_hatches)) / 20,
        ]
        held = [0] * self.items.n_items
        for g in on:
            for i, k in enumerate(held_by(b, g)):
                held[i] += k
        f += [
            sum(held) / max(1, len(on)) / 5,
            (held[it["fire_extinguisher"]] + held[it["grog"]]) / 5,
            sum(
                held[it[k]]
                for k in (
                    "toolbox",
                    "engine_manual",
                    "pump_manual",
                    "reactor_manual",
                    "deactivation_code",
                )
            )
            / 5,
        ]
        f += [
            sum(b.intoxication[g] for g in on) / max(1, len(on)) / 4,
            sum(1 for g in on if b.fainted[g]) / 2,
            remaining / max(1, 4 * self.odds.track_icons),  # 4 keepers' worth of icons: 76
        ]
        return f

    @staticmethod
    def at_turn_start(b: Board) -> bool:
        """Whether ``b`` is the first decision of a turn (where the model was fitted)."""
        a, t = b.active, b.this_turn
        return (
            b.phase == Phase.MOVE
            and a >= 0
            and b.ghost == b.keeper[a]
            and not t.grog
            and not t.fire_ok
            and not t.aqualung
            and not any(t.bonus)
            and not t.lucky
        )

    def evaluate(self, b: Board) -> list[float] | None:
        """Each seat's estimated return — the fitted chance that the crew is rescued — at a
        turn start (``None`` elsewhere: play on)."""
        if not self.at_turn_start(b):
            return None
        p = self.model.probability(self.features(b))
        return [0.0 if b.abandoned[g] else p for g in range(self.n)]
