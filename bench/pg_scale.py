"""Throughput of acts and resolutions: 1, 2 and 4 bot processes on one PostgreSQL beside one process
on SQLite, the same fixed work each time (every game played to its end: 5 acts, then a resolution, per
round). Each process is a real OS process with its own host, connections and locks; it plays the
games it was given, all of them at once. Prints acts/s, resolutions/s and act p50/p99 per load.

    python bench/pg_scale.py --games 32

Starts its own throwaway PostgreSQL (tests/support/pgserver.py: initdb and pg_ctl must be installed).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games import presentations  # noqa: E402
from bot.host import Host  # noqa: E402
from bot.storage import database_for  # noqa: E402
from tests.support.shared import Process, caller, drafted_game  # noqa: E402
from tests.support.table import NAMES  # noqa: E402

CHANNEL0 = 5000


async def _setup(setting: str, games: int) -> None:
    db = database_for(setting)
    await db.open()
    proc = Process(db, Host(db, presentations()))  # type: ignore[arg-type]
    for g in range(games):
        await drafted_game([proc], wait_for_deadline=True, channel=CHANNEL0 + g)
    await db.close()


async def _play(setting: str, channels: list[int], ready: Any = None, go: Any = None) -> tuple[list[float], int]:
    from bot.games.crimecity import moves
    from rules.crimecity.legal import legal_actions, legal_seconds

    db = database_for(setting)
    await db.open()
    host = Host(db, presentations())
    if ready is not None:  # timed from when every process is connected
        ready.put(True)
        await asyncio.to_thread(go.wait)
    latencies: list[float] = []
    resolutions = 0

    def build(turn: Any) -> dict[str, Any]:
        legal = legal_actions(turn.state.game, turn.seat)
        first = legal[0]
        second = legal_seconds(turn.state.game, turn.seat, first)[:1]
        return moves.round_move(turn, actions=[a.to_json() for a in (first, *second)])

    async def game(channel: int) -> None:
        nonlocal resolutions
        while True:
            found = await db.fetchone("SELECT id, status, pending_json FROM games WHERE channel_id = ?", (channel,))
            assert found is not None
            if found["status"] != "running" or '"decision":"round"' not in (found["pending_json"] or ""):
                return  # the rounds are over (what follows, the EC vote, is not timed)
            for name in NAMES:
                start = time.perf_counter()
                try:
                    await host.play.submit(caller(name, channel), "crimecity", build)
                except Exception:  # a dead seat, or nothing legal: no act this round
                    continue
                latencies.append(time.perf_counter() - start)
            if await host.due.resolve_now(int(found["id"])):
                resolutions += 1

    await asyncio.gather(*(game(c) for c in channels))
    await db.close()
    return latencies, resolutions


def _worker(setting: str, channels: list[int], out: Any, ready: Any, go: Any) -> None:
    out.put(asyncio.run(_play(setting, channels, ready, go)))


def run(setting: str, processes: int, games: int) -> dict[str, float]:
    asyncio.run(_setup(setting, games))
    channels = [CHANNEL0 + g for g in range(games)]
    ctx = multiprocessing.get_context("spawn")
    out, ready, go = ctx.Queue(), ctx.Queue(), ctx.Event()
    workers = [
        ctx.Process(target=_worker, args=(setting, channels[i::processes], out, ready, go)) for i in range(processes)
    ]
    for w in workers:
        w.start()
    for _ in workers:
        ready.get()
    start = time.perf_counter()
    go.set()
    results = [out.get() for _ in workers]
    elapsed = time.perf_counter() - start
    for w in workers:
        w.join()
    acts = sorted(x for lat, _ in results for x in lat)
    resolved = sum(r for _, r in results)
    return {
        "acts_per_s": len(acts) / elapsed,
        "resolutions_per_s": resolved / elapsed,
        "act_p50_ms": statistics.median(acts) * 1000,
        "act_p99_ms": acts[min(len(acts) - 1, int(len(acts) * 0.99))] * 1000,
        "acts": len(acts),
        "resolutions": resolved,
        "seconds": elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=32)
    args = parser.parse_args()
    from tests.support.pgserver import PgServer

    server = PgServer()
    server.start()
    try:
        rows = []
        with tempfile.TemporaryDirectory() as tmp:
            rows.append(("SQLite, 1 process", run(str(Path(tmp) / "bench.db"), 1, args.games)))
        for n in (1, 2, 4):
            url = asyncio.run(server.new_database())
            rows.append((f"PostgreSQL, {n} process{'es' if n > 1 else ''}", run(url, n, args.games)))
    finally:
        server.stop()
    print(f"{args.games} games played to their end each time (6 rounds of 5 acts and 1 resolution)")
    print(f"{'load':<26} {'acts/s':>8} {'resol./s':>9} {'act p50 ms':>11} {'act p99 ms':>11} {'acts':>6} {'s':>6}")
    for name, r in rows:
        print(
            f"{name:<26} {r['acts_per_s']:>8.0f} {r['resolutions_per_s']:>9.1f} {r['act_p50_ms']:>11.1f}"
            f" {r['act_p99_ms']:>11.1f} {r['acts']:>6} {r['seconds']:>6.1f}"
        )


if __name__ == "__main__":
    main()
