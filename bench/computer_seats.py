"""Computer players' seats in the bot: how long a computer's move takes through the host, and a round.

Plays whole games of five computer players (four strong, one random) through the real bot and the fake
Discord, in this process, with CRIMECITY_COMPUTER_DELAY=0 (they move the moment they may). Measures:
- per move: the due timer's handler (inputs read from the stored events, `decide` on a worker thread,
  the submission through the members' path), and `decide` alone;
- per decision: from the decision opening to the next one opening (every seat's move and the step).
An EC deadlock among computers is settled by the host, as the tests do. Prints figures; asserts nothing.

Run: .venv/bin/python bench/computer_seats.py [--games 5]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._harness import machine, summary  # noqa: E402

LEVELS = ("strong", "strong", "strong", "strong", "random")


async def run(games: int) -> None:
    from tests.fakediscord import FakeDiscord
    from tests.support.computers import latest_game, settle_ec
    from tests.support.table import NAMES, Table

    moves: list[float] = []
    decides: list[float] = []
    with tempfile.TemporaryDirectory(prefix="cc-bench-") as tmp:
        async with FakeDiscord() as fd:
            guild = fd.add_guild("Bench")
            chan = guild.add_text_channel("crime-city")
            host = guild.add_member("hosty", manage_guild=True)
            t = Table(fd, guild, chan, host, {n: guild.add_member(n) for n in NAMES}, Path(tmp) / "cc.db")
            t.settings = {"computer_delay": 0.0}
            await t.start_bot()
            computers = t.bot.host.computers
            move, decide = computers.move, computers._decide

            async def timed_move(timer: Any) -> None:
                start = time.perf_counter()
                await move(timer)
                moves.append(time.perf_counter() - start)

            def timed_decide(found: Any) -> Any:
                start = time.perf_counter()
                try:
                    return decide(found)
                finally:
                    decides.append(time.perf_counter() - start)

            computers.move = timed_move  # type: ignore[method-assign]
            computers._decide = timed_decide  # type: ignore[method-assign]
            t.bot.host.due.computer = timed_move
            started = time.perf_counter()
            for _ in range(games):
                await t.cmd(t.host, "new", deadline_hours=24.0, garnets=10)
                for level in LEVELS:
                    await t.cmd(t.host, "admin addbot", level=level)
                await t.cmd(t.host, "start")
                await t.idle()
                await settle_ec(t, {})
            wall = time.perf_counter() - started
            game_ids = [r["id"] for r in await t.bot.db.fetchall("SELECT id FROM games WHERE status = 'ended'")]
            steps = await t.bot.db.fetchall(
                "SELECT game_id, step, opened_at, closed_at FROM steps WHERE closed_at IS NOT NULL"
            )
            spans = [r["closed_at"] - r["opened_at"] for r in steps]
            last = await latest_game(t)
            await t.stop_bot()
    print(f"machine: {machine()}")
    print(f"{len(game_ids)} games of {', '.join(LEVELS)} (last game #{last['id']}), {wall:.1f} s in all")
    print(f"a computer's move through the host (timer -> written): {summary(moves)}")
    print(f"  of which decide() on the worker thread:              {summary(decides)}")
    print(f"a decision, opened -> closed (every seat's move, the step): {summary(spans)}")
    print(f"decisions per game: {len(spans) / max(1, len(game_ids)):.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(run(args.games))


if __name__ == "__main__":
    main()
