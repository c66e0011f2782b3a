"""Test-only entry: run the real bot in its own process against a fake Discord on 127.0.0.1.

    python -m tests.support.crash_runner DB API_BASE GATEWAY_URL TOKEN [SHARD_COUNT SHARD_ID]

DB is a SQLite path or a postgresql:// URL; with SHARD_COUNT and SHARD_ID the process holds that one
shard (several such processes share one PostgreSQL). CRIMECITY_TEST_TIMER_LEASE=seconds shortens the
claim on a due timer (30 s in the bot), so the timers a killed process had claimed fire again sooner.

It points discord.py at the fake (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY), removes the two
waits the fake's `fast` mode removes, and runs `bot.__main__.serve` (the code `python -m bot` runs,
SIGTERM handling included). Tests and bench/crash_kill.py SIGKILL or SIGTERM this process; with
CRIMECITY_TEST_KILL_AT_END=inside|after it kills itself when a game's end is recorded in its season.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from typing import Any

import discord.gateway
import discord.http
import yarl

KILL_AT_END = "CRIMECITY_TEST_KILL_AT_END"
TIMER_LEASE = "CRIMECITY_TEST_TIMER_LEASE"


def main(argv: list[str]) -> int:
    db, api_base, gateway_url, token = argv[:4]
    shards: dict[str, Any] = {}
    if len(argv) == 6:
        shards = {"shard_count": int(argv[4]), "shard_ids": [int(argv[5])]}
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot import Settings, create_bot
    from bot.__main__ import serve

    lease = os.environ.get(TIMER_LEASE)
    if lease:
        import bot.storage.timers

        bot.storage.timers.LEASE = float(lease)
    client = create_bot(db, Settings(command_sync="global", db_sync=Settings.from_env().db_sync), **shards)
    client._connection.guild_ready_timeout = 0.02

    async def no_wait(shard_id: int | None, initial: bool = False) -> None:
        return None

    client._hooks["before_identify"] = no_wait
    kill_at_end(client, os.environ.get(KILL_AT_END, ""))
    asyncio.run(serve(client, token))
    return 0


def kill_at_end(client: Any, where: str) -> None:
    """SIGKILL this process when a season's match is recorded: `inside` its transaction (before the
    commit) or `after` the commit (before anything is sent)."""
    if where not in ("inside", "after"):
        return
    seasons, recorded = client.host.seasons, []
    record_game = seasons.record_game
    kick = client.host.outbox_changed

    async def record(*args: Any, **kwargs: Any) -> bool:
        done = await record_game(*args, **kwargs)
        if where == "inside":
            os.kill(os.getpid(), signal.SIGKILL)
        recorded.append(done)
        return done

    def changed() -> None:
        if recorded:
            os.kill(os.getpid(), signal.SIGKILL)
        kick()

    seasons.record_game = record
    client.host.outbox_changed = changed


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
