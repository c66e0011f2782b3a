"""Connection faults during a round: gateway drops (resume and re-identify), 429 / 500 / 503 on posts
and DMs, a response lost after Discord created the message; and the scheduler surviving errors.
Nothing is lost, nothing is sent twice, the game goes on.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import Counter

import discord

from bot.storage.models import TimerRow
from tests.support.crimecity import CAST, act_we1
from tests.support.table import NAMES, Table, draft_cast, open_game

BOARD1 = "Round 1**: the board after the round"


def fast_forward(t: Table, seconds: float) -> None:
    """Let the outbox's retry back-off pass without waiting for it."""
    t.bot.delivery.clock = lambda: time.time() + seconds
    t.bot.delivery.kick()


def assert_round_once(t: Table, rnd: int = 1) -> None:
    boards = [p for p in t.posts() if f"Round {rnd}**: the board after the round" in p]
    assert len(boards) == 1, boards
    for n in NAMES:
        dms = [d for d in t.dm_texts(t.players[n]) if d.startswith(f"**Crime City — Round {rnd}**")]
        assert len(dms) == 1, (n, dms)
    for n, c in Counter(t.posts()).items():
        assert c == 1, f"posted {c} times: {n[:80]!r}"


async def test_fake_discord_dedupes_enforced_nonces_like_discord(table: Table) -> None:
    t = table
    chan = t.bot.get_partial_messageable(t.chan.id)
    first = await chan.send("hello", nonce="n-1")
    again = await chan.send("hello, again", nonce="n-1")  # discord.py always sets enforce_nonce
    other = await chan.send("other", nonce="n-2")
    assert again.id == first.id and other.id != first.id
    assert [m.content for m in t.fd.channel_messages(t.chan)] == ["hello", "other"]
    assert t.fd.api.nonce_replays == [first.id]
    too_long = "x" * 26
    try:
        await chan.send("nope", nonce=too_long)
    except discord.HTTPException as exc:
        assert exc.status == 400
    else:
        raise AssertionError("Discord refuses a nonce longer than 25 characters")


async def test_gateway_drops_mid_round_resume_and_reidentify(table: Table) -> None:
    t = table
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    await act_we1(t, "andy")
    await t.fd.drop_gateway(resume=True)
    await act_we1(t, "grunkle")
    # a command sent while the socket is down is replayed on RESUME and answered
    await t.fd.gateway.drop(resume=True)
    await act_we1(t, "cara")
    await t.fd.drop_gateway(resume=False)  # INVALID_SESSION: a full re-IDENTIFY
    await act_we1(t, "dev")
    await act_we1(t, "eve")
    await t.idle()
    assert t.fd.gateway.resumes >= 2 and t.fd.gateway.identifies >= 2
    assert_round_once(t)
    # the game goes on: round 2 accepts submissions
    status = await t.cmd(t.players["andy"], "status")
    assert "Round 2" in status.text()


async def test_429_500_503_on_posts_and_dms_lose_nothing_and_send_nothing_twice(table: Table) -> None:
    t = table
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    for n in NAMES[:4]:
        await act_we1(t, n)
    fd = t.fd
    chan_posts = rf"^/channels/{t.chan.id}/messages$"
    dm = {n: rf"^/channels/{fd.dm_channel(t.players[n]).id}/messages$" for n in NAMES}
    fd.fail_next(chan_posts, 429, retry_after=0.05, method="POST")  # discord.py waits and retries
    fd.fail_next(dm["andy"], 429, retry_after=0.05, method="POST")
    fd.fail_next(dm["grunkle"], 500, method="POST")  # discord.py retries after 1 s
    fd.fail_next(dm["cara"], 503, method="POST")  # DiscordServerError: the outbox retries later
    fd.fail_next(dm["dev"], 503, method="POST", after=True)  # created, but the answer was lost
    await act_we1(t, "eve")
    await fd.wait_for(lambda: not fd.faults.pending, 10, "faults not all hit")
    fast_forward(t, 3600)
    await t.idle()
    assert len(fd.faults.fired) == 5
    assert_round_once(t)
    assert len(fd.api.nonce_replays) == 1  # Dev's DM was resent with its nonce and not duplicated
    # a board post whose answer is lost after Discord created it: resent once, shown once
    fd.fail_next(chan_posts, 503, method="POST", after=True)
    await t.cmd(t.host, "admin resolve")
    await fd.wait_for(lambda: not fd.faults.pending, 10, "fault not hit")
    fast_forward(t, 7200)
    await t.idle()
    assert_round_once(t, 2)
    assert len(fd.api.nonce_replays) == 2
    async with t.bot.db.read() as conn:
        left = (await (await conn.execute("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")).fetchone())[0]
        gave_up = (
            await (await conn.execute("SELECT COUNT(*) FROM outbox WHERE last_error LIKE 'gave up%'")).fetchone()
        )[0]
    assert left == 0 and gave_up == 0


