"""The command tree and its ONE error handler.

User errors (UserError, a rules refusal, ParseError, failed checks, unreadable options) are answered
ephemerally with their message; anything else is logged with its traceback and answered with a
short apology that carries no detail (so never a secret).
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from .host.commands import APOLOGY, send_ephemeral, user_message

log = logging.getLogger(__name__)


class Tree(app_commands.CommandTree):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError, /) -> None:
        message = user_message(error)
        command = interaction.command.qualified_name if interaction.command else "?"
        if message is None:
            original = getattr(error, "original", error)
            log.error("command /%s failed (interaction %s)", command, interaction.id, exc_info=original)
            message = APOLOGY
        else:
            log.info("command /%s refused for user %s", command, interaction.user.id)
        await send_ephemeral(interaction, message)


__all__ = ["APOLOGY", "Tree", "send_ephemeral", "user_message"]
