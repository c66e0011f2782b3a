"""/crimecity status, board, rules, help: what people read."""

from __future__ import annotations

import asyncio
import io
import logging

import discord
from discord import app_commands

from .. import rules_pages
from ..delivery import default_renderer
from .common import EMBED_COLOUR, Base, answer, caller_of, game_choices

log = logging.getLogger(__name__)
GAME_HELP = "The game (only needed in DMs when you are in several)"

HELP = """\
**Crime City** — 5 players, a hidden character and role each, up to 6 rounds.
**Lobby**: `/crimecity new` (host) · `/crimecity join` · `/crimecity leave` · `/crimecity start` (host)
**Play** (in the game's channel or in a DM with me; answers are private):
- `/crimecity draft bid characters roles` — your draft bid and rankings
- `/crimecity act first second` — your two actions (the list offers only legal ones)
- `/crimecity friendship a b points` — buy friendship points (3 garnets each)
- `/crimecity guess roles` — the Mob Boss's guess
- `/crimecity status` — your seat, what you learned, your submission, cooldowns, deadline
- `/crimecity panel` — pick your actions from menus (only legal ones), then Submit
- `/crimecity board` — the public board · `/crimecity rules` — the rules in short pages
- `/crimecity history` — this server's finished games
- `/crimecity ec player` — choose the EC when the results ask you to
**Hosting**: `/crimecity admin resolve|deadline|reminder|pause|resume|end|replace|garnets|placements|export`
Action notation: `move vertical secretary`, `converse store_clerk`, `ability detective`, \
`ability player Alice`, `ability policeman bank` (Governor), `friend banker`."""


class InfoCommands(Base):
    @app_commands.command(name="status", description="Your private view: seat, goal, what you learned, submission.")
    @app_commands.describe(game=GAME_HELP)
    async def status(self, interaction: discord.Interaction, game: str | None = None) -> None:
        caller = caller_of(interaction)
        text = await self.service.status(caller, game)
        if await self.service.play_context(caller, game) is not None:
            text += "\nPick your actions with /crimecity panel (menus) or /crimecity act."
        await answer(interaction, text)

    @status.autocomplete("game")
    async def _status_game_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await game_choices(self.bot, interaction, current)

    @app_commands.command(name="board", description="The public board: positions, friendship points, who submitted.")
    @app_commands.describe(game=GAME_HELP, public="Post it in the channel for everyone (it holds no secret)")
    async def board(self, interaction: discord.Interaction, game: str | None = None, public: bool = False) -> None:
        report = await self.service.board(caller_of(interaction), game)
        file = None
        if report.view is not None:
            png = await asyncio.to_thread(default_renderer, report.view)
            if png:
                file = discord.File(io.BytesIO(png), filename="board.png")
        # Ephemeral unless asked: a channel full of boards nobody asked for is noise on game night.
        await answer(interaction, report.text, ephemeral=not (public and interaction.guild_id), file=file)

    @board.autocomplete("game")
    async def _board_game_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await game_choices(self.bot, interaction, current)

    @app_commands.command(name="history", description="This server's finished games: rounds, completions, ToL, EC.")
    @app_commands.describe(page="Page (1 is the newest games)")
    async def history(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, None] = 1) -> None:
        found = await self.service.history(caller_of(interaction), page)
        embed = discord.Embed(title=found.title, colour=EMBED_COLOUR)
        if found.empty:
            embed.description = found.footer
        else:
            for name, value in found.fields:
                embed.add_field(name=name, value=value, inline=False)
            embed.set_footer(text=found.footer)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="rules", description="The rules of Crime City, in short pages.")
    @app_commands.describe(topic="A topic (leave empty for the list)")
    async def rules(self, interaction: discord.Interaction, topic: str | None = None) -> None:
        page = rules_pages.page(topic)
        await interaction.response.send_message(embed=discord.Embed.from_dict(page.embed_dict()), ephemeral=True)

    @rules.autocomplete("topic")
    async def _rules_topic_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            return [app_commands.Choice(name=n, value=v) for n, v in rules_pages.topic_choices(current)]
        except Exception:
            log.exception("rules autocomplete failed")
            return []

    @app_commands.command(name="help", description="What the Crime City commands do.")
    async def help(self, interaction: discord.Interaction) -> None:
        await answer(interaction, HELP)
