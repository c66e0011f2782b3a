"""Games and their seats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .models import ENDED, LOBBY, GameRow, HostOptions, SeatRow
from .sql import dumps, insert, later, marks, row, rows, run

_UPDATABLE = frozenset(
    {
        "status",
        "settings_json",
        "options_json",
        "seed",
        "draws",
        "setup_json",
        "state_json",
        "version",
        "step",
        "pending_json",
        "step_opened_at",
        "paused",
        "paused_at",
        "paused_for",
        "results_json",
        "season_id",
        "started_at",
        "ended_at",
        "host_id",
        "lobby_message_id",
    }
)


async def create_game(
    conn: Any,
    *,
    kind: str,
    guild_id: int,
    channel_id: int,
    host_id: int,
    settings: dict[str, Any],
    options: HostOptions,
    now: float,
    season_id: int | None = None,
) -> int:
    return await insert(
        conn,
        "INSERT INTO games(kind, guild_id, channel_id, host_id, status, settings_json, options_json, season_id,"
        " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (kind, guild_id, channel_id, host_id, LOBBY, dumps(settings), dumps(options.to_json()), season_id, now),
    )


async def get_game(conn: Any, game_id: int) -> GameRow | None:
    found = await row(conn, "SELECT * FROM games WHERE id = ?", (game_id,))
    return None if found is None else GameRow.from_row(found)


async def active_game_in_channel(conn: Any, channel_id: int) -> GameRow | None:
    found = await row(conn, "SELECT * FROM games WHERE channel_id = ? AND status != ?", (channel_id, ENDED))
    return None if found is None else GameRow.from_row(found)


def active_of_user(user_id: int, kind: str | None = None) -> tuple[str, list[Any]]:
    """The query of `active_games_of_user`: by the `games_host` index and the seats' member indexes, so its
    cost follows the user's games, not every game the server has played."""
    sql = (
        "SELECT * FROM games WHERE id IN (SELECT id FROM games WHERE host_id = ?"
        " UNION SELECT game_id FROM seats WHERE user_id = ? UNION SELECT game_id FROM seats WHERE partner_id = ?)"
        " AND status != ?"
    )
    args: list[Any] = [user_id, user_id, user_id, ENDED]
    if kind is not None:
        sql += " AND kind = ?"
        args.append(kind)
    return sql + " ORDER BY id", args


async def active_games_of_user(conn: Any, user_id: int, kind: str | None = None) -> list[GameRow]:
    """Games (not ended) where the user holds a seat or is the host."""
    return [GameRow.from_row(r) for r in await rows(conn, *active_of_user(user_id, kind))]


def _sets(fields: dict[str, Any]) -> str:
    bad = set(fields) - _UPDATABLE
    if bad:
        raise ValueError(f"not a games column: {sorted(bad)}")
    return ", ".join(f"{k} = ?" for k in fields)


async def update_game(conn: Any, game_id: int, /, **fields: Any) -> None:
    await run(conn, f"UPDATE games SET {_sets(fields)} WHERE id = ?", (*fields.values(), game_id))


async def move_on(conn: Any, game_id: int, expected: int, /, **fields: Any) -> None:
    """Compare-and-set on `version`, as a write nobody waits on (`sql.later`): `Moved` if someone moved the
    game on meanwhile, now or when the transaction sends it, and then the transaction writes nothing."""
    await later(
        conn,
        f"UPDATE games SET {_sets(fields)} WHERE id = ? AND version = ?",
        (*fields.values(), game_id, expected),
        must_change=True,
    )


# ---- seats ---------------------------------------------------------------------------------------------

HELD_BY = "(user_id = ? OR partner_id = ?)"  # a seat's members, first or second (two placeholders)


async def seats(conn: Any, game_id: int) -> list[SeatRow]:
    found = await rows(conn, "SELECT * FROM seats WHERE game_id = ? ORDER BY join_seq", (game_id,))
    return [SeatRow.from_row(r) for r in found]


async def seats_of_games(conn: Any, game_ids: list[int]) -> dict[int, list[SeatRow]]:
    if not game_ids:
        return {}
    found = await rows(
        conn, f"SELECT * FROM seats WHERE game_id IN ({marks(len(game_ids))}) ORDER BY join_seq", game_ids
    )
    out: dict[int, list[SeatRow]] = {g: [] for g in game_ids}
    for r in found:
        out[r["game_id"]].append(SeatRow.from_row(r))
    return out


