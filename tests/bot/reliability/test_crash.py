"""The bot as a separate process, killed with SIGKILL at random moments and stopped with SIGTERM.

A handful of kills here; bench/crash_kill.py runs hundreds (docs/reliability.md has the figures).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

from tests.fakediscord import FakeDiscord
from tests.support.crashkit import CrashWorld
from tests.support.table import NAMES


async def test_sigkill_while_five_submit_and_a_round_resolves(tmp_path: Path) -> None:
    async with FakeDiscord() as fd:
        world = CrashWorld(fd, tmp_path / "crimecity.db", tmp_path / "bot.log", seed=3)
        try:
            await world.start()
            window = max(0.2, await world.measure())  # the draft, without a kill
            while world.figures.kills < 4:
                await world.step(window, recovery_kill_p=0.5)
        finally:
            await world.stop()
    f = world.figures
    assert None in fd.gateway.close_codes  # the killed process's socket died without a close frame
    assert f.problems == [], f.problems
    assert f.lost == f.duplicate_posts == f.duplicate_dms == f.integrity_failures == 0
    assert f.kills >= 4 and f.acked >= 5 and f.phases_resolved >= 2, f.line()


async def test_sigkill_loses_nothing_with_commits_that_wait_for_the_system_only(tmp_path: Path) -> None:
    """CRIMECITY_DB_SYNC=normal: a killed process's commits are in the system's hands, so none is lost."""
    async with FakeDiscord() as fd:
        world = CrashWorld(fd, tmp_path / "crimecity.db", tmp_path / "bot.log", seed=5)
        world.env["CRIMECITY_DB_SYNC"] = "normal"
        try:
            await world.start()
            window = max(0.2, await world.measure())
            while world.figures.kills < 3:
                await world.step(window, recovery_kill_p=0.5)
        finally:
            await world.stop()
    f = world.figures
    assert "CRIMECITY_DB_SYNC=normal" in world.log_path.read_text()
    assert f.problems == [], f.problems
    assert f.lost == f.duplicate_posts == f.duplicate_dms == f.integrity_failures == 0
    assert f.kills >= 3 and f.acked >= 5, f.line()


async def test_sigterm_closes_gateway_and_database_and_keeps_everything(tmp_path: Path) -> None:
    db = tmp_path / "crimecity.db"
    async with FakeDiscord() as fd:
        world = CrashWorld(fd, db, tmp_path / "bot.log")
        try:
            await world.start()
            await world.new_game()
            reply = await world.cmd(world.players["andy"], "draft", bid=0, roles="hitman", characters="banker")
            assert "recorded" in reply.text()
            code = await world.terminate()
            assert code == 0
            # a close frame from the bot (discord.py's close sends one), not a socket that just died
            assert fd.gateway.close_codes[-1] is not None, fd.gateway.close_codes
            log = world.log_path.read_text()
            assert "SIGTERM received: shutting down" in log and "bot: stopped" in log
            assert "Traceback" not in log, log
            # the last connection closed cleanly: the WAL was checkpointed into the database file
            wal = Path(f"{db}-wal")
            assert not wal.exists() or wal.stat().st_size == 0
            conn = sqlite3.connect(db)
            try:
                assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
                rows = conn.execute("SELECT seat, move_json FROM submissions").fetchall()
            finally:
                conn.close()
            assert len(rows) == 1 and json.loads(rows[0][1])["roles"][0] == "hitman"
            # and it starts again where it was
            await world.start()
            for n in NAMES[1:]:
                await world.cmd(world.players[n], "draft", bid=0)
            await world.idle()
            assert any("the draft is resolved" in m.text() for m in fd.channel_messages(world.chan))
            await asyncio.sleep(0)
        finally:
            await world.stop()
