"""What `python -m bot` checks before it logs in: the settings and the database file.

Each problem is one line that names the setting and says how to fix it. The checks run synchronously,
before the event loop, with plain `sqlite3` and `os`: nothing here opens the bot's `Database` or
writes anything (a folder that is missing is only checked to be creatable).
"""

from __future__ import annotations

import base64
import binascii
import os
import re
import sqlite3
from pathlib import Path
from urllib.parse import quote

from .config import DEFAULT_DB, LOG_LEVELS, MAX_PICTURE_PROCESSES, Settings
from .shards import ShardPlan, format_ids
from .storage.durability import SYNCS

NO_TOKEN = (
    "DISCORD_TOKEN is not set: create a bot in the Discord Developer Portal "
    "(Applications → your app → Bot → Reset Token) and put the token in DISCORD_TOKEN or a .env file."
)
BAD_SHAPE = (
    "DISCORD_TOKEN does not look like a bot token (three parts separated by dots, the first one the bot's "
    "id in base64): copy the whole token again from the Developer Portal (Applications → your app → Bot → "
    "Reset Token), without quotes or a 'Bot ' prefix."
)

_TOKEN_PART = re.compile(r"[A-Za-z0-9_-]+")
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def check(settings: Settings) -> list[str]:
    """Every problem of `settings`, one line each, in the order of `config.SETTINGS`; [] when it can start."""
    found = [token_problem(settings.token), log_level_problem(settings.log_level)]
    try:
        settings.sync_guild_id()
    except ValueError as exc:
        found.append(str(exc))
    found.append(database_problem(settings.database))
    try:
        found.append(shared_database_problem(settings.shard_plan(), settings.database))
    except ValueError as exc:
        found.append(str(exc))
    try:
        settings.health_address()
    except ValueError as exc:
        found.append(str(exc))
    if settings.computer_delay < 0:
        found.append("CRIMECITY_COMPUTER_DELAY is not a number from 0 up: set it to e.g. 1 (the default) or 0.5.")
    if settings.picture_processes < 0:
        found.append(
            f"CRIMECITY_PICTURE_PROCESSES is not a whole number from 0 to {MAX_PICTURE_PROCESSES}: set it to 1 (the"
            " default: one process draws the board pictures), or 0 to draw them in the bot's own process."
        )
    if settings.sender_process < 0:
        found.append(
            "CRIMECITY_SENDER_PROCESS is not 1 or 0: set it to 1 (the default: a process of its own sends the posts"
            " and DMs) or 0 to send them from the bot's own process."
        )
    if settings.db_sync not in SYNCS:
        found.append(
            f"CRIMECITY_DB_SYNC={settings.db_sync!r} is not full or normal: set it to full (the default: a move is"
            " answered once its commit is on disk) or normal (once the system holds it: faster, and a power cut"
            " may lose the last moves)."
        )
    return [p for p in found if p]


def content_problem(root: str | None) -> str | None:
    """Whether every game's content under CRIMECITY_CONTENT loads (bot/content.py); it only reads the files."""
    if root is None:
        return None
    from .content import ContentProblem, load
    from .games import presentations

    try:
        load(root, presentations())
    except ContentProblem as exc:
        return str(exc)
    return None


def shared_database_problem(shards: ShardPlan, database: str) -> str | None:
    """A process holding only some shards runs beside others, on one database: SQLite is one process's."""
    if shards.count is None or len(shards.ids) == shards.count or database.startswith(("postgresql://", "postgres://")):
        return None
    return (
        f"CRIMECITY_SHARD_IDS={format_ids(shards.ids)} holds only some of the {shards.count} shards, so other "
        f"processes hold the rest, and they must share one PostgreSQL database: set CRIMECITY_DB to a "
        f"postgresql:// URL (a SQLite file serves one process), or hold every shard in this process."
    )


def token_problem(token: str | None) -> str | None:
    """A token is `<user id in base64url>.<timestamp>.<hmac>`; anything else would only fail at login."""
    if not token:
        return NO_TOKEN
    parts = token.split(".")
    if len(parts) != 3 or not all(_TOKEN_PART.fullmatch(p) for p in parts) or not _is_user_id(parts[0]):
        return BAD_SHAPE
    return None


