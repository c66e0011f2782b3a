"""Migration 3 for Crime City: the games of schema versions 1-2 (`legacy_*` tables) in the generic tables.

Each game's record is rebuilt from what version 2 kept: the seats, the draft submissions, each resolved
round's submissions and the EC votes become the move log; replaying it gives the state, its decisions
and its events. Version 2 did not log a balance the host set during the rounds, so where the replayed
balances differ from the stored state, host moves setting them are logged last (docs/architecture.md).
The open decision keeps its collected moves, its deadline (or the time left while paused), its
timers, panels and inbox; undelivered messages are kept.
"""

from __future__ import annotations

import json
import logging
import secrets
from typing import Any

from rules.contract import Action, LogEntry, RecordedChance, SeededChance
from rules.crimecity.draft import DraftSubmission
from rules.crimecity.game import GAME, Match, draft_move
from rules.crimecity.ids import Character, Role
from rules.crimecity.state import GameState

from ...host import Roster
from ...storage.models import ENDED, LOBBY, RUNNING, HostOptions, SeatRow
from ...storage.sql import dumps

log = logging.getLogger(__name__)

KIND = "crimecity"


async def adopt(conn: Any) -> None:
    tables = {r[0] for r in await conn.execute_fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "legacy_games" not in tables:
        return
    for game in await conn.execute_fetchall("SELECT * FROM legacy_games ORDER BY id"):
        await _adopt_game(conn, dict(game))
    for row in await conn.execute_fetchall("SELECT * FROM legacy_inbox ORDER BY id"):
        await conn.execute(
            "INSERT INTO inbox(id, game_id, seat, content, created_at, read_at) VALUES (?, ?, ?, ?, ?, ?)",
            (row["id"], row["game_id"], row["seat"], row["content"], row["created_at"], row["read_at"]),
        )
    for row in await conn.execute_fetchall("SELECT * FROM legacy_outbox WHERE delivered_at IS NULL ORDER BY id"):
        payload = json.loads(row["payload_json"])
        board = payload.pop("board", None)
        if board is not None:
            payload["picture"] = {"kind": KIND, "view": board, "alt": ""}
        await conn.execute(
            "INSERT INTO outbox(game_id, target, channel_id, seat, payload_json, created_at, attempts, next_try_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                row["game_id"],
                row["target"],
                row["channel_id"],
                row["seat"],
                dumps(payload),
                row["created_at"],
                row["attempts"],
                row["next_try_at"],
            ),
        )


