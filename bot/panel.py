"""The Discord side of `/crimecity panel`: select menus and buttons that survive a restart.

Each component is a `PanelControl` (a discord.py DynamicItem registered in setup_hook), so a click
is dispatched by its custom id alone, `cc:panel:<game_id>:<nonce>:<part>`: no character, role or
action name, only a random nonce whose state lives in the database (bot/panels.py). What is
offered and what a click does is decided there; this module only draws and forwards.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from .context import Caller
from .panels import PARTS, PanelOption, PanelScreen
from .tree import APOLOGY, send_ephemeral, user_message

log = logging.getLogger(__name__)

TEMPLATE = re.compile(rf"cc:panel:(?P<game>[0-9]+):(?P<nonce>[0-9a-f]{{12}}):(?P<part>{'|'.join(PARTS)})")


def custom_id(screen: PanelScreen, part: str) -> str:
    return f"cc:panel:{screen.game_id}:{screen.nonce}:{part}"


class PanelControl(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    """One select or button of a panel; all the state it needs is in its custom id's match."""

    def __init__(self, item: discord.ui.Item[Any], game_id: int, nonce: str, part: str) -> None:
        super().__init__(item)
        self.game_id = game_id
        self.nonce = nonce
        self.part = part

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PanelControl:
        return cls(item, int(match["game"]), match["nonce"], match["part"])

    async def callback(self, interaction: discord.Interaction) -> None:
        # discord.py only logs a dynamic item's exceptions, so every outcome is answered here.
        service = interaction.client.service  # type: ignore[attr-defined]
        values = [str(v) for v in (interaction.data or {}).get("values", [])]  # type: ignore[union-attr]
        try:
            screen = await service.panel_click(
                Caller.from_interaction(interaction), self.game_id, self.nonce, self.part, values
            )
        except Exception as error:
            message = user_message(error)
            if message is None:
                log.error("panel click failed (interaction %s)", interaction.id, exc_info=error)
                message = APOLOGY
            await send_ephemeral(interaction, message)
            return
        await interaction.response.edit_message(content=screen.text, embed=None, view=panel_view(screen))


def _options(options: list[PanelOption]) -> list[discord.SelectOption]:
    return [discord.SelectOption(label=o.label, value=o.value, default=o.default) for o in options]


def panel_view(screen: PanelScreen) -> discord.ui.View:
    """Row 0: the kind of action; row 1: the actions of that kind (one page); row 2: the buttons."""
    view = discord.ui.View(timeout=None)

    def add(item: discord.ui.Item[Any], part: str) -> None:
        view.add_item(PanelControl(item, screen.game_id, screen.nonce, part))

    if screen.kinds:
        kinds = discord.ui.Select(
            custom_id=custom_id(screen, "kind"), placeholder="Kind of action", options=_options(screen.kinds), row=0
        )
        add(kinds, "kind")
    if screen.options:
        acts = discord.ui.Select(
            custom_id=custom_id(screen, "act"), placeholder=screen.placeholder, options=_options(screen.options), row=1
        )
        add(acts, "act")
    if screen.pages > 1:
        prev = discord.ui.Button(label="◀ Prev", custom_id=custom_id(screen, "prev"), disabled=screen.page == 0, row=2)
        add(prev, "prev")
        nxt = discord.ui.Button(
            label="Next ▶", custom_id=custom_id(screen, "next"), disabled=screen.page >= screen.pages - 1, row=2
        )
        add(nxt, "next")
    add(discord.ui.Button(label="Clear", custom_id=custom_id(screen, "clear"), row=2), "clear")
    submit = discord.ui.Button(
        label="Submit",
        style=discord.ButtonStyle.success,
        custom_id=custom_id(screen, "go"),
        disabled=not screen.can_submit,
        row=2,
    )
    add(submit, "go")
    return view
