"""An action is played while Discord takes its deferral (bot/games/crimopolis/cog.py `_play`): the answer waits
for one round trip to Discord, not two. A deferral Discord refuses leaves the action played, and the bot going."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from rules.crimopolis import GAME
from tests.support.crimopolis import CpTable, command_for, open_game

DEFERRED_MESSAGE = 5  # the callback type of a deferral with "thinking"

Answer = tuple[int, dict[str, Any]]


async def next_move(cp: CpTable) -> tuple[Any, str, dict[str, Any], int]:
    """Who decides now, the slash command (and options) of a legal move of theirs, and the game's version."""
    state = await cp.state()
    pending = GAME.pending(state)
    assert pending is not None
    seat = pending.awaited[0]
    member = cp.players[(await cp.seat_members())[seat][0]]
    seats = await cp.shown_names()
    move = GAME.random_move(state, seat, random.Random(7))
    assert move is not None
    command, options = command_for(move, lambda s: seats.get(s, s))
    return member, command, options, (await cp.game_row())["version"]


def hold_first_deferral(cp: CpTable, answer: Callable[[Callable[[], Answer]], Awaitable[Answer]]) -> list[int]:
    """Route the first deferral the fake Discord receives through `answer`; the ids of those held."""
    desk = cp.fd.desk
    original = desk.callback
    held: list[int] = []

    def callback(iid: int, token: str, body: dict[str, Any], uploads: list[Any]) -> Any:
        if body.get("type") == DEFERRED_MESSAGE and not held:
            held.append(iid)
            return answer(lambda: original(iid, token, body, uploads))
        return original(iid, token, body, uploads)

    desk.callback = callback
    return held


async def version_after(cp: CpTable, before: int, seconds: float) -> int:
    for _ in range(int(seconds / 0.01)):
        version = (await cp.game_row())["version"]
        if version > before:
            return version
        await asyncio.sleep(0.01)
    return before


async def test_the_action_is_played_while_the_deferral_is_on_its_way(cp: CpTable) -> None:
    await open_game(cp, ["ann", "ben"], target_prestige=5)
    await cp.idle()
    member, command, options, before = await next_move(cp)
    release = asyncio.Event()

    async def slow(go: Callable[[], Answer]) -> Answer:
        await release.wait()  # Discord has not yet taken the deferral
        return go()

    held = hold_first_deferral(cp, slow)
    reply = asyncio.create_task(cp.cmd(member, command, options=options))
    try:
        assert await version_after(cp, before, 3.0) > before, "the action waited for Discord to take the deferral"
        assert held, "the command did not defer"
    finally:
        release.set()
    answered = await reply
    assert answered.ephemeral
    assert "✅" in answered.text(), answered.text()


async def test_an_action_whose_deferral_discord_refused_stays_played(
    cp: CpTable, caplog: pytest.LogCaptureFixture
) -> None:
    await open_game(cp, ["ann", "ben"], target_prestige=5)
    await cp.idle()
    member, command, options, before = await next_move(cp)

    async def too_late(go: Callable[[], Answer]) -> Answer:
        return 404, {"code": 10062, "message": "Unknown interaction"}

    held = hold_first_deferral(cp, too_late)
    with caplog.at_level(logging.WARNING, logger="bot.games.crimopolis.cog"):
        with pytest.raises(Exception, match="did not answer"):
            await cp.cmd(member, command, options=options, timeout=1.0)
        await cp.idle()
    assert held
    assert (await cp.game_row())["version"] > before  # played, as a move handed to a host
    assert any("refused the deferral" in r.getMessage() for r in caplog.records)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    member, command, options, before = await next_move(cp)  # and the game goes on
    answered = await cp.cmd(member, command, options=options)
    assert "✅" in answered.text(), answered.text()
    assert (await cp.game_row())["version"] > before