async def _adopt_game(conn: Any, old: dict[str, Any]) -> None:
    gid = old["id"]
    players = [
        dict(p)
        for p in await conn.execute_fetchall("SELECT * FROM legacy_players WHERE game_id = ? ORDER BY join_seq", (gid,))
    ]
    seats = [SeatRow(p["seat"], p["join_seq"], p["user_id"], p["user_name"], p["display_name"]) for p in players]
    roster = Roster(seats)
    placements = json.loads(old["placements_json"]) if old["placements_json"] else []
    settings = GAME.info.settings_from(
        {
            "rounds": old["rounds_total"],
            "garnets": old["start_garnets"],
            "balances": {p["seat"]: p["start_garnets"] for p in players},
            "placements": placements,
        }
    )
    options = HostOptions(
        old["deadline_hours"], old["reminder_hours"], bool(old["wait_for_deadline"]), bool(old["reveal"])
    )
    await conn.execute(
        "INSERT INTO games(id, kind, guild_id, channel_id, host_id, status, settings_json, options_json, paused,"
        " created_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            gid,
            KIND,
            old["guild_id"],
            old["channel_id"],
            old["host_id"],
            LOBBY,
            dumps(settings),
            dumps(options.to_json()),
            int(old["paused_remaining"] is not None),
            old["created_at"],
            old["ended_at"],
        ),
    )
    for s in seats:
        await conn.execute(
            "INSERT INTO seats(game_id, seat, join_seq, user_id, user_name, display_name, joined_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (gid, s.seat, s.join_seq, s.user_id, s.user_name, s.display_name, old["created_at"]),
        )
    if old["status"] == "lobby":
        return
    entries, collected = await _entries(conn, old, roster)
    seed = secrets.token_hex(16)
    chance = SeededChance(seed)
    out = GAME.setup(tuple(roster.seats), settings, chance)
    state: Match = out.state
    at = old["created_at"]
    steps: list[tuple[int, Any, float]] = []  # (step, pending, opened_at)
    step = 1
    steps.append((step, GAME.pending(state), at))
    await _events(conn, gid, 0, 0, out.events, at)
    for seq, entry in enumerate(entries, 1):
        pending = GAME.pending(state)
        result = GAME.step(state, entry.actions, RecordedChance(()))
        await conn.execute(
            "INSERT INTO moves(game_id, seq, step, actions_json, chance_json, at) VALUES (?, ?, ?, ?, '[]', ?)",
            (gid, seq, step, dumps([a.to_json() for a in entry.actions]), at),
        )
        await _events(conn, gid, seq, step, result.events, at)
        state = result.state
        after = GAME.pending(state)
        if after is not None and (pending is None or after.to_json() != pending.to_json()):
            step += 1
            steps.append((step, after, at))
    # Balances the host set during the rounds were not logged by version 2: log them now.
    stored = GameState.from_dict(json.loads(old["state_json"])) if old["state_json"] else None
    if stored is not None and state.game is not None and GAME.pending(state) is not None:
        for seat in roster.seats:
            if stored.garnets.get(seat) != state.game.garnets.get(seat):
                action = Action(None, {"host": "garnets", "seat": seat, "amount": stored.garnets[seat]})
                result = GAME.step(state, [action], RecordedChance(()))
                seq = len(entries) + 1
                entries.append(LogEntry((action,)))
                await conn.execute(
                    "INSERT INTO moves(game_id, seq, step, actions_json, chance_json, at) VALUES (?, ?, ?, ?, '[]', ?)",
                    (gid, seq, step, dumps([action.to_json()]), at),
                )
                await _events(conn, gid, seq, step, result.events, at)
                state = result.state
    pending = GAME.pending(state)
    for number, opened, when in steps:
        await conn.execute(
            "INSERT INTO steps(game_id, step, pending_json, opened_at, closed_at) VALUES (?, ?, ?, ?, ?)",
            (gid, number, dumps(opened.to_json()) if opened else "{}", when, None if number == step else when),
        )
    results = GAME.results(state)
    if old["status"] == "ended":
        results = results or {}
        legacy = json.loads(old["results_json"]) if old["results_json"] else {}
        results = {**legacy, **{k: v for k, v in results.items() if k not in legacy}, "ec": old["ec_seat"]}
    await conn.execute(
        "UPDATE games SET status = ?, seed = ?, draws = 0, setup_json = ?, state_json = ?, version = ?, step = ?,"
        " pending_json = ?, step_opened_at = ?, results_json = ?, started_at = ? WHERE id = ?",
        (
            ENDED if old["status"] == "ended" else RUNNING,
            seed,
            dumps({"seats": roster.seats, "settings": settings, "chance": []}),
            dumps(GAME.encode_state(state)),
            len(entries) + 1,
            step,
            None if pending is None or old["status"] == "ended" else dumps(pending.to_json()),
            old["created_at"],
            None if results is None else dumps(results),
            old["created_at"],
            gid,
        ),
    )
    if old["status"] == "ended" or pending is None:
        return
    for seat, move in collected.items():
        await conn.execute(
            "INSERT INTO submissions(game_id, step, seat, move_json, at) VALUES (?, ?, ?, ?, ?)",
            (gid, step, seat, dumps(move), at),
        )
    await _clocks_and_timers(conn, old, step, pending)
    await _panels(conn, old, step)