async def add_seat(
    conn: Any,
    game_id: int,
    *,
    user_id: int | None,
    user_name: str,
    display_name: str,
    now: float,
    computer: str | None = None,
) -> str:
    """The next free seat id (p1, p2, ...), in join order."""
    taken = {r["seat"] for r in await rows(conn, "SELECT seat FROM seats WHERE game_id = ?", (game_id,))}
    top = await row(conn, "SELECT COALESCE(MAX(join_seq), 0) AS n FROM seats WHERE game_id = ?", (game_id,))
    seat = next(f"p{i}" for i in range(1, len(taken) + 2) if f"p{i}" not in taken)
    await run(
        conn,
        "INSERT INTO seats(game_id, seat, join_seq, user_id, user_name, display_name, computer, joined_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (game_id, seat, int(top["n"] if top else 0) + 1, user_id, user_name, display_name, computer, now),
    )
    return seat


async def computer_names(conn: Any, game_id: int) -> list[str]:
    """The names of the computer players seated in the game now."""
    found = await rows(conn, "SELECT user_name FROM seats WHERE game_id = ? AND computer IS NOT NULL", (game_id,))
    return [str(r["user_name"]) for r in found]


async def set_seat_order(conn: Any, game_id: int, seats_in_order: Sequence[str]) -> None:
    """The seats in this order from now on: each takes a join number after every one given so far."""
    top = await row(conn, "SELECT COALESCE(MAX(join_seq), 0) AS n FROM seats WHERE game_id = ?", (game_id,))
    first = int(top["n"] if top else 0) + 1
    for i, seat in enumerate(seats_in_order):
        await run(conn, "UPDATE seats SET join_seq = ? WHERE game_id = ? AND seat = ?", (first + i, game_id, seat))


async def remove_seat(conn: Any, game_id: int, seat: str) -> None:
    await run(conn, "DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))


async def reassign_seat(
    conn: Any,
    game_id: int,
    seat: str,
    *,
    user_id: int | None,
    user_name: str,
    display_name: str,
    computer: str | None = None,
) -> None:
    await run(
        conn,
        "UPDATE seats SET user_id = ?, user_name = ?, display_name = ?, computer = ? WHERE game_id = ? AND seat = ?",
        (user_id, user_name, display_name, computer, game_id, seat),
    )


async def add_partner(conn: Any, game_id: int, seat: str, *, user_id: int, user_name: str, display_name: str) -> None:
    """`user_id` becomes the seat's second member (the caller checked that the seat has none)."""
    await run(
        conn,
        "UPDATE seats SET partner_id = ?, partner_name = ?, partner_display = ? WHERE game_id = ? AND seat = ?",
        (user_id, user_name, display_name, game_id, seat),
    )


async def drop_member(conn: Any, game_id: int, seat: SeatRow, user_id: int) -> None:
    """One member leaves a shared seat: the partner leaves their place, or the first member hands the seat
    to the partner (who becomes its first member). The seat keeps its id and join order."""
    if seat.partner_id == user_id or seat.partner_id is None:
        await run(
            conn,
            "UPDATE seats SET partner_id = NULL, partner_name = NULL, partner_display = NULL"
            " WHERE game_id = ? AND seat = ?",
            (game_id, seat.seat),
        )
        return
    await run(
        conn,
        "UPDATE seats SET user_id = partner_id, user_name = partner_name, display_name = partner_display,"
        " partner_id = NULL, partner_name = NULL, partner_display = NULL WHERE game_id = ? AND seat = ?",
        (game_id, seat.seat),
    )


async def reassign_partner(
    conn: Any, game_id: int, seat: str, *, user_id: int, user_name: str, display_name: str
) -> None:
    """Another member takes the second member's place of a shared seat."""
    await add_partner(conn, game_id, seat, user_id=user_id, user_name=user_name, display_name=display_name)


async def seat_holders(conn: Any, game_ids: set[int]) -> dict[tuple[int, str], tuple[int, ...]]:
    """(game, seat) -> the members holding the seat, first member first (none: a computer player)."""
    if not game_ids:
        return {}
    found = await rows(
        conn,
        f"SELECT game_id, seat, user_id, partner_id FROM seats WHERE game_id IN ({marks(len(game_ids))})",
        sorted(game_ids),
    )
    return {
        (r["game_id"], r["seat"]): tuple(int(u) for u in (r["user_id"], r["partner_id"]) if u is not None)
        for r in found
    }
