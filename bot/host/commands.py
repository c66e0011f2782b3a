"""Helpers every game's slash commands share: answering, who is calling, the `game` option's choices."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from rules.contract import ParseError, RulesError

from .context import Caller
from .errors import Refused, UserError
from .mentions import mentions

if TYPE_CHECKING:
    from . import Host

log = logging.getLogger(__name__)

EMBED_COLOUR = 0xFFC83C
MAX_CONTENT = 2000
MAX_CHOICES = 25
GAME_HELP = "The game (only needed in DMs when you are in several)"
PUBLIC_DEFER = "host:public_defer"  # in `Interaction.extras`: deferred publicly, nothing sent since


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
    files: Sequence[discord.File] = (),
    mention: list[int] | None = None,
    view: discord.ui.View | None = None,
) -> None:
    """Content when it fits in 2,000 characters, else an embed description (4,096)."""
    kwargs: dict[str, Any] = {"ephemeral": ephemeral}
    linked = mentions(interaction.client, text)
    # A mention is longer than the name: never let it push a text over its limit (and lose its end).
    if len(linked) <= MAX_CONTENT or len(text) > MAX_CONTENT and len(linked) <= 4096:
        text = linked
    if len(text) <= MAX_CONTENT:
        kwargs["content"] = text
    else:
        kwargs["embed"] = discord.Embed(description=clip(text, 4096), colour=EMBED_COLOUR)
    if file is not None:
        kwargs["file"] = file
    if files:
        kwargs["files"] = list(files)
    if view is not None:
        kwargs["view"] = view
    if mention:
        kwargs["allowed_mentions"] = discord.AllowedMentions(users=[discord.Object(u) for u in mention])
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
        interaction.extras.pop(PUBLIC_DEFER, None)
    else:
        await interaction.response.send_message(**kwargs)


async def defer_public(interaction: discord.Interaction) -> None:
    """Defer a command whose answer is public (Discord's 3 seconds). A refusal cannot turn the public
    "thinking" message private, so `send_ephemeral` deletes it first and answers its caller alone."""
    await interaction.response.defer(ephemeral=False, thinking=True)
    interaction.extras[PUBLIC_DEFER] = True


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


APOLOGY = "Sorry, something went wrong on my side. Nothing you had already recorded was lost; please try again."


def user_message(error: BaseException) -> str | None:
    """The message for an error the user can fix, or None for a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, (RulesError, Refused)):
        return f"That is not allowed: {error.message}"
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


async def send_ephemeral(interaction: discord.Interaction, message: str) -> None:
    message = mentions(interaction.client, message)
    try:
        if interaction.extras.pop(PUBLIC_DEFER, False):
            try:
                await interaction.delete_original_response()
            except discord.HTTPException:
                log.debug("could not delete the deferral of interaction %s", interaction.id, exc_info=True)
        if interaction.response.is_done():
            await interaction.followup.send(message[:2000], ephemeral=True)
        else:
            await interaction.response.send_message(message[:2000], ephemeral=True)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)
