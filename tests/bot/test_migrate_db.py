"""`python -m bot migrate-db`: a SQLite database with a game mid-round, copied to PostgreSQL, goes on
there to the same result as on SQLite."""

from __future__ import annotations

import asyncio
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from tests.support.crimecity import CAST, WE1, act
from tests.support.table import Table, draft_cast, open_game

pytestmark = pytest.mark.postgres


def _state(rows: list) -> tuple:  # type: ignore[type-arg]
    return tuple(tuple(r) for r in rows)


@pytest.mark.sqlite_file
async def test_a_game_mid_round_continues_on_postgresql_to_the_same_result(
    table: Table, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    t = table
    await open_game(t)
    await draft_cast(t, CAST)
    for name in ("andy", "grunkle", "cara"):  # mid-round: three of five have acted
        await act(t, name, *WE1[name])
    await t.idle()
    await t.stop_bot()
    sqlite_path = t.db_path
    twin = sqlite_path.with_name("twin.db")
    shutil.copy(sqlite_path, twin)

    argv = ["migrate-db", "--from", f"sqlite:{sqlite_path}", "--to", pg_url]
    assert await asyncio.to_thread(main, argv) == 0  # the command runs its own event loop
    assert "games 1" in capsys.readouterr().out
    assert await asyncio.to_thread(main, argv) == 2  # not into a database in use
    assert "empty database" in capsys.readouterr().err

    results = []
    for where in (pg_url, twin):
        t.db_path = where  # type: ignore[assignment]
        before = len(t.posts())
        await t.start_bot()
        for name in ("dev", "eve"):
            await act(t, name, *WE1[name])
        await t.idle()
        db = t.bot.db
        game = await db.fetchone("SELECT id, step, version, state_json, status FROM games")
        moves = await db.fetchall("SELECT seq, step, actions_json, chance_json FROM moves ORDER BY seq")
        # New rows get the next ids after the copied ones, and every message went out. (The fake
        # Discord keeps the first of two posts with one nonce, as Discord does: the second run's
        # board shows only in its outbox.)
        outbox = await db.fetchall("SELECT id, target, seat, payload_json, delivered_at FROM outbox ORDER BY id")
        assert all(r["delivered_at"] is not None for r in outbox)
        # The new round's deadline is "now + 24 h" in each run: its timestamps are compared as <t:…>.
        queued = [(r["id"], r["target"], r["seat"], re.sub(r"<t:\d+", "<t:…", r["payload_json"])) for r in outbox]
        results.append((tuple(game), _state(moves), queued))
        if where == pg_url:
            assert t.posts()[before:] and "Round 2 is open" in t.posts()[-1]
        await t.stop_bot()
    on_pg, on_sqlite = results
    assert on_pg == on_sqlite
    with sqlite3.connect(twin) as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1


async def test_the_copy_names_every_table_of_the_schema(tmp_path: Path) -> None:
    """A table added by a migration and left out of the copy would be lost by migrate-db."""
    from bot.storage.copy import TABLES
    from bot.storage.db import Database

    db = Database(f"{tmp_path}/schema.db")
    await db.open()
    try:
        found = {r["name"] for r in await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        await db.close()
    assert sorted(found - {"sqlite_sequence"}) == sorted(TABLES)
