"""Helpers every game's slash commands share: answering, who is calling, the `game` option's choices."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from .context import Caller

if TYPE_CHECKING:
    from . import Host

log = logging.getLogger(__name__)

EMBED_COLOUR = 0xFFC83C
MAX_CONTENT = 2000
MAX_CHOICES = 25
GAME_HELP = "The game (only needed in DMs when you are in several)"


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def timestamp(epoch: float | None) -> str:
    """A Discord timestamp: shown in each reader's own time zone."""
    if epoch is None:
        return "none"
    return f"<t:{int(epoch)}:f> (<t:{int(epoch)}:R>)"


async def answer(
    interaction: discord.Interaction,
    text: str,
    *,
    ephemeral: bool = True,
    file: discord.File | None = None,
    mention: list[int] | None = None,
    view: discord.ui.View | None = None,
) -> None:
    """Content when it fits in 2,000 characters, else an embed description (4,096)."""
    kwargs: dict[str, Any] = {"ephemeral": ephemeral}
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
    host: Host, client: discord.Client, kind: str, interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The caller's active games of this kind, for the `game` option in DMs."""
    try:
        games = await host.finder.games_of(interaction.user.id, kind)
        out = []
        for game in games:
            channel = client.get_channel(game.channel_id)
            where = (
                f"#{channel.name}" if channel is not None and hasattr(channel, "name") else f"channel {game.channel_id}"
            )
            phase = game.pending.decision if game.pending is not None else game.status
            name = f"Game {game.id} in {where} ({phase})"
            if matches(current, name, str(game.id)):
                out.append(app_commands.Choice(name=name[:100], value=str(game.id)))
        return out[:MAX_CHOICES]
    except Exception:
        log.exception("game autocomplete failed")
        return []
