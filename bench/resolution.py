"""Round resolution: from the deadline to the board posted (with its picture) and every DM sent.

For 1 game, then 100 games whose deadlines fall at the same moment: real games in round play with all
five submissions in, seeded through the service layer; the bot (real discord.py client, child process)
starts, the deadline timers fire together, and the fake Discord (this process) timestamps every message
it receives. Per game: deadline → its board post, and deadline → its last message (board and DMs).
Prints figures; asserts nothing.

Run: .venv/bin/python bench/resolution.py [--games 1,100]
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import BotProcess, Probe, build_world, machine, quiet_driver_gc, seed  # noqa: E402

LEAD = 1.0  # seconds between the bot being ready and the common deadline


def fmt(xs: list[float]) -> str:
    return f"p50 {statistics.median(xs) * 1e3:.0f} ms, max {max(xs) * 1e3:.0f} ms"


async def scenario(n_games: int, rng_seed: int) -> None:
    from tests.fakediscord import FakeDiscord

    with tempfile.TemporaryDirectory(prefix="cc-bench-") as tmp:
        db_path = Path(tmp) / "crimecity.db"
        async with FakeDiscord() as fd:
            spots = build_world(fd, n_games)
            seeded = await seed(db_path, spots, rng_seed=rng_seed, submitted_share=1.0)
            conn = sqlite3.connect(db_path, isolation_level=None)
            far = time.time() + 3600  # pushed back to "now + LEAD" once the bot is up (see below)
            conn.execute("DELETE FROM timers WHERE kind = 'reminder'")
            conn.execute("UPDATE timers SET due_at = ? WHERE kind = 'deadline'", (far,))
            conn.close()
            probe = Probe(fd)
            bot = BotProcess(fd, db_path)
            info = await bot.start()
            # The bot sleeps until its earliest timer; restart it with the deadlines set to a common moment.
            await bot.stop()
            deadline = time.time() + LEAD + 1.0
            conn = sqlite3.connect(db_path, isolation_level=None)
            conn.execute("UPDATE timers SET due_at = ? WHERE kind = 'deadline'", (deadline,))
            conn.execute("UPDATE clocks SET deadline_at = ? WHERE deadline_at IS NOT NULL", (deadline,))
            conn.close()
            bot = BotProcess(fd, db_path)
            info = await bot.start()
            quiet_driver_gc()
            print(f"\n== {n_games} game(s), deadlines at the same moment; seeded in {seeded:.1f} s, bot ready in "
                  f"{info['ready']:.2f} s, deadline {deadline - time.time():.2f} s later ==")
            first = len(probe.stored)
            await asyncio.sleep(max(0.0, deadline - time.time()))
            cpu0 = (await bot.stats())["cpu"]
            await bot.idle()
            st = await bot.stats()
            await bot.stop()
            msgs = probe.stored[first:]
            chan_game = {s.chan.id: s.game_id for s in spots}
            user_game = {m.id: s.game_id for s in spots for m in s.players}
            board_at: dict[int, float] = {}
            last_at: dict[int, float] = {}
            dms: dict[int, int] = {}
            for at, msg in msgs:
                if msg.channel_id in chan_game:
                    gid = chan_game[msg.channel_id]
                    if msg.attachments and gid not in board_at:
                        board_at[gid] = at
                else:
                    chan = fd.world.channels.get(msg.channel_id)
                    who = getattr(getattr(chan, "recipient", None), "id", None)
                    gid = user_game.get(who)
                    if gid is None:
                        continue
                    dms[gid] = dms.get(gid, 0) + 1
                last_at[gid] = max(last_at.get(gid, 0.0), at)
            games = [s.game_id for s in spots]
            missing = [g for g in games if g not in board_at]
            to_board = [board_at[g] - deadline for g in games if g in board_at]
            to_last = [last_at[g] - deadline for g in games if g in last_at]
            n_dm = [dms.get(g, 0) for g in games]
            print(f"  deadline → board posted (with picture): {fmt(to_board)}")
            print(f"  deadline → board and all its DMs sent:   {fmt(to_last)}")
            print(f"  all {n_games} resolution(s) posted and DMed within {max(to_last):.2f} s of the deadline; "
                  f"{sum(n_dm)} DMs ({min(n_dm)}–{max(n_dm)} per game), {len(msgs)} messages in all; "
                  f"boards missing: {len(missing)}")
            print(f"  bot CPU meanwhile: {st['cpu'] - cpu0:.2f} s; COMMITs: {len(st['commit_times'])}")


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", default="1,100")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    print(f"resolution — {machine()}; bot in a child process, fake Discord in this one (no rate limits)")
    for n in (int(x) for x in args.games.split(",")):
        await scenario(n, args.seed)


if __name__ == "__main__":
    asyncio.run(main())
