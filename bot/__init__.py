"""The Discord bot that hosts every game of `rules/`: the host (bot/host), one presentation per game."""

from __future__ import annotations

from pathlib import Path

from .config import Settings


def create_bot(database: str | Path, settings: Settings | None = None):  # -> GameBot
    """The bot as a discord.Client (a commands.Bot), built but not started, keeping state in `database`."""
    from .client import GameBot

    return GameBot(database, settings)


__all__ = ["create_bot", "Settings"]
