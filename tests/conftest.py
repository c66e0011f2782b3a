"""Shared fixtures for the end-to-end tests (tests/bot/...) over tests/fakediscord."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.table import NAMES, Table


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    from tests.fakediscord import FakeDiscord

    async with FakeDiscord() as fd:
        guild = fd.add_guild("Crime Club")
        chan = guild.add_text_channel("crime-city")
        host = guild.add_member("hosty", manage_guild=True)
        players = {n: guild.add_member(n) for n in NAMES}
        t = Table(fd, guild, chan, host, players, tmp_path / "crimecity.db")
        await t.start_bot()
        yield t


# ---- PostgreSQL ---------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Any]:
    """A throwaway PostgreSQL server for the whole session (tests/support/pgserver.py)."""
    from tests.support.pgserver import PgServer

    try:
        server = PgServer()
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def pg_url(pg_server: Any) -> AsyncIterator[str]:
    """The URL of an empty database of this test's own."""
    url = await pg_server.new_database()
    yield url
    await pg_server.drop_database(url)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def db_setting(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A database setting for each backend: a SQLite file, then an empty PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "crimecity.db")
        return
    server = request.getfixturevalue("pg_server")
    url = await server.new_database()
    yield url
    await server.drop_database(url)


@pytest.fixture(autouse=True)
def _suite_on_postgres(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """CRIMECITY_TEST_DB=postgres: every bot a test builds keeps its state in PostgreSQL instead of its file."""
    if os.environ.get("CRIMECITY_TEST_DB", "sqlite") != "postgres" or request.node.get_closest_marker("sqlite_file"):
        return
    from tests.support.pgserver import redirecting

    monkeypatch.setattr("bot.client.database_for", redirecting(request.getfixturevalue("pg_server")))
