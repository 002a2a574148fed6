"""Load benchmark of the web table: N concurrent tables on loopback.

    python benchmarks/bench_web.py --tables 1000 [--rate 250] [--duration 30] [--json]
    python benchmarks/bench_web.py --tables 0 --bot-moves 0 --flood-moves 20

Starts a real ``subtable serve`` (SQLite in a temporary directory unless ``--db``), creates
N two-player Submarine tables with both seats held by scripted WebSocket clients, and plays
legal moves chosen at random, at ``--rate`` moves per second across all tables (each table
moves every N/rate seconds, staggered). For each move it measures the time from sending the
action to the moment every seat of the table holds the update. Prints moves, errors, the
achieved rate, p50/p99 latency, and the server's CPU and memory per table.

Then (``--bot-moves``) a bot's reply at a Submarine table alone and beside a table whose three
bots think the largest budget the server allows, and (``--flood-moves``) the same reply beside
a two-person Submarine table with advice on where the seat to decide asks the expert, plays
and takes it back in a loop as fast as its connection may: the bound ``docs/protocol.md``
states is that either costs another table's bot one slice per turn of the round.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

TICK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


@dataclass
class SeatClient:
    ws: ClientConnection
    state: dict[str, Any] = field(default_factory=dict)
    seen: dict[int, asyncio.Future[float]] = field(default_factory=dict)
    errors: int = 0
    #: frames received, by type (errors by code)
    kinds: Counter[str] = field(default_factory=Counter)

    def waiter(self, seq: int) -> asyncio.Future[float]:
        fut = self.seen.get(seq)
        if fut is None:
            fut = asyncio.get_running_loop().create_future()
            self.seen[seq] = fut
        return fut

    async def read(self) -> None:
        async for text in self.ws:
            msg = json.loads(text)
            kind = msg.get("type")
            if kind in ("update", "sync"):
                self.state = msg["state"]
                fut = self.waiter(msg["state"]["seq"])
                if not fut.done():
                    fut.set_result(time.perf_counter())
            elif kind == "error":
                self.errors += 1
                self.kinds[f"error:{msg.get('code')}"] += 1
            self.kinds[kind] += 1


async def join(ws_url: str, table: str, token: str) -> SeatClient:
    ws = await connect(ws_url, max_size=2**22, open_timeout=60, ping_interval=None)
    await ws.send(json.dumps({"v": 1, "type": "hello", "table": table, "token": token}))
    client = SeatClient(ws)
    for _ in range(2):
        msg = json.loads(await ws.recv())
        if msg["type"] == "sync":
            client.state = msg["state"]
    return client


async def run_table(
    seats: list[SeatClient],
    start: float,
    period: float,
    end: float,
    rng: random.Random,
    latencies: list[float],
    counts: dict[str, int],
) -> None:
    await asyncio.sleep(max(0.0, start - time.perf_counter()))
    next_at = start
    while time.perf_counter() < end:
        state = seats[0].state
        if state.get("finished"):
            counts["finished"] += 1
            return
        mover = next((s for s in seats if s.state.get("your_turn")), None)
        if mover is None:
            await asyncio.sleep(0.01)
            continue
        seq = mover.state["seq"]
        action = rng.choice(mover.state["legal"])["id"]
        waits = [s.waiter(seq + 1) for s in seats]
        sent = time.perf_counter()
        await mover.ws.send(json.dumps({"v": 1, "type": "action", "seq": seq, "action": action}))
        try:
            done = await asyncio.wait_for(asyncio.gather(*waits), timeout=10)
        except TimeoutError:
            counts["timeouts"] += 1
            return
        latencies.append(max(done) - sent)

        counts["moves"] += 1
        next_at += period
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))


async def bench(args: argparse.Namespace, ws_url: str, http: str, pid: int) -> dict[str, Any]:
    rss0 = rss_mib(pid)
    created = []
    loop = asyncio.get_running_loop()

    def create() -> dict[str, Any]:
        return post(http, {"game": "submarine", "players": 2, "seats": ["human", "human"]})

    t0 = time.perf_counter()
    for _ in range(args.tables):
        created.append(await loop.run_in_executor(None, create))
    sem = asyncio.Semaphore(64)

    async def seat(table: str, token: str) -> SeatClient:
        async with sem:
            return await join(ws_url, table, token)

    tables = []
    for t in created:
        tables.append([seat(t["id"], i["token"]) for i in t["invites"]])
    joined = [list(await asyncio.gather(*group)) for group in tables]
    readers = [asyncio.create_task(s.read()) for group in joined for s in group]
    setup = time.perf_counter() - t0
    # the clients' own collector must not stall the measurement (the server tunes its own):
    # the scripted clients run without it for the measured half-minute
    gc.collect()
    gc.freeze()
    gc.disable()
    rss1 = rss_mib(pid)
    latencies: list[float] = []
    counts = {"moves": 0, "timeouts": 0, "finished": 0}
    period = args.tables / args.rate
    # let the server settle after the connection storm (its collector freezes the tables'
    # long-lived objects every 5 s) before the measured, steady-state play starts
    await asyncio.sleep(args.settle)
    start = time.perf_counter() + 0.5
    end = start + args.duration
    cpu0 = cpu_seconds(pid)
    client0 = time.process_time()
    rng = random.Random(args.seed)
    await asyncio.gather(
        *(
            run_table(
                group,
                start + period * i / len(joined),
                period,
                end,
                random.Random(rng.random()),
                latencies,
                counts,
            )
            for i, group in enumerate(joined)
        )
    )
    elapsed = time.perf_counter() - start
    cpu = cpu_seconds(pid) - cpu0
    client_cpu = time.process_time() - client0
    rss2 = rss_mib(pid)
    errors = sum(s.errors for group in joined for s in group) + counts["timeouts"]
    for group in joined:
        for s in group:
            await s.ws.close()
    for r in readers:
        r.cancel()
    lat = sorted(latencies)

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    return {
        "tables": args.tables,
        "connections": sum(len(g) for g in joined),
        "duration_s": round(elapsed, 2),
        "setup_s": round(setup, 2),
        "moves": counts["moves"],
        "moves_per_s": round(counts["moves"] / args.duration, 1),
        "errors": errors,
        "games_finished": counts["finished"],
        "latency_ms": {
            "p50": round(pct(0.50), 2),
            "p90": round(pct(0.90), 2),
            "p99": round(pct(0.99), 2),
            "max": round(lat[-1] * 1000, 2) if lat else None,
            "mean": round(statistics.fmean(lat) * 1000, 2) if lat else None,
        },
        "server_cpu_percent": round(100 * cpu / elapsed, 1),
        "client_cpu_percent": round(100 * client_cpu / elapsed, 1),
        "server_cpu_ms_per_move": round(1000 * cpu / max(1, counts["moves"]), 3),
        "server_cpu_ms_per_table_per_s": round(1000 * cpu / elapsed / args.tables, 3),
        "server_rss_mib": {
            "idle": round(rss0, 1),
            "with_tables": round(rss1, 1),
            "end": round(rss2, 1),
        },
        "server_kib_per_table": round((rss2 - rss0) * 1024 / args.tables, 1),
    }


async def bot_replies(
    ws_url: str, http: str, moves: int, rng: random.Random, patience: float = 600.0
) -> list[float]:
    """Seconds from a person's move to the bot's answer, at a Submarine table of a person
    and the default search bot (``ismcts``), over ``moves`` of the bot's turns; a reply not
    there after ``patience`` seconds counts as ``inf`` and ends the measure."""
    table = await asyncio.get_running_loop().run_in_executor(
        None, post, http, {"game": "submarine", "players": 2, "seats": ["human", "ismcts"]}
    )
    me = await join(ws_url, table["id"], table["invites"][0]["token"])
    reader = asyncio.create_task(me.read())
    waits: list[float] = []
    try:
        while len(waits) < moves and not me.state.get("finished"):
            if not me.state.get("your_turn"):
                await asyncio.sleep(0.005)
                continue
            seq = me.state["seq"]
            action = rng.choice(me.state["legal"])["id"]
            await me.ws.send(json.dumps({"v": 1, "type": "action", "seq": seq, "action": action}))
            mine = await asyncio.wait_for(me.waiter(seq + 1), timeout=60)
            if me.state["seq"] == seq + 1 and not me.state["your_turn"]:
                # the bot decides now: how long until its move arrives
                try:
                    bots = await asyncio.wait_for(me.waiter(seq + 2), timeout=patience)
                except TimeoutError:
                    waits.append(float("inf"))
                    break
                waits.append(bots - mine)
    finally:
        reader.cancel()
        await me.ws.close()
    return waits


def post(http: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        http + "/api/tables",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        data: dict[str, Any] = json.load(r)
        return data


async def fairness(args: argparse.Namespace, ws_url: str, http: str) -> dict[str, Any]:
    """A normal table's bot replies alone, then beside a table whose three bots each think
    the largest budget the server allows."""
    alone = await bot_replies(ws_url, http, args.bot_moves, random.Random(args.seed))
    await asyncio.get_running_loop().run_in_executor(
        None,
        post,
        http,
        {"game": "red-november", "players": 3, "seats": [f"ismcts:budget={args.max_budget}"] * 3},
    )
    await asyncio.sleep(1.0)
    beside = await bot_replies(ws_url, http, args.bot_moves, random.Random(args.seed))
    return {"max_budget": args.max_budget, "alone": summary(alone), "beside": summary(beside)}


#: seconds per round of hint, action and undo: three messages, just within the 20 a second
#: a connection may send
FLOOD_ROUND = 0.16


async def flood(ws_url: str, http: str, stop: asyncio.Event) -> Counter[str]:
    """At a two-person Submarine table with advice on, the seat to decide asks the expert,
    plays and takes the move back, again and again until ``stop``; the frames it got."""
    table = await asyncio.get_running_loop().run_in_executor(
        None,
        post,
        http,
        {"game": "submarine", "players": 2, "seats": ["human", "human"], "advice": True},
    )
    seats = [await join(ws_url, table["id"], i["token"]) for i in table["invites"]]
    readers = [asyncio.create_task(s.read()) for s in seats]
    me = next(s for s in seats if s.state.get("your_turn"))
    try:
        while not stop.is_set():
            began = time.perf_counter()
            seq = me.state["seq"]
            action = me.state["legal"][0]["id"]
            await me.ws.send(json.dumps({"v": 1, "type": "hint"}))
            await me.ws.send(json.dumps({"v": 1, "type": "action", "seq": seq, "action": action}))
            await asyncio.wait_for(me.waiter(seq + 1), timeout=60)
            await me.ws.send(json.dumps({"v": 1, "type": "undo", "seq": seq + 1}))
            await asyncio.wait_for(me.waiter(seq + 2), timeout=60)
            me.kinds["round"] += 1
            await asyncio.sleep(max(0.0, FLOOD_ROUND - (time.perf_counter() - began)))
    finally:
        for r in readers:
            r.cancel()
        for s in seats:
            await s.ws.close()
    return me.kinds


def summary(xs: list[float]) -> dict[str, float]:
    """Count, median, 90th percentile and largest of ``xs`` seconds, in milliseconds, and
    how many never came (``inf``)."""
    xs = sorted(xs)
    return {
        "moves": len(xs),
        "timed_out": sum(math.isinf(x) for x in xs),
        "p50_ms": round(1000 * xs[len(xs) // 2], 1),
        "p90_ms": round(1000 * xs[min(len(xs) - 1, int(0.9 * len(xs)))], 1),
        "max_ms": round(1000 * xs[-1], 1),
    }


async def hint_flood(args: argparse.Namespace, ws_url: str, http: str) -> dict[str, Any]:
    """A normal table's bot replies alone, then beside a table whose player floods the
    expert with questions (:func:`flood`)."""
    alone = await bot_replies(ws_url, http, args.flood_moves, random.Random(args.seed))
    stop = asyncio.Event()
    flooding = asyncio.create_task(flood(ws_url, http, stop))
    await asyncio.sleep(2.0)  # the questions pile up (or do not) before the timing starts
    began = time.perf_counter()
    try:
        beside = await bot_replies(
            ws_url, http, args.flood_moves, random.Random(args.seed), args.patience
        )
    finally:
        stop.set()
        kinds = await flooding
    seconds = time.perf_counter() - began + 2.0
    return {
        "alone": summary(alone),
        "beside": summary(beside),
        "flood_s": round(seconds, 1),
        "rounds": kinds["round"],
        "questions_logged": kinds["advice_asked"],
        "answers": kinds["advice"],
        "refused": {k.split(":", 1)[1]: v for k, v in kinds.items() if k.startswith("error:")},
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--rate", type=float, default=250.0, help="moves per second, all tables")
    ap.add_argument("--duration", type=float, default=30.0, help="seconds of play measured")
    ap.add_argument("--db", default=None, help="database URL (default: a temporary SQLite)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--settle",
        type=float,
        default=6.0,
        help="seconds between the last connection and the first measured move",
    )
    ap.add_argument(
        "--bot-moves",
        type=int,
        default=20,
        help="then time this many bot replies alone and beside a table thinking the largest "
        "budget the server allows (0: skip)",
    )
    ap.add_argument(
        "--flood-moves",
        type=int,
        default=20,
        help="then time this many bot replies alone and beside a table whose player asks the "
        "expert in a loop (0: skip)",
    )
    ap.add_argument(
        "--patience",
        type=float,
        default=120.0,
        help="seconds a bot's reply beside the flood may take before the measure stops",
    )
    ap.add_argument("--max-budget", type=int, default=2_000, help="the server's --max-budget")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory(prefix="bench-web-")
    db = args.db or str(Path(tmp.name) / "tables.sqlite3")
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "subtable",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        db,
        "--max-budget",
        str(args.max_budget),
        # one client opens every table here
        "--max-tables-per-client",
        str(max(20, 2 * args.tables)),
        "--tables-per-minute",
        str(max(10, 100 * args.tables)),
    ]
    proc = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    http = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                with urllib.request.urlopen(http + "/healthz", timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        ws_url = f"ws://127.0.0.1:{port}/ws"
        result = asyncio.run(bench(args, ws_url, http, proc.pid)) if args.tables > 0 else {}
        if args.bot_moves > 0:
            result["bot_reply"] = asyncio.run(fairness(args, ws_url, http))
        if args.flood_moves > 0:
            result["hint_flood"] = asyncio.run(hint_flood(args, ws_url, http))
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        tmp.cleanup()
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        report(result)
    return 0 if ok(args, result) else 1


def within_bound(alone: dict[str, float], beside: dict[str, float]) -> bool:
    """Whether bot replies ``beside`` another busy table keep the bound of one slice per turn
    of the round: with one worker, a median at most twice the median alone, and every reply
    there."""
    return beside["p50_ms"] <= 2.0 * alone["p50_ms"] and not beside["timed_out"]


def ok(args: argparse.Namespace, result: dict[str, Any]) -> bool:
    """Whether the figures meet the targets (a measured part that was skipped passes)."""
    load = args.tables == 0 or (
        result["errors"] == 0
        and result["latency_ms"]["p99"] < 50
        and result["moves_per_s"] >= 0.95 * args.rate
    )
    flood = result.get("hint_flood")
    fair = flood is None or within_bound(flood["alone"], flood["beside"])
    return load and fair


def replies(alone: dict[str, float], beside: dict[str, float], beside_what: str) -> str:
    """A line on a bot's replies alone and beside ``beside_what``."""
    return (
        f"a bot's reply (ismcts, Submarine): p50 {alone['p50_ms']} ms, max "
        f"{alone['max_ms']} ms alone; p50 {beside['p50_ms']} ms, max {beside['max_ms']} ms "
        f"({beside['timed_out']} of {beside['moves']} never came) beside {beside_what}"
    )


