"""Persistence: SQLite (db.py, the embedded default) or PostgreSQL (pg.py, shared by several processes),
and small repositories over either, written once (sql.py)."""

from __future__ import annotations

from pathlib import Path

from .db import Database
from .errors import Conflict
from .pg import PgDatabase, is_url

Storage = Database | PgDatabase


def database_for(value: str | Path, sync: str = "full") -> Storage:
    """The storage a database setting names: a `postgresql://user@host:port/db` URL, else a SQLite path
    (or `:memory:`). Not opened yet: `await db.open()` connects and creates or migrates the schema.
    `sync` (CRIMECITY_DB_SYNC): "full" waits for each commit to be on disk; "normal" only for the system
    to hold it (SQLite's synchronous=NORMAL in WAL, PostgreSQL's synchronous_commit=off)."""
    text = str(value)
    return PgDatabase(text, sync=sync) if is_url(text) else Database(text, sync=sync)


__all__ = ["Conflict", "Database", "PgDatabase", "Storage", "database_for", "is_url"]
