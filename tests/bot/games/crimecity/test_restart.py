"""Restarts: a game carries on where it was; a deadline that passed while down resolves once."""

from __future__ import annotations

import asyncio

from tests.support.crimecity import CAST, act_we1, board_lines
from tests.support.table import NAMES, Table, draft_cast, open_game


async def test_restart_mid_round_loses_nothing(table: Table) -> None:
    t = table
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    for n in NAMES[:3]:
        await act_we1(t, n)
    await t.stop_bot()
    await t.start_bot()
    status = await t.cmd(t.players["andy"], "status")
    assert "`move vertical secretary`" in status.text()
    board = await t.cmd(t.players["eve"], "board")
    assert "Submitted: andy, grunkle, cara" in board.text()
    for n in NAMES[3:]:
        await act_we1(t, n)
    await t.idle()
    assert board_lines(t.posts()[-1])["Town Hall"] == "The Policeman, The Banker, The Governor"
    assert "The Store Clerk has no hidden role" in t.dm_texts(t.players["andy"])[-1]


async def test_deadline_passed_while_down_resolves_once(table: Table) -> None:
    t = table
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    for n in NAMES[:2]:
        await act_we1(t, n)
    reply = await t.cmd(t.host, "admin deadline", hours=0.0003)  # about a second
    assert "New deadline" in reply.text()
    await t.stop_bot()
    before = len(t.posts())
    await asyncio.sleep(1.3)
    await t.start_bot()
    await t.idle()
    new_posts = t.posts()[before:]
    boards = [p for p in new_posts if "Round 1**: the board after the round" in p]
    assert len(boards) == 1, new_posts
    # the two recorded submissions were applied: Andy's move and Grunkle's moves happened
    lines = board_lines(boards[0])
    assert "The Secretary" in lines["Main Street"] and "The Banker" in lines["Town Hall"]
    # and it stays resolved once: another restart posts nothing new for round 1
    await t.stop_bot()
    await t.start_bot()
    await t.idle()
    assert [p for p in t.posts() if "Round 1**: the board after the round" in p] == boards


async def test_resend_after_a_crash_reuses_the_nonce(table: Table) -> None:
    t = table
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    posts = [r for r in t.fd.requests if r.method == "POST" and r.path == f"/channels/{t.chan.id}/messages"]
    assert posts and all(r.json.get("enforce_nonce") is True and r.json.get("nonce") for r in posts)
    # as if the bot died after sending and before marking the row delivered
    async with t.bot.db.transaction() as conn:
        await conn.execute("UPDATE outbox SET delivered_at = NULL WHERE target = 'channel'")
    await t.stop_bot()
    await t.start_bot()
    await t.idle()
    again = [r for r in t.fd.requests if r.method == "POST" and r.path == f"/channels/{t.chan.id}/messages"]
    resent = again[len(posts) :]
    assert [r.json["nonce"] for r in resent] == [r.json["nonce"] for r in posts]


async def test_pause_holds_resolution_until_resume(table: Table) -> None:
    t = table
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    reply = await t.cmd(t.host, "admin pause")
    assert "paused" in reply.text()
    for n in NAMES:
        await act_we1(t, n)
    await t.idle()
    assert not any("Round 1**: the board after the round" in p for p in t.posts())
    board = await t.cmd(t.players["andy"], "board")
    assert "paused" in board.text()
    await t.cmd(t.host, "admin resume")
    await t.idle()
    assert any("Round 1**: the board after the round" in p for p in t.posts())


async def test_admin_end_without_reveal(table: Table) -> None:
    t = table
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    for n in NAMES:
        await act_we1(t, n)
    await t.idle()
    reply = await t.cmd(t.host, "admin end", reveal=False)
    assert "ended" in reply.text()
    await t.idle()
    results = t.posts()[-1]
    assert "game over after Round 1" in results and "ended the game early" in results
    assert not any("The reveal" in p for p in t.posts())
    export = await t.cmd(t.host, "admin export")
    assert export.attachments, "an ended game can still be exported by its host"
