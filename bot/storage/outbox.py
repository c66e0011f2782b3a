"""Outgoing messages, written with the state change that caused them, and the undeliverable-DM inbox."""

from __future__ import annotations

from typing import Any

from .models import OutboxRow
from .sql import dumps, insert, later, marks, row, rows, run


async def queue_channel(conn: Any, game_id: int, channel_id: int, payload: dict[str, Any], now: float) -> None:
    await later(
        conn,
        "INSERT INTO outbox(game_id, target, channel_id, payload_json, created_at) VALUES (?, 'channel', ?, ?, ?)",
        (game_id, channel_id, dumps(payload), now),
    )


async def queue_dm(conn: Any, game_id: int, seat: str, payload: dict[str, Any], now: float) -> None:
    await later(
        conn,
        "INSERT INTO outbox(game_id, target, seat, payload_json, created_at) VALUES (?, 'dm', ?, ?, ?)",
        (game_id, seat, dumps(payload), now),
    )


async def queue_edit(conn: Any, game_id: int, channel_id: int, payload: dict[str, Any], now: float) -> int:
    """An edit of a message the bot posted (`payload["message_id"]`), e.g. the living lobby message."""
    return await insert(
        conn,
        "INSERT INTO outbox(game_id, target, channel_id, payload_json, created_at) VALUES (?, 'edit', ?, ?, ?)",
        (game_id, channel_id, dumps(payload), now),
    )


async def queue_user(conn: Any, game_id: int, payload: dict[str, Any], now: float) -> int:
    """A DM to a user who need not hold a seat (the game's host): `payload["user_id"]`."""
    return await insert(
        conn,
        "INSERT INTO outbox(game_id, target, payload_json, created_at) VALUES (?, 'user', ?, ?)",
        (game_id, dumps(payload), now),
    )


# The queue's heads: which target each row goes to, and when it is due. A DM to a user who need not hold a
# seat is routed by its payload's user id, so only those rows bring their payload.
HEADS = (
    "o.id, o.game_id, o.target, o.channel_id, o.seat, o.attempts, o.next_try_at,"
    " CASE WHEN o.target = 'user' THEN o.payload_json END AS payload_json"
)


async def undelivered(conn: Any, limit: int = 500, posts: tuple[str, list[Any]] | None = None) -> list[OutboxRow]:
    """Every row not delivered yet, oldest first, due or not (a target's rows keep their order), as heads:
    without their payload (`by_ids` reads the rows a worker sends).

    `posts`: a condition on the game's row `g` (and its parameters) that a channel post or edit must meet
    to be read, e.g. "this process holds its guild's shard": another process's posts piling up (that
    process down) then never fill the batch of this one."""
    if posts is None:
        found = await rows(
            conn, f"SELECT {HEADS} FROM outbox o WHERE delivered_at IS NULL ORDER BY id LIMIT ?", (limit,)
        )
    else:
        condition, params = posts
        found = await rows(
            conn,
            f"SELECT {HEADS} FROM outbox o LEFT JOIN games g ON g.id = o.game_id WHERE o.delivered_at IS NULL"
            f" AND (o.target IN ('dm', 'user') OR g.guild_id IS NULL OR {condition}) ORDER BY o.id LIMIT ?",
            (*params, limit),
        )
    return [OutboxRow.from_row(r) for r in found]


async def by_ids(conn: Any, ids: list[int]) -> list[OutboxRow]:
    """Those of the rows `ids` not delivered yet, whole, in id order."""
    found = await rows(
        conn,
        f"SELECT * FROM outbox WHERE id IN ({', '.join('?' * len(ids))}) AND delivered_at IS NULL ORDER BY id",
        ids,
    )
    return [OutboxRow.from_row(r) for r in found]


async def pending(conn: Any, now: float, limit: int = 50) -> list[OutboxRow]:
    found = await rows(
        conn, "SELECT * FROM outbox WHERE delivered_at IS NULL AND next_try_at <= ? ORDER BY id LIMIT ?", (now, limit)
    )
    return [OutboxRow.from_row(r) for r in found]


async def next_retry_at(conn: Any) -> float | None:
    found = await row(conn, "SELECT MIN(next_try_at) AS at FROM outbox WHERE delivered_at IS NULL")
    return None if found is None or found["at"] is None else float(found["at"])


async def count_pending(conn: Any) -> int:
    found = await row(conn, "SELECT COUNT(*) AS n FROM outbox WHERE delivered_at IS NULL")
    return int(found["n"]) if found else 0


MARK_DELIVERED = "UPDATE outbox SET delivered_at = ?, last_error = ? WHERE id = ?"


async def mark_delivered(conn: Any, outbox_id: int, now: float, note: str | None = None) -> None:
    await later(conn, MARK_DELIVERED, (now, note, outbox_id))


async def mark_delivered_alone(db: Any, outbox_id: int, now: float, note: str | None = None) -> None:
    """The same, as a statement of its own (`Database.write_alone`: one round trip, on disk when it returns)."""
    await db.write_alone(MARK_DELIVERED, (now, note, outbox_id))


async def mark_failed(conn: Any, outbox_id: int, error: str, retry_at: float) -> None:
    await run(
        conn,
        "UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_try_at = ? WHERE id = ?",
        (error[:500], retry_at, outbox_id),
    )


async def add_inbox(conn: Any, game_id: int, seat: str, content: str, now: float) -> None:
    await run(
        conn, "INSERT INTO inbox(game_id, seat, content, created_at) VALUES (?, ?, ?, ?)", (game_id, seat, content, now)
    )


async def inbox(conn: Any, game_id: int, seat: str) -> list[tuple[int, str, bool]]:
    """(id, content, already read), oldest first."""
    found = await rows(
        conn, "SELECT id, content, read_at FROM inbox WHERE game_id = ? AND seat = ? ORDER BY id", (game_id, seat)
    )
    return [(r["id"], r["content"], r["read_at"] is not None) for r in found]


async def mark_inbox_read(conn: Any, game_id: int, seat: str, now: float, ids: list[int] | None = None) -> None:
    """Marks the seat's unread items read (only `ids` when given: those the player was shown)."""
    sql = "UPDATE inbox SET read_at = ? WHERE game_id = ? AND seat = ? AND read_at IS NULL"
    args: list[Any] = [now, game_id, seat]
    if ids is not None:
        sql += f" AND id IN ({marks(len(ids))})"
        args += ids
    await run(conn, sql, args)


# ---- keyed posts (edited in place) ------------------------------------------------------------------


async def posted(conn: Any, game_id: int, channel_id: int, key: str) -> tuple[int, str] | None:
    """The message a keyed post went out as, and what it shows now; None before the first one."""
    found = await row(
        conn,
        "SELECT message_id, content FROM posted WHERE game_id = ? AND channel_id = ? AND key = ?",
        (game_id, channel_id, key),
    )
    return None if found is None else (int(found["message_id"]), str(found["content"]))


async def record_posted(conn: Any, game_id: int, channel_id: int, key: str, message_id: int, content: str) -> None:
    await later(
        conn,
        "INSERT INTO posted(game_id, channel_id, key, message_id, content) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (game_id, channel_id, key) DO UPDATE SET message_id = excluded.message_id, "
        "content = excluded.content",
        (game_id, channel_id, key, message_id, content),
    )
