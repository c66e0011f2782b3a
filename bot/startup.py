"""What `python -m bot` says about itself once it runs: no voice warnings, and one line when ready."""

from __future__ import annotations

import logging
import os
import re

import discord

from .permissions import invite_url

log = logging.getLogger(__name__)


def quiet_voice() -> None:
    """Drop discord.py's "PyNaCl / davey is not installed, voice will NOT be supported" warnings.

    The bot never joins a voice channel. These flags are discord.py's own switch for the two warnings
    (it logs each once, when the first client is built), so no other warning is hidden.
    """
    for flag in ("warn_nacl", "warn_dave"):
        if hasattr(discord.VoiceClient, flag):
            setattr(discord.VoiceClient, flag, False)


def ready_line(client: discord.Client, database: str) -> str:
    """One line for the operator: who the bot is, where it is, where its games are, how to invite it."""
    user = client.user
    account = f"{user} (id {user.id})" if user else "an unknown account"
    servers = len(client.guilds)
    app_id = client.application_id
    invite = invite_url(app_id) if app_id else "unknown (no application id)"
    plan = getattr(client, "shard_plan", None)
    shards = f"; {plan.describe()}" if plan is not None and plan.sharded else ""
    return (
        f"ready as {account} on {servers} server{'' if servers == 1 else 's'}{shards}; "
        f"database {_where(database)}; invite link {invite}"
    )


def _where(database: str) -> str:
    if "://" in database:  # a server's URL: never log its user and password
        return re.sub(r"^([A-Za-z][A-Za-z0-9+.-]*://)[^@]*@", r"\1", database)
    return database if database == ":memory:" else os.path.abspath(database)


def log_ready(client: discord.Client, database: str) -> None:
    log.info("%s", ready_line(client, database))


def shard_ready_line(shard_id: int, shard_count: int, guilds: int) -> str:
    return f"shard {shard_id}/{shard_count} ready: {guilds} guild{'' if guilds == 1 else 's'}"


def log_shard_ready(client: discord.Client, shard_id: int, guilds: int) -> None:
    log.info("%s", shard_ready_line(shard_id, client.shard_count or 1, guilds))
