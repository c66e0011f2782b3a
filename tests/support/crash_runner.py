"""Test-only entry: run the real bot in its own process against a fake Discord on 127.0.0.1.

    python -m tests.support.crash_runner DB API_BASE GATEWAY_URL TOKEN

It points discord.py at the fake (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY), removes the two
waits the fake's `fast` mode removes, and runs `bot.__main__.serve` (the code `python -m bot` runs,
SIGTERM handling included). Tests and bench/crash_kill.py SIGKILL or SIGTERM this process.
"""

from __future__ import annotations

import asyncio
import logging
import sys

import discord.gateway
import discord.http
import yarl


def main(argv: list[str]) -> int:
    db, api_base, gateway_url, token = argv
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot import Settings, create_bot
    from bot.__main__ import serve

    client = create_bot(db, Settings(command_sync="global"))
    client._connection.guild_ready_timeout = 0.02

    async def no_wait(shard_id: int | None, initial: bool = False) -> None:
        return None

    client._hooks["before_identify"] = no_wait
    asyncio.run(serve(client, token))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
