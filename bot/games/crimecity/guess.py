"""The Mob Boss's guess by menus: one select per character (all eight on one Components V2 message),
then Submit; the same checks and messages as `/crimecity guess` (the rules check the guess).

Its components carry only `cc:guess:<game>:<nonce>:<part>`; the picks live in the host's panel row.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from rules.crimecity import CHARACTERS
from rules.crimecity.ids import ROLES, Role

from ...host import APOLOGY, Caller, Reply, UserError, send_ephemeral, user_message
from . import moves
from .texts import char_title, role_title

if TYPE_CHECKING:
    from ...host import Host

log = logging.getLogger(__name__)

KIND = "crimecity"
NEW_FORM = "Open a new one from your panel (/crimecity panel)."
PARTS = tuple(f"c{i}" for i in range(len(CHARACTERS))) + ("go", "clear")
TEMPLATE = re.compile(rf"cc:guess:(?P<game>[0-9]+):(?P<nonce>[0-9a-f]{{12}}):(?P<part>{'|'.join(PARTS)})")
CHOICES = [*ROLES, Role.NONE]


async def open_guess(host: Host, caller: Caller, game_id: int) -> Reply:
    by_id = replace(caller, guild_id=None, channel_id=None)
    turn = await host.play.turn(by_id, KIND, str(game_id))
    if turn is None:
        raise UserError("Nothing is waiting for you in this game right now.")
    mine = (turn.mine or {}).get("guess") or {}
    data = {"form": "guess", "picks": dict(mine)}
    row = await host.panels.open(turn.game, caller.user_id, data)
    return screen(turn.game.id, row.nonce, data)


async def click(host: Host, caller: Caller, game_id: int, nonce: str, part: str, values: list[str]) -> Reply:
    panel = await host.panels.get(caller, game_id, nonce, reopen=NEW_FORM)
    data = dict(panel.row.data)
    picks = dict(data.get("picks") or {})
    note = ""
    if part.startswith("c") and values:
        character = CHARACTERS[int(part[1:])]
        picks[character.value] = Role(values[0]).value
    elif part == "clear":
        picks = {}
    elif part == "go":
        missing = [char_title(c.value) for c in CHARACTERS if c.value not in picks]
        if missing:
            raise UserError("Pick a role (or none) for every character first: " + ", ".join(missing) + ".")
        text = ", ".join(f"{c.value}={picks[c.value]}" for c in CHARACTERS)
        by_id = replace(caller, guild_id=None, channel_id=None)
        guess = await moves.submit_guess(host, by_id, text, str(game_id))
        note = "Guess recorded for this round (you can replace it until the round resolves):\n" + "\n".join(
            f"{char_title(c.value)}: {role_title(guess[c].value)}" for c in CHARACTERS
        )
    data["picks"] = picks
    await host.panels.save(nonce, data)
    return screen(game_id, nonce, data, note=note)


def screen(game_id: int, nonce: str, data: dict[str, Any], *, note: str = "") -> Reply:
    picks = data.get("picks") or {}
    text = "**Crime City — your guess for this round** (one attempt a round, rules R26 and Q14)\n"
    text += "Give every character its hidden role, or none; then Submit."
    if note:
        text = f"✅ {note}\n\n" + text
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.TextDisplay(text))
    for i, character in enumerate(CHARACTERS):
        options = [
            discord.SelectOption(
                label=f"{char_title(character.value)}: {role_title(r.value) if r is not Role.NONE else 'no role'}",
                value=r.value,
                default=picks.get(character.value) == r.value,
            )
            for r in CHOICES
        ]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_id(game_id, nonce, f"c{i}"),
            placeholder=f"{char_title(character.value)}: its role?",
            options=options,
        )
        view.add_item(discord.ui.ActionRow(GuessControl(select, game_id, nonce, f"c{i}")))
    row = discord.ui.ActionRow()
    for part, label, style in (
        ("go", "Submit guess", discord.ButtonStyle.success),
        ("clear", "Clear", discord.ButtonStyle.secondary),
    ):
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=style, custom_id=custom_id(game_id, nonce, part)
        )
        row.add_item(GuessControl(button, game_id, nonce, part))
    view.add_item(row)
    return Reply("", view)


def custom_id(game_id: int, nonce: str, part: str) -> str:
    return f"cc:guess:{game_id}:{nonce}:{part}"


class GuessControl(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    def __init__(self, item: discord.ui.Item[Any], game_id: int, nonce: str, part: str) -> None:
        super().__init__(item)
        self.game_id = game_id
        self.nonce = nonce
        self.part = part

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GuessControl:
        return cls(item, int(match["game"]), match["nonce"], match["part"])

    async def callback(self, interaction: discord.Interaction) -> None:
        host = interaction.client.host  # type: ignore[attr-defined]
        values = [str(v) for v in (interaction.data or {}).get("values", [])]  # type: ignore[union-attr]
        try:
            reply = await click(host, Caller.from_interaction(interaction), self.game_id, self.nonce, self.part, values)
        except Exception as error:
            message = user_message(error)
            if message is None:
                log.error("guess click failed (interaction %s)", interaction.id, exc_info=error)
                message = APOLOGY
            await send_ephemeral(interaction, message)
            return
        await interaction.response.edit_message(view=reply.view)
