"""The command tree and its ONE error handler.

User errors (UserError, a rules refusal, ParseError, failed checks, unreadable options) are answered
ephemerally with their message; anything else is logged with its traceback and answered with a
short apology that carries no detail (so never a secret).
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from rules.contract import ParseError, RulesError

from .host.errors import Refused, UserError

log = logging.getLogger(__name__)

APOLOGY = "Sorry, something went wrong on my side. Nothing you had already recorded was lost; please try again."


def user_message(error: BaseException) -> str | None:
    """The message for an error the user can fix, or None for a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, (RulesError, Refused)):
        return f"Not allowed: {error.message}"
    if isinstance(error, ParseError):
        return f"Could not read that: {error}"
    if isinstance(error, UserError):
        return error.message
    if isinstance(error, app_commands.TransformerError):
        return f"Could not read the option value {str(error.value)[:100]!r}."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f}s."
    if isinstance(error, app_commands.CheckFailure):
        return "You cannot use this command here."
    return None


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


async def send_ephemeral(interaction: discord.Interaction, message: str) -> None:
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message[:2000], ephemeral=True)
        else:
            await interaction.response.send_message(message[:2000], ephemeral=True)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)
