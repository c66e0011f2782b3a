"""The action panel under /crimecity status: select menus of the caller's legal actions.

Options come from `rules.legal_actions`, carry the action notation as their values, and are
submitted through GameService like /crimecity act. Custom ids hold a random token only (no
secret); the panel lives as long as its ephemeral message (it is not persistent).
"""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING

import discord

from rules import GameState, legal_actions
from rules.notation import describe_action, format_action

from .context import Caller
from .roster import Roster
from .storage.models import GameRow
from .tree import APOLOGY, send_ephemeral, user_message

if TYPE_CHECKING:
    from .games import GameService

log = logging.getLogger(__name__)
MAX_OPTIONS = 25


class ActionPanel(discord.ui.View):
    def __init__(self, service: GameService, game: GameRow, state: GameState, seat: str, roster: Roster) -> None:
        super().__init__(timeout=15 * 60)
        self.service = service
        self.game_id = game.id
        self.owner = roster.user_of(seat)
        token = secrets.token_hex(6)
        moves, others = [], []
        for action in legal_actions(state, seat):
            value = format_action(action, roster.name_of)
            if len(value) > 100:
                continue
            option = discord.SelectOption(label=describe_action(state, seat, action, roster.name_of)[:100], value=value)
            (moves if action.is_move else others).append(option)
        self.move: str | None = None
        self.others: list[str] = []
        if moves:
            self.move_select = discord.ui.Select(
                custom_id=f"cc:{token}:move",
                placeholder="Movement action (at most one)",
                min_values=0,
                max_values=1,
                options=moves[:MAX_OPTIONS],
            )
            self.move_select.callback = self._on_move
            self.add_item(self.move_select)
        if others:
            self.other_select = discord.ui.Select(
                custom_id=f"cc:{token}:other",
                placeholder="Other actions",
                min_values=0,
                max_values=min(2, len(others[:MAX_OPTIONS])),
                options=others[:MAX_OPTIONS],
            )
            self.other_select.callback = self._on_other
            self.add_item(self.other_select)
        submit = discord.ui.Button(
            label="Submit these actions", style=discord.ButtonStyle.primary, custom_id=f"cc:{token}:go"
        )
        submit.callback = self._on_submit
        self.add_item(submit)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return interaction.user.id == self.owner

    async def _on_move(self, interaction: discord.Interaction) -> None:
        self.move = (self.move_select.values or [None])[0]
        await interaction.response.defer()

    async def _on_other(self, interaction: discord.Interaction) -> None:
        self.others = list(self.other_select.values)
        await interaction.response.defer()

    async def _on_submit(self, interaction: discord.Interaction) -> None:
        chosen = ([self.move] if self.move else []) + self.others
        if not chosen:
            await send_ephemeral(interaction, "Pick your actions in the menus first.")
            return
        first, second = chosen[0], (chosen[1] if len(chosen) > 1 else None)
        seated, sub = await self.service.submit_actions(
            Caller.from_interaction(interaction), first, second, game_opt=str(self.game_id)
        )
        shown = ", ".join(f"`{format_action(a, seated.roster.name_of)}`" for a in sub.actions)
        await send_ephemeral(interaction, f"Round {seated.game.round} actions recorded: {shown}")

    async def on_error(self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item) -> None:
        message = user_message(error)
        if message is None:
            log.error("action panel failed (interaction %s)", interaction.id, exc_info=error)
            message = APOLOGY
        await send_ephemeral(interaction, message)