def _is_user_id(part: str) -> bool:
    try:
        raw = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
    except (binascii.Error, ValueError):
        return False
    return raw.isdigit()


def log_level_problem(level: str) -> str | None:
    if level.upper() in LOG_LEVELS:
        return None
    return f"LOG_LEVEL={level!r} is not a log level: set it to one of {', '.join(LOG_LEVELS)} (INFO if unset)."


def newest_schema() -> int:
    """The highest migration number this version of the bot knows."""
    from .storage.db import migration_files

    return max((version for version, _, _ in migration_files()), default=0)


def database_problem(value: str, newest: int | None = None) -> str | None:
    """Whether the bot can open, write and migrate the SQLite file `value` (CRIMECITY_DB)."""
    if _URL.match(value):
        # A server's URL (postgresql://…, for the PostgreSQL backend): no file here to look at; its
        # driver reports a bad one when it connects.
        return None
    if value == ":memory:":
        return None
    path = Path(os.path.abspath(value))
    name = f"CRIMECITY_DB={value}"
    try:
        exists = path.exists()
        if exists and path.is_dir():
            return f"{name}: {path} is a folder; set CRIMECITY_DB to a file in it, e.g. {path / Path(DEFAULT_DB).name}."
        if not exists:
            return _new_file_problem(name, path)
        if not path.is_file():
            return f"{name}: {path} is not a regular file; set CRIMECITY_DB to a file path."
    except OSError as exc:  # e.g. a folder on the way that this user may not enter
        return f"{name}: {path} cannot be checked ({exc.strerror or exc}); give the bot's user access to it."
    if not os.access(path, os.R_OK | os.W_OK):
        return (
            f"{name}: {path} is read-only for this user; make it readable and writable by the user that "
            f"runs the bot (chown/chmod u+rw), or point CRIMECITY_DB at a copy that is."
        )
    if not _writable_folder(path.parent):
        return (
            f"{name}: the folder {path.parent} is not writable by this user, and SQLite keeps the -wal and "
            f"-shm files next to the database; make the folder writable, or move the database to one that is."
        )
    return _sqlite_problem(name, path, newest_schema() if newest is None else newest)


def _new_file_problem(name: str, path: Path) -> str | None:
    """The file does not exist yet: its nearest existing ancestor must be a folder this user may write in."""
    ancestor = path.parent
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        return (
            f"{name}: {ancestor} is a file, so the folder {path.parent} cannot be created; "
            f"set CRIMECITY_DB to a path under a folder (default {DEFAULT_DB})."
        )
    if not _writable_folder(ancestor):
        fix = f"make {ancestor}" if ancestor == path.parent else f"create {path.parent} and make it"
        return (
            f"{name}: cannot create {path}: {ancestor} is not writable by this user; {fix} writable by the "
            f"bot's user, or set CRIMECITY_DB to a path in a writable folder."
        )
    return None


def _writable_folder(folder: Path) -> bool:
    return os.access(folder, os.W_OK | os.X_OK)


def _sqlite_problem(name: str, path: Path, newest: int) -> str | None:
    # Read-only URI: the check must not create, convert or lock anything.
    uri = f"file:{quote(str(path))}?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True)
        try:
            conn.execute("PRAGMA schema_version").fetchone()  # reads the header: "file is not a database"
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        if "not a database" in str(exc):
            return (
                f"{name}: {path} is not a SQLite database; point CRIMECITY_DB at the bot's database, "
                f"or move this file away and the bot creates a new one."
            )
        return f"{name}: {path} cannot be opened as a SQLite database ({exc}); check the file, or restore a backup."
    if version > newest:
        return (
            f"{name}: {path} was written by a newer version of the bot (schema {version}; this version knows "
            f"up to {newest}); run that newer version, or restore the backup taken before the upgrade "
            f"(docs/operations.md)."
        )
    return None