async def test_scheduler_survives_a_failing_game_and_keeps_the_others_deadlines(table: Table) -> None:
    """Game A's deadline handler raises (a database error, then a Discord error); game B's deadline,
    due later, still fires on time, and A resolves once the fault is gone."""
    t = table
    fd = t.fd
    other = t.guild.add_text_channel("crime-city-2")
    await open_game(t, garnets=20)
    host = t.host
    await fd.slash(host, other, "crimecity new", deadline_hours=24.0)
    extra = [t.guild.add_member(f"p{i}") for i in range(5)]
    for m in extra:
        await fd.slash(m, other, "crimecity join")
    await fd.slash(host, other, "crimecity start")
    due = t.bot.host.due
    async with t.bot.db.read() as conn:
        ids = [r[0] for r in await (await conn.execute("SELECT id FROM games ORDER BY id")).fetchall()]
    game_a, game_b = ids
    real = due.resolve
    failures = [RuntimeError("database is locked"), discord.DiscordServerError(_Resp(503), "Service Unavailable")]
    calls: list[int] = []

    async def flaky(timer: TimerRow) -> bool:
        calls.append(timer.game_id)
        if timer.game_id == game_a and failures:
            raise failures.pop(0)
        return await real(timer)

    due.resolve = flaky  # type: ignore[method-assign]
    ticks = itertools.count()
    # Every reading of the clock is 10 s later: each back-off (2 s, 4 s) is over by the next tick, while the
    # next round's timers (about a day away) never come due however many times wait_idle() polls.
    t.bot.scheduler.clock = lambda: time.time() + 10 * next(ticks)
    await fd.slash(host, t.chan, "crimecity admin deadline", hours=0.0)
    await fd.slash(host, other, "crimecity admin deadline", hours=0.0)
    await fd.wait_for(lambda: calls.count(game_a) >= 3 and game_b in calls, 10, "deadlines did not fire")
    await t.idle()
    posts_b = [m.text() for m in fd.channel_messages(other)]
    assert sum("the draft is resolved" in p for p in posts_b) == 1
    assert sum("the draft is resolved" in p for p in t.posts()) == 1  # A too, once, after two failures
    assert t.bot.scheduler._task is not None and not t.bot.scheduler._task.done()


class _Resp:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "Service Unavailable"


async def test_scheduler_loop_survives_a_database_error_in_its_own_tick(table: Table) -> None:
    t = table
    sched = t.bot.scheduler
    real = sched._tick
    boom = [True]

    async def tick() -> float:
        if boom:
            boom.pop()
            raise RuntimeError("disk I/O error")
        return await real()

    sched._tick = tick  # type: ignore[method-assign]
    sched.wake()
    await t.fd.wait_for(lambda: not boom, 5)
    await open_game(t, garnets=20)
    await t.cmd(t.host, "admin deadline", hours=0.0)
    await t.fd.wait_for(lambda: any("the draft is resolved" in p for p in t.posts()), 10, "no resolution")
    await asyncio.sleep(0)
