"""Rows as typed values, so the game flow never indexes raw sqlite rows."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import aiosqlite

LOBBY = "lobby"
DRAFT = "draft"
ROUND = "round"
EC = "ec"
ENDED = "ended"
ACTIVE_STATUSES = (LOBBY, DRAFT, ROUND, EC)


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    phase_seq: int
    round: int
    rounds_total: int
    deadline_hours: float
    start_garnets: int
    wait_for_deadline: bool
    deadline_at: float | None
    paused_remaining: float | None
    placements: list[str] | None
    state: dict[str, Any] | None
    draft: dict[str, Any] | None
    results: dict[str, Any] | None
    ec_seat: str | None
    reveal: bool
    created_at: float
    ended_at: float | None
    reminder_hours: float = 1.0

    @property
    def paused(self) -> bool:
        return self.paused_remaining is not None

    @property
    def accepts_submissions(self) -> bool:
        return self.status in (DRAFT, ROUND)

    @staticmethod
    def from_row(row: aiosqlite.Row, extra: int = 0) -> GameRow:
        """Parsed once per stored version: an unchanged row gives back the same GameRow (so its JSON
        values are shared — never mutate them). Saves re-parsing the state on every command and keystroke.

        `extra`: the row is `SELECT games.*, <extra more columns>`; only the games columns are compared."""
        raw = tuple(row)
        if extra:
            raw = raw[:-extra]
        key = row["id"]
        cached = _GAME_ROWS.get(key)
        if cached is not None and cached[0] == raw:
            return cached[1]
        game = GameRow._parse(row)
        if len(_GAME_ROWS) >= _GAME_ROWS_MAX:
            del _GAME_ROWS[next(iter(_GAME_ROWS))]  # the oldest entry
        _GAME_ROWS[key] = (raw, game)
        return game

    @staticmethod
    def _parse(row: aiosqlite.Row) -> GameRow:
        return GameRow(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            host_id=row["host_id"],
            status=row["status"],
            phase_seq=row["phase_seq"],
            round=row["round"],
            rounds_total=row["rounds_total"],
            deadline_hours=row["deadline_hours"],
            start_garnets=row["start_garnets"],
            wait_for_deadline=bool(row["wait_for_deadline"]),
            deadline_at=row["deadline_at"],
            paused_remaining=row["paused_remaining"],
            placements=_loads(row["placements_json"]),
            state=_loads(row["state_json"]),
            draft=_loads(row["draft_json"]),
            results=_loads(row["results_json"]),
            ec_seat=row["ec_seat"],
            reveal=bool(row["reveal"]),
            created_at=row["created_at"],
            ended_at=row["ended_at"],
            reminder_hours=row["reminder_hours"],
        )


# game id -> (the row's raw values, its GameRow); bounded, oldest first out.
_GAME_ROWS: dict[int, tuple[tuple[Any, ...], GameRow]] = {}
_GAME_ROWS_MAX = 4096


@dataclass(frozen=True, slots=True)
class PlayerRow:
    game_id: int
    seat: str
    join_seq: int
    user_id: int
    user_name: str
    display_name: str
    start_garnets: int

    @staticmethod
    def from_row(row: aiosqlite.Row) -> PlayerRow:
        return PlayerRow(
            game_id=row["game_id"],
            seat=row["seat"],
            join_seq=row["join_seq"],
            user_id=row["user_id"],
            user_name=row["user_name"],
            display_name=row["display_name"],
            start_garnets=row["start_garnets"],
        )


@dataclass(frozen=True, slots=True)
class DraftRow:
    seat: str
    bid: int
    roles: list[str]
    characters: list[str]

    @staticmethod
    def from_row(row: aiosqlite.Row) -> DraftRow:
        return DraftRow(row["seat"], row["bid"], json.loads(row["roles_json"]), json.loads(row["characters_json"]))


@dataclass(frozen=True, slots=True)
class SubmissionRow:
    round: int
    seat: str
    actions: list[dict[str, Any]] | None
    buys: list[list[str]]
    guess: dict[str, str] | None

    @property
    def submitted(self) -> bool:
        return self.actions is not None

    @staticmethod
    def from_row(row: aiosqlite.Row) -> SubmissionRow:
        return SubmissionRow(
            row["round"],
            row["seat"],
            _loads(row["actions_json"]),
            json.loads(row["buys_json"]),
            _loads(row["guess_json"]),
        )


@dataclass(frozen=True, slots=True)
class TimerRow:
    id: int
    game_id: int
    kind: str
    phase_seq: int
    due_at: float
    attempts: int

    @staticmethod
    def from_row(row: aiosqlite.Row) -> TimerRow:
        return TimerRow(row["id"], row["game_id"], row["kind"], row["phase_seq"], row["due_at"], row["attempts"])


@dataclass(frozen=True, slots=True)
class OutboxRow:
    id: int
    game_id: int
    target: str
    channel_id: int | None
    seat: str | None
    payload: dict[str, Any]
    attempts: int

    @staticmethod
    def from_row(row: aiosqlite.Row) -> OutboxRow:
        return OutboxRow(
            row["id"],
            row["game_id"],
            row["target"],
            row["channel_id"],
            row["seat"],
            json.loads(row["payload_json"]),
            row["attempts"],
        )


@dataclass(frozen=True, slots=True)
class PanelRow:
    nonce: str
    game_id: int
    user_id: int
    phase_seq: int
    kind: str | None
    page: int
    picks: list[str]

    @staticmethod
    def from_row(row: aiosqlite.Row) -> PanelRow:
        return PanelRow(
            row["nonce"],
            row["game_id"],
            row["user_id"],
            row["phase_seq"],
            row["kind"],
            row["page"],
            json.loads(row["picks_json"]),
        )
