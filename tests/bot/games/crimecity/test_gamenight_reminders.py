"""Reminders by DM before a deadline, to the players who have not submitted: persisted, so a
restart neither drops one (it arrives after the restart) nor repeats one already sent."""

from __future__ import annotations

import asyncio

from tests.support.crimecity import CAST, act_we1
from tests.support.table import NAMES, Table, draft_cast, open_game


def reminders(t: Table, name: str) -> list[str]:
    return [text for text in t.dm_texts(t.players[name]) if "reminder" in text]


async def reminder_timers(t: Table) -> int:
    row = await t.bot.db.fetchone("SELECT COUNT(*) AS n FROM timers WHERE kind = 'reminder'")
    return int(row["n"])


async def test_reminder_due_while_down_arrives_once_after_the_restart(table: Table) -> None:
    t = table
    await open_game(t, garnets=20)  # reminders default to one hour before each deadline
    await draft_cast(t, CAST)
    await act_we1(t, "andy")
    await act_we1(t, "grunkle")
    t.fd.close_dms(t.players["eve"])
    # the deadline one hour and about two seconds away: the reminder is due in about two seconds
    await t.cmd(t.host, "admin deadline", hours=1.0005)
    assert await reminder_timers(t) == 1
    await t.stop_bot()
    assert not any(reminders(t, n) for n in NAMES), "not yet sent before the restart"
    await asyncio.sleep(2.0)
    await t.start_bot()
    await t.idle()
    for n in ("cara", "dev"):
        assert len(reminders(t, n)) == 1, t.dm_texts(t.players[n])
        assert "round 1" in reminders(t, n)[0] and "<t:" in reminders(t, n)[0]
    assert reminders(t, "andy") == [] and reminders(t, "grunkle") == [], "they had submitted"
    # Eve's DMs are closed: the reminder waits in her inbox, and the channel tells her so, secret-free
    assert reminders(t, "eve") == []
    note = t.posts()[-1]
    assert "could not send you a direct message" in note and "/crimecity status" in note
    status = await t.cmd(t.players["eve"], "status")
    assert "reminder, you have not submitted for round 1" in status.text()
    assert await reminder_timers(t) == 0
    # one more restart sends nothing again
    await t.stop_bot()
    await t.start_bot()
    await t.idle()
    assert [len(reminders(t, n)) for n in NAMES] == [0, 0, 1, 1, 0]
    assert not any("Round 1**: the board after the round" in p for p in t.posts()), "the deadline is still ahead"


async def test_reminder_sent_before_a_restart_is_not_repeated(table: Table) -> None:
    t = table
    await open_game(t, garnets=20, reminder_hours=0.0)
    await draft_cast(t, CAST)
    assert await reminder_timers(t) == 0, "reminder_hours 0: no reminder"
    await act_we1(t, "cara")
    # the round's deadline is 24 h after it opened: a lead of 24 h less a second reminds in about a second
    reply = await t.cmd(t.host, "admin reminder", hours=23.9997)
    assert "23.9997 h before each deadline" in reply.text() and "<t:" in reply.text()
    non_admin = await t.cmd(t.players["andy"], "admin reminder", hours=2.0)
    assert "Only the game's host" in non_admin.text()
    await asyncio.sleep(1.3)
    await t.idle()
    assert [len(reminders(t, n)) for n in NAMES] == [1, 1, 0, 1, 1]
    await t.stop_bot()
    await t.start_bot()
    await t.idle()
    assert [len(reminders(t, n)) for n in NAMES] == [1, 1, 0, 1, 1]
    off = await t.cmd(t.host, "admin reminder", hours=0.0)
    assert "off" in off.text() and await reminder_timers(t) == 0