async def _entries(conn: Any, old: dict[str, Any], roster: Roster) -> tuple[list[LogEntry], dict[str, Any]]:
    """The move log of a version-2 game, and the moves collected for its open decision."""
    gid = old["id"]
    drafts = {
        r["seat"]: draft_move(
            DraftSubmission(
                r["bid"],
                tuple(Role(x) for x in json.loads(r["roles_json"])),
                tuple(Character(x) for x in json.loads(r["characters_json"])),
            )
        )
        for r in await conn.execute_fetchall("SELECT * FROM legacy_draft_submissions WHERE game_id = ?", (gid,))
    }
    draft_actions = tuple(Action(seat, drafts[seat]) for seat in roster.seats if seat in drafts)
    if old["state_json"] is None:  # the draft is still open
        return [], dict(drafts)
    entries = [LogEntry(draft_actions)]
    resolved = [
        r["round"]
        for r in await conn.execute_fetchall(
            "SELECT round FROM legacy_round_log WHERE game_id = ? ORDER BY round", (gid,)
        )
    ]
    rows = await conn.execute_fetchall("SELECT * FROM legacy_submissions WHERE game_id = ?", (gid,))
    by_round: dict[int, dict[str, dict[str, Any]]] = {}
    for r in rows:
        by_round.setdefault(r["round"], {})[r["seat"]] = {
            "kind": "round",
            "actions": None if r["actions_json"] is None else json.loads(r["actions_json"]),
            "buy": json.loads(r["buys_json"]),
            "guess": None if r["guess_json"] is None else json.loads(r["guess_json"]),
        }
    for rnd in resolved:
        moves = by_round.get(rnd, {})
        entries.append(LogEntry(tuple(Action(seat, moves[seat]) for seat in roster.seats if seat in moves)))
    votes = await conn.execute_fetchall("SELECT seat, choice FROM legacy_ec_votes WHERE game_id = ?", (gid,))
    for vote in votes:
        entries.append(LogEntry((Action(vote["seat"], {"kind": "ec", "player": vote["choice"]}),)))
    collected = by_round.get(old["round"], {}) if old["status"] == "round" else {}
    return entries, collected


async def _events(conn: Any, gid: int, seq: int, step: int, events: Any, at: float) -> None:
    for event in events:
        cursor = await conn.execute(
            "INSERT INTO events(game_id, seq, step, kind, public, data_json, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (gid, seq, step, event.kind, int(event.is_public), dumps(dict(event.data)), at),
        )
        if not event.is_public:
            for seat in dict.fromkeys(event.audience):
                await conn.execute(
                    "INSERT INTO event_seats(event_id, game_id, seat) VALUES (?, ?, ?)", (cursor.lastrowid, gid, seat)
                )


async def _clocks_and_timers(conn: Any, old: dict[str, Any], step: int, pending: Any) -> None:
    gid = old["id"]
    clock = pending.clock
    if clock is None:
        return
    deadline, remaining = old["deadline_at"], old["paused_remaining"]
    await conn.execute(
        "INSERT INTO clocks(game_id, clock, position, deadline_at, remaining) VALUES (?, ?, 0, ?, ?)",
        (gid, clock.id, None if remaining is not None else deadline, remaining),
    )
    for timer in await conn.execute_fetchall(
        "SELECT * FROM legacy_timers WHERE game_id = ? AND phase_seq = ?", (gid, old["phase_seq"])
    ):
        kind = timer["kind"]
        if kind == "deadline" and deadline is not None and timer["due_at"] < deadline - 1:
            kind = "resolve"  # version 2's "everyone is in" was a deadline timer due at once
        await conn.execute(
            "INSERT INTO timers(game_id, kind, step, clock, due_at, attempts) VALUES (?, ?, ?, ?, ?, ?)",
            (gid, kind, step, clock.id, timer["due_at"], timer["attempts"]),
        )


async def _panels(conn: Any, old: dict[str, Any], step: int) -> None:
    for panel in await conn.execute_fetchall(
        "SELECT * FROM legacy_panels WHERE game_id = ? AND phase_seq = ?", (old["id"], old["phase_seq"])
    ):
        data = {"kind": panel["kind"], "page": panel["page"], "picks": json.loads(panel["picks_json"])}
        await conn.execute(
            "INSERT INTO panels(nonce, game_id, user_id, step, data_json, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            (panel["nonce"], old["id"], panel["user_id"], step, dumps(data), panel["created_at"]),
        )
