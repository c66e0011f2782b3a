"""A whole game through the fake Discord: /crimecity new → draft → the rule book's worked example
(rulings Part 4, WE-1 to WE-3) → admin-resolved rounds → results → the EC decision → the reveal.

Asserts what each member sees: ephemeral replies, DMs and channel posts, and scans everything
public (and every autocomplete answer) for a seat's secret before the end.
"""

from __future__ import annotations

import logging
import re

from rules.crimecity import ROLES, Character, Role
from tests.support.crimecity import CAST, CHAR_WORDS, ROLE_WORDS, WE1, WE3, act, assert_no_secret, board_lines
from tests.support.table import NAMES, Table


async def test_whole_game(table: Table, caplog) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    t = table
    fd = t.fd
    autocompletes: list[str] = []

    await t.cmd(t.host, "new", deadline_hours=24.0, garnets=20)
    for n in NAMES:
        await t.cmd(t.players[n], "join")
    await t.cmd(t.host, "start")

    # ---- draft: three in the channel, two in DMs; nothing resolves before the fifth ----
    for i, n in enumerate(NAMES):
        role, char = CAST[n]
        reply = await t.cmd(t.players[n], "draft", dm=i % 2 == 1, bid=0, roles=role, characters=char)
        assert reply.ephemeral or i % 2 == 1
        assert "Draft submission recorded" in reply.text()
        # the full ranking is repeated back, completed in the book's order
        assert reply.text().count(". The ") >= 13
    await t.idle()

    seats = {
        "andy": ("Detective", "Pickpocket"),
        "grunkle": ("Banker", "Mob Boss"),
        "cara": ("Secretary", "Hitman"),
        "dev": ("Governor", "Bank Robber"),
        "eve": ("Armed Guard", "Fraud"),
    }
    for n, (char, role) in seats.items():
        seat_dm = t.dm_texts(t.players[n])[-1]
        assert f"Your character: **The {char}**" in seat_dm and f"**The {role}**" in seat_dm, seat_dm
    start_post = fd.channel_messages(t.chan)[-1]
    assert "Round 1" in start_post.text() and start_post.attachments, "the starting board has a picture"

    # ---- WE-1 ----
    choices = await fd.autocomplete(t.players["andy"], t.chan, "crimecity act", focused="first", first="secretary")
    values = [c["value"] for c in choices]
    assert "move vertical secretary" in values and len(choices) <= 25
    assert all("secretary" in (c["value"] + c["name"]).lower().replace("_", " ") for c in choices)
    second = await fd.autocomplete(
        t.players["andy"], t.chan, "crimecity act", focused="second", first="move vertical secretary"
    )
    assert "ability store_clerk" in [c["value"] for c in second]
    assert not any(c["value"].startswith("move ") for c in second), "only one movement action"
    autocompletes += [c["name"] + " " + c["value"] for c in choices + second]
    nothing = await fd.autocomplete(t.host, t.chan, "crimecity act", focused="first", first="")
    assert nothing == []

    for i, n in enumerate(NAMES[:4]):
        reply = await act(t, n, *WE1[n], dm=i == 1)
        assert "actions recorded" in reply.text(), reply.text()
    status = await t.cmd(t.players["andy"], "status")
    assert "`move vertical secretary`" in status.text() and "The Detective" in status.text()
    board = await t.cmd(t.players["cara"], "board")
    assert "Submitted: andy, grunkle, cara, dev" in board.text()
    for post in t.posts():
        assert_no_secret(post, "a channel post")

    await act(t, "eve", *WE1["eve"], dm=True)
    await t.idle()
    after1 = t.posts()[-1]
    assert "Round 1" in after1
    lines = board_lines(after1)
    assert lines == {
        "Town Hall": "The Policeman, The Banker, The Governor",
        "Mansion": "The Governor's Daughter",
        "Main Street": "The Secretary, The Store Clerk, The Detective",
        "Bank": "The Armed Guard",
    }
    assert "Friendship points" in after1 and "The Policeman + The Secretary: 1" in after1
    assert fd.channel_messages(t.chan)[-1].attachments
    assert "The Store Clerk has no hidden role" in t.dm_texts(t.players["andy"])[-1]
    assert "andy controls The Detective" in t.dm_texts(t.players["cara"])[-1]

    # ---- WE-2: Eve has no legal non-movement action ----
    refused = await act(t, "eve", "move vertical armed_guard", "converse banker")
    assert refused.ephemeral and "not allowed" in refused.text() and "rule" in refused.text()
    cooldown = await act(t, "andy", "move horizontal secretary", "converse store_clerk")
    assert "on cooldown" in cooldown.text()
    garbage = await act(t, "andy", "fly to the moon", None)
    assert "Could not read" in garbage.text()
    eve_ac = await fd.autocomplete(
        t.players["eve"], t.chan, "crimecity act", focused="second", first="move vertical armed_guard"
    )
    assert eve_ac == []

    # ---- WE-3 ----
    for n in NAMES:
        reply = await act(t, n, *WE3[n])
        assert "actions recorded" in reply.text(), (n, reply.text())
    await t.idle()
    after2 = t.posts()[-1]
    assert "Round 2" in after2
    assert board_lines(after2) == {
        "Town Hall": "The Policeman, The Banker, The Governor",
        "Mansion": "The Armed Guard, The Governor's Daughter",
        "Main Street": "The Secretary, The Store Clerk, The Detective",
        "Bank": "nobody",
    }
    assert "The Banker + The Governor: 2" in after2

    # ---- the rest of the game: the host resolves rounds 3-6 with no submissions ----
    non_admin = await t.cmd(t.players["andy"], "admin resolve")
    assert "Only the game's host" in non_admin.text()
    for rnd in range(3, 7):
        reply = await t.cmd(t.host, "admin resolve")
        assert f"Round {rnd}" in reply.text()
        await t.idle()
        if rnd < 6:
            for post in t.posts():
                assert_no_secret(post, "a channel post")
    for text in autocompletes:
        assert_no_secret(text, "an autocomplete choice")

    # ---- results: nobody completed, all tied on garnets → all five choose the EC unanimously ----
    results = t.posts()[-1]
    assert "game over after Round 6" in results and "Nobody completed" in results
    assert "EC: to be chosen unanimously" in results
    for n in NAMES:
        assert "you decide the EC" in t.dm_texts(t.players[n])[-1]
    for n in NAMES[:4]:
        reply = await t.cmd(t.players[n], "ec", dm=True, player=t.players["eve"])
        assert "waiting for the other deciders" in reply.text()
    reply = await t.cmd(t.players["eve"], "ec", player=t.players["eve"])
    assert "eve is the EC" in reply.text()
    await t.idle()
    reveal = t.posts()[-1]
    assert "the EC is eve" in reveal
    for n, (char, role) in seats.items():
        assert re.search(rf"{n} — The {char} — The {role}", reveal), reveal
    assert "Unassigned: The Policeman, The Store Clerk, The Governor's Daughter" in reveal

    # INFO logs carry ids and rounds only: no role, no character, no submitted action
    info = [r.getMessage() for r in caplog.records if r.name.startswith("bot") and r.levelno >= logging.INFO]
    assert info, "the bot logs at INFO"
    for line in info:
        assert_no_secret(line, "an INFO log line")
        assert not any(word in line for word in ("move ", "converse ", "ability", "guess", *CHAR_WORDS)), line
        assert not re.search(r"\bp[1-5]\b", line), f"an INFO line names a seat: {line}"


def test_role_words_cover_every_role() -> None:
    assert {Role(r).value for r in ROLE_WORDS if r in {x.value for x in Role}} == {r.value for r in ROLES}
    assert len(CHAR_WORDS) == len(list(Character))
