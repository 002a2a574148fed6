"""Sample a full Submarine state consistent with one seat's view.

Search bots must not read the true state's secrets; this module rebuilds a
state from the view alone. The board, boats, bathyscaphes, treasures, jokers,
discards and every hand and pile *size* are public; what is hidden — the other
hands, every draw pile (the seat's own included: toll cards arrive face down)
and the cards boxed at setup — is dealt at random from the search cards the
seat cannot see, and the state gets a fresh generator.

Turn bookkeeping the view shows in ``pending`` (the idle bathyscaphes, the one
collecting or moving, the toll still owed) is rebuilt from it; the jokers just
put down by the current collection are read off the legal actions when the
view has them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from subtable.core.rng import Rng
from subtable.games.submarine.state import LEFT, PHASE_NAMES

if TYPE_CHECKING:
    from subtable.games.submarine.game import Submarine
    from subtable.games.submarine.state import SubmarineState

P_PLACE, P_BOAT, P_ACT, P_GIVE, P_SWAP, P_TO, P_OVER = range(7)


def public_fields(game: Submarine, view: Mapping[str, Any]) -> dict[str, Any]:
    """The view as engine-shaped fields (token ids, 0-based cells); hidden hands ``None``."""
    c = game.components
    lv = c.levels
    ids = {name: i for i, name in enumerate(game.token_names)}
    colour = {name: i for i, name in enumerate(c.colours)}
    n = len(view["players"])
    cells = [[ids[t] for t in level] for col in view["cells"] for level in col]
    baths: list[list[int]] = []
    owned: list[list[int]] = []
    spare: list[list[int]] = []
    hand: list[list[int] | None] = []
    boat: list[int] = []
    hand_size: list[int] = []
    pile_size: list[int] = []
    for p in view["players"]:
        baths.append(sorted((col - 1) * lv + (level - 1) for col, level in p["bathyscaphes"]))
        pos = p["boat"]
        boat.append(LEFT if pos == "left" else c.columns if pos == "right" else int(pos) - 1)
        own = [-1] * len(c.types)
        for name in p["treasures"]:
            own[ids[name] // len(c.colours)] = ids[name]
        owned.append(own)
        spare.append(sorted(ids[name] for name in p["jokers"]))
        if p["hand"] is None:
            hand.append(None)
        else:
            counts = [0] * len(c.colours)
            for name, k in p["hand"].items():
                counts[colour[name]] = k
            hand.append(counts)
        hand_size.append(p["hand_size"])
        pile_size.append(p["pile_size"])
    pending = view["pending"]
    phase = PHASE_NAMES.index(pending["phase"])
    return {"n": n, "cells": cells, "baths": baths, "boat": boat, "owned": owned,
            "spare": spare, "hand": hand, "hand_size": hand_size, "pile_size": pile_size,
            "discard": [view["discard"].get(name, 0) for name in c.colours],
            "box_cards_total": view["box_cards"], "phase": phase,
            "seat": -1 if pending["seat"] is None else pending["seat"],
            "column": pending["column"] - 1 if "column" in pending else -1,
            "idle": list(pending.get("idle", ())),
            "collecting_level": pending.get("collecting_level"),
            "moving": pending.get("moving"), "toll_left": pending.get("toll_left", 0),
            "treasure": ids.get(pending.get("treasure", ""), -1),
            "turn": view["turn"], "first": view["first"], "legal": view.get("legal")}


def _turn_bookkeeping(game: Submarine, f: dict[str, Any]) -> dict[str, Any]:
    """``acted``, ``acting``, ``moving``, ``placed``, ``owed`` and the pending toll."""
    c = game.components
    lv = c.levels
    out: dict[str, Any] = {"acted": 0, "acting": -1, "moving": -1, "placed": [], "owed": [],
           "pend_token": -1, "pend_cell": -1}
    s, col = f["seat"], f["column"]
    if f["phase"] not in (P_ACT, P_GIVE, P_TO) or s < 0:
        return out
    baths = f["baths"][s]
    idle = list(f["idle"])
    acted = 0
    for i, b in enumerate(baths):
        if b // lv == col:
            if b % lv + 1 in idle:
                idle.remove(b % lv + 1)
            else:
                acted |= 1 << i
    out["acted"] = acted

    def busy(cell: int) -> int:
        return next(i for i, b in enumerate(baths) if b == cell and acted >> i & 1)

    if f["collecting_level"] is not None:
        out["acting"] = busy(col * lv + f["collecting_level"] - 1)
    if f["moving"] is not None:
        mc, ml = f["moving"]
        out["moving"] = busy((mc - 1) * lv + ml - 1)
    if out["acting"] >= 0:
        cell = baths[out["acting"]]
        toll = [r for k in range(1, f["n"]) for r in [(s + k) % f["n"]]
                for b in f["baths"][r] if cell - cell % lv <= b <= cell]
        if f["phase"] == P_GIVE:
            out["owed"] = toll[len(toll) - f["toll_left"]:]
            out["pend_token"], out["pend_cell"] = f["treasure"], cell
        legal = f["legal"]
        if legal is not None and f["phase"] == P_ACT:
            names = game.token_names
            takeable = {text.split()[1] for text in legal if text.startswith("collect ")}
            hand = f["hand"][s] or [0] * len(c.colours)
            spendable = f["pile_size"][s] + sum(hand) - 1 - len(toll)
            for t in f["cells"][cell]:
                could = bool(f["spare"][s]) or (hand[t % len(c.colours)] and spendable >= 0)
                if could and names[t] not in takeable:
                    out["placed"].append(t)
    return out


def determinize(game: Submarine, view: Mapping[str, Any], rng: Rng) -> SubmarineState:
    """A state drawn uniformly among those that give ``view`` to its seat."""
    c = game.components
    f = public_fields(game, view)
    n = f["n"]
    me = view["seat"]
    ncol = len(c.colours)
    setup = c.setups[n]
    needed = n * setup.cards
    keep = -(-needed // ncol)
    pool: list[int] = []
    for col in range(ncol):
        mine = f["hand"][me][col] if me is not None and f["hand"][me] is not None else 0
        pool += [col] * (keep - f["discard"][col] - mine)
    rng.shuffle(pool)
    extra = keep * ncol - needed
    hidden = [s for s in range(n) if f["hand"][s] is None]
    want = extra + sum(f["hand_size"][s] for s in hidden) + sum(f["pile_size"])
    if want != len(pool):
        raise ValueError("the view's card counts do not add up")
    box = [c.cards_per_colour - keep] * ncol
    for col in pool[:extra]:
        box[col] += 1
    pos = extra
    hands = [list(h) if h is not None else [0] * ncol for h in f["hand"]]
    for s in hidden:
        for col in pool[pos:pos + f["hand_size"][s]]:
            hands[s][col] += 1
        pos += f["hand_size"][s]
    piles = []
    for s in range(n):
        piles.append(pool[pos:pos + f["pile_size"][s]])
        pos += f["pile_size"][s]
    on_board = {t for cell in f["cells"] for t in cell} | {t for sp in f["spare"] for t in sp}
    phase = f["phase"]
    data: dict[str, Any] = {
        "seed": 0, "phase": phase, "seat": f["seat"] if f["seat"] >= 0 else 0,
        "first": f["first"], "turn": f["turn"],
        "to_place": (n * setup.bathyscaphes - sum(len(b) for b in f["baths"])
                     if phase == P_PLACE else 0),
        "column": f["column"], "ender": -1, "result_reason": "", "result_winners": [],
        "cells": f["cells"], "owned": f["owned"], "spare": f["spare"], "hand": hands,
        "pile": piles, "baths": f["baths"], "boat": f["boat"], "discard": f["discard"],
        "box_cards": box,
        "box_tokens": sorted(t for t in range(c.treasure_tokens, c.tokens) if t not in on_board),
        "history": [], "rng": rng.next64(),
    }
    data.update(_turn_bookkeeping(game, f))
    return game.state_from_json(data)
