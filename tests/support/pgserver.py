"""A throwaway PostgreSQL server for the tests: initdb + pg_ctl on a temporary folder and a free port.

The server binaries come with the PostgreSQL server package (Debian/Ubuntu: `apt-get install
postgresql`; macOS: `brew install postgresql@15`); they are looked up on PATH, then in the usual
install folders. initdb refuses to run as root: as root, the server runs as the `postgres` user.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

MISSING = (
    "The PostgreSQL tests need the PostgreSQL server binaries (initdb, pg_ctl, postgres): install them "
    "(Debian/Ubuntu: apt-get install postgresql; macOS: brew install postgresql@15) or put their folder on "
    "PATH (PG_BIN=/path/to/bin also works). To leave these tests out: pytest -m 'not postgres'."
)


def binaries() -> Path | None:
    """The folder holding initdb and pg_ctl, or None."""
    wanted = os.environ.get("PG_BIN")
    candidates = [wanted] if wanted else []
    found = shutil.which("initdb")
    if found:
        candidates.append(str(Path(found).resolve().parent))
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    candidates += sorted(glob.glob("/usr/local/opt/postgresql*/bin"), reverse=True)
    for folder in candidates:
        if folder and (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    """One server; `new_database()` gives each test an empty database of its own."""

    def __init__(self) -> None:
        folder = binaries()
        if folder is None:
            raise RuntimeError(MISSING)
        self.bin = folder
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="crimecity-pg-"))
        self.data = self.root / "data"
        self._as: list[str] = []
        if os.geteuid() == 0:  # initdb refuses root
            import pwd

            try:
                pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError(
                    "As root, the PostgreSQL tests run the server as the `postgres` user, and there is none: "
                    "create it (useradd --system postgres; the server package does) or run the tests as another user."
                ) from None
            self._as = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.root, "postgres")
        self._names = itertools.count(1)

    def _run(self, *argv: str) -> None:
        done = subprocess.run([*self._as, *argv], capture_output=True, text=True, cwd=self.root)
        if done.returncode != 0:
            raise RuntimeError(f"{argv[0]} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")

    def start(self) -> None:
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-A",
            "trust",
            "-U",
            "postgres",
            "--locale=C",
            "-E",
            "UTF8",
            "--no-sync",
        )
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off"
            " -c full_page_writes=off -c max_connections=400 -c shared_buffers=64MB"
        )
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "log"),
            "-w",
            "-t",
            "60",
            "start",
        )

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    async def new_database(self) -> str:
        """An empty database (no schema: the bot creates it); its URL."""
        import asyncpg

        name = f"t{os.getpid()}_{next(self._names)}"
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        finally:
            await conn.close()
        return self.url(name)

    async def drop_database(self, url: str) -> None:
        import asyncpg

        name = url.rsplit("/", 1)[1]
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()


def redirecting(server: PgServer) -> object:
    """A `database_for` that gives every SQLite path its own PostgreSQL database (created on first
    open, kept for the test: a bot restarted on the same path finds its data), for running the whole
    suite on PostgreSQL (CRIMECITY_TEST_DB=postgres)."""
    import hashlib

    from bot.storage import Storage, database_for, is_url
    from bot.storage.pg import PgDatabase

    class OnDemand(PgDatabase):
        async def open(self) -> None:
            import asyncpg

            name = self.url.rsplit("/", 1)[1]
            conn = await asyncpg.connect(server.url())
            try:
                await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
            except asyncpg.DuplicateDatabaseError:
                pass
            finally:
                await conn.close()
            await super().open()

    def choose(value: object, sync: str = "full") -> Storage:
        text = str(value)
        if is_url(text) or text == ":memory:" or text.startswith("file:"):
            return database_for(text, sync)
        digest = hashlib.blake2b(os.path.abspath(text).encode(), digest_size=8).hexdigest()
        return OnDemand(server.url(f"p{digest}"), sync=sync)

    return choose
