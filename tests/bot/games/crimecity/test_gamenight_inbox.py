"""A member with closed DMs (Discord 403 / 50007) plays a whole game through the inbox:
every private message waits for /crimecity status, the channel is told without a secret, and
nothing (resolution, admin commands) waits for the DM that cannot be delivered."""

from __future__ import annotations

import re

from tests.support.crimecity import CAST, WE1, WE3, assert_no_secret
from tests.support.table import NAMES, Table, draft_cast


def notes(t: Table) -> list[str]:
    return [p for p in t.posts() if "could not send you a direct message" in p]


async def test_closed_dms_play_a_whole_game_through_the_inbox(table: Table) -> None:
    t = table
    fd = t.fd
    cara = t.players["cara"]
    await t.cmd(t.host, "new", deadline_hours=24.0, garnets=20)
    for n in NAMES:
        await t.cmd(t.players[n], "join")
    await t.cmd(t.host, "start")
    fd.close_dms(cara)

    # ---- the draft: the seat message is tried at once, lands in the inbox; one note in the channel ----
    await draft_cast(t, CAST)
    assert "starting positions" in t.posts()[-2] and fd.channel_messages(t.chan)[-2].attachments
    note = fd.channel_messages(t.chan)[-1]
    assert "could not send you a direct message" in note.content and "/crimecity status" in note.content
    assert note.mentions == [cara.id] and note.allowed_mentions == {"parse": [], "users": [cara.id]}
    assert_no_secret(note.text(), "the inbox note")
    status = await t.cmd(cara, "status")
    assert status.ephemeral
    assert "Your character: **The Secretary**" in status.text() and "**The Hitman**" in status.text()
    assert "__Inbox__" in status.text() and "the draft is resolved" in status.text()
    assert "1 new" in status.text()

    # ---- round 1 (WE-1), Cara submits in the channel; the round resolves as soon as all five are in ----
    for n in NAMES:
        first, second = WE1[n]
        reply = await t.cmd(t.players[n], "act", first=first, second=second)
        assert "actions recorded" in reply.text()
    await t.idle()
    assert any("Round 1**: the board after the round" in p for p in t.posts())
    assert len(notes(t)) == 2, "a new note once she had read the inbox and something new arrived"
    status = await t.cmd(cara, "status")
    assert "Round 1: andy controls The Detective." in status.text(), "learned, as the others get by DM"
    assert "andy controls The Detective" in status.text().split("__Inbox__")[1], "and the DM itself, from the inbox"

    # ---- round 2 (WE-3), then an admin resolve per round: nothing waits on her closed DMs ----
    for n in NAMES:
        first, second = WE3[n]
        await t.cmd(t.players[n], "act", first=first, **({"second": second} if second else {}))
    await t.idle()
    for rnd in range(3, 7):
        reply = await t.cmd(t.host, "admin resolve")
        assert f"Round {rnd}" in reply.text()
        await t.idle()
    results = next(p for p in t.posts() if "game over after Round 6" in p)
    assert "EC: to be chosen unanimously" in results
    status = await t.cmd(cara, "status")
    assert "you decide the EC" in status.text(), "the EC request reached her through the inbox"
    for n in NAMES:
        reply = await t.cmd(t.players[n], "ec", player=t.players["eve"])
    assert "eve is the EC" in reply.text()
    await t.idle()
    reveal = t.posts()[-1]
    assert re.search(r"cara — The Secretary — The Hitman", reveal)

    assert fd.dms(cara) == [], "not one DM reached her"
    assert all("reminder" not in x for x in t.dm_texts(t.players["andy"]))
    for n in ("andy", "grunkle", "dev", "eve"):
        assert any("Your character" in x for x in t.dm_texts(t.players[n])), "the others got their DMs"
    for text in notes(t):
        assert_no_secret(text, "an inbox note")


async def test_a_long_inbox_is_read_over_several_status_calls(table: Table) -> None:
    from bot.storage import outbox as outbox_repo

    t = table
    await t.cmd(t.host, "new", deadline_hours=24.0, garnets=20)
    for n in NAMES:
        await t.cmd(t.players[n], "join")
    await t.cmd(t.host, "start")
    async with t.bot.db.transaction() as conn:  # five long undeliverable DMs for Andy's seat (p1)
        for i in range(5):
            await outbox_repo.add_inbox(conn, 1, "p1", f"message {i} " + "x" * 1500, 0.0)
    seen: list[str] = []
    for _ in range(5):
        reply = await t.cmd(t.players["andy"], "status")
        assert len(reply.content) <= 2000 and all(len(e["description"]) <= 4096 for e in reply.embeds)
        seen += re.findall(r"message (\d) ", reply.text())
        if "more: use" not in reply.text():
            break
    assert seen == ["0", "1", "2", "3", "4"], "each once, oldest first, none lost"
    last = await t.cmd(t.players["andy"], "status")
    assert "Nothing new since you last looked" in last.text()
