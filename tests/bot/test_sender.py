"""The posts and DMs sent by a process of their own (bot/sender.py), through the fake Discord."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections import Counter
from typing import Any

import pytest

from bot import sender as sender_module
from bot.sender import ProcessSender, frame, read_frame
from tests.support.crimecity import CAST, act_we1
from tests.support.table import NAMES, Table, draft_cast, open_game

BOARD1 = "Round 1**: the board after the round"


def refuse_in_the_bot(t: Table) -> list[str]:
    """Make the bot's own HTTP client refuse every post, edit and DM: what arrives came from the child."""
    tried: list[str] = []

    def refused(name: str) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            tried.append(name)
            raise AssertionError(f"the bot's own process made a {name} call")

        return call

    for name in ("send_message", "edit_message", "start_private_message"):
        setattr(t.bot.http, name, refused(name))
    return tried


def assert_round_once(t: Table) -> None:
    assert len([p for p in t.posts() if BOARD1 in p]) == 1, t.posts()
    for n in NAMES:
        dms = [d for d in t.dm_texts(t.players[n]) if d.startswith("**Crime City — Round 1**")]
        assert len(dms) == 1, (n, dms)
    for text, count in Counter(t.posts()).items():
        assert count == 1, f"posted {count} times: {text[:80]!r}"


async def play_round(t: Table) -> None:
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    for n in NAMES:
        await act_we1(t, n)
    await t.idle()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def gone(pid: int, seconds: float = 10.0) -> bool:
    for _ in range(int(seconds / 0.05)):
        if not alive(pid):
            return True
        await asyncio.sleep(0.05)
    return False


async def child() -> asyncio.subprocess.Process:
    """The sending process as the bot starts it, its stdin and stdout ours."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.sender", "0", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
    )


async def test_the_posts_edits_and_dms_go_out_from_a_process_of_their_own(table: Table) -> None:
    t = table
    sender = t.bot.delivery.sender
    assert isinstance(sender, ProcessSender) and await sender.ready()
    assert sender.pid is not None and sender.pid != os.getpid() and alive(sender.pid)
    tried = refuse_in_the_bot(t)
    await play_round(t)
    assert_round_once(t)
    assert tried == []
    assert sender.started == 1


async def test_a_killed_sending_process_is_replaced_and_nothing_is_lost_or_sent_twice(table: Table) -> None:
    t = table
    sender = t.bot.delivery.sender
    assert isinstance(sender, ProcessSender) and await sender.ready() and sender.pid is not None
    tried = refuse_in_the_bot(t)
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    first = sender.pid
    assert first is not None
    os.kill(first, signal.SIGKILL)
    assert await gone(first)
    for n in NAMES:
        await act_we1(t, n)
    t.bot.delivery.clock = lambda: __import__("time").time() + 3600  # past any retry's back-off
    t.bot.delivery.kick()
    await t.idle()
    assert_round_once(t)
    assert tried == []
    assert sender.started == 2 and sender.pid not in (None, first)


async def test_a_sending_process_that_cannot_start_leaves_the_sending_to_the_bot(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = table
    await t.stop_bot()
    monkeypatch.setattr(sender_module.sys, "executable", "/nonexistent/python")
    await t.start_bot()
    sender = t.bot.delivery.sender
    assert isinstance(sender, ProcessSender) and not await sender.ready()
    assert sender.pid is None and sender.started == 0
    await play_round(t)
    assert_round_once(t)


async def test_with_the_setting_off_the_bot_sends_its_posts_itself(table: Table) -> None:
    t = table
    await t.stop_bot()
    t.settings = {"sender_process": 0}
    await t.start_bot()
    assert not isinstance(t.bot.delivery.sender, ProcessSender)
    await play_round(t)
    assert_round_once(t)


async def test_the_sending_process_exits_with_the_bot(table: Table) -> None:
    t = table
    sender = t.bot.delivery.sender
    assert isinstance(sender, ProcessSender) and await sender.ready()
    pid = sender.pid
    assert pid is not None
    await t.stop_bot()
    assert await gone(pid)


async def test_the_child_exits_when_its_stdin_closes_as_when_the_bot_is_killed(table: Table) -> None:
    """A SIGKILLed bot runs no clean-up; the kernel closes its end of the pipe, and the child sees that."""
    import discord

    t = table
    proc = await child()
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(frame(("hello", discord.http.Route.BASE, t.fd.token)))
    _, status, me = await asyncio.wait_for(read_frame(proc.stdout), 30)
    assert status == "ok" and me == t.bot.user.id
    proc.stdin.write(frame((1, "open_dm", t.players["andy"].id)))
    call_id, status, channel_id = await asyncio.wait_for(read_frame(proc.stdout), 10)
    assert (call_id, status, channel_id) == (1, "ok", t.fd.dm_channel(t.players["andy"]).id)
    proc.stdin.write(frame((2, "open_dm", 12345)))  # nobody: Discord's 404 comes back as a refusal
    call_id, status, info = await asyncio.wait_for(read_frame(proc.stdout), 10)
    assert (call_id, status, info[:3]) == (2, "err", ("http", "NotFound", 404))
    proc.stdin.close()
    assert await asyncio.wait_for(proc.wait(), 10) == 0


async def test_a_child_given_a_wrong_token_refuses_to_start(table: Table) -> None:
    import discord

    proc = await child()
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(frame(("hello", discord.http.Route.BASE, "not-the-token")))
    _, status, info = await asyncio.wait_for(read_frame(proc.stdout), 30)
    assert status == "err" and info[2] == 401
    assert await asyncio.wait_for(proc.wait(), 10) == 0


def test_the_sending_process_is_a_setting(tmp_path: Any) -> None:
    from bot import preflight
    from bot.config import Settings

    assert Settings.from_env({}).sender_process == 1
    for on in ("1", "true", "Yes", " on "):
        assert Settings.from_env({"CRIMECITY_SENDER_PROCESS": on}).sender_process == 1, on
    for off in ("0", "false", "NO", "off"):
        assert Settings.from_env({"CRIMECITY_SENDER_PROCESS": off}).sender_process == 0, off
    for bad in ("2", "maybe", "-1"):
        settings = Settings.from_env({"CRIMECITY_SENDER_PROCESS": bad, "CRIMECITY_DB": str(tmp_path / "a.db")})
        problems = [p for p in preflight.check(settings) if p.startswith("CRIMECITY_SENDER_PROCESS")]
        assert len(problems) == 1 and "1 or 0" in problems[0], (bad, problems)
    good = Settings.from_env({"CRIMECITY_DB": str(tmp_path / "a.db"), "DISCORD_TOKEN": "x"})
    assert not [p for p in preflight.check(good) if "SENDER" in p]
