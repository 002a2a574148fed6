"""Everything the server sends a seat is a function of that seat's information alone.

Two histories that one seat cannot tell apart — another captain swapped another colour,
another gnome gave another item, the hidden cards were dealt otherwise — are played
through the server, each at its own table; the seat (or a spectator) watches both with
the page's rendering on, asks ``why`` about a spread of actions, tries moves out of turn
and asks to undo, and every frame it receives must be the same, byte for byte.

The histories are built by a joint random walk over two engine states: at each step the
second history plays an action whose effect the watcher cannot tell from the first's
(the same view for the watcher, the same events as redacted for it), preferring another
one where there is a choice. The engine's own per-seat view and redacted events are the
only judges of "cannot tell apart"; the server's notation, labels, narration and errors
are what is tested. Three planted leaks show that the comparison catches what it should.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from subtable.core.game import State
from subtable.core.registry import make_game
from subtable.core.rng import Rng
from subtable.web import live, livetable
from subtable.web.app import Settings, create_app
from subtable.web.live import Refused
from subtable.web.protocol import WhyFrame

pytestmark = pytest.mark.slow  # most tests here take over two seconds

SEED = 4242
#: the moves the walk leans towards
TOWARDS = ("draw", "trade", "give", "swap")


@dataclass
class Pair:
    """Two histories (action notations) the watcher cannot tell apart."""

    game: str
    options: dict[str, Any]
    watcher: int | None
    first: list[str]
    second: list[str]
    #: the second table starts from a world re-dealt from the watcher's view
    redealt: bool = False


def _seen(state: State[Any], events: list[Any], seat: int | None) -> str:
    return json.dumps(
        [state.view(seat), [e.for_seat(seat).to_json() for e in events]], sort_keys=True
    )


def _start(game: str, options: dict[str, Any], watcher: int | None, redeal: bool) -> list[Any]:
    g = make_game(game, **options)
    one = g.new_state(SEED)
    two = g.determinize(one.observe(watcher if watcher is not None else 0), Rng(99))
    return [one, two if redeal else one.clone()]


def joint_walk(
    game: str,
    options: dict[str, Any],
    watcher: int | None,
    *,
    steps: int,
    seed: int,
    redeal: bool = False,
) -> Pair:
    """Two histories of up to ``steps`` actions, indistinguishable to ``watcher``."""
    one, two = _start(game, options, watcher, redeal)
    rng = random.Random(seed)
    first: list[str] = []
    second: list[str] = []
    for _ in range(steps):
        if one.is_terminal():
            break
        actor = one.current_seat()
        if two.current_seat() != actor:
            break
        picked = None
        xs = one.legal_actions()
        rng.shuffle(xs)
        # lean towards the moves that make hidden hands: drawing, trading, giving
        xs.sort(key=lambda a: a.notation().split()[0] not in TOWARDS or rng.random() < 0.3)
        for x in xs:
            after_one = one.clone()
            seen = _seen(after_one, after_one.apply(x), watcher)
            word = x.notation().split()[0]
            ys = [y for y in two.legal_actions() if y.notation().split()[0] == word]
            if actor == watcher:  # the watcher's own move is the same in both
                ys = [y for y in ys if y.id == x.id]
            rng.shuffle(ys)
            ys.sort(key=lambda y: y.id == x.id)  # another action first, where one will do
            for y in ys:
                after_two = two.clone()
                if _seen(after_two, after_two.apply(y), watcher) == seen:
                    picked = (x, y, after_one, after_two)
                    break
            if picked is not None:
                break
        if picked is None:
            break
        x, y, one, two = picked
        first.append(x.notation())
        second.append(y.notation())
    return Pair(game, options, watcher, first, second, redeal)


# -- playing a pair through the server -----------------------------------------------------
@contextlib.contextmanager
def _app(tmp_path: Path) -> Iterator[TestClient]:
    # one still clock: the two tables are played one after the other, and what time a line
    # was said is public (the same in both histories), not a difference to find
    settings = Settings(
        db=str(tmp_path / "t.db"), bot_workers=0, rate=1e6, burst=1e6, clock=lambda: 1.8e9
    )
    app = create_app(settings)
    with TestClient(app) as client:
        yield client


class _Socket:
    def __init__(self, client: TestClient) -> None:
        self._cm = client.websocket_connect("/ws")
        self.ws = self._cm.__enter__()
        self.raw: list[str] = []

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send_text(json.dumps({"v": 1, **msg}))

    def recv(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        self.raw.append(text)
        data: dict[str, Any] = json.loads(text)
        return data

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._cm.__exit__(None, None, None)


def _probes(game: str, options: dict[str, Any]) -> list[str]:
    """The actions the watcher asks about: every one whose answer could hang on a hand."""
    g = make_game(game, **options)
    hands = {"give", "swap", "use", "discard"}
    picked = [a.notation() for a in g.action_space if a.notation().split()[0] in hands]
    others = [a.notation() for a in g.action_space if a.notation().split()[0] not in hands]
    return picked + others[:: max(1, len(others) // 12)]


@dataclass
class Seated:
    """A table of the pair's game with every player seated and the watcher connected."""

    table: str
    owners: tuple[int, ...]
    players: list[_Socket]
    watcher: _Socket
    state: dict[str, Any]


