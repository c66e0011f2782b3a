"""`python -m bot migrate-db`: copy a SQLite database into an empty PostgreSQL one, games in progress
included (their seeds, move logs, collected moves, clocks, timers and unsent messages), so the bot
continues them on PostgreSQL exactly where they were."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .db import Database
from .pg import PgDatabase

# Parents before children (foreign keys).
TABLES = (
    "meta", "seasons", "games", "seats", "moves", "steps", "submissions", "events", "event_seats", "clocks",
    "timers", "outbox", "posted", "inbox", "panels", "season_members", "season_ledger", "season_marks",
    "season_matches",
)  # fmt: skip


class CopyError(Exception):
    """The copy cannot be made (said in one line); nothing was written."""


def _coerce(kind: str, value: Any) -> Any:
    if value is None:
        return None
    if kind == "bigint":
        return int(value)
    if kind == "double precision":
        return float(value)
    return str(value)


async def copy_database(source: str | Path, url: str) -> dict[str, int]:
    """Copy every table of the SQLite file `source` into the PostgreSQL database `url` (its schema is
    created if missing; it must hold no game yet). One transaction: all of it or nothing. Rows per table."""
    if not Path(source).is_file():
        raise CopyError(f"{source} is not a file: give the SQLite database to copy (--from sqlite:PATH)")
    src, dst = Database(source), PgDatabase(url)
    await src.open()  # brings it to the latest schema first, as the bot would
    try:
        await dst.open()
        try:
            return await _copy(src, dst)
        finally:
            await dst.close()
    finally:
        await src.close()


async def _copy(src: Database, dst: PgDatabase) -> dict[str, int]:
    counts: dict[str, int] = {}
    async with dst.pool.acquire() as conn:
        async with conn.transaction():
            if await conn.fetchval("SELECT COUNT(*) FROM games") or await conn.fetchval(
                "SELECT COUNT(*) FROM meta WHERE key <> 'instance'"
            ):
                raise CopyError("the PostgreSQL database already holds a bot's data: copy into an empty database")
            await conn.execute("DELETE FROM meta")  # the bot may have made its instance id: the file's wins
            for table in TABLES:
                types = {
                    r["column_name"]: r["data_type"]
                    for r in await conn.fetch(
                        "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1", table
                    )
                }
                found = await src.fetchall(f"SELECT * FROM {table}")
                if not found:
                    counts[table] = 0
                    continue
                columns = list(found[0].keys())
                records = [tuple(_coerce(types[c], r[c]) for c in columns) for r in found]
                await conn.copy_records_to_table(table, records=records, columns=columns)
                counts[table] = len(records)
                if "id" in columns:  # the next id the bot makes follows the copied ones
                    await conn.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM {table}))"
                    )
    return counts
