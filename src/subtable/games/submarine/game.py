"""Submarine as a :class:`~subtable.core.game.Game`: rules, options, metadata."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from subtable.core.game import Game, GameInfo, OptionSpec, Utility
from subtable.core.rng import Rng
from subtable.core.view import SeatView, Vocabulary
from subtable.games.submarine import rules
from subtable.games.submarine.actions import ActionIndex, Kind, SubAction, build_action_space
from subtable.games.submarine.components import Components, default_components
from subtable.games.submarine.options import OPTIONS
from subtable.games.submarine.state import SubmarineState
from subtable.games.submarine.view import PHASE_NAMES, Phase, SubmarineView

#: every event key the engine emits (tests check both ways)
EVENT_KEYS = frozenset(
    {
        "game_started",
        "bathyscaphe_placed",
        "turn_started",
        "boat_moved",
        "boat_left_board",
        "bathyscaphe_chosen",
        "bathyscaphe_moved",
        "card_paid",
        "card_given",
        "cards_drawn",
        "treasure_collected",
        "actions_ended",
        "card_swapped",
        "no_swap",
        "boats_returned",
        "game_over",
    }
)
#: every reason code of ``why_illegal``. One is defensive and cannot occur in play:
#: ``not_available`` (a ``move`` or ``done`` refused in the bathyscaphes' phase
#: although nothing else forbids it); tests check that every other one occurs.
ILLEGAL_REASONS = frozenset(
    {
        "wrong_phase",
        "boat_backwards",
        "no_bathyscaphe",
        "no_card",
        "empty_pile",
        "already_acted",
        "not_available",
        "same_cell",
        "too_deep",
        "just_put_down",
        "not_here",
        "no_joker",
        "toll_unpayable",
    }
)


class Submarine(Game[SubAction]):
    """Submarine (Leo Colovini, 2004), competitive, 2–5 captains.

    >>> game = Submarine(players=3)
    >>> state = game.new_state(seed=7)
    >>> state.current_seat() in range(3)
    True
    """

    info: ClassVar[GameInfo] = GameInfo(
        name="submarine",
        title="Submarine",
        ruleset=default_components().ruleset,
        min_players=2,
        max_players=5,
        min_seats=2,
        max_seats=5,
        utility=Utility.GENERAL_SUM,
        hidden_information=True,
        max_game_length=20_000,
        end_reasons=rules.END_REASONS,
    )
    vocabulary: ClassVar[Vocabulary] = Vocabulary(
        event_keys=EVENT_KEYS,
        illegal_reasons=ILLEGAL_REASONS,
        end_reasons=rules.END_REASONS,
        phases=PHASE_NAMES,
    )
    option_specs: ClassVar[Mapping[str, OptionSpec[Any]]] = OPTIONS

    def __init__(self, components: Components | None = None, **options: Any) -> None:
        self.components = components or default_components()
        super().__init__(**options)
        self.action_space = build_action_space(self.components)
        self.index = ActionIndex(self.action_space, self.components)
        #: the actions by id, and every token's notation (for the hot paths)
        self.actions: tuple[SubAction, ...] = tuple(self.action_space)
        self.token_names: tuple[str, ...] = tuple(
            self.components.token_name(t) for t in range(self.components.tokens)
        )

    @property
    def num_seats(self) -> int:
        """One seat per captain."""
        return int(self.options["players"])

    @property
    def num_players(self) -> int:
        """The people (or bots) at the table."""
        return int(self.options["players"])

    def new_state(self, seed: int) -> SubmarineState:
        """Set up a game from ``seed``."""
        state = SubmarineState(self, seed)
        state._setup()
        return state

    def state_from_json(self, data: Mapping[str, Any]) -> SubmarineState:
        """Rebuild a state from JSON data."""
        return SubmarineState.from_json(self, data)

    def view_from_json(self, data: Mapping[str, Any]) -> SubmarineView:
        """The typed view whose JSON form is ``data`` (see :meth:`SubmarineView.from_wire`)."""
        return SubmarineView.from_wire(data, self)

    def public_form(self, action: SubAction) -> str | None:
        """A toll card given from the hand and a swap hide their colour: ``give``, ``swap``."""
        if action.kind == Kind.GIVE:
            return "give"
        if action.kind == Kind.SWAP:
            return "swap"
        return None

    def determinize(self, view: SeatView, rng: Rng, stratum: int | None = None) -> SubmarineState:
        """A state drawn uniformly among those that show ``view`` to its seat.

        Everything in the view is kept, turn bookkeeping included. What the seat
        cannot see — the other hands, every draw pile (its own included) and the
        cards boxed at setup — is dealt at random, from ``rng``, out of the search
        cards it cannot see; the state gets a fresh seed and generator from ``rng``.
        Raises ``ValueError`` if the view is not a Submarine view of this game, its
        card counts do not add up, or a ``stratum`` is given (Submarine names none).
        """
        if not isinstance(view, SubmarineView):
            raise ValueError(
                f"Submarine.determinize needs a SubmarineView, not {type(view).__name__}"
            )
        if stratum is not None:
            raise ValueError("Submarine's worlds have no strata")
        n = self.num_seats
        if view.players != n:
            raise ValueError(f"the view is of a {view.players}-player game, this game has {n}")
        keep, extra, pool = self._unseen_cards(view)
        rng.shuffle(pool)
        st = SubmarineState(self, rng.next64())
        _copy_view(st, view)
        self._deal_unseen(st, view, keep, extra, pool)
        return st

    def _unseen_cards(self, view: SubmarineView) -> tuple[int, int, list[int]]:
        """How many cards of each colour the game keeps, how many of the dealt surplus were
        boxed at setup (RULING SUB-1), and the colours of the cards ``view`` does not show
        (raises ``ValueError`` when its counts do not add up)."""
        c = self.components
        n = self.num_seats
        ncol = len(c.colours)
        needed = n * c.setups[n].cards
        keep = -(-needed // ncol)
        extra = keep * ncol - needed
        mine = view.hands[view.seat] if view.seat is not None else None
        pool: list[int] = []
        for col in range(ncol):
            k = keep - view.discard[col] - (mine[col] if mine is not None else 0)
            if k < 0:
                raise ValueError(f"the view shows more {c.colours[col]} cards than the game has")
            pool += [col] * k
        hidden = sum(view.hand_sizes[s] for s in range(n) if view.hands[s] is None)
        if view.boxed_cards != (c.cards_per_colour - keep) * ncol + extra or extra + hidden + sum(
            view.pile_sizes
        ) != len(pool):
            raise ValueError("the view's card counts do not add up")
        return keep, extra, pool

    def _deal_unseen(
        self, st: SubmarineState, view: SubmarineView, keep: int, extra: int, pool: list[int]
    ) -> None:
        """Deal the shuffled ``pool``: the box's surplus, the hidden hands, every pile."""
        c = self.components
        ncol = len(c.colours)
        box = [c.cards_per_colour - keep] * ncol
        for col in pool[:extra]:
            box[col] += 1
        pos = extra
        hands = [list(h) if h is not None else [0] * ncol for h in view.hands]
        for s in range(self.num_seats):
            if view.hands[s] is not None:
                continue
            for col in pool[pos : pos + view.hand_sizes[s]]:
                hands[s][col] += 1
            pos += view.hand_sizes[s]
        piles = []
        for size in view.pile_sizes:
            piles.append(pool[pos : pos + size])
            pos += size
        st.box_cards = box
        st.hand = hands
        st.pile = piles


def _copy_view(st: SubmarineState, view: SubmarineView) -> None:
    """Give ``st`` everything ``view`` shows: the board, the turn, the result."""
    over = view.phase == Phase.OVER
    st.cells = [list(x) for x in view.cells]
    st.owned = [list(x) for x in view.treasures]
    st.spare = [list(x) for x in view.jokers]
    st.baths = [list(x) for x in view.bathyscaphes]
    st.boat = list(view.boats)
    st.discard = list(view.discard)
    st.box_tokens = list(view.boxed_jokers)
    st.owed = list(view.owed)
    st.placed = list(view.placed)
    st.result_winners = list(view.winners)
    st.phase = view.phase
    st.seat = view.active
    st.first = view.first
    st.turn = view.turn
    st.to_place = view.to_place
    st.column = view.column
    st.acting = view.acting
    st.moving = view.moving
    st.acted = view.acted
    st.pend_token = view.pending_token
    st.pend_cell = view.pending_cell
    st.ender = view.active if over else -1
    st.result_reason = view.end_reason or ""
    mine = view.seat == view.active
    st._legal = [] if over else list(view.legal) if view.legal and mine else None
