"""`python -m bot`: run the bot with settings from the environment or a .env file."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

import aiohttp
import discord
from dotenv import find_dotenv, load_dotenv

from . import create_bot
from .config import Settings

log = logging.getLogger("bot")

NO_TOKEN = (
    "DISCORD_TOKEN is not set: create a bot in the Discord Developer Portal "
    "(Applications → your app → Bot → Reset Token) and put the token in DISCORD_TOKEN or a .env file."
)


BAD_TOKEN = (
    "Discord rejected DISCORD_TOKEN: copy the bot's token again from the Developer Portal "
    "(Applications → your app → Bot → Reset Token)."
)


def main() -> int:
    load_dotenv(find_dotenv(usecwd=True))
    settings = Settings.from_env()
    if not settings.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    try:
        settings.sync_guild_id()
    except ValueError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    logging.basicConfig(
        level=getattr(logging, settings.log_level, logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    bot = create_bot(settings.database, settings)
    try:
        asyncio.run(serve(bot, settings.token))
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return 2
    except (aiohttp.ClientConnectionError, OSError) as exc:
        print(f"Cannot reach Discord ({exc.__class__.__name__}): check the network and try again.", file=sys.stderr)
        return 1
    return 0


async def serve(client: discord.Client, token: str) -> None:
    """Run `client` until it closes. SIGTERM (and SIGINT) close it cleanly: timers and the outbox
    stop, the gateway closes, then the database; `discord.Client.run` would die on SIGTERM instead."""
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []

    def stop(signame: str) -> None:
        if not closing:
            log.info("%s received: shutting down", signame)
            closing.append(loop.create_task(client.close()))

    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop, sig.name)
        except (NotImplementedError, RuntimeError):  # no signal handlers on this platform or thread
            pass
    try:
        async with client:
            await client.start(token)
    finally:
        if closing:
            await closing[0]
        log.info("stopped")


if __name__ == "__main__":
    sys.exit(main())
