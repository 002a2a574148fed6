"""The honesty check: a seat's view and its bots' choices depend only on what it may see.

For a seat *s* at a position, :func:`resample_hidden` builds another state that
differs from the true one in everything *s* cannot see — the seed, the
generator, every deck's order and, under hidden hands, the other seats' hands
and the draw piles — and agrees with it on everything else. It works on the
state's saved form (``to_json``), *independently of the views*: if a view
carried any hidden part (the seed, say), the resampled state would show a
different view and :func:`check_position` would say so.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from subtable.bots.base import make_bot, observe
from subtable.core.game import Game, State
from subtable.core.rng import Rng

#: bots checked at every decision (ISMCTS at a small budget: it is deterministic given its seed)
BOTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("random", {}),
    ("heuristic", {}),
    ("ismcts", {"budget": 12}),
)


class Leak(AssertionError):
    """What a seat may see, or what its bot chose, depended on something hidden from it."""


def _deal(pool: list[int], sizes: list[int], rng: Rng) -> list[list[int]]:
    rng.shuffle(pool)
    out, pos = [], 0
    for size in sizes:
        out.append(pool[pos : pos + size])
        pos += size
    assert pos == len(pool)
    return out


def _counts(cards: list[int], kinds: int) -> list[int]:
    hand = [0] * kinds
    for card in cards:
        hand[card] += 1
    return hand


def _red_november(data: dict[str, Any], seat: int | None, crazed: bool, rng: Rng) -> None:
    rng.shuffle(data["event_deck"])
    hidden = [g for g in range(len(data["hands"])) if crazed and g != seat]
    kinds = len(data["hands"][0])
    pool = list(data["item_deck"])
    for g in hidden:
        pool += [i for i, k in enumerate(data["hands"][g]) for _ in range(k)]
    sizes = [sum(data["hands"][g]) for g in hidden] + [len(data["item_deck"])]
    *hands, deck = _deal(pool, sizes, rng)
    for g, cards in zip(hidden, hands, strict=True):
        data["hands"][g] = _counts(cards, kinds)
    data["item_deck"] = deck


def _submarine(data: dict[str, Any], seat: int | None, rng: Rng) -> None:
    kinds = len(data["discard"])
    others = [s for s in range(len(data["hand"])) if s != seat]
    pool: list[int] = [c for c, k in enumerate(data["box_cards"]) for _ in range(k)]
    for s in others:
        pool += [c for c, k in enumerate(data["hand"][s]) for _ in range(k)]
    for pile in data["pile"]:  # every pile is face down, the seat's own too
        pool += pile
    sizes = (
        [sum(data["box_cards"])]
        + [sum(data["hand"][s]) for s in others]
        + [len(p) for p in data["pile"]]
    )
    box, *rest = _deal(pool, sizes, rng)
    data["box_cards"] = _counts(box, kinds)
    for s in others:
        data["hand"][s] = _counts(rest.pop(0), kinds)
    data["pile"] = rest
    # the shells left in the box are known: every shell not on the table (RULINGS SUB-2)


def resample_hidden(state: State[Any], seat: int | None, rng: Rng) -> State[Any]:
    """A state that differs from ``state`` only in what ``seat`` cannot see."""
    game = state.game
    data = json.loads(json.dumps(state.to_json()))
    data["seed"] = rng.next64()
    data["rng"] = rng.next64()
    if game.info.name == "red-november":
        _red_november(data, seat, bool(game.options["crazed_gnomes"]), rng)
    elif game.info.name == "submarine":
        _submarine(data, seat, rng)
    else:
        raise ValueError(f"no resampler for {game.info.name}")
    return game.state_from_json(data)


def _ints(value: Any) -> Iterator[int]:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            if k in ("seed", "rng"):
                raise Leak(f"a view has a key named {k!r}")
            yield from _ints(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _ints(v)


def check_position(
    state: State[Any],
    rng: Rng,
    *,
    samples: int = 3,
    bots: tuple[tuple[str, dict[str, Any]], ...] = BOTS,
) -> None:
    """Raise :class:`Leak` if a view or a bot's choice here depends on a hidden part."""
    game = state.game
    deciding = state.current_seat()
    for seat in [None, *range(game.num_seats)]:
        view, typed = state.view(seat), state.observe(seat)
        if state.seed in set(_ints(view)):
            raise Leak(f"seat {seat}'s view contains the seed")
        for _ in range(samples):
            twin = resample_hidden(state, seat, rng)
            if twin.view(seat) != view or twin.observe(seat) != typed:
                raise Leak(f"seat {seat}'s view changed when only hidden things did")
            if seat is not None and seat == deciding:
                for name, params in bots:
                    chosen = [
                        make_bot(name, game, seat, Rng(7), **params).choose(observe(s, seat)).id
                        for s in (state, twin)
                    ]
                    if chosen[0] != chosen[1]:
                        raise Leak(
                            f"bot {name} of seat {seat} chose differently when only "
                            "hidden things changed"
                        )


def check_game(
    game: Game[Any], seed: int, *, every: int = 9, bots_every: int = 3, samples: int = 3
) -> int:
    """Play a random game, checking every ``every``-th position; return positions checked.

    Bots are run at one checked position in ``bots_every`` (they cost the most).
    """
    rng = Rng(seed ^ 0x0B5E55ED)
    state = game.new_state(seed)
    checked = step = 0
    while not state.is_terminal():
        if step % every == 0:
            check_position(
                state, rng, samples=samples, bots=BOTS if checked % bots_every == 0 else ()
            )
            checked += 1
        ids = state.legal_action_ids()
        state.apply_unchecked(ids[rng.below(len(ids))])
        step += 1
    return checked
