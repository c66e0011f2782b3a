"""The /crimecity command group, composed from one mixin per feature (as Red-DiscordBot does).

A single GroupCog holds every subcommand, because Discord allows one top-level `/crimecity`
and discord.py binds a group's commands to one cog instance.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from .admin import AdminCommands
from .info import InfoCommands
from .lobby import LobbyCommands
from .play import PlayCommands

if TYPE_CHECKING:
    from ..client import CrimeCityBot


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
@app_commands.allowed_installs(guilds=True, users=False)
class CrimeCityCog(
    LobbyCommands,
    PlayCommands,
    InfoCommands,
    AdminCommands,
    commands.GroupCog,
    group_name="crimecity",
    group_description="Crime City: a hidden-role game for 5 players",
):
    def __init__(self, bot: CrimeCityBot) -> None:
        self.bot = bot
        self.service = bot.service
        super().__init__()
