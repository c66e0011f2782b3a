"""/crimecity new, join, leave, start: the lobby."""

from __future__ import annotations

import discord
from discord import app_commands

from ..formatting import timestamp
from .common import Base, answer, caller_of, game_choices


def _lobby_line(names: list[str]) -> str:
    joined = ", ".join(names) if names else "nobody yet"
    return f"Players ({len(names)}/5): {joined}"


class LobbyCommands(Base):
    @app_commands.command(name="new", description="Open a Crime City lobby in this channel (you become its host).")
    @app_commands.describe(
        rounds="How many rounds at most (1-6)",
        deadline_hours="Hours for each phase (draft, each round)",
        garnets="Starting garnets for each player",
        wait_for_deadline="Wait for the deadline even when all five have submitted",
        reminder_hours="DM players who have not submitted this many hours before each deadline (0: never)",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        rounds: app_commands.Range[int, 1, 6] = 6,
        deadline_hours: app_commands.Range[float, 0.0, 1440.0] = 24.0,
        garnets: app_commands.Range[int, 0, None] = 0,
        wait_for_deadline: bool = False,
        reminder_hours: app_commands.Range[float, 0.0, 1440.0] = 1.0,
    ) -> None:
        game = await self.service.new_game(
            caller_of(interaction),
            rounds=rounds,
            deadline_hours=deadline_hours,
            garnets=garnets,
            wait_for_deadline=wait_for_deadline,
            reminder_hours=reminder_hours,
        )
        remind = f"reminders {reminder_hours:g} h before each deadline" if reminder_hours else "no reminders"
        text = (
            f"**Crime City** — a new game (#{game.id}) is open in this channel, hosted by {interaction.user.mention}.\n"
            f"{rounds} rounds at most, {deadline_hours:g} h per phase, {garnets} starting garnets"
            + (", waiting for every deadline" if wait_for_deadline else "")
            + f", {remind}.\nJoin with /crimecity join (5 players exactly); the host starts with /crimecity start."
        )
        await answer(interaction, text, ephemeral=False)

    @app_commands.command(name="join", description="Join the lobby in this channel.")
    async def join(self, interaction: discord.Interaction) -> None:
        _game, roster = await self.service.join(caller_of(interaction))
        names = [p.display_name for p in roster.players]
        tail = " The lobby is full: the host can /crimecity start." if len(names) == 5 else ""
        await answer(
            interaction, f"{interaction.user.display_name} joined. {_lobby_line(names)}.{tail}", ephemeral=False
        )

    @app_commands.command(name="leave", description="Leave the lobby (before the draft).")
    async def leave(self, interaction: discord.Interaction) -> None:
        _game, roster = await self.service.leave(caller_of(interaction))
        names = [p.display_name for p in roster.players]
        await answer(interaction, f"{interaction.user.display_name} left. {_lobby_line(names)}.", ephemeral=False)

    @app_commands.command(name="start", description="Close the lobby and open the draft (host or admin).")
    @app_commands.describe(game="The game (only needed in DMs when you are in several)")
    async def start(self, interaction: discord.Interaction, game: str | None = None) -> None:
        row, roster = await self.service.start(caller_of(interaction), game)
        mentions = [p.user_id for p in roster.players]
        deadline = "the clock is paused" if row.deadline_at is None else f"deadline {timestamp(row.deadline_at)}"
        text = (
            f"**Crime City** — the draft is open ({deadline}). "
            + " ".join(f"<@{uid}>" for uid in mentions)
            + "\nSubmit privately with /crimecity draft bid:<garnets> characters:<ranking> roles:<ranking> "
            "(here or in a DM with me). Use /crimecity rules topic:draft for how the draft works."
        )
        await answer(interaction, text, ephemeral=False, mention=mentions)

    @start.autocomplete("game")
    async def _start_game_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await game_choices(self.bot, interaction, current)
