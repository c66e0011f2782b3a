"""Crimopolis in the bot: `/crimopolis` on the host (spec/crimopolis/commands.md); `PRESENTATION` is its
presentation (bot.host.Presentation), found by the rules id `crimopolis`."""

from .presentation import PRESENTATION

__all__ = ["PRESENTATION"]
