"""The Discord layer of Crime City: a thin client over the pure `rules` package."""

from __future__ import annotations

from pathlib import Path

from .config import Settings


def create_bot(database: str | Path, settings: Settings | None = None):  # -> CrimeCityBot
    """The bot as a discord.Client (a commands.Bot), built but not started, keeping state in `database`."""
    from .client import CrimeCityBot

    return CrimeCityBot(database, settings)


__all__ = ["create_bot", "Settings"]