def seat_everyone(client: TestClient, pair: Pair, *, redealt: bool, **body: Any) -> Seated:
    """Open a table of ``pair``'s game (the second history's hidden cards dealt otherwise
    when ``redealt``; ``body``: more of the creation request), seat every player and connect
    the watcher (its seat, or a spectator), rendering in French."""
    game = make_game(pair.game, **pair.options)
    with pytest.MonkeyPatch.context() as c:
        c.setattr(live.secrets, "randbits", lambda _bits: SEED)
        if redealt:
            world = _start(pair.game, pair.options, pair.watcher, True)[1]
            real_build = live.build_table

            def build(row: Any, tokens: dict[str, int]) -> live.LiveTable:
                table = real_build(row, tokens)
                table.state = world
                return table

            c.setattr(live, "build_table", build)
        r = client.post(
            "/api/tables",
            json={
                "game": pair.game,
                "players": pair.options.get("players"),
                "options": _options(pair.options),
                "seats": ["human"] * game.num_players,
                **body,
            },
        )
    assert r.status_code == 201, r.text
    t = r.json()
    players = [_Socket(client) for _ in t["invites"]]
    for sock, invite in zip(players, t["invites"], strict=True):
        sock.send({"type": "hello", "table": t["id"], "token": invite["token"]})
        sock.recv()
        sock.recv()
    owners = game.seat_owners()
    watcher = _Socket(client)
    token = (
        t["spectator"]["token"]
        if pair.watcher is None
        else t["invites"][owners[pair.watcher]]["token"]
    )
    watcher.send(
        {"type": "hello", "table": t["id"], "token": token, "render": "html", "lang": "fr"}
    )
    watcher.recv()
    return Seated(t["id"], owners, players, watcher, watcher.recv()["state"])


def play_through_server(
    client: TestClient, pair: Pair, history: list[str], *, redealt: bool
) -> list[str]:
    """Play ``history`` at a new table of the server; return every frame the watcher got,
    with the table's id blanked out (the only thing that differs between two tables)."""
    game = make_game(pair.game, **pair.options)
    # names and chat are public: they ride along, the same in both histories
    names = [f"<i>P{n}</i>" for n in range(game.num_players)]
    at = seat_everyone(client, pair, redealt=redealt, names=names)
    owners, players, watcher, state = at.owners, at.players, at.watcher, at.state
    probes = _probes(pair.game, pair.options)
    for seq, notation in enumerate(history):
        if seq % 2 == 0:  # ask about hands, act out of turn, try to undo: nothing may change
            for probe in probes[seq % 3 :: 3]:
                watcher.send({"type": "why", "action": probe})
                watcher.recv()
            # out of turn, or (when the watcher decides) at a stale position
            stale = seq + 1 if state["your_turn"] else seq
            watcher.send({"type": "action", "seq": stale, "action": probes[seq % len(probes)]})
            watcher.recv()
            if not state["can_undo"]:
                watcher.send({"type": "undo", "seq": seq})
                watcher.recv()
        if seq == 5:
            players[0].send({"type": "chat", "text": "all <b>well</b>?"})
            for sock in [*players, watcher]:
                assert sock.recv()["type"] == "chat"
        decider_player = owners[_decider(client, at.table)]
        mover = players[decider_player] if watcher_not(pair, decider_player, owners) else watcher
        mover.send({"type": "action", "seq": seq, "action": notation})
        if mover is not watcher:
            reply = mover.recv()
            assert reply["type"] == "update", reply
        for sock in players:
            if sock is not mover:
                assert sock.recv()["type"] == "update"
        got = watcher.recv()
        assert got["type"] == "update", got
        state = got["state"]
    for sock in [*players, watcher]:
        sock.close()
    return [text.replace(at.table, "TABLE") for text in watcher.raw]


def watcher_not(pair: Pair, player: int, owners: tuple[int, ...]) -> bool:
    return pair.watcher is None or owners[pair.watcher] != player


def _decider(client: TestClient, table: str) -> int:
    status = client.get(f"/api/tables/{table}").json()
    decider: int = status["decider"]
    return decider


def _options(options: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in options.items() if k not in ("players", "gnomes")}


