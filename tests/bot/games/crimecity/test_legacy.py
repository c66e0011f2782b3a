"""Migration 3 on a real version-2 database: games in progress before the upgrade continue after it.

`fixtures/legacy-v2.db` was made by the code before the host existed (commit e3d6c69) with
`fixtures/make_legacy_v2.py.txt`: game 1 in its lobby, game 2 in its draft (three drafted, a balance
set by the host), game 3 in round 2 (round 1 = WE-1; a balance set by the host during round 2, which
version 2 did not log; a purchase, actions and a guess collected; an open panel; an inbox item), game 4
paused in round 1, game 5 ended. Its ids are remapped onto the fake Discord's before the bot opens it.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from bot.host import Host
from bot.storage.db import Database
from rules.contract import replay_record
from rules.crimecity.game import GAME
from tests.fakediscord import FakeDiscord
from tests.support.table import NAMES

FIXTURE = Path(__file__).parent / "fixtures" / "legacy-v2.db"
GUILD, HOST = 10, 1
CHANNELS = {101: 1, 102: 2, 103: 3, 104: 4, 105: 5}
USER_BASES = {1: 200, 2: 300, 3: 400, 4: 500, 5: 600}


def legacy_copy(tmp_path: Path) -> Path:
    """The fixture as if made just now: its times moved together, so its 24-hour deadlines lie ahead (they are
    absolute times, and the fixture's own had passed a day after it was made)."""
    path = tmp_path / "crimecity.db"
    shutil.copy(FIXTURE, path)
    raw = sqlite3.connect(path)
    with raw:
        (made,) = raw.execute("SELECT MAX(created_at) FROM games").fetchone()
        shift = time.time() - made
        for (table,) in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
            for column in [r[1] for r in raw.execute(f"PRAGMA table_info({table})")]:
                if column.endswith("_at"):
                    raw.execute(f"UPDATE {table} SET {column} = {column} + ? WHERE {column} IS NOT NULL", (shift,))
    raw.close()
    return path


async def test_every_game_replays_to_its_snapshot_after_the_migration(tmp_path: Path) -> None:
    db = Database(legacy_copy(tmp_path))
    await db.open()
    try:
        assert (await db.fetchone("PRAGMA user_version"))[0] >= 3
        tables = {r[0] for r in await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert not any(t.startswith("legacy_") for t in tables), "the old tables are gone"
        from bot.games import presentations

        host = Host(db, presentations())
        rows = await db.fetchall("SELECT id, status FROM games ORDER BY id")
        assert [(r["id"], r["status"]) for r in rows] == [
            (1, "lobby"),
            (2, "running"),
            (3, "running"),
            (4, "running"),
            (5, "ended"),
        ]
        from bot.storage.models import GameRow

        for r in rows[1:]:
            game = GameRow.from_row(await db.fetchone("SELECT * FROM games WHERE id = ?", (r["id"],)))
            replayed = replay_record(GAME, await host.hosting.record(game))
            assert json.dumps(GAME.encode_state(replayed.state), sort_keys=True) == json.dumps(
                game.state, sort_keys=True
            )
        # game 3: the balance the host set in round 2 is a logged move now
        moves = [
            json.loads(m["actions_json"]) for m in await db.fetchall("SELECT actions_json FROM moves WHERE game_id = 3")
        ]
        assert moves[-1] == [{"by": None, "move": {"host": "garnets", "seat": "p4", "amount": 33}}]
        collected = {
            r["seat"]: json.loads(r["move_json"])
            for r in await db.fetchall("SELECT seat, move_json FROM submissions WHERE game_id = 3")
        }
        assert collected["p1"]["buy"] == [["banker", "governor"]] and collected["p1"]["actions"]
        assert collected["p2"]["actions"] is None and collected["p2"]["guess"]["banker"] == "mob_boss"
        paused = await db.fetchone("SELECT deadline_at, remaining FROM clocks WHERE game_id = 4")
        assert paused["deadline_at"] is None and paused["remaining"] > 86000
    finally:
        await db.close()


@pytest.mark.sqlite_file
async def test_a_game_in_progress_continues_in_the_bot(tmp_path: Path) -> None:
    from bot import Settings, create_bot

    path = legacy_copy(tmp_path)
    async with FakeDiscord() as fd:
        guild = fd.add_guild("Crime Club")
        chans = {old: guild.add_text_channel(f"game-{n}") for old, n in CHANNELS.items()}
        host = guild.add_member("host", manage_guild=True)
        members = {(g, i): guild.add_member(f"{n}{g}") for g in USER_BASES for i, n in enumerate(NAMES)}
        raw = sqlite3.connect(path)  # the fixture's ids become the fake's, before anything reads them
        with raw:
            raw.execute("UPDATE games SET guild_id = ?, host_id = ?", (guild.id, host.id))
            for old, chan in chans.items():
                raw.execute("UPDATE games SET channel_id = ? WHERE channel_id = ?", (chan.id, old))
                raw.execute("UPDATE outbox SET channel_id = ? WHERE channel_id = ?", (chan.id, old))
            for (g, i), member in members.items():
                raw.execute("UPDATE players SET user_id = ? WHERE user_id = ?", (member.id, USER_BASES[g] + i))
                raw.execute("UPDATE panels SET user_id = ? WHERE user_id = ?", (member.id, USER_BASES[g] + i))
        raw.close()
        client = create_bot(path, Settings(command_sync="global"))
        fd.start(client)
        await fd.wait_ready()
        await client.wait_idle()
        await fd.settle()
        chan3 = chans[103]

        def p3(name: str):  # noqa: ANN202
            return members[(3, NAMES.index(name))]

        # game 3, round 2: the purchase and the guess collected before the upgrade are still there
        andy = await fd.slash(p3("andy"), chan3, "crimecity status")
        assert "Friendship purchases: The Banker + The Governor" in andy.text(), andy.text()
        grunkle = await fd.slash(p3("grunkle"), chan3, "crimecity status")
        assert "Your guess:" in grunkle.text()
        assert "Garnets: 33" in (await fd.slash(p3("dev"), chan3, "crimecity status")).text()
        inbox = await fd.slash(p3("eve"), chan3, "crimecity status")
        assert "a DM eve could not get" in inbox.text()
        board = await fd.slash(p3("eve"), chan3, "crimecity board")
        assert "Round 2" in board.text() and "Submitted: Andy\n" in board.text()
        # everyone else acts; the host resolves: round 2 is resolved once, with the collected moves
        second_round = {
            "grunkle": ("move vertical detective", "converse governor"),
            "cara": ("converse detective", "converse store_clerk"),
            "dev": ("converse banker", "converse policeman"),
            "eve": ("move vertical armed_guard", None),
        }
        for name, (first, second) in second_round.items():
            reply = await fd.slash(
                p3(name), chan3, "crimecity act", first=first, **({"second": second} if second else {})
            )
            assert "actions recorded" in reply.text(), reply.text()
        await fd.slash(host, chan3, "crimecity admin resolve")
        await client.wait_idle()
        await fd.settle()
        boards = [m.text() for m in fd.channel_messages(chan3) if "the board after the round" in m.text()]
        assert any("Round 2**" in b for b in boards), boards
        # the export replays to what the bot announced, the round before the upgrade included
        export = await fd.slash(host, chan3, "crimecity admin export")
        doc = json.loads(export.attachments[0].data)
        from rules.crimecity.replay import run_replay

        out = run_replay(doc)
        assert out["rounds"][-1]["round"] == 2
        # game 2: the draft goes on, with the balance the host had set (9 garnets for cara)
        chan2 = chans[102]
        cara2 = await fd.slash(members[(2, 2)], chan2, "crimecity status")
        assert "Garnets: 9" in cara2.text() and "bid 2" in cara2.text()
        # game 4 is still paused; game 5 is in the history
        assert "paused" in (await fd.slash(members[(4, 0)], chans[104], "crimecity status")).text()
        history = await fd.slash(host, chans[105], "crimecity history")
        assert "Game #5" in history.text()
