"""The record of a game: the move log, the decisions (steps) and the events by recipient."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.contract import Event, LogEntry, Pending

from .models import EventRow
from .sql import dumps, later, loads, row, rows, run


async def next_seq(conn: Any, game_id: int) -> int:
    found = await row(conn, "SELECT COALESCE(MAX(seq), 0) AS n FROM moves WHERE game_id = ?", (game_id,))
    return int(found["n"] if found else 0) + 1


# The next number of a game's log, worked out by the INSERT itself: the step's writes need no answer from
# the database before its COMMIT (bot/storage/pipeline.py), and the game's lock orders its writers.
NEXT_SEQ = "(SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE game_id = ?)"
LAST_SEQ = "(SELECT MAX(seq) FROM moves WHERE game_id = ?)"
LAST_EVENT = "(SELECT MAX(id) FROM events WHERE game_id = ?)"


async def add_move(conn: Any, game_id: int, step: int, entry: LogEntry, user_id: int | None, now: float) -> None:
    """The step's entry in the log, numbered after the game's last entry."""
    await later(
        conn,
        "INSERT INTO moves(game_id, seq, step, actions_json, chance_json, user_id, at)"
        f" VALUES (?, {NEXT_SEQ}, ?, ?, ?, ?, ?)",
        (
            game_id,
            game_id,
            step,
            dumps([a.to_json() for a in entry.actions]),
            dumps([dict(c) for c in entry.chance]),
            user_id,
            now,
        ),
    )


async def add_seat_change(
    conn: Any, game_id: int, step: int, change: dict[str, Any], user_id: int | None, now: float
) -> None:
    """A change of who holds a seat: in the record, but not a step of the game (nothing to replay)."""
    seq = await next_seq(conn, game_id)
    await run(
        conn,
        "INSERT INTO moves(game_id, seq, step, kind, actions_json, chance_json, user_id, at)"
        " VALUES (?, ?, ?, 'seat', ?, '[]', ?, ?)",
        (game_id, seq, step, dumps(change), user_id, now),
    )


async def moves(conn: Any, game_id: int) -> list[LogEntry]:
    """The steps of the game, in order (what replays to its snapshot)."""
    found = await rows(
        conn,
        "SELECT actions_json, chance_json FROM moves WHERE game_id = ? AND kind = 'step' ORDER BY seq",
        (game_id,),
    )
    return [LogEntry.from_json({"actions": loads(r["actions_json"]), "chance": loads(r["chance_json"])}) for r in found]


async def open_step(conn: Any, game_id: int, step: int, pending: Pending, now: float) -> None:
    await later(
        conn,
        "INSERT INTO steps(game_id, step, pending_json, opened_at) VALUES (?, ?, ?, ?)",
        (game_id, step, dumps(pending.to_json()), now),
    )


async def close_step(conn: Any, game_id: int, step: int, now: float) -> None:
    await later(
        conn,
        "UPDATE steps SET closed_at = ? WHERE game_id = ? AND step = ? AND closed_at IS NULL",
        (now, game_id, step),
    )


INSERT_EVENT = "INSERT INTO events(game_id, seq, step, kind, public, data_json, at) VALUES (?, ?, ?, ?, ?, ?, ?)"
INSERT_LOGGED_EVENT = (
    f"INSERT INTO events(game_id, seq, step, kind, public, data_json, at) VALUES (?, {LAST_SEQ}, ?, ?, ?, ?, ?)"
)
# Its event is the game's last one: the game's lock keeps other writers of its events out meanwhile.
INSERT_LAST_RECIPIENT = f"INSERT INTO event_seats(event_id, game_id, seat) VALUES ({LAST_EVENT}, ?, ?)"


async def add_events(
    conn: Any, game_id: int, seq: int | None, step: int, events: Iterable[Event], now: float
) -> None:
    """The step's events and their recipients (`seq` None: of the log entry just added), none of which
    waits for an answer from the database."""
    for event in events:
        data = (step, event.kind, int(event.is_public), dumps(dict(event.data)), now)
        if seq is None:
            await later(conn, INSERT_LOGGED_EVENT, (game_id, game_id, *data))
        else:
            await later(conn, INSERT_EVENT, (game_id, seq, *data))
        if not event.is_public:
            for seat in dict.fromkeys(event.audience):
                await later(conn, INSERT_LAST_RECIPIENT, (game_id, game_id, seat))


async def events_for(conn: Any, game_id: int, seat: str | None, *, private_only: bool = False) -> list[EventRow]:
    """The events `seat` may see (None: the public ones), oldest first."""
    if seat is None:
        found = await rows(conn, "SELECT * FROM events WHERE game_id = ? AND public = 1 ORDER BY id", (game_id,))
    elif private_only:
        found = await rows(
            conn,
            "SELECT events.* FROM events JOIN event_seats ON event_seats.event_id = events.id"
            " WHERE event_seats.game_id = ? AND event_seats.seat = ? ORDER BY events.id",
            (game_id, seat),
        )
    else:
        found = await rows(
            conn,
            "SELECT * FROM events WHERE game_id = ? AND (public = 1 OR id IN"
            " (SELECT event_id FROM event_seats WHERE game_id = ? AND seat = ?)) ORDER BY id",
            (game_id, game_id, seat),
        )
    return [EventRow.from_row(r) for r in found]


async def audiences_for(conn: Any, game_id: int, seat: str) -> dict[int, list[str]]:
    """The whole audience of each private event `seat` received (by event id): what the rules sent it."""
    found = await rows(
        conn,
        "SELECT event_id, seat FROM event_seats WHERE game_id = ? AND event_id IN"
        " (SELECT event_id FROM event_seats WHERE game_id = ? AND seat = ?) ORDER BY event_id, seat",
        (game_id, game_id, seat),
    )
    out: dict[int, list[str]] = {}
    for r in found:
        out.setdefault(int(r["event_id"]), []).append(r["seat"])
    return out


async def step_opened_at(conn: Any, game_id: int, step: int) -> float | None:
    found = await row(conn, "SELECT opened_at FROM steps WHERE game_id = ? AND step = ?", (game_id, step))
    return None if found is None else float(found["opened_at"])
