"""How long a commit waits (CRIMECITY_DB_SYNC), the same two choices on both backends.

"full": until the commit is on disk (SQLite synchronous=FULL, PostgreSQL synchronous_commit=on). "normal": until the
system holds it (SQLite synchronous=NORMAL in WAL, PostgreSQL synchronous_commit=off): a crash of the bot
loses nothing, a power cut may lose the last commits, and the database stays whole either way.
"""

from __future__ import annotations

SYNCS = ("full", "normal")


def checked(sync: str) -> str:
    if sync not in SYNCS:
        raise ValueError(f"sync must be one of {', '.join(SYNCS)}, not {sync!r}")
    return sync
