"""`python -m bot`: run the bot with settings from the environment or a .env file.

Exit status: 0 after a clean stop (SIGTERM, SIGINT), 1 when Discord cannot be reached or start-up
fails, 2 for a problem in the settings (one line each, before anything connects), 3 when CRIMECITY_CONTENT
names content that cannot be played (as `python -m rules` refuses broken content, errata E31).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import socket
import sqlite3
import sys
from importlib import metadata
from typing import NoReturn

import aiohttp
import asyncpg
import discord
from dotenv import find_dotenv, load_dotenv

from . import create_bot, preflight, startup
from .config import SETTINGS, Settings
from .content import ContentChanged
from .health import HealthPortUnavailable

log = logging.getLogger("bot")

DISTRIBUTION = (metadata.packages_distributions().get("bot") or ["bot"])[0]  # this project, as pip installed it
NO_TOKEN = preflight.NO_TOKEN
BAD_TOKEN = (
    "Discord rejected DISCORD_TOKEN: copy the bot's token again from the Developer Portal "
    "(Applications → your app → Bot → Reset Token)."
)


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line."""

    def error(self, message: str) -> NoReturn:
        print(f"python -m bot: {message} (see python -m bot --help)", file=sys.stderr)
        raise SystemExit(2)


def version() -> str:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed: pip install -e .)"


def parser() -> argparse.ArgumentParser:
    width = max(len(s.name) for s in SETTINGS)
    settings = "\n".join(f"  {s.name:<{width}} {s.describe()}" for s in SETTINGS)
    p = _Parser(
        prog="python -m bot",
        description="Run the Discord bot (every game of rules/registry.py) until SIGTERM or Ctrl-C.",
        epilog=(
            "settings (environment variables, or a .env file in the working directory or above it):\n"
            f"{settings}\n\n"
            "exit status: 0 after a clean stop, 1 when Discord cannot be reached, 2 for a settings problem, 3 for\n"
            "content (CRIMECITY_CONTENT) that cannot be played.\n\n"
            "python -m bot migrate-db --from sqlite:PATH --to postgresql://...  copies a SQLite database (games\n"
            "in progress too) into an empty PostgreSQL one; see its --help.\n"
            "See docs/operations.md."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    return p


def migrate_db(argv: list[str]) -> int:
    """`python -m bot migrate-db --from sqlite:PATH --to postgresql://...`: copy every table."""
    from .storage.copy import CopyError, copy_database
    from .storage.pg import is_url

    p = _Parser(prog="python -m bot migrate-db", description="Copy a SQLite database into an empty PostgreSQL one.")
    p.add_argument("--from", dest="source", required=True, help="sqlite:PATH of the bot's SQLite database")
    p.add_argument("--to", dest="target", required=True, help="postgresql://user@host:port/database (empty)")
    args = p.parse_args(argv)
    if not args.source.startswith("sqlite:"):
        p.error(f"--from must be sqlite:PATH, not {args.source!r}")
    if not is_url(args.target):
        p.error("--to must be a postgresql://user@host:port/database URL")
    try:
        counts = asyncio.run(copy_database(args.source.removeprefix("sqlite:"), args.target))
    except CopyError as exc:
        print(f"migrate-db: {exc}", file=sys.stderr)
        return 2
    except (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
        print(f"migrate-db: {exc.__class__.__name__}: {' '.join(str(exc).split())}", file=sys.stderr)
        return 1
    print("copied " + ", ".join(f"{table} {n}" for table, n in counts.items() if n))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["migrate-db"]:
        return migrate_db(args[1:])
    parser().parse_args(args)
    load_dotenv(find_dotenv(usecwd=True))
    settings = Settings.from_env()
    problems = preflight.check(settings)
    content = preflight.content_problem(settings.content)
    if problems or content:
        for problem in [*problems, *([content] if content else [])]:
            print(problem, file=sys.stderr)
        return 2 if problems else 3
    assert settings.token is not None  # preflight refused a missing one
    logging.basicConfig(level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    startup.quiet_voice()
    plan = settings.shard_plan()  # preflight checked it
    bot = create_bot(settings.database, settings, shard_count=plan.count, shard_ids=plan.ids if plan.sharded else None)
    try:
        asyncio.run(serve(bot, settings.token))
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return 2
    except (aiohttp.ClientConnectionError, ConnectionError, socket.gaierror, TimeoutError) as exc:
        print(f"Cannot reach Discord ({exc.__class__.__name__}): check the network and try again.", file=sys.stderr)
        return 1
    except discord.HTTPException as exc:
        print(f"Discord refused to log in (HTTP {exc.status}): try again later.", file=sys.stderr)
        return 1
    except HealthPortUnavailable as exc:
        print(exc, file=sys.stderr)
        return 1
    except ContentChanged as exc:
        print(exc, file=sys.stderr)
        return 3
    except (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
        # the database failed after its checks (disk full, removed, a server refusing the connection, ...)
        detail = " ".join(str(exc).split()) or "no detail"
        print(
            f"Start-up failed ({exc.__class__.__name__}: {detail}); CRIMECITY_DB={settings.database}", file=sys.stderr
        )
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
