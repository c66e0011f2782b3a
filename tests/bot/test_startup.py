"""Start-up: `python -m bot` without a token, migrations, and syncing only when commands changed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bot.storage.db import Database, migration_files
from tests.support.table import Table

ROOT = Path(__file__).resolve().parents[2]


def test_no_token_exits_2(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    run = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env | {"PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert "Developer Portal" in run.stderr and "Reset Token" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


async def test_migrations_and_pragmas(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.db")
    await db.open()
    version = (await db.fetchone("PRAGMA user_version"))[0]
    assert version == len(migration_files()) >= 1
    assert (await db.fetchone("PRAGMA journal_mode"))[0] == "wal"
    assert (await db.fetchone("PRAGMA synchronous"))[0] == 2  # FULL
    await db.close()
    db = Database(tmp_path / "x.db")
    await db.open()  # re-opening applies nothing twice
    assert (await db.fetchone("PRAGMA user_version"))[0] == version
    await db.close()


async def test_commands_synced_only_when_changed(table: Table) -> None:
    t = table
    syncs = [r for r in t.fd.requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert len(syncs) == 1
    await t.stop_bot()
    await t.start_bot()
    syncs = [r for r in t.fd.requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert len(syncs) == 1, "same definitions, same database: no second sync"