def frames_of(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    pair: Pair,
    plant: Callable[..., None],
    play: Callable[..., list[str]] = play_through_server,
) -> tuple[list[str], list[str]]:
    """The watcher's frames at the first history's table and at the second's, each history
    played by ``play``."""
    plant(monkeypatch)
    with _app(tmp_path) as client:
        a = play(client, pair, pair.first, redealt=False)
        b = play(client, pair, pair.second, redealt=pair.redealt)
    return a, b


def _first_difference(a: list[str], b: list[str]) -> str | None:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"frame {i}:\n{x[:400]}\n{y[:400]}"
    if len(a) != len(b):
        return f"{len(a)} frames against {len(b)}"
    return None


# -- the planted leaks ----------------------------------------------------------------------
def no_plant(m: pytest.MonkeyPatch) -> None:
    del m


def plant_raw_notation(m: pytest.MonkeyPatch) -> None:
    """Every entry carries its raw notation and label (as before this was fixed)."""

    def whole(game: Any, ui: Any, action: Any, *_: Any) -> tuple[str, str]:
        return action.notation(), ui.action_label(action, _[-1])

    m.setattr(livetable, "action_as_seen", whole)


def plant_why_for_anyone(m: pytest.MonkeyPatch) -> None:
    """``why`` explains the current decision whoever asks (as before this was fixed)."""

    def why(self: live.Manager, table: live.LiveTable, client: Any, raw: Any) -> WhyFrame:
        action = self.resolve(table, raw)
        if action.id in table.state.legal_action_ids():
            return WhyFrame(action=action.notation(), legal=True, why="")
        error = table.state.explain_illegal(action)
        return WhyFrame(
            action=action.notation(),
            legal=False,
            code=error.code,
            why=self.why_text(table, error, action, client.tr),
        )

    m.setattr(live.Manager, "why", why)


def plant_error_naming_a_card(m: pytest.MonkeyPatch) -> None:
    """A refusal out of turn names the decider's hand."""
    check = live.Manager.check

    def leaky(self: live.Manager, table: live.LiveTable, client: Any, *args: Any) -> int:
        try:
            return check(self, table, client, *args)
        except Refused as exc:
            if exc.code == "not_your_turn":
                decider = table.state.current_seat()
                view = table.state.view(decider)
                seats = view.get("players") or view.get("gnomes") or []
                hand = [p.get("hand") for p in seats]
                raise Refused(exc.code, f"{exc.message}; they hold {hand}") from None
            raise

    m.setattr(live.Manager, "check", leaky)


PAIRS = {
    # another captain swaps and pays tolls with other colours; watched by a captain
    "submarine-3": dict(game="submarine", options={"players": 3}, watcher=0, steps=140, seed=5),
    # the same, watched by the spectator, five captains
    "submarine-5-spectator": dict(
        game="submarine", options={"players": 5}, watcher=None, steps=140, seed=7
    ),
    # the other captains' hands and every pile dealt otherwise
    "submarine-3-redealt": dict(
        game="submarine", options={"players": 3}, watcher=1, steps=140, seed=3, redeal=True
    ),
    # Crazed Gnomes: other gnomes give each other other items; watched by a gnome
    "red-november-crazed": dict(
        game="red-november",
        options={"players": 4, "crazed_gnomes": True},
        watcher=2,
        steps=160,
        seed=11,
    ),
}


def _pair(name: str) -> Pair:
    spec = dict(PAIRS[name])
    return joint_walk(
        str(spec.pop("game")),
        dict(spec.pop("options")),  # type: ignore[arg-type]
        spec.pop("watcher"),  # type: ignore[arg-type]
        **spec,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("name", list(PAIRS))
def test_histories_a_seat_cannot_tell_apart_send_it_the_same_bytes(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pair = _pair(name)
    differing = [i for i, (x, y) in enumerate(zip(pair.first, pair.second, strict=True)) if x != y]
    # the walk really varied what the watcher cannot see, and went on after it
    assert len(pair.first) >= 40, len(pair.first)
    assert pair.redealt or differing, "the histories are the same"
    a, b = frames_of(tmp_path, monkeypatch, pair, no_plant)
    assert len(a) > 3 * len(pair.first)
    assert _first_difference(a, b) is None, _first_difference(a, b)


@pytest.mark.parametrize(
    ("name", "plant"),
    [
        ("submarine-3", plant_raw_notation),
        ("red-november-crazed", plant_raw_notation),
        ("submarine-3", plant_why_for_anyone),
        ("red-november-crazed", plant_why_for_anyone),
        ("submarine-3", plant_error_naming_a_card),
        ("red-november-crazed", plant_error_naming_a_card),
    ],
)
def test_the_comparison_catches_a_planted_leak(
    name: str,
    plant: Callable[[pytest.MonkeyPatch], None],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pair = _pair(name)
    a, b = frames_of(tmp_path, monkeypatch, pair, plant)
    assert _first_difference(a, b) is not None
