"""The storage layer behaves the same on both backends: each test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import Conflict, Storage, database_for
from bot.storage import games as games_repo
from bot.storage import submissions as subs_repo
from bot.storage import timers as timers_repo
from bot.storage.models import RUNNING
from bot.storage.pg import pg_migrations
from bot.storage.sql import dialect, insert, row, rows, run
from bot.storage.submission_writer import SubmissionWriter

GAME = (
    "INSERT INTO games(kind, guild_id, channel_id, host_id, status, settings_json, options_json, created_at)"
    " VALUES (?, ?, ?, ?, ?, '{}', '{}', ?)"
)


async def opened(setting: str) -> Storage:
    db = database_for(setting)
    await db.open()
    return db


async def new_game(db: Storage, channel: int, status: str = RUNNING, host: int = 3) -> int:
    async with db.transaction() as conn:
        return await insert(conn, GAME, ("crimecity", 1, channel, host, status, 1.5))


async def test_an_empty_database_gets_its_schema_and_keeps_its_rows(db_setting: str) -> None:
    db = await opened(db_setting)
    game = await new_game(db, 10)
    await db.close()
    assert not db.is_open
    again = await opened(db_setting)  # nothing to migrate the second time
    try:
        found = await again.fetchone("SELECT id, channel_id, created_at FROM games WHERE id = ?", (game,))
        assert found is not None
        assert (found["id"], found[1], found["created_at"]) == (game, 10, 1.5)  # by name and by index
        assert dict(found)["channel_id"] == 10
    finally:
        await again.close()


async def test_ids_counts_literals_and_sums(db_setting: str) -> None:
    db = await opened(db_setting)
    try:
        ids = [await new_game(db, c) for c in (1, 2, 3)]
        assert ids == sorted(ids) and len(set(ids)) == 3
        async with db.transaction() as conn:
            # a `?` inside a literal is text, not a placeholder
            changed = await run(conn, "UPDATE games SET seed = 'a?b' WHERE channel_id > ?", (1,))
            assert changed == 2
            assert await run(conn, "DELETE FROM games WHERE id = ?", (-1,)) == 0
            seeds = await rows(conn, "SELECT seed FROM games WHERE seed IS NOT NULL ORDER BY id")
            total = await row(conn, "SELECT SUM(channel_id) AS n, COUNT(*) AS c FROM games")
        assert [r["seed"] for r in seeds] == ["a?b", "a?b"]
        assert total is not None and (total["n"], total["c"]) == (6, 3) and type(total["n"]) is int
        assert dialect(conn) == db.dialect
    finally:
        await db.close()


async def test_a_failed_transaction_writes_nothing_and_a_conflict_is_backend_neutral(db_setting: str) -> None:
    db = await opened(db_setting)
    try:
        await new_game(db, 7)
        with pytest.raises(ValueError):
            async with db.transaction() as conn:
                await run(conn, "INSERT INTO meta(key, value) VALUES ('x', '1')")
                raise ValueError
        assert await db.get_meta("x") is None
        with pytest.raises(Conflict):  # one active game per channel
            await new_game(db, 7)
        with pytest.raises(Conflict):
            await db.write_alone("INSERT INTO meta(key, value) VALUES (?, NULL)", ("y",))
        await db.set_meta("y", "2")
        await db.set_meta("y", "3")
        assert await db.get_meta("y") == "3"
        assert await db.meta_default("y", "4") == "3"
        assert await db.meta_default("z", "5") == "5"
    finally:
        await db.close()


async def test_a_read_sees_one_committed_snapshot(db_setting: str) -> None:
    db = await opened(db_setting)
    try:
        await db.set_meta("k", "old")
        async with db.read() as conn:
            before = await row(conn, "SELECT value FROM meta WHERE key = 'k'")
            if db.dialect == "postgres":  # a file's reads wait for no writer; a server's snapshot holds
                await db.set_meta("k", "new")
            after = await row(conn, "SELECT value FROM meta WHERE key = 'k'")
        assert before is not None and after is not None and before["value"] == after["value"] == "old"
    finally:
        await db.close()


async def test_a_members_active_games_are_looked_up_not_scanned(db_setting: str) -> None:
    """A command in a DM finds the caller's games by host and by seat, through indexes: with sequential scans
    priced out (PostgreSQL) or in any case (SQLite), no plan reads every game."""
    db = await opened(db_setting)
    try:
        hosted = await new_game(db, 20)  # host 3
        seated = await new_game(db, 21, host=5)
        other = await new_game(db, 22, host=5)
        async with db.transaction() as conn:
            for game, user in ((seated, 3), (other, 4)):
                await run(conn, "INSERT INTO seats(game_id, seat, join_seq, user_id, user_name, display_name,"
                          " joined_at) VALUES (?, 's1', 1, ?, 'x', 'x', 1.0)", (game, user))
        sql, args = games_repo.active_of_user(3, "crimecity")
        async with db.read() as conn:
            assert [g.id for g in await games_repo.active_games_of_user(conn, 3, "crimecity")] == [hosted, seated]
            if db.dialect == "postgres":
                await run(conn, "SET LOCAL enable_seqscan = off")
                plan = " ".join(r[0] for r in await rows(conn, "EXPLAIN " + sql, args))
                assert "Seq Scan on games" not in plan and "games_host" in plan, plan
            else:
                plan = " ".join(r["detail"] for r in await rows(conn, "EXPLAIN QUERY PLAN " + sql, args))
                assert "SCAN games" not in plan and "games_host" in plan, plan
    finally:
        await db.close()


@pytest.mark.parametrize("sync", ["full", "normal"])
async def test_the_sync_setting_reaches_every_connection_that_commits(db_setting: str, sync: str) -> None:
    """CRIMECITY_DB_SYNC: full waits for the disk (SQLite FULL, PostgreSQL synchronous_commit on), normal only
    for the system (NORMAL, off); a transaction commits either way."""
    db = database_for(db_setting, sync)
    await db.open()
    try:
        await new_game(db, 30)
        async with db.transaction() as conn:  # the writer's own setting (a reader commits nothing)
            if db.dialect == "postgres":  # the test server's default is off: full sets it on
                found = await row(conn, "SHOW synchronous_commit")
                assert found is not None and found[0] == {"full": "on", "normal": "off"}[sync]
            else:
                found = await row(conn, "PRAGMA synchronous")
                assert found is not None and found[0] == {"full": 2, "normal": 1}[sync]
    finally:
        await db.close()


def test_an_unknown_sync_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="sync must be one of full, normal, not 'off'"):
        database_for("x.db", "off")


async def test_the_guarded_submission_lands_only_at_its_decision(db_setting: str) -> None:
    db = await opened(db_setting)
    writer = SubmissionWriter(db)
    try:
        game = await new_game(db, 5)
        results = await asyncio.gather(*(writer.put_if_open(game, 0, f"p{i}", {"n": i}, i, 2.0) for i in range(5)))
        assert results == [True] * 5
        async with db.transaction() as conn:
            await run(conn, "UPDATE games SET step = 1 WHERE id = ?", (game,))
        assert await writer.put_if_open(game, 0, "p1", {"n": 9}, 1, 3.0) is False  # its decision is over
        assert await writer.put_if_open(game, 1, "p1", {"n": 9}, 1, 3.0) is True
        async with db.read() as conn:
            assert await subs_repo.collected(conn, game, 0) == {f"p{i}": {"n": i} for i in range(5)}
            assert await subs_repo.collected(conn, game, 1) == {"p1": {"n": 9}}
    finally:
        await db.close()


async def test_timers_are_added_found_and_postponed(db_setting: str) -> None:
    db = await opened(db_setting)
    try:
        game = await new_game(db, 5)
        async with db.transaction() as conn:
            first = await timers_repo.add_timer(conn, game, "deadline", 0, 10.0, clock="round")
            await timers_repo.add_timer(conn, game, "reminder", 0, 20.0)
            await timers_repo.postpone_timer(conn, first, 30.0)
        async with db.read() as conn:
            due = await timers_repo.due_timers(conn, 25.0)
            assert [(t.kind, t.due_at, t.attempts) for t in due] == [("reminder", 20.0, 0)]
            assert await timers_repo.next_due(conn, 25.0) == 30.0
        async with db.transaction() as conn:
            assert await timers_repo.delete_timer(conn, first)
            assert not await timers_repo.delete_timer(conn, first)
    finally:
        await db.close()


@pytest.mark.postgres
async def test_processes_starting_together_migrate_once(pg_url: str) -> None:
    dbs = [database_for(pg_url) for _ in range(4)]
    await asyncio.gather(*(db.open() for db in dbs))
    try:
        versions = await dbs[0].fetchall("SELECT version FROM schema_version ORDER BY version")
        assert [r["version"] for r in versions] == [v for v, _, _ in pg_migrations()]  # each applied once
        assert await new_game(dbs[3], 1) > 0
    finally:
        for db in dbs:
            await db.close()


@pytest.mark.postgres
async def test_closing_closes_every_connection(pg_url: str, pg_server: object) -> None:
    import asyncpg

    db = await opened(pg_url)
    await db.fetchall("SELECT 1")
    name = pg_url.rsplit("/", 1)[1]
    watcher = await asyncpg.connect(pg_url.rsplit("/", 1)[0] + "/postgres")
    try:
        count = "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = $1"
        assert await watcher.fetchval(count, name) >= 2  # the pool and the listener
        await db.close()
        for _ in range(50):
            if await watcher.fetchval(count, name) == 0:
                break
            await asyncio.sleep(0.05)
        assert await watcher.fetchval(count, name) == 0
    finally:
        await watcher.close()


@pytest.mark.postgres
async def test_a_claimed_timer_is_claimed_by_one_process_until_its_lease_lapses(pg_url: str) -> None:
    a, b = await opened(pg_url), await opened(pg_url)
    try:
        game = await new_game(a, 5)
        async with a.transaction() as conn:
            ids = [await timers_repo.add_timer(conn, game, "deadline", 0, 10.0) for _ in range(6)]
        async with a.transaction() as ca, b.transaction() as cb:
            mine = await timers_repo.claim_due(ca, 100.0, 4, "a")
            theirs = await timers_repo.claim_due(cb, 100.0, 4, "b")  # skips the rows a is claiming
        assert len(mine) == 4 and len(theirs) == 2 and {t.id for t in mine + theirs} == set(ids)
        async with b.transaction() as cb:
            assert await timers_repo.claim_due(cb, 100.0, 10, "b") == []  # every claim is live
            later = 100.0 + timers_repo.LEASE + 1
            assert len(await timers_repo.claim_due(cb, later, 10, "b")) == 6  # a's process died: they lapsed
    finally:
        await a.close()
        await b.close()


@pytest.mark.postgres
async def test_a_commit_that_queues_messages_wakes_the_other_processes(pg_url: str) -> None:
    a, b = await opened(pg_url), await opened(pg_url)
    woken = asyncio.Event()
    b.on_notify(woken.set)
    try:
        game = await new_game(a, 5)
        await asyncio.sleep(0.1)
        assert not woken.is_set()  # a game row wakes nobody
        async with a.transaction() as conn:
            await run(
                conn,
                "INSERT INTO outbox(game_id, target, payload_json, created_at) VALUES (?, 'user', '{}', 1)",
                (game,),
            )
        await asyncio.wait_for(woken.wait(), 5)
    finally:
        await a.close()
        await b.close()
