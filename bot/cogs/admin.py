"""/crimecity admin ...: hosting. Rights are checked in GameService (host or Manage Server)."""

from __future__ import annotations

import io

import discord
from discord import app_commands

from ..context import Member
from ..formatting import timestamp
from .common import Base, answer, caller_of, game_choices

GAME_HELP = "The game (only needed in DMs when you are in several)"


class AdminCommands(Base):
    admin = app_commands.Group(name="admin", description="Hosting commands (the game's host or Manage Server).")

    @admin.command(name="resolve", description="Resolve the current phase now with the submissions so far.")
    @app_commands.describe(game=GAME_HELP)
    async def admin_resolve(self, interaction: discord.Interaction, game: str | None = None) -> None:
        row = await self.service.admin_resolve(caller_of(interaction), game)
        what = "The draft" if row.status == "draft" else f"Round {row.round}"
        await answer(interaction, f"{what} is resolved; the results are being posted.")

    @admin.command(name="deadline", description="Move the current phase's deadline to this many hours from now.")
    @app_commands.describe(hours="Hours from now (fractions allowed)", game=GAME_HELP)
    async def admin_deadline(self, interaction: discord.Interaction, hours: float, game: str | None = None) -> None:
        row = await self.service.admin_deadline(caller_of(interaction), hours, game)
        if row.paused:
            text = f"The clock is paused; {hours:g} h will remain when it resumes."
        else:
            text = f"New deadline: {timestamp(row.deadline_at)}."
        await answer(interaction, text)

    @admin.command(name="reminder", description="DM players who have not submitted this long before each deadline.")
    @app_commands.describe(hours="Hours before the deadline (fractions allowed; 0 turns reminders off)", game=GAME_HELP)
    async def admin_reminder(
        self, interaction: discord.Interaction, hours: app_commands.Range[float, 0.0, 1440.0], game: str | None = None
    ) -> None:
        await answer(interaction, await self.service.admin_reminder(caller_of(interaction), hours, game))

    @admin.command(name="pause", description="Stop the deadline clock.")
    @app_commands.describe(game=GAME_HELP)
    async def admin_pause(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self.service.admin_pause(caller_of(interaction), True, game)
        await answer(interaction, "The clock is paused: nothing resolves until /crimecity admin resume or resolve.")

    @admin.command(name="resume", description="Restart the deadline clock.")
    @app_commands.describe(game=GAME_HELP)
    async def admin_resume(self, interaction: discord.Interaction, game: str | None = None) -> None:
        row = await self.service.admin_pause(caller_of(interaction), False, game)
        await answer(interaction, f"The clock runs again: deadline {timestamp(row.deadline_at)}.")

    @admin.command(name="end", description="End the game early and post the results.")
    @app_commands.describe(reveal="Also reveal every seat", game=GAME_HELP)
    async def admin_end(self, interaction: discord.Interaction, reveal: bool = True, game: str | None = None) -> None:
        await self.service.admin_end(caller_of(interaction), reveal, game)
        await answer(interaction, "The game is ended; the results are being posted.")

    @admin.command(name="replace", description="Hand a seat to another member (they get the seat's secrets by DM).")
    @app_commands.describe(old="The member leaving the seat", new="The member taking it", game=GAME_HELP)
    async def admin_replace(
        self, interaction: discord.Interaction, old: discord.User, new: discord.User, game: str | None = None
    ) -> None:
        text = await self.service.admin_replace(
            caller_of(interaction), Member.from_user(old), Member.from_user(new), game
        )
        await answer(interaction, text)

    @admin.command(name="garnets", description="Set a player's garnet balance.")
    @app_commands.describe(player="The player", amount="The new balance", game=GAME_HELP)
    async def admin_garnets(
        self,
        interaction: discord.Interaction,
        player: discord.User,
        amount: app_commands.Range[int, 0, None],
        game: str | None = None,
    ) -> None:
        text = await self.service.admin_garnets(caller_of(interaction), Member.from_user(player), amount, game)
        await answer(interaction, text)

    @admin.command(name="placements", description="The draft's tie-break: players from first to last last match.")
    @app_commands.describe(order="Players by display name or mention, comma-separated, best first", game=GAME_HELP)
    async def admin_placements(self, interaction: discord.Interaction, order: str, game: str | None = None) -> None:
        text = await self.service.admin_placements(caller_of(interaction), order, game)
        await answer(interaction, text)

    @admin.command(name="export", description="The game's full record as a replay file (host only; holds secrets).")
    @app_commands.describe(game=GAME_HELP)
    async def admin_export(self, interaction: discord.Interaction, game: str | None = None) -> None:
        name, data = await self.service.admin_export(caller_of(interaction), game)
        file = discord.File(io.BytesIO(data), filename=name)
        await answer(interaction, "The game's record (replay.md format). It holds every secret.", file=file)

    @admin_resolve.autocomplete("game")
    @admin_deadline.autocomplete("game")
    @admin_reminder.autocomplete("game")
    @admin_pause.autocomplete("game")
    @admin_resume.autocomplete("game")
    @admin_end.autocomplete("game")
    @admin_replace.autocomplete("game")
    @admin_garnets.autocomplete("game")
    @admin_placements.autocomplete("game")
    @admin_export.autocomplete("game")
    async def _admin_game_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await game_choices(self.bot, interaction, current)