def report(result: dict[str, Any]) -> None:
    """The figures in words."""
    if "latency_ms" in result:
        lat = result["latency_ms"]
        print(
            f"{result['tables']} tables, {result['connections']} connections, "
            f"{result['duration_s']} s measured"
        )
        print(f"moves {result['moves']} ({result['moves_per_s']}/s), errors {result['errors']}")
        print(
            f"latency to every seat: p50 {lat['p50']} ms, p90 {lat['p90']} ms, "
            f"p99 {lat['p99']} ms, max {lat['max']} ms"
        )
        print(f"clients' CPU {result['client_cpu_percent']}% of a core")
        print(
            f"server CPU {result['server_cpu_percent']}% of a core, "
            f"{result['server_cpu_ms_per_move']} ms per move, "
            f"{result['server_cpu_ms_per_table_per_s']} ms/s per table"
        )
        rss = result["server_rss_mib"]
        print(
            f"server memory {rss['idle']} MiB idle, {rss['end']} MiB with the tables "
            f"({result['server_kib_per_table']} KiB per table)"
        )
    bots = result.get("bot_reply")
    if bots:
        beside_what = f"a table thinking {bots['max_budget']} iterations a decision"
        print(replies(bots["alone"], bots["beside"], beside_what))
    flood = result.get("hint_flood")
    if flood:
        alone, beside = flood["alone"], flood["beside"]
        beside_what = (
            f"a player asking the expert in a loop ({flood['rounds']} rounds of hint, action "
            f"and undo in {flood['flood_s']} s: {flood['questions_logged']} questions logged, "
            f"{flood['answers']} answered, refused {flood['refused']})"
        )
        print(replies(alone, beside, beside_what))
        verdict = "within" if within_bound(alone, beside) else "BEYOND"
        print(f"{verdict} the bound (a median at most twice the median alone)")


if __name__ == "__main__":
    sys.exit(main())
