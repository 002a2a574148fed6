"""Red November's vocabulary is complete (everything emitted is declared) and not stale
(everything declared is emitted somewhere)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from rn_scenarios import build, card, play
from subtable.core.events import Event
from subtable.core.rng import Rng
from subtable.games.red_november import RedNovember, RedNovemberState
from subtable.games.red_november.components import SEA
from subtable.games.red_november.view import CHOICE_NAMES, PHASE_NAMES

VOCAB = RedNovember.vocabulary
CONFIGS: list[dict[str, Any]] = [
    {"players": 4},
    {"players": 5, "crazed_gnomes": True},
    {"players": 3, "greater_challenge": 2},
    {"players": 8, "less_deadly_dying": True, "crazed_gnomes": True},
    {"players": 1, "gnomes": 3, "greater_challenge": 2},
    {"players": 1, "gnomes": 6, "less_deadly_dying": True},
    {"players": 2, "greater_challenge": 1, "heroic_sacrifice": True},
    {"players": 6, "crazed_gnomes": True, "less_deadly_dying": True, "greater_challenge": 2},
]
#: declared but never produced by any position we can build: ``not_available`` is
#: ``why_illegal``'s last, defensive answer, after every specific reason has been ruled out
#: (for every action kind a more precise code is found first)
UNREACHABLE_REASONS = frozenset({"not_available"})


@dataclass
class Seen:
    events: set[str] = field(default_factory=set)
    causes: set[str] = field(default_factory=set)
    sources: set[str] = field(default_factory=set)
    codes: set[str] = field(default_factory=set)
    phases: set[str] = field(default_factory=set)
    choices: set[str] = field(default_factory=set)
    reasons: set[str] = field(default_factory=set)

    def record(self, events: Iterable[Event]) -> None:
        for e in events:
            assert e.key in VOCAB.event_keys, f"undeclared event key {e.key!r}"
            self.events.add(e.key)
            if e.key == "gnome_killed":
                assert e.params["cause"] in VOCAB.extra["death_causes"], e.params["cause"]
                self.causes.add(e.params["cause"])
            if e.key == "items_drawn":
                assert e.params["source"] in VOCAB.extra["draw_sources"], e.params["source"]
                self.sources.add(e.params["source"])

    def look(self, state: RedNovemberState) -> None:
        pend = state.view(None)["pending"]
        assert pend["phase"] in VOCAB.phases
        self.phases.add(pend["phase"])
        if "choice" in pend:
            assert pend["choice"] in VOCAB.extra["choices"]
            self.choices.add(pend["choice"])
        out = state.outcome()
        if out is not None:
            assert out.reason in VOCAB.end_reasons, out.reason
            self.reasons.add(out.reason)

    def explain_illegal(self, state: RedNovemberState) -> None:
        legal = set(state.legal_action_ids())
        for action in state.game.action_space:
            if action.id in legal:
                continue
            code, message, params = state.why_illegal(action)
            assert code in VOCAB.illegal_reasons, f"undeclared reason {code!r} for {action}"
            assert isinstance(message, str) and message and isinstance(params, dict)
            self.codes.add(code)


@lru_cache(maxsize=1)
def random_games() -> Seen:
    """Random games over every option; illegal actions explained every 7th decision."""
    seen = Seen()
    for k, options in enumerate(CONFIGS):
        game = RedNovember(**options)
        for seed in range(8):
            state = game.new_state(1000 * k + seed)
            rng = Rng(seed)
            seen.record(state.opening_events)
            step = 0
            while not state.is_terminal():
                seen.look(state)
                if step % 7 == seed % 7:
                    seen.explain_illegal(state)
                ids = state.legal_action_ids()
                seen.record(state.apply_unchecked(ids[rng.below(len(ids))]))
                step += 1
            seen.look(state)
    return seen


def test_the_declaration_matches_the_game_info() -> None:
    assert VOCAB.end_reasons == RedNovember.info.end_reasons
    assert VOCAB.phases == PHASE_NAMES
    assert VOCAB.extra["choices"] == frozenset(CHOICE_NAMES.values())
    assert set(VOCAB.extra) == {"death_causes", "choices", "draw_sources"}


def test_random_games_emit_only_declared_words() -> None:
    seen = random_games()  # each emitted word is checked as it is recorded
    assert len(seen.events) > 30 and seen.codes and seen.causes and seen.reasons


def rare_scenarios() -> Seen:
    """Positions random play seldom reaches, built with the scenario helpers."""
    seen = Seen()
    s = build(rooms=[SEA, 8, 9, 10], keepers=[9, 5, 5, 5])  # Abandon Comrades
    seen.record(play(s, "abandon"))
    s = build(
        rooms=[5, 5, 9, 10],
        crazed_gnomes=True,
        rolls=[5, 3],
        hands={0: ["crowbar"], 1: ["crowbar", "toolbox"]},
    )  # a defended attack
    seen.record(play(s, "use crowbar", "attack g2"))
    seen.look(s)  # the defender's decision
    seen.record(play(s, "defend"))
    s = build(
        rooms=[3, 8, 9, 10], hands={0: ["aqualung", "grog"]}, events=[card("fire", 1)]
    )  # fainting outside
    seen.record(play(s, "use aqualung", "move sea", "use grog", "no-action"))
    s = build(
        rooms=[2, 8, 9, 10], fire=[1], hands={0: ["grog"]}, heroic_sacrifice=True, rolls=[1]
    )  # heroic sacrifice
    seen.record(play(s, "use grog", "move 1", "fix-engine 3"))
    s = build(keepers=[10, 5, 5, 5], events=[card("engine_down")])  # token beyond "Rescued!"
    seen.record(play(s, "no-action"))
    s = build(rooms=[8, 9, 9, 9])  # the item deck runs out: reshuffled
    s.item_discard += s.item_deck
    s.item_deck = []
    seen.record(play(s, "draw 3"))
    icon = next(x for x in range(39, 0, -1) if s.c.item_icon[x] and not s.c.event_icon[x])
    s = build(keepers=[icon + 1, 5, 5, 5])  # a time-track item with no card left anywhere
    s.hands[1] = [k + len([c for c in s.item_deck if c == i]) for i, k in enumerate(s.hands[1])]
    s.item_deck, s.item_discard = [], []
    seen.record(play(s, "no-action"))
    s = build(rooms=[5, 5, 9, 10], crazed_gnomes=True, hands={0: ["crowbar"]})
    seen.record(play(s, "use crowbar", "attack g2"))  # an attack nobody can defend
    s = build(keepers=[1, 0, 0, 0])  # the last minute: every keeper reaches "Rescued!"
    seen.record(play(s, "open 6", "done"))  # (and no minute is left for an action)
    seen.look(s)
    refusals = [
        (build(rooms=[5, 5, 9, 10], fainted=[1]), "trade g2"),  # a fainted partner
        (build(rooms=[1, 5, 9, 10], keepers=[3, 2, 2, 2]), "fix-engine 5"),  # too few minutes
        (build(rooms=[SEA, SEA, 9, 10]), "trade g2"),  # nobody trades in the Sea
        (build(rooms=[SEA, 5, 9, 10], keepers=[30, 20, 20, 20]), "abandon"),  # too early
        # heroic sacrifice, but he did not enter the burning room this turn
        (build(rooms=[1, 5, 9, 10], fire=[1], heroic_sacrifice=True), "fix-engine 3"),
    ]
    s = build(rooms=[8, 5, 9, 10])  # one item card left to draw
    s.hands[1] = [k + s.item_deck.count(i) for i, k in enumerate(s.hands[1])]
    s.item_deck = [s.hands[1].index(max(s.hands[1]))]
    s.hands[1][s.item_deck[0]] -= 1
    s._legal = None
    refusals.append((s, "draw 2"))
    s = build(rooms=[SEA, SEA, 9, 10], crazed_gnomes=True, hands={0: ["crowbar"]})
    play(s, "use crowbar")
    refusals.append((s, "attack g2"))  # nor attacks there
    for state, notation in refusals:
        seen.codes.add(state.why_illegal(state.game.parse_action(notation))[0])
    return seen


def test_every_declared_word_is_produced_somewhere() -> None:
    seen = random_games()
    rare = rare_scenarios()
    events, causes = seen.events | rare.events, seen.causes | rare.causes
    assert VOCAB.event_keys - events == set()
    assert VOCAB.extra["death_causes"] - causes == set()
    assert VOCAB.extra["draw_sources"] - seen.sources == set()
    assert VOCAB.illegal_reasons - (seen.codes | rare.codes) == UNREACHABLE_REASONS
    assert set(VOCAB.phases) == seen.phases | rare.phases
    assert VOCAB.extra["choices"] == seen.choices | rare.choices
    assert "rescued" in rare.reasons and len(seen.reasons) >= 4
