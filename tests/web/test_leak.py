"""No message to a seat ever carries the seed, a deck order or another seat's hidden cards.

Whole games of both games are played through the server by scripted seats; every frame each
seat (and a spectator) received is recorded and checked against what that seat may see, by
replaying the game's record: (a) no key ``seed``/``rng`` and no value equal to the seed,
(b) every view equals ``state.view(seat)`` at that point, (c) every event is
``Event.for_seat(seat)``, and under Crazed Gnomes no other gnome's hand shows.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.web.conftest import Seat, new_table, play_out

from subtable.core.record import GameRecord, replay
from subtable.core.registry import make_game

pytestmark = pytest.mark.slow  # most tests here take over two seconds


def _walk(value: Any, seed: int, path: str = "") -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            assert str(key).lower() not in ("seed", "rng"), f"key {key!r} at {path}"
            _walk(item, seed, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _walk(item, seed, f"{path}[{i}]")
    else:
        assert value != seed and value != str(seed), f"the seed at {path}"


def _notation_seen(
    game: str, text: str, actor: int, events: list[Any], own: list[int], crazed: bool
) -> str:
    """What a seat holding ``own`` may read of an action: another captain's toll card or
    swap shows no colour; under Crazed Gnomes an item given shows only to the two gnomes."""
    word = text.split()[0]
    if actor in own:
        return text
    if game == "submarine" and word in ("give", "swap"):
        return word
    if game == "red-november" and crazed and word == "give":
        taker = next(e.params["to"] for e in events if e.key == "item_given")
        return text if taker in own else word
    return text


def _check(record: dict[str, Any], seats: list[Seat], crazed: bool) -> None:
    rec = GameRecord.from_json(record)
    replay(rec)  # the record verifies
    game = make_game(rec.game, **rec.options)
    state = game.new_state(rec.seed)
    views = {0: {s: state.view(s) for s in [None, *range(game.num_seats)]}}
    events: dict[int, list[Any]] = {}
    for seq, text in enumerate(rec.actions, start=1):
        events[seq] = state.apply(text)
        views[seq] = {s: state.view(s) for s in [None, *range(game.num_seats)]}
    for seat in seats:
        own = seat.welcome["seats"]
        for frame in seat.frames:
            _walk(frame, rec.seed)
            if frame["type"] not in ("sync", "update"):
                continue
            seq = frame["state"]["seq"]
            for item in frame["state"]["views"]:
                assert item["seat"] in (own or [None])
                assert item["view"] == views[seq][item["seat"]], (seat.welcome, seq)
                gnomes = item["view"].get("gnomes")
                if crazed and gnomes is not None:
                    for g in gnomes:
                        if g["seat"] != item["seat"]:
                            assert g["hand"] is None
            if frame["type"] == "update":
                entry = frame["entry"]
                assert entry["seq"] == seq
                seen = _notation_seen(
                    rec.game, rec.actions[seq - 1], entry["seat"], events[seq], own, crazed
                )
                assert entry["action"] == seen, (own, seq)
                if seen != rec.actions[seq - 1]:  # a public form: its label names no card
                    hidden = rec.actions[seq - 1].split()[1]
                    assert hidden not in entry["label"].lower(), entry
                    assert hidden.replace("-", " ") not in entry["label"].lower(), entry
                me = own[0] if own else None
                expected = [e.for_seat(me).to_json() for e in events[seq]]
                assert entry["events"] == expected


@pytest.mark.parametrize(
    ("game", "players", "options", "seats"),
    [
        ("red-november", 4, {"crazed_gnomes": True}, ["human"] * 4),
        ("red-november", 4, {"crazed_gnomes": True}, ["human", "heuristic", "human", "random"]),
        ("submarine", 3, {}, ["human"] * 3),
        ("submarine", 5, {}, ["human", "human", "random", "human", "heuristic"]),
    ],
)
def test_no_frame_leaks(
    client: Any, connect: Any, game: str, players: int, options: dict[str, Any], seats: list[str]
) -> None:
    for g in range(2 if game == "red-november" else 1):
        rng = random.Random(g)
        t = new_table(client, game=game, players=players, options=options, seats=seats)
        humans = [connect(t["id"], i["token"]) for i in t["invites"]]
        watcher = connect(t["id"], t["spectator"]["token"])
        play_out([*humans, watcher], lambda s, r=rng: r.choice(s.state["legal"])["id"])
        record = client.get(f"/api/tables/{t['id']}/record").json()
        _check(record, [*humans, watcher], bool(options.get("crazed_gnomes")))
        # the seed is in the record, once the game is over, and in no frame before
        assert isinstance(record["seed"], int) and record["seed"] > 2**20
