"""The Discord bot that hosts every game of `rules/`: the host (bot/host), one presentation per game."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .config import Settings

if TYPE_CHECKING:
    from .client import GameBot


def create_bot(
    database: str | Path,
    settings: Settings | None = None,
    *,
    shard_count: int | None = None,
    shard_ids: Sequence[int] | None = None,
) -> GameBot:
    """The bot as a discord.Client (a commands.Bot), built but not started, keeping state in `database`.

    With `shard_count` it is a commands.AutoShardedBot holding `shard_ids` (every shard of the count when
    None): one of several processes of one bot, each holding some shards. ValueError when they do not fit.
    """
    from .client import GameBot, ShardedGameBot
    from .shards import plan

    shards = plan(shard_count, shard_ids)
    if shards.sharded:
        return ShardedGameBot(database, settings, shards)
    return GameBot(database, settings)


__all__ = ["create_bot", "Settings"]
