"""Draft and round submissions, per-round logs, private results and EC votes."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import aiosqlite

from .db import Database, fetch_one
from .models import ROUND, DraftRow, GameRow, PlayerRow, SubmissionRow


async def put_draft(
    conn: aiosqlite.Connection, game_id: int, seat: str, bid: int, roles: list[str], characters: list[str], now: float
) -> None:
    await conn.execute(
        "INSERT INTO draft_submissions(game_id, seat, bid, roles_json, characters_json, submitted_at)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(game_id, seat) DO UPDATE SET bid = excluded.bid,"
        " roles_json = excluded.roles_json, characters_json = excluded.characters_json,"
        " submitted_at = excluded.submitted_at",
        (game_id, seat, bid, json.dumps(roles), json.dumps(characters), now),
    )


async def drafts(conn: aiosqlite.Connection, game_id: int) -> dict[str, DraftRow]:
    rows = await conn.execute_fetchall("SELECT * FROM draft_submissions WHERE game_id = ?", (game_id,))
    return {r["seat"]: DraftRow.from_row(r) for r in rows}


async def round_submissions(conn: aiosqlite.Connection, game_id: int, round_no: int) -> dict[str, SubmissionRow]:
    rows = await conn.execute_fetchall("SELECT * FROM submissions WHERE game_id = ? AND round = ?", (game_id, round_no))
    return {r["seat"]: SubmissionRow.from_row(r) for r in rows}


async def round_submission(conn: aiosqlite.Connection, game_id: int, round_no: int, seat: str) -> SubmissionRow | None:
    row = await fetch_one(
        conn, "SELECT * FROM submissions WHERE game_id = ? AND round = ? AND seat = ?", (game_id, round_no, seat)
    )
    return None if row is None else SubmissionRow.from_row(row)


@dataclass(frozen=True, slots=True)
class RoundContext:
    """What a round submission is checked against: the game, its seats, this round's rows and when the
    round opened, read in one statement (so one consistent snapshot)."""

    game: GameRow
    players: list[PlayerRow]  # the game's seats
    rows: dict[str, SubmissionRow]  # this round's submission rows, by seat
    prev_resolved_at: float | None  # round_log.resolved_at of the round before the current one, if any

    def seat_of(self, user_id: int) -> str | None:
        for player in self.players:
            if player.user_id == user_id:
                return player.seat
        return None

    def others_in(self, seat: str) -> int:
        """Other seats that have submitted their actions this round."""
        return sum(1 for other, row in self.rows.items() if other != seat and row.actions is not None)

    def with_row(self, row: SubmissionRow) -> RoundContext:
        """This context once `row` is written (a new object: a context is never changed in place)."""
        return RoundContext(self.game, self.players, {**self.rows, row.seat: row}, self.prev_resolved_at)


# games.* first (GameRow.from_row compares only those columns), then the seats and this round's rows as
# JSON arrays and the previous round's resolution time: one reader round trip instead of a BEGIN, four
# queries and a COMMIT.
_ROUND_CONTEXT = (
    "SELECT g.*,"
    " (SELECT json_group_array(json_array(seat, join_seq, user_id, user_name, display_name, start_garnets))"
    "  FROM players WHERE game_id = g.id) AS ctx_players,"
    " (SELECT json_group_array(json_array(seat, json(actions_json), json(buys_json), json(guess_json)))"
    "  FROM submissions s WHERE s.game_id = g.id AND s.round = g.round) AS ctx_rows,"
    " (SELECT r.resolved_at FROM round_log r WHERE r.game_id = g.id AND r.round = g.round - 1) AS ctx_prev"
    " FROM games g WHERE g.id = ?"
)
_ROUND_CONTEXT_EXTRA = 3  # columns after games.*


async def round_context(db: Database, game_id: int) -> RoundContext | None:
    """The game, its seats and this round's rows: one statement on a reader (not the writer). None if
    the game does not exist."""
    async with db.reader() as conn:
        found = await fetch_one(conn, _ROUND_CONTEXT, (game_id,))
    if found is None:
        return None
    game = GameRow.from_row(found, extra=_ROUND_CONTEXT_EXTRA)
    players = [PlayerRow(game_id, *values) for values in json.loads(found["ctx_players"])]
    rows = {
        seat: SubmissionRow(game.round, seat, actions, buys, guess)
        for seat, actions, buys, guess in json.loads(found["ctx_rows"])
    }
    prev = found["ctx_prev"]
    return RoundContext(game, players, rows, None if prev is None else float(prev))


async def all_round_submissions(conn: aiosqlite.Connection, game_id: int) -> list[SubmissionRow]:
    rows = await conn.execute_fetchall("SELECT * FROM submissions WHERE game_id = ? ORDER BY round, seat", (game_id,))
    return [SubmissionRow.from_row(r) for r in rows]


_UPSERT = (
    " ON CONFLICT(game_id, round, seat) DO UPDATE SET"
    " actions_json = excluded.actions_json, buys_json = excluded.buys_json,"
    " guess_json = excluded.guess_json, submitted_at = excluded.submitted_at"
)
_COLUMNS = "INSERT INTO submissions(game_id, round, seat, actions_json, buys_json, guess_json, submitted_at)"


def _values(game_id: int, sub: SubmissionRow, now: float) -> tuple[Any, ...]:
    return (
        game_id,
        sub.round,
        sub.seat,
        None if sub.actions is None else json.dumps(sub.actions),
        json.dumps(sub.buys),
        None if sub.guess is None else json.dumps(sub.guess, sort_keys=True),
        now,
    )


async def put_submission(conn: aiosqlite.Connection, game_id: int, sub: SubmissionRow, now: float) -> None:
    await conn.execute(_COLUMNS + " VALUES (?, ?, ?, ?, ?, ?, ?)" + _UPSERT, _values(game_id, sub, now))


@lru_cache(maxsize=64)
def guarded_upsert_sql(rows: int) -> str:
    """Insert or replace `rows` submission rows in one statement, each only if its game is still in round
    play in the phase (`phase_seq`) and round it was checked against. Each row's parameters are
    `guarded_values(...)`. It begins with INSERT because Python's sqlite3 reports a row count only for a
    statement that does (so no WITH clause); a VALUES subquery names its columns column1, column2, ..."""
    values = ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?)"] * rows)
    return (
        _COLUMNS + " SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7"
        f" FROM (VALUES {values}) AS v"
        " WHERE EXISTS (SELECT 1 FROM games g WHERE g.id = v.column1 AND g.phase_seq = v.column8"
        f" AND g.status = '{ROUND}' AND g.round = v.column2)" + _UPSERT
    )


def guarded_values(game_id: int, phase_seq: int, sub: SubmissionRow, now: float) -> tuple[Any, ...]:
    """One row's parameters for `guarded_upsert_sql`."""
    return (*_values(game_id, sub, now), phase_seq)


