"""A member's active games (a command in a DM, the `game` option's list): the lookup's time as the server's
history grows, with the `games_host` index (migration 010) and without it.

Builds a SQLite file of GAMES games (all but ACTIVE ended), 3 seats each over a pool of members, then times
`games.active_games_of_user` for random members. Prints figures; asserts nothing.

Run: .venv/bin/python bench/member_games.py [--games 20000] [--lookups 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.storage import games as games_repo  # noqa: E402
from bot.storage.db import Database  # noqa: E402

MEMBERS = 2000
ACTIVE = 500


def seed(path: str, games: int, rng: Random) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA synchronous=OFF")
    for g in range(1, games + 1):
        status = "running" if g > games - ACTIVE else "ended"
        conn.execute(
            "INSERT INTO games(id, kind, guild_id, channel_id, host_id, status, settings_json, options_json,"
            " created_at) VALUES (?, 'crimecity', 1, ?, ?, ?, '{}', '{}', 0)",
            (g, g, rng.randrange(MEMBERS), status),
        )
        for i, user in enumerate(rng.sample(range(MEMBERS), 3)):
            conn.execute(
                "INSERT INTO seats(game_id, seat, join_seq, user_id, user_name, display_name, joined_at)"
                " VALUES (?, ?, ?, ?, 'm', 'm', 0)",
                (g, f"p{i + 1}", i, user),
            )
    conn.commit()
    conn.close()


async def timed(db: Database, lookups: int, rng: Random) -> list[float]:
    out = []
    for _ in range(lookups):
        user = rng.randrange(MEMBERS)
        t = time.perf_counter()
        async with db.reader() as conn:
            await games_repo.active_games_of_user(conn, user, "crimecity")
        out.append(time.perf_counter() - t)
    return sorted(out)


def line(label: str, xs: list[float]) -> str:
    return (f"  {label:<22} p50 {xs[len(xs) // 2] * 1e3:.3f} ms, p99 {xs[int(len(xs) * 0.99)] * 1e3:.3f} ms"
            f" (n={len(xs)})")


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--lookups", type=int, default=2000)
    args = ap.parse_args()
    path = str(Path(tempfile.mkdtemp()) / "member_games.db")
    db = Database(path)
    await db.open()
    await db.close()
    seed(path, args.games, Random(1))
    print(f"a member's active games: {args.games} games ({ACTIVE} not ended), {MEMBERS} members, 3 seats a game")
    for label, drop in (("with games_host", False), ("without (dropped)", True)):
        if drop:
            conn = sqlite3.connect(path)
            conn.execute("DROP INDEX games_host")
            conn.commit()
            conn.close()
        db = Database(path)
        await db.open()
        try:
            await timed(db, 50, Random(2))  # warm the page cache
            print(line(label, await timed(db, args.lookups, Random(3))))
        finally:
            await db.close()


if __name__ == "__main__":
    asyncio.run(main())
