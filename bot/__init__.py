"""The Discord bot that hosts every game of `rules/`: the host (bot/host), one presentation per game."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .config import Settings

if TYPE_CHECKING:
    from .client import GameBot


def create_bot(database: str | Path, settings: Settings | None = None) -> GameBot:
    """The bot as a discord.Client (a commands.Bot), built but not started, keeping state in `database`."""
    from .client import GameBot

    return GameBot(database, settings)


__all__ = ["create_bot", "Settings"]
