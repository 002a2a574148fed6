"""Sample a full Red November state consistent with one seat's view.

Search bots (ISMCTS) must not read the true state's secrets. This module
rebuilds a state from the view alone — ``view["public"]`` is the state's JSON
with the secrets set to ``None`` — by dealing the unseen cards at random:

* the event deck: every event card not in the discard pile, out of the game or
  set aside, in a random order;
* the item deck (and, under Crazed Gnomes, the other gnomes' hands): every item
  copy minus the Grog stash, the visible hands and the discard pile;
* a fresh generator, so future dice differ from sample to sample.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from subtable.core.rng import Rng

if TYPE_CHECKING:
    from subtable.games.red_november.game import RedNovember
    from subtable.games.red_november.state import RedNovemberState


def unseen_events(game: RedNovember, public: Mapping[str, Any]) -> list[int]:
    """The event cards a seat cannot locate: those in the deck (order unknown)."""
    seen = set(public["event_discard"]) | set(public["event_removed"]) | set(
        public["event_aside"])
    return [card.index for card in game.components.events if card.index not in seen]


def unseen_items(game: RedNovember, public: Mapping[str, Any]) -> list[int]:
    """The item cards a seat cannot locate: the deck plus hidden hands, as a multiset."""
    c = game.components
    count = [item.copies for item in c.items]
    count[c.item_index("grog")] -= int(public["stash"])
    for hand in public["hands"]:
        if hand is not None:
            for i, k in enumerate(hand):
                count[i] -= k
    for i in public["item_discard"]:
        count[i] -= 1
    if any(k < 0 for k in count):
        raise ValueError("the view shows more item cards than the game has")
    return [i for i, k in enumerate(count) for _ in range(k)]


def determinize(game: RedNovember, view: Mapping[str, Any], rng: Rng) -> RedNovemberState:
    """A state drawn uniformly among those that give ``view`` to its seat."""
    public = view["public"]
    events = unseen_events(game, public)
    if len(events) != public["event_deck_size"]:
        raise ValueError("the view's event deck size does not match the unseen cards")
    rng.shuffle(events)
    items = unseen_items(game, public)
    rng.shuffle(items)
    hands = [list(h) if h is not None else None for h in public["hands"]]
    hidden = [g for g, h in enumerate(hands) if h is None]
    sizes = {gn["seat"]: gn["hand_size"] for gn in view["gnomes"]}
    pos = 0
    for g in hidden:
        hand = [0] * len(game.components.items)
        for card in items[pos:pos + sizes[g]]:
            hand[card] += 1
        pos += sizes[g]
        hands[g] = hand
    deck = items[pos:]
    if len(deck) != public["item_deck_size"]:
        raise ValueError("the view's item deck size does not match the unseen cards")
    data = dict(public)
    data.pop("event_deck_size", None)
    data.pop("item_deck_size", None)
    data["event_deck"] = events
    data["item_deck"] = deck
    data["hands"] = hands
    data["history"] = []
    data["rng"] = rng.next64()
    return game.state_from_json(data)