async def put_submission_if_open(
    conn: aiosqlite.Connection, game_id: int, phase_seq: int, sub: SubmissionRow, now: float
) -> bool:
    """put_submission, guarded in the same statement: written only if the game is still in round play in
    phase `phase_seq` (so a round that resolved meanwhile never receives it). False if nothing was written."""
    cur = await conn.execute(guarded_upsert_sql(1), guarded_values(game_id, phase_seq, sub, now))
    return cur.rowcount > 0


async def put_round_log(
    conn: aiosqlite.Connection, game_id: int, round_no: int, rejected: dict[str, Any], view: dict[str, Any], now: float
) -> None:
    await conn.execute(
        "INSERT OR REPLACE INTO round_log(game_id, round, rejected_json, view_json, resolved_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (game_id, round_no, json.dumps(rejected, sort_keys=True), json.dumps(view, sort_keys=True), now),
    )


async def add_private_result(
    conn: aiosqlite.Connection, game_id: int, seat: str, round_no: int, kind: str, data: dict[str, Any], now: float
) -> None:
    await conn.execute(
        "INSERT INTO private_results(game_id, seat, round, kind, data_json, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        (game_id, seat, round_no, kind, json.dumps(data, sort_keys=True), now),
    )


async def private_results(conn: aiosqlite.Connection, game_id: int, seat: str) -> list[tuple[int, str, dict[str, Any]]]:
    rows = await conn.execute_fetchall(
        "SELECT round, kind, data_json FROM private_results WHERE game_id = ? AND seat = ? ORDER BY id",
        (game_id, seat),
    )
    return [(r["round"], r["kind"], json.loads(r["data_json"])) for r in rows]


async def put_ec_vote(conn: aiosqlite.Connection, game_id: int, seat: str, choice: str) -> None:
    await conn.execute(
        "INSERT INTO ec_votes(game_id, seat, choice) VALUES (?, ?, ?)"
        " ON CONFLICT(game_id, seat) DO UPDATE SET choice = excluded.choice",
        (game_id, seat, choice),
    )


async def ec_votes(conn: aiosqlite.Connection, game_id: int) -> dict[str, str]:
    rows = await conn.execute_fetchall("SELECT seat, choice FROM ec_votes WHERE game_id = ?", (game_id,))
    return {r["seat"]: r["choice"] for r in rows}
