"""Footprint: memory of the bot process and SQLite file size per active game; start-up time.

For 1, 100 and 1,000 games in round play (seeded through the service layer): the bot (real discord.py
client, child process, tracemalloc on) starts, every game is used once (an autocomplete and an act by one
of its players, so per-game caches are filled), then the bot reports its RSS and the Python heap traced by
tracemalloc. Per active game = the growth from 1 game to N games, divided by N - 1. The SQLite file size is
measured after a checkpoint. Start-up: a fresh bot process (tracemalloc off) on the 1,000-game database,
from create_bot() to on_ready and to idle (every due timer run, outbox empty; the scheduler has read the
timers of all games). Prints figures; asserts nothing.

Run: .venv/bin/python bench/footprint.py [--games 1,100,1000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import BotProcess, Probe, build_world, machine, seed  # noqa: E402

KIB = 1024


def file_size(db_path: Path) -> int:
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return sum(p.stat().st_size for p in db_path.parent.glob(db_path.name + "*"))


async def scenario(n_games: int, rng_seed: int, *, startup: bool) -> dict[str, float]:
    from tests.fakediscord import FakeDiscord

    rng = Random(rng_seed)
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="cc-bench-") as tmp:
        db_path = Path(tmp) / "crimecity.db"
        async with FakeDiscord() as fd:
            spots = build_world(fd, n_games)
            seeded = await seed(db_path, spots, rng_seed=rng_seed)
            probe = Probe(fd)
            bot = BotProcess(fd, db_path, use_tracemalloc=True)
            info = await bot.start()
            t = time.perf_counter()
            for spot in spots:
                member = rng.choice(spot.players)
                first, second = rng.choice(spot.acts[spot.seats[member.id]])
                await probe.autocomplete(member, spot.chan, "crimecity act", "first", first=first[:2])
                extra = {"second": second} if second else {}
                await probe.slash(member, spot.chan, "crimecity act", first=first, **extra)
            used = time.perf_counter() - t
            mem = await bot.memory()
            await bot.stop()
            out.update(rss=mem["rss"], traced=mem["traced"], file=file_size(db_path))
            print(f"  {n_games:5d} game(s): seeded in {seeded:5.1f} s; every game used in {used:5.1f} s (tracemalloc "
                  f"on); RSS {mem['rss'] / KIB / KIB:6.1f} MiB, traced Python heap {mem['traced'] / KIB / KIB:6.1f} "
                  f"MiB, SQLite {out['file'] / KIB:8.0f} KiB ({out['file'] / n_games / KIB:5.1f} KiB/game)")
            if startup:
                bot = BotProcess(fd, db_path)
                info = await bot.start()
                await bot.stop()
                out.update(ready=info["ready"], idle=info["idle"], spawn=info["spawn_to_idle"])
                print(f"  start-up with {n_games} games in the database: create_bot() → on_ready "
                      f"{info['ready']:.2f} s, → idle (timers read, outbox empty) {info['idle']:.2f} s; "
                      f"process spawn + imports + all that {info['spawn_to_idle']:.2f} s")
    return out


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", default="1,100,1000")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    counts = [int(x) for x in args.games.split(",")]
    print(f"footprint — {machine()}; bot in a child process, fake Discord in this one")
    got = {n: await scenario(n, args.seed, startup=n == max(counts)) for n in counts}
    base = min(counts)
    for n in counts:
        if n == base:
            continue
        per = n - base
        rss = (got[n]["rss"] - got[base]["rss"]) / per
        traced = (got[n]["traced"] - got[base]["traced"]) / per
        size = (got[n]["file"] - got[base]["file"]) / per
        print(f"  per active game, {base} → {n} games: RSS {rss / KIB:6.1f} KiB, traced Python heap "
              f"{traced / KIB:6.1f} KiB, SQLite file {size / KIB:5.1f} KiB")
    print(f"  (pid {os.getpid()} drove; the figures are the bot process's)")


if __name__ == "__main__":
    asyncio.run(main())
