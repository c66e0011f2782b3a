"""Small helpers shared by the command mixins: answering, and autocomplete for `game`."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from ..context import Caller
from ..formatting import MAX_CONTENT, clip

if TYPE_CHECKING:
    from ..client import CrimeCityBot
    from ..games import GameService

log = logging.getLogger(__name__)

EMBED_COLOUR = 0xFFC83C
MAX_CHOICES = 25


class Base:
    """What every mixin can rely on (set by CrimeCityCog.__init__)."""

    bot: CrimeCityBot
    service: GameService


async def answer(
    interaction: discord.Interaction,
    text: str,
    *,
    ephemeral: bool = True,
    file: discord.File | None = None,
    mention: list[int] | None = None,
    view: discord.ui.View | None = None,
) -> None:
    """Content when it fits in 2000 characters, else an embed description (4096)."""
    kwargs: dict = {"ephemeral": ephemeral}
    if len(text) <= MAX_CONTENT:
        kwargs["content"] = text
    else:
        kwargs["embed"] = discord.Embed(description=clip(text, 4096), colour=EMBED_COLOUR)
    if file is not None:
        kwargs["file"] = file
    if view is not None:
        kwargs["view"] = view
    if mention:
        kwargs["allowed_mentions"] = discord.AllowedMentions(users=[discord.Object(u) for u in mention])
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


def caller_of(interaction: discord.Interaction) -> Caller:
    return Caller.from_interaction(interaction)


def matches(current: str, *texts: str) -> bool:
    """Loose filter for autocomplete: what was typed, ignoring case, spaces and underscores."""
    want = current.casefold().replace("_", " ").strip()
    if not want:
        return True
    return any(want in t.casefold().replace("_", " ") for t in texts)


async def game_choices(
    bot: CrimeCityBot, interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The caller's active games, for the `game` option in DMs."""
    try:
        games = await bot.service.games_of(interaction.user.id)
        out = []
        for game in games:
            channel = bot.get_channel(game.channel_id)
            where = (
                f"#{channel.name}" if channel is not None and hasattr(channel, "name") else f"channel {game.channel_id}"
            )
            phase = f"round {game.round}" if game.status == "round" else game.status
            name = f"Game {game.id} in {where} ({phase})"
            if matches(current, name, str(game.id)):
                out.append(app_commands.Choice(name=name[:100], value=str(game.id)))
        return out[:MAX_CHOICES]
    except Exception:
        log.exception("game autocomplete failed")
        return []
