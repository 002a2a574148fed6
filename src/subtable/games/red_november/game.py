"""Red November as a :class:`~subtable.core.game.Game`: rules, options, metadata."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import Any, ClassVar

from subtable.core.errors import OptionError
from subtable.core.game import Game, GameInfo, OptionSpec, Utility
from subtable.core.options import OptionValue
from subtable.core.rng import Rng
from subtable.core.view import SeatView, Vocabulary
from subtable.games.red_november import rules
from subtable.games.red_november.actions import (
    MAX_GNOMES,
    ActionIndex,
    Kind,
    RNAction,
    build_action_space,
)
from subtable.games.red_november.components import SEA, Components, default_components
from subtable.games.red_november.options import OPTIONS
from subtable.games.red_november.state import REPAIR_OF_KIND, RedNovemberState
from subtable.games.red_november.view import CHOICE_NAMES, PHASE_NAMES, RedNovemberView
from subtable.games.red_november.view_reader import read_view


def _getter(indices: tuple[int, ...]) -> Callable[[Sequence[object]], object]:
    """``itemgetter(*indices)``, which also takes no index (and then gets nothing)."""
    return itemgetter(*indices) if indices else _nothing


def _nothing(_: Sequence[object]) -> object:
    return ()


#: the version of the heroic sacrifice house rule (RN-14), added to the ruleset of the
#: games that play it: ``.2`` lets any action but Extinguish Fire and forbids Unblock Hatch
HEROIC_SACRIFICE_RULES = "heroic-sacrifice.2"


class RedNovember(Game[RNAction]):
    """Red November (Faidutti & Gontier), cooperative, 3–8 gnomes, 1–8 players.

    >>> game = RedNovember(players=4)
    >>> state = game.new_state(seed=7)
    >>> state.current_seat() in range(4)
    True
    """

    info: ClassVar[GameInfo] = GameInfo(
        name="red-november",
        title="Red November",
        ruleset=default_components().ruleset,
        min_players=1,
        max_players=8,
        min_seats=3,
        max_seats=8,
        utility=Utility.COOPERATIVE,
        hidden_information=True,
        max_game_length=5_000,
        win_reason="rescued",
        end_reasons=(
            "rescued",
            "asphyxiation",
            "heat",
            "pressure",
            "kraken",
            "crushed",
            "missiles",
            "asphyxiated",
            "crew_lost",
        ),
    )
    vocabulary: ClassVar[Vocabulary] = Vocabulary(
        event_keys=frozenset(
            {
                "attack_undefended",
                "comrades_abandoned",
                "destruction_averted",
                "destruction_avoided",
                "destruction_placed",
                "event_deck_reshuffled",
                "event_drawn",
                "event_ignored",
                "faint_check",
                "fight",
                "fire_out",
                "fire_prevented",
                "fire_spread",
                "fire_started",
                "fix_attempted",
                "game_lost",
                "game_started",
                "game_won",
                "gnome_attacked",
                "gnome_fainted",
                "gnome_killed",
                "gnome_moved",
                "gnome_replaced",
                "gnome_stood_up",
                "grog_drunk",
                "hand_limit",
                "hatch_blocked",
                "hatch_opened",
                "hatch_unblocked",
                "intoxication_changed",
                "item_deck_empty",
                "item_deck_reshuffled",
                "item_discarded",
                "item_given",
                "item_used",
                "items_drawn",
                "items_taken",
                "kraken_shuffled_in",
                "must_leave_room",
                "no_action",
                "no_effect",
                "no_time_for_action",
                "respite",
                "room_flooded",
                "room_rolled",
                "rooms_flooded",
                "track_advanced",
                "track_reset",
                "trade_finished",
                "trade_started",
                "turn_ended",
                "turn_started",
                "water_pumped",
                "water_reflowed",
            }
        ),
        illegal_reasons=frozenset(
            {
                "attack_in_sea",
                "bad_hatch",
                "bad_room",
                "hatch_blocked",
                "high_water",
                "in_fire",
                "in_fire_not_entered",
                "in_high_water",
                "item_too_late",
                "item_useless",
                "must_act",
                "must_be_outside",
                "must_leave",
                "needs_aqualung",
                "needs_crowbar",
                "no_abandon",
                "no_fire",
                "no_hatch",
                "no_item",
                "no_low_water",
                "no_partner",
                "no_time",
                "not_available",
                "not_blocked",
                "not_enough_cards",
                "not_trading",
                "on_fire",
                "option_off",
                "partner_fainted",
                "pump_first",
                "red_area",
                "too_early",
                "too_many",
                "trade_in_sea",
                "unblock_in_fire",
                "unblock_in_high_water",
                "wrong_phase",
                "wrong_room",
            }
        ),
        end_reasons=info.end_reasons,
        phases=PHASE_NAMES,
        extra={
            #: ``gnome_killed``'s ``cause``
            "death_causes": frozenset(
                {"drowned", "fainted_outside", "fire", "heroic_sacrifice", "out_of_air", "slain"}
            ),
            #: ``view()["pending"]["choice"]`` in the event-choice phase
            "choices": frozenset(CHOICE_NAMES.values()),
            #: ``items_drawn``'s ``source``
            "draw_sources": frozenset({"grog_stash", "item_deck", "time_track"}),
        },
    )
    option_specs: ClassVar[Mapping[str, OptionSpec[Any]]] = OPTIONS

    def __init__(self, components: Components | None = None, **options: Any) -> None:
        self.components = components or default_components()
        super().__init__(**options)
        self.action_space = build_action_space(self.components)
        self.index = ActionIndex(self.action_space)
        self._build_tables()

    def _build_tables(self) -> None:
        """The engine's lookups (performance only), built once per game.

        Every id a legal-action list holds is read from one of these tables; the
        runs of fix-it ids are indexed by the most minutes affordable
        (``runs[top]`` holds the ids for 1 to ``top`` minutes); the options the
        engine reads on every decision are plain attributes.
        """
        c, ix = self.components, self.index
        items = range(len(c.items))
        hatches = range(len(c.hatches))

        def runs(first: int) -> tuple[tuple[int, ...], ...]:
            return tuple(tuple(range(first, first + top)) for top in range(c.max_fix_minutes + 1))

        self.actions: tuple[RNAction, ...] = tuple(self.action_space)
        self.use_ids = tuple(ix.id(Kind.USE, i) for i in items)
        self.no_action_id = ix.id(Kind.NO_ACTION)
        self.done_id = ix.id(Kind.DONE)
        self.abandon_id = ix.id(Kind.ABANDON)
        self.defend_ids = (ix.id(Kind.DEFEND), ix.id(Kind.YIELD))
        self.trade_ids = tuple(ix.id(Kind.TRADE, g) for g in range(MAX_GNOMES))
        self.attack_ids = tuple(ix.id(Kind.ATTACK, g) for g in range(MAX_GNOMES))
        self.give_ids = tuple(ix.id(Kind.GIVE, i) for i in items)
        self.discard_ids = tuple(ix.id(Kind.DISCARD, i) for i in items)
        #: per room, the id of Fire Spreads choosing it (``-1`` for no room)
        self.spread_ids = tuple(ix.by_key.get((Kind.SPREAD, r, 0), -1) for r in range(SEA + 1))
        self.block_ids = tuple(ix.id(Kind.BLOCK, h) for h in hatches)
        self.extinguish_runs = runs(ix.first[Kind.EXTINGUISH])
        self.pump_runs = runs(ix.first[Kind.PUMP])
        self.unblock_runs = tuple(runs(ix.id(Kind.UNBLOCK, h, 1)) for h in hatches)
        #: per room, the runs of the repairs made there, joined (ascending: Kind order)
        self.repair_runs = tuple(
            tuple(
                sum((runs(ix.first[kind])[top] for kind in kinds), ())
                for top in range(c.max_fix_minutes + 1)
            )
            for kinds in (
                [k for k, name in REPAIR_OF_KIND.items() if c.repairs[name].room == r]
                for r in range(SEA + 1)
            )
        )
        first_draw = ix.first[Kind.DRAW]
        most = max(c.stores_max_draw, c.cabin_max_draw)
        self.draw_runs = tuple(tuple(range(first_draw, first_draw + n)) for n in range(most + 1))
        #: the items that still help after the action (Coffee, a Lucky Charm), ascending
        self.after_items = tuple(sorted(c.item_index(k) for k in ("coffee", "lucky_charm")))
        #: item indices by kinds (``("coffee", "lucky_charm")``…), filled on demand
        self.item_indices: dict[tuple[str, ...], tuple[int, ...]] = {}
        #: ``hatch_of[src][dest]``: the hatch between two spaces (-1 exterior, ``None``: none)
        self.hatch_of = tuple(
            tuple(c.hatch_between(src, dest) for dest in range(SEA + 1)) for src in range(SEA + 1)
        )
        #: per space of the time track, the nearest space at or below it with an icon (-1: none)
        self.icon_below = tuple(
            max((i for i in range(s + 1) if c.event_icon[i] or c.item_icon[i]), default=-1)
            for s in range(c.time_top + 1)
        )
        #: per space, what the ways out of it depend on: getters of the water in it and
        #: beyond its hatches, of the fire beyond them, and of its blocked hatches
        self.way_inputs = tuple(
            (
                itemgetter(src, *(d for d, _ in c.neighbours[src])),
                _getter(tuple(d for d, _ in c.neighbours[src])),
                _getter(tuple(h for _, h in c.neighbours[src] if h >= 0)),
            )
            for src in range(SEA + 1)
        )
        #: the ids of the ways out of a room, by the room, the turn's flags and the hazards
        #: around it: ``ways[key][enter_only][min(ghost, TOP_COST)]``, ascending
        self.ways: dict[tuple[object, ...], tuple[tuple[tuple[int, ...], ...], ...]] = {}
        self.crazed_gnomes = bool(self.options["crazed_gnomes"])
        self.heroic_sacrifice = bool(self.options["heroic_sacrifice"])
        self.less_deadly_dying = bool(self.options["less_deadly_dying"])
        #: Greater Challenge: Respites leave the game
        self.respites_leave = int(self.options["greater_challenge"]) >= 1
        #: Abandon Comrades is ignored with one or two players
        self.abandon_allowed = self.num_players >= 3

    def public_form(self, action: RNAction) -> str | None:
        """Under Crazed Gnomes an item given in a trade is seen only by the two gnomes."""
        if self.crazed_gnomes and action.kind == Kind.GIVE:
            return "give"
        return None

    def _validate(self, options: dict[str, OptionValue]) -> dict[str, OptionValue]:
        """The crew (settled from the players by its declaration) needs a starting space."""
        gnomes = int(options["gnomes"])
        if gnomes not in self.components.start_space:
            raise OptionError(f"the time track has no starting space for {gnomes} gnomes")
        return options

    @property
    def ruleset(self) -> str:
        """``info.ruleset``; with the heroic sacrifice house rule, its own version added
        (RN-14 changed in ``.2``: games played without it replay as before)."""
        if self.heroic_sacrifice:
            return f"{self.info.ruleset}+{HEROIC_SACRIFICE_RULES}"
        return self.info.ruleset

    @property
    def num_seats(self) -> int:
        """One seat per gnome."""
        return int(self.options["gnomes"])

    @property
    def num_players(self) -> int:
        """The people (or bots) at the table."""
        return int(self.options["players"])

    def seat_owners(self) -> tuple[int, ...]:
        """Solo: every gnome is player 0's; 2 players: two gnomes each."""
        p = self.num_players
        if p == 1:
            return (0,) * self.num_seats
        if p == 2:
            return tuple(g // 2 for g in range(self.num_seats))
        return tuple(range(self.num_seats))

    def new_state(self, seed: int) -> RedNovemberState:
        """Set up a game from ``seed``."""
        state = RedNovemberState(self, seed)
        state._setup()
        return state

    def state_from_json(self, data: Mapping[str, Any]) -> RedNovemberState:
        """Rebuild a state from JSON data (raises ``ValueError`` naming what is wrong)."""
        return RedNovemberState.from_json(self, data)

    def view_from_json(self, data: Mapping[str, Any]) -> RedNovemberView:
        """The typed view whose JSON form is ``data`` (see :meth:`RedNovemberView.from_wire`;
        raises ``ValueError`` naming what is wrong)."""
        return read_view(self, data)

    def strata(self, view: SeatView) -> int:
        """How many event cards can be on top of the deck: as many as it holds (0 when it
        is empty: the next draw reshuffles the discard pile)."""
        if not isinstance(view, RedNovemberView):
            return 0
        return view.event_deck_size

    def determinize(self, view: SeatView, rng: Rng, stratum: int | None = None) -> RedNovemberState:
        """A state drawn at random among those that show ``view`` to its seat.

        What the seat cannot see is dealt from ``rng``: the event deck (every
        event card not face up, out of the game or set aside, in a random
        order); the item deck and, under Crazed Gnomes, the other gnomes' hands
        (every item copy not in the stash, a visible hand or the discard pile,
        shuffled and dealt to the hidden hands by their public sizes); and a
        fresh seed and generator, so future dice differ from sample to sample.
        ``stratum`` puts the unseen event card of that rank (ascending) on top
        and shuffles the others beneath it. Everything in the view is kept, so
        the sample's view for that seat is ``view`` again. Raises ``ValueError``
        for a view of another game, one that does not add up or a stratum out
        of range.
        """
        if not isinstance(view, RedNovemberView):
            raise ValueError(f"Red November cannot sample from a {type(view).__name__}")
        c = self.components
        n = self.num_seats
        if len(view.room) != n:
            raise ValueError(f"the view is for {len(view.room)} gnomes, the game has {n}")
        events = rules.unseen_events(c, view.event_discard, view.event_removed, view.event_aside)
        if len(events) != view.event_deck_size:
            raise ValueError(
                f"the view's event deck holds {view.event_deck_size} cards but "
                f"{len(events)} are unseen"
            )
        if stratum is None:
            rng.shuffle(events)
        else:
            if not 0 <= stratum < len(events):
                raise ValueError(f"stratum {stratum} is not one of the {len(events)} unseen cards")
            top = events.pop(stratum)
            rng.shuffle(events)
            events.append(top)  # the deck is dealt bottom first: the last card is drawn first
        counts = rules.unseen_item_counts(c, view.stash, view.hands, view.item_discard)
        items = [i for i, k in enumerate(counts) for _ in range(k)]
        rng.shuffle(items)
        width = len(c.items)
        hands: list[list[int]] = []
        pos = 0
        for g, shown in enumerate(view.hands):
            if shown is not None:
                hands.append(list(shown))
                continue
            size = view.hand_size[g]
            hand = [0] * width
            for card in items[pos : pos + size]:
                hand[card] += 1
            pos += size
            hands.append(hand)
        deck = items[pos:]
        if len(deck) != view.item_deck_size or pos > len(items):
            raise ValueError(
                f"the view's item deck holds {view.item_deck_size} cards but "
                f"{len(items) - pos} unseen cards are left for it"
            )
        seed = rng.next64()
        return RedNovemberState.from_view(self, view, events, deck, hands, seed, Rng(rng.next64()))
