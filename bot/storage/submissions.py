"""Draft and round submissions, per-round logs, private results and EC votes."""

from __future__ import annotations

import json
from typing import Any

import aiosqlite

from .db import fetch_one
from .models import DraftRow, SubmissionRow


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


async def all_round_submissions(conn: aiosqlite.Connection, game_id: int) -> list[SubmissionRow]:
    rows = await conn.execute_fetchall("SELECT * FROM submissions WHERE game_id = ? ORDER BY round, seat", (game_id,))
    return [SubmissionRow.from_row(r) for r in rows]


async def put_submission(conn: aiosqlite.Connection, game_id: int, sub: SubmissionRow, now: float) -> None:
    await conn.execute(
        "INSERT INTO submissions(game_id, round, seat, actions_json, buys_json, guess_json, submitted_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(game_id, round, seat) DO UPDATE SET"
        " actions_json = excluded.actions_json, buys_json = excluded.buys_json,"
        " guess_json = excluded.guess_json, submitted_at = excluded.submitted_at",
        (
            game_id,
            sub.round,
            sub.seat,
            None if sub.actions is None else json.dumps(sub.actions),
            json.dumps(sub.buys),
            None if sub.guess is None else json.dumps(sub.guess, sort_keys=True),
            now,
        ),
    )


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
