"""Invariants every Red November state keeps (used by tests and the lab's soak runs)."""

from __future__ import annotations

from collections import Counter

from subtable.games.red_november.components import SEA
from subtable.games.red_november.state import RedNovemberState
from subtable.games.red_november.view import Phase


def broken_invariants(s: RedNovemberState) -> list[str]:
    """Descriptions of the invariants ``s`` breaks (empty when all hold)."""
    c = s.c
    bad: list[str] = []
    cards = s.event_deck + s.event_discard + s.event_removed + s.event_aside
    if sorted(cards) != list(range(len(c.events))):
        bad.append("an event card is missing or in two places")
    items: Counter[int] = Counter(s.item_deck)
    items.update(s.item_discard)
    for hand in s.hands:
        for i, k in enumerate(hand):
            if k < 0:
                bad.append("a negative item count")
            items[i] += k
    items[c.item_index("grog")] += s.stash
    for item in c.items:
        if items[item.index] != item.copies:
            bad.append(f"{item.kind}: {items[item.index]} cards, expected {item.copies}")
    if sum(s.blocked) > len(c.hatches):
        bad.append("more Blocked Hatch tokens than hatches")
    for r in range(1, 11):
        if s.fire[r] and s.water[r]:
            bad.append(f"room {r} burns and is flooded")
        if s.water[r] not in (0, 1, 2):
            bad.append(f"room {r} has water level {s.water[r]}")
    if s.fire[SEA] or s.water[SEA]:
        bad.append("the sea burns or floods")
    for t, level in enumerate(s.track):
        if not c.track_start <= level <= c.track_length:
            bad.append(f"{c.tracks[t]} marker at {level}")
        if level >= c.track_length and not s.is_terminal():
            bad.append(f"{c.tracks[t]} at the end but the game goes on")
    for t, pos in enumerate(s.token):
        if pos != -1 and not 0 < pos <= c.time_top:
            bad.append(f"{c.tokens[t]} token on {pos}")
    start = c.start_space[s.n]
    for g in range(s.n):
        if s.on_board(g):
            if not 0 <= s.keeper[g] <= start:
                bad.append(f"gnome {g + 1}'s keeper on {s.keeper[g]}")
            if not 1 <= s.room[g] <= SEA:
                bad.append(f"gnome {g + 1} in room {s.room[g]}")
        elif s.keeper[g] != -1 and not s.game.options["less_deadly_dying"]:
            bad.append(f"gnome {g + 1} is gone but his keeper remains")
        if not 0 <= s.intox[g] <= 4:
            bad.append(f"gnome {g + 1} intoxication {s.intox[g]}")
    if (
        not s.is_terminal()
        and s.active >= 0
        and s.on_board(s.active)
        and s.phase != Phase.EVENT_CHOICE
    ):
        # a decision of the turn itself (not of its Updates): the active gnome's keeper has
        # not moved yet, so it must be the furthest back in time, on top of its stack
        a = s.active
        if not 0 <= s.ghost <= s.keeper[a]:
            bad.append(f"ghost on {s.ghost}, keeper on {s.keeper[a]}")
        for g in range(s.n):
            if g == a or not s.on_board(g):
                continue
            if (s.keeper[g], s.seq[g]) > (s.keeper[a], s.seq[a]):
                bad.append(f"gnome {g + 1} should act before the active gnome {a + 1}")
    return bad
