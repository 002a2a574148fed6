"""A cooperative expert policy for Red November: :class:`RNExpert`.

The policy reads only what a seat may see: a :class:`~.board.Board` built from
the seat's typed view (:class:`~subtable.games.red_november.view.RedNovemberView`),
both at the table and inside a search bot's sampled worlds. The main decision —
where to go and what to do this turn — is :mod:`.planning`'s; this module
answers the other decisions (the extra move out of a fire, trades, Coffee and
the Lucky Charm after the action, event choices) and gives a search bot its
candidate moves and leaf values (:mod:`.value`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, ClassVar

from subtable.bots.red_november.advice import reason as advice_reason
from subtable.bots.red_november.board import Board
from subtable.bots.red_november.items import ItemValues
from subtable.bots.red_november.params import Params
from subtable.bots.red_november.paths import Routes
from subtable.bots.red_november.planning import Planner
from subtable.bots.red_november.risk import DeckOdds
from subtable.bots.red_november.tasks import Task, Tasks
from subtable.bots.red_november.value import ValueModel
from subtable.core.rng import Rng
from subtable.core.view import SeatView
from subtable.games.red_november import rules
from subtable.games.red_november.actions import Kind
from subtable.games.red_november.components import SEA
from subtable.games.red_november.game import RedNovember
from subtable.games.red_november.view import Choice, Phase, RedNovemberView


class RNExpert:
    """The Red November heuristic: a pure function of the seat's view."""

    #: the tunable weights (``HeuristicBot`` passes the ones it is given)
    params_class: ClassVar[type[Params]] = Params
    #: how many decisions a search bot's rollout plays before it trusts the leaf model (at
    #: the next turn start): 2, as strong as 10 for a fraction of the CPU (docs/performance.md)
    rollout_depth: ClassVar[int] = 2
    #: a search bot's iterations per decision when none is asked for: what the compiled build
    #: (``hatch_build.py``), with the collector paused while it thinks
    #: (``bots.base.collector_paused``), searches in about a tenth of a second (docs/strength.md)
    search_budget: ClassVar[int] = 200
    #: a search bot's progressive widening below the root and walks followed in its rollouts,
    #: when none is asked for: both off, since the search with both is weaker
    #: (docs/strength/history.md)
    search_widen: ClassVar[float] = 0.0
    search_walk: ClassVar[bool] = False
    #: how far past its budget a search plays on while its choice is open (an alternative
    #: ahead of the expert's choice, none surely): not at all, since playing on is no stronger
    #: for more CPU (docs/strength/history.md)
    search_extend: ClassVar[float] = 1.0
    #: how many times that budget a search spends while a Destruction token is on the Time
    #: Track (most games are lost to one: the decisions then weigh most)
    crisis_effort: ClassVar[float] = 4.0
    #: how many times that budget a search spends at a calm turn's first decision: none more,
    #: since more wins no more games for its CPU (docs/strength/history.md)
    start_effort: ClassVar[float] = 1.0
    #: a search remembers this expert's candidates by the seat's view: the deciding gnome's
    #: position repeats from world to world until a die is rolled or a card drawn
    #: (docs/performance.md)
    search_memo: ClassVar[bool] = True
    #: the bot levels people choose (``bots/levels.py``), measured in docs/strength.md
    levels: ClassVar[dict[str, str]] = {
        "easy": "heuristic:mistakes=0.5",
        "normal": "ismcts",
        "strong": "ismcts:budget=400:widen=0:extend=1",  # full tree, no walks
    }
    #: each level's measured win rate, shown beside it to people (``words/seat_words.py``): the
    #: share of held-out deals a crew of 4 such gnomes wins (docs/strength.md, "The levels")
    level_rates: ClassVar[dict[str, float]] = {"easy": 0.320, "normal": 0.685, "strong": 0.745}

    def __init__(self, game: RedNovember, params: Params | None = None) -> None:
        self.game = game
        c = game.components
        self.c = c
        self.ix = game.index
        self.p = params or Params()
        self.n = game.num_seats
        self.routes = Routes(c)
        self.odds = DeckOdds(c, self.n)
        self.items = ItemValues(c, self.n, self.odds)
        self.item = self.items.item
        self.tasks = Tasks(c, self.ix, self.p, self.routes, self.odds, self.item["aqualung"])
        self.planner = Planner(c, self.ix, self.p, self.routes, self.items, self.tasks)
        self.value = ValueModel(c, self.n, self.routes, self.odds, self.items)

    def __reduce__(self) -> tuple[type[RNExpert], tuple[RedNovember, Params]]:
        """Copied and pickled as a new expert of the same game and weights: the rest only
        remembers answers (and the compiled class has no instance dictionary to copy)."""
        return (RNExpert, (self.game, self.p))

    def board(self, view: SeatView) -> Board:
        """The board the expert reads: the seat's view itself."""
        if not isinstance(view, RedNovemberView):
            raise TypeError(f"RNExpert reads a RedNovemberView, not {type(view).__name__}")
        return view

    # ------------------------------------------------------------- deciding --
    def choose(self, b: Board, seat: int, legal: Sequence[int], rng: Rng) -> int:
        """The action id to play (one of ``legal``)."""
        if len(legal) == 1:
            return legal[0]
        phase = b.phase
        if phase == Phase.MOVE:
            return self._movement(b, legal)
        if phase == Phase.EXTRA_MOVE:
            return self._extra(b, seat, legal)
        if phase == Phase.AFTER_ACTION:
            return self._after(b, legal)
        if phase == Phase.EVENT_CHOICE:
            return self._event_choice(b, seat, legal)
        if phase == Phase.DEFEND:
            defend = self.ix.id(Kind.DEFEND)
            return defend if defend in legal else legal[0]
        if phase in (Phase.TRADE_GIVE, Phase.TRADE_BACK):
            return self._trade(b, seat, legal)
        return legal[0]

    def candidates(
        self, b: Board, seat: int, legal: Sequence[int], width: int, rng: Rng
    ) -> list[int]:
        """Up to ``width`` distinct legal actions, the expert's choice first."""
        if b.phase == Phase.MOVE and self.value.at_turn_start(b) and len(legal) > 1:
            return self._ranked(b, legal, width)[0]
        out = [self.choose(b, seat, legal, rng)]
        if b.phase != Phase.EVENT_CHOICE:  # mid-turn: the plan chosen at its start goes on
            return out
        return _widen(out, legal, legal, width)

    def _ranked(self, b: Board, legal: Sequence[int], width: int) -> tuple[list[int], Task | None]:
        """A turn start's candidates (the first steps of the best tasks), and the task the
        first one walks to (:meth:`Planner.plan_walk`)."""
        legal_set = set(legal)
        ranked, walk = self.planner.plan_walk(b, alternatives=True)
        first = next((i for i in ranked if i in legal_set), legal[0])
        return _widen([first], ranked, legal_set, width), walk if ranked[:1] == [first] else None

    def advice_candidates(self, b: Board, seat: int, legal: Sequence[int], width: int) -> list[int]:
        """Up to ``width`` distinct legal actions worth advising, the expert's choice first:
        at any movement decision the first steps of every worthwhile task (a search's
        candidates branch only at a turn's start), elsewhere :meth:`candidates`."""
        if b.phase != Phase.MOVE:
            return self.candidates(b, seat, legal, width, Rng(0))
        legal_set = set(legal)
        out = [self._movement(b, legal)]
        for i in self.planner.plan(b, alternatives=True):
            if len(out) >= width:
                break
            if i in legal_set and i not in out:
                out.append(i)
        return out

    def reason(self, b: Board, seat: int, action_id: int) -> tuple[str, dict[str, Any]]:
        """Why ``action_id`` would be played: a reason key and its parameters
        (:mod:`.advice`)."""
        return advice_reason(self.c, self.game.action_space, self.planner, b, seat, action_id)

    def plan(self, b: Board, alternatives: bool = False) -> list[int]:
        """The active gnome's preferred actions, best first (see :class:`Planner`)."""
        return self.planner.plan(b, alternatives)

    def search_effort(self, b: Board, start: float | None = None) -> float:
        """How many times its budget a search should spend here: :attr:`crisis_effort`
        while a Destruction token is on the Time Track, else ``start`` (by default
        :attr:`start_effort`) at a turn's first decision, else 1."""
        if any(pos >= 0 for pos in b.token):
            return self.crisis_effort
        if not self.value.at_turn_start(b):
            return 1.0
        return self.start_effort if start is None else start

    def features(self, b: Board) -> list[float]:
        """The position's features for the leaf-value model."""
        return self.value.features(b)

    def evaluate(self, b: Board) -> list[float] | None:
        """Each seat's estimated return at a turn start (``None`` elsewhere: play on)."""
        return self.value.evaluate(b)

    def judges(self, b: Board) -> bool:
        """Whether :meth:`evaluate` gives an estimate here (a turn start)."""
        return self.value.at_turn_start(b)

    def walk(
        self, b: Board, legal: Sequence[int], width: int, task: Task | None
    ) -> tuple[list[int], Task | None] | None:
        """:meth:`candidates` (``width`` of them; 1: :meth:`choose`) at a movement decision of
        a search's sampled world, carrying what a walk is for from one step to the next:
        ``task`` is the one returned with the previous decision of this world when only its
        first action has been played since; the walk's next step is then taken without
        planning the whole turn again (:meth:`Planner.follow`). The actions and the task to
        carry on with the first; ``None`` at any other decision (ask :meth:`candidates`)."""
        if b.phase != Phase.MOVE or len(legal) < 2:
            return None
        legal_set = set(legal)
        if self.value.at_turn_start(b):
            if width > 1:
                return self._ranked(b, legal, width)
        elif task is not None:
            step = self.planner.follow(b, task, legal_set)
            if step is not None:
                return [step], task if self.ix.kind(step) == Kind.MOVE else None
        plan, walk = self.planner.plan_walk(b, legal=legal_set)
        step = self._first_legal(plan, legal, legal_set)
        return [step], walk if plan[:1] == [step] else None

    # -------------------------------------------------- the main decision --
    def _movement(self, b: Board, legal: Sequence[int]) -> int:
        legal_set = set(legal)
        return self._first_legal(self.planner.plan(b, legal=legal_set), legal, legal_set)

    def _first_legal(self, plan: list[int], legal: Sequence[int], legal_set: set[int]) -> int:
        """The plan's first legal step, else no action, the end of the turn or any."""
        for step in plan:
            if step in legal_set:
                return step
        no_action = self.ix.id(Kind.NO_ACTION)
        if no_action in legal_set:
            return no_action
        done = self.ix.id(Kind.DONE)
        if done in legal_set:
            return done
        return legal[0]

    # ---------------------------------- after the action: Coffee, Lucky Charm --
    def _after(self, b: Board, legal: Sequence[int]) -> int:
        a = b.active
        coffee = self.ix.id(Kind.USE, self.item["coffee"])
        lucky = self.ix.id(Kind.USE, self.item["lucky_charm"])
        if coffee in legal and b.this_turn.grog > 0 and b.intoxication[a] >= 1:
            return coffee
        if lucky in legal and b.this_turn.lucky == 0:
            icons = rules.icons_passed(self.c.event_icon, b.keeper[a], b.ghost)
            late = b.keeper[a] <= 15
            full = max(1, self.c.items[self.item["lucky_charm"]].ignore_events)  # its full worth
            if icons >= full or (icons >= 2 and late) or (icons >= 1 and b.keeper[a] <= 6):
                return lucky
        return self.ix.id(Kind.DONE)

    # -------------------------------------------------------- event choices --
    def _event_choice(self, b: Board, seat: int, legal: Sequence[int]) -> int:
        space = self.game.action_space
        if b.choice == Choice.SPREAD:
            return min(legal, key=lambda i: self._spread_harm(b, space[i].target))
        if b.choice == Choice.BLOCK:
            return min(legal, key=lambda i: self.routes.block_harm(b, space[i].target))
        values = self.items.values(b, seat)
        return min(legal, key=lambda i: values[space[i].target])

    def _spread_harm(self, b: Board, room: int) -> float:
        harm = 0.0
        for g in range(self.n):
            if b.on_board(g) and b.room[g] == room:
                harm += 50.0 if b.fainted[g] else 2.0
        if room in self.routes.critical:
            harm += 6.0
        if room in self.routes.hubs[:3]:
            harm += 2.0
        harm += sum(1 for d in self.c.adjacent[room] if not b.fire[d] and b.water[d] == 0) * 0.3
        return harm

    # ---------------------------------------------------------------- trades --
    def _trade(self, b: Board, seat: int, legal: Sequence[int]) -> int:
        """Give the card the other gnome needs most (while it helps), then stop."""
        done = self.ix.id(Kind.DONE)
        giver = seat
        taker = b.partner if b.phase == Phase.TRADE_GIVE else b.active
        space = self.game.action_space
        gain = self.items.transfer_gain
        gives = [i for i in legal if space[i].kind == Kind.GIVE]
        if gives and b.hands[taker] is not None:
            best = max(gives, key=lambda i: gain(b, giver, taker, space[i].target))
            if gain(b, giver, taker, space[best].target) > 0.5:
                return best
        return done if done in legal else legal[0]

    # ------------------------------------------- the extra move out of a fire --
    def _extra(self, b: Board, seat: int, legal: Sequence[int]) -> int:
        space = self.game.action_space
        hubs = self.routes.hubs
        moves = [i for i in legal if space[i].kind == Kind.MOVE]
        if moves:

            def badness(i: int) -> float:
                r = space[i].target
                if r == SEA:
                    return 100.0
                return b.water[r] * 2.0 + (0.0 if r in hubs[:4] else 0.5)

            return min(moves, key=badness)
        uses = [i for i in legal if space[i].kind == Kind.USE]
        values = self.items.values(b, seat)
        return min(uses, key=lambda i: values[space[i].target]) if uses else legal[0]


def _widen(out: list[int], ranked: Sequence[int], legal: Collection[int], width: int) -> list[int]:
    """``out`` and then ``ranked``'s legal actions not in it, up to ``width`` in all."""
    for i in ranked:
        if len(out) >= width:
            break
        if i in legal and i not in out:
            out.append(i)
    return out
