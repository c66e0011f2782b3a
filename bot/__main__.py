"""`python -m bot`: run the bot with settings from the environment or a .env file."""

from __future__ import annotations

import logging
import sys

from dotenv import find_dotenv, load_dotenv

from . import create_bot
from .config import Settings

NO_TOKEN = (
    "DISCORD_TOKEN is not set: create a bot in the Discord Developer Portal "
    "(Applications → your app → Bot → Reset Token) and put the token in DISCORD_TOKEN or a .env file."
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
    bot.run(settings.token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
