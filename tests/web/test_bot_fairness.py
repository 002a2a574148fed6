"""One table's bots cannot starve another's: bots think a slice at a time, in turn across
tables, in worker processes that end with the server (``kill -9`` included); a restart
restores a table with a long search without letting it starve the others; and a search
thought in slices chooses exactly what it chooses in one go."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.conftest import new_table

from subtable.core.registry import make_game
from subtable.web.app import Settings, create_app
from subtable.web.botpool import BotJob, choose, thinking
from subtable.web.limits import Limits

pytestmark = pytest.mark.slow  # most tests here take over two seconds

#: a search that would take minutes on its own
HUGE = 1_000_000
#: its seats' spec: racing off, or a search whose alternatives all fall behind ends early
HUGE_SPEC = f"ismcts:budget={HUGE}:race=0"


def _seq(client: Any, table: str) -> int:
    seq: int = client.get(f"/api/tables/{table}").json()["seq"]
    return seq


def test_a_huge_search_does_not_starve_another_tables_bots(tmp_path: Path) -> None:
    settings = Settings(db=str(tmp_path / "t.db"), bot_workers=1, limits=Limits(max_budget=HUGE))
    with TestClient(create_app(settings)) as client:
        huge = new_table(client, game="red-november", players=3, seats=[HUGE_SPEC] * 3)
        normal = new_table(client, game="submarine", players=3, seats=["heuristic"] * 3)
        manager = client.app.state.manager
        stuck = _seq(client, huge["id"])
        start = 0
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and _seq(client, normal["id"]) - start < 30:
            if _seq(client, huge["id"]) != stuck:  # forced moves before the first real choice
                stuck = _seq(client, huge["id"])
                start = _seq(client, normal["id"])
            time.sleep(0.1)
        # the normal table played on while the huge search thought about one decision
        assert _seq(client, normal["id"]) - start >= 30
        assert _seq(client, huge["id"]) == stuck
        task = manager.tables[huge["id"]].bot_task
        assert task is not None and not task.done()


def _children(pid: int) -> set[int]:
    out = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.add(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_workers_end_with_the_server_and_a_restart_starves_nobody(
    servers: Any, tmp_path: Path
) -> None:
    db = str(tmp_path / "tables.sqlite3")
    server = servers(db, extra=["--max-budget", str(HUGE)])
    huge = server.post(
        "/api/tables",
        {"game": "red-november", "players": 3, "seats": [HUGE_SPEC] * 3},
    )
    deadline = time.monotonic() + 30
    workers: set[int] = set()
    while time.monotonic() < deadline and not workers:
        workers = _children(server.proc.pid)
        time.sleep(0.2)
    assert workers, "no bot worker process"
    os.kill(server.proc.pid, signal.SIGKILL)  # the server alone: its workers are not told
    server.proc.wait(10)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(p) for p in workers):
        time.sleep(0.1)
    assert not any(_alive(p) for p in workers), "a worker outlived the server"
    # restarted: the huge search is restored (after its forced moves, if any, it thinks),
    # and a new table's bots still play
    restarted = servers(db, extra=["--max-budget", str(HUGE)])
    stuck, since = -1, time.monotonic()
    while time.monotonic() - since < 3:
        seq = restarted.get(f"/api/tables/{huge['id']}")["seq"]
        if seq != stuck:
            stuck, since = seq, time.monotonic()
        time.sleep(0.2)
    normal = restarted.post(
        "/api/tables", {"game": "submarine", "players": 2, "seats": ["heuristic"] * 2}
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if restarted.get(f"/api/tables/{normal['id']}")["seq"] >= 30:
            break
        time.sleep(0.2)
    assert restarted.get(f"/api/tables/{normal['id']}")["seq"] >= 30
    assert restarted.get(f"/api/tables/{huge['id']}")["seq"] == stuck


def test_a_search_in_slices_chooses_what_it_chooses_in_one_go() -> None:
    actions: list[str] = []
    game = make_game("red-november", players=4)
    state = game.new_state(31)
    for step in range(30):
        seat = state.current_seat()
        assert seat is not None
        job = BotJob(
            "t",
            "red-november",
            {"players": 4},
            31,
            list(actions),
            seat,
            "ismcts:budget=60",
            step,
            1_000,
        )
        whole = choose(job)
        sliced = thinking(job)
        while True:
            try:
                next(sliced)
            except StopIteration as done:
                assert done.value == whole
                break
        actions.append(whole)
        state.apply(whole)
        if state.is_terminal():
            break
    assert len(actions) >= 20


def test_a_budget_above_the_ceiling_is_thought_at_the_ceiling() -> None:
    job = BotJob("c", "submarine", {"players": 2}, 5, [], 0, "ismcts:budget=500", 0, 30)
    capped = BotJob("c", "submarine", {"players": 2}, 5, [], 0, "ismcts:budget=30", 0, 30)
    assert choose(job) == choose(capped)

    def iterations(job: BotJob) -> int:
        count = 0
        search = thinking(job)
        while True:
            try:
                count = next(search)
            except StopIteration:
                return count

    assert 0 < iterations(job) == iterations(capped) < 100
