"""The host's buttons on what the bot posts: Join / Leave / Start on a lobby, My status / Submit on
boards and round DMs, History on results.

Each is a persistent `DynamicItem` whose custom id is `host:<part>:<game id>`: no secret, only the game.
A DM's answer buttons (`DM.answers`) are `host:answer:<game id>:<step>:<index>`: the decision and a number.
A click answers only the member who clicked (ephemerally), about their own seat, through the game's
presentation hooks (`status_reply`, `submit_reply`, `history_reply`). It works after a restart.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from ..storage import games as games_repo
from .commands import APOLOGY, send_ephemeral, user_message
from .context import Caller
from .errors import NoGame, UserError
from .presenting import HISTORY, STATUS, SUBMIT, Reply

if TYPE_CHECKING:
    from . import Host

log = logging.getLogger(__name__)

JOIN, LEAVE, START = "join", "leave", "start"
LABELS = {JOIN: "Join", LEAVE: "Leave", START: "Start", STATUS: "My status", SUBMIT: "Submit", HISTORY: "History"}
STYLES = {JOIN: discord.ButtonStyle.success, START: discord.ButtonStyle.primary, SUBMIT: discord.ButtonStyle.primary}
TEMPLATE = re.compile(rf"host:(?P<part>{'|'.join(LABELS)}):(?P<game>[0-9]{{1,20}})")
ANSWER = re.compile(r"host:answer:(?P<game>[0-9]{1,20}):(?P<step>[0-9]{1,9}):(?P<index>[0-9]{1,2})")
MAX_ANSWERS = 20


def custom_id(part: str, game_id: int) -> str:
    return f"host:{part}:{game_id}"


def view(parts: list[str] | tuple[str, ...], game_id: int) -> discord.ui.View:
    """A persistent view of the host's buttons, in the order given."""
    out = discord.ui.View(timeout=None)
    _add_host_buttons(out, parts, game_id)
    return out


def _add_host_buttons(
    out: discord.ui.View, parts: list[str] | tuple[str, ...], game_id: int, row: int | None = None
) -> None:
    for part in parts:
        if part in LABELS:
            button: discord.ui.Button[Any] = discord.ui.Button(
                label=LABELS[part],
                style=STYLES.get(part, discord.ButtonStyle.secondary),
                custom_id=custom_id(part, game_id),
                row=row,
            )
            out.add_item(HostButton(button, part, game_id))


def answers_view(labels: list[str], step: int, parts: list[str], game_id: int) -> discord.ui.View:
    """A decision's answer buttons (`DM.answers`, five a row), then the host's buttons on the next row."""
    out = discord.ui.View(timeout=None)
    shown = labels[:MAX_ANSWERS]
    for i, label in enumerate(shown):
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label[:80] or "?",
            style=discord.ButtonStyle.primary,
            custom_id=f"host:answer:{game_id}:{step}:{i}",
            row=i // 5,
        )
        out.add_item(AnswerButton(button, game_id, step, i))
    _add_host_buttons(out, parts, game_id, row=(len(shown) + 4) // 5)
    return out


class HostButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    def __init__(self, item: discord.ui.Button[Any], part: str, game_id: int) -> None:
        super().__init__(item)
        self.part = part
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HostButton:
        assert isinstance(item, discord.ui.Button)  # the template matches only our buttons
        return cls(item, match["part"], int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        # discord.py only logs a dynamic item's exceptions, so every outcome is answered here.
        host: Host = interaction.client.host  # type: ignore[attr-defined]
        try:
            reply = await click(host, Caller.from_interaction(interaction), self.part, self.game_id)
        except Exception as error:
            message = user_message(error)
            if message is None:
                log.error("button %s failed (interaction %s)", self.part, interaction.id, exc_info=error)
                message = APOLOGY
            await send_ephemeral(interaction, message)
            return
        kwargs: dict[str, Any] = {"ephemeral": True}
        if reply.embed is not None:
            kwargs["embed"] = reply.embed
        if reply.text:
            kwargs["content"] = reply.text[:2000]
        if reply.view is not None:
            kwargs["view"] = reply.view
        await interaction.response.send_message(**kwargs)


async def click(host: Host, caller: Caller, part: str, game_id: int) -> Reply:
    async with host.db.reader() as conn:
        game = await games_repo.get_game(conn, game_id)
    if game is None or game.kind not in host.presentations:
        raise NoGame("That game no longer exists.")
    presentation = host.presentations[game.kind]
    if part in (JOIN, LEAVE, START):
        if game.guild_id != caller.guild_id:
            raise UserError("Use the lobby's buttons in the game's server.")
        if part == JOIN:
            await host.lobby.join(caller, game.kind, game_id=game_id)
            return Reply("You joined the lobby.")
        if part == LEAVE:
            await host.lobby.leave(caller, game.kind, game_id=game_id)
            return Reply("You left the lobby.")
        hook = getattr(presentation, "start_reply", None)
        if hook is not None:
            return await hook(host, caller, game_id)  # type: ignore[no-any-return]
        await host.lobby.start(caller, game.kind, game_opt=str(game_id), game_id=game_id)
        return Reply("The game has started.")
    hook = getattr(presentation, f"{part}_reply", None)
    if hook is None:
        raise UserError("That button does nothing for this game.")
    if part == HISTORY:
        return await hook(host, caller)  # type: ignore[no-any-return]
    return await hook(host, caller, game_id)  # type: ignore[no-any-return]


class AnswerButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ANSWER):
    """One answer to a decision, on a DM (`DM.answers`): the game, the decision's step and an index."""

    def __init__(self, item: discord.ui.Button[Any], game_id: int, step: int, index: int) -> None:
        super().__init__(item)
        self.game_id, self.step, self.index = game_id, step, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AnswerButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, int(match["game"]), int(match["step"]), int(match["index"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        host: Host = interaction.client.host  # type: ignore[attr-defined]
        try:
            reply = await answer(host, Caller.from_interaction(interaction), self.game_id, self.step, self.index)
        except Exception as error:
            message = user_message(error)
            if message is None:
                log.error("answer button failed (interaction %s)", interaction.id, exc_info=error)
                message = APOLOGY
            await send_ephemeral(interaction, message)
            return
        await interaction.response.send_message(content=reply.text[:2000] or "Done.", ephemeral=True)


async def answer(host: Host, caller: Caller, game_id: int, step: int, index: int) -> Reply:
    async with host.db.reader() as conn:
        game = await games_repo.get_game(conn, game_id)
    if game is None or game.kind not in host.presentations:
        raise NoGame("That game no longer exists.")
    hook = getattr(host.presentations[game.kind], "answer_reply", None)
    if hook is None:
        raise UserError("That button does nothing for this game.")
    return await hook(host, caller, game_id, step, index)  # type: ignore[no-any-return]
