"""Seasons: a server's show of matches, whatever the game (its presentation names what carries over).

A season has a roster, a ledger (a member's balance is the sum of their rows: nothing else holds a
balance), marks (counts of what matches or the host recorded for a member, e.g. a token won or used)
and its matches. A game opened in a season writes its match when it ends, in the same transaction as
its last step (`record_game`), exactly once (`season_matches.game_id` is unique): a crash or a replayed
timer cannot count a game twice.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..storage import Storage
from ..storage.errors import Conflict
from ..storage.models import GameRow
from ..storage.sql import insert, row, rows, run
from .context import Caller, Member
from .errors import NotAllowed, UserError
from .finder import Finder
from .roster import Roster

log = logging.getLogger(__name__)

OPEN, ENDED = "open", "ended"
MAX_AMOUNT = 10**9


@dataclass(frozen=True, slots=True)
class Season:
    id: int
    guild_id: int
    kind: str
    name: str
    status: str
    created_at: float
    ended_at: float | None

    @staticmethod
    def from_row(r: Any) -> Season:
        return Season(r["id"], r["guild_id"], r["kind"], r["name"], r["status"], r["created_at"], r["ended_at"])


@dataclass(frozen=True, slots=True)
class Standing:
    user_id: int
    user_name: str
    display_name: str
    balance: int
    marks: dict[str, int]
    matches: int
    on_roster: bool


@dataclass(frozen=True, slots=True)
class Match:
    id: int
    game_id: int | None
    placements: list[int]  # user ids, best first
    summary: dict[str, Any]
    played_at: float


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a finished game brings to its season, by seat (from the game's presentation)."""

    placements: Sequence[str]  # seats, best first
    changes: Sequence[tuple[str, int, str]] = ()  # (seat, garnets, why): the game's changes to balances
    marks: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    summary: Mapping[str, Any] = field(default_factory=dict)


class Seasons:
    def __init__(self, db: Storage, finder: Finder, *, clock: Callable[[], float]) -> None:
        self.db = db
        self.finder = finder
        self.clock = clock

    # ---- finding --------------------------------------------------------------------------------------

    async def current(self, guild_id: int, kind: str) -> Season | None:
        async with self.db.reader() as conn:
            found = await row(
                conn, "SELECT * FROM seasons WHERE guild_id = ? AND kind = ? AND status = ?", (guild_id, kind, OPEN)
            )
        return None if found is None else Season.from_row(found)

    async def get(self, season_id: int) -> Season | None:
        async with self.db.reader() as conn:
            found = await row(conn, "SELECT * FROM seasons WHERE id = ?", (season_id,))
        return None if found is None else Season.from_row(found)

    async def of_guild(self, guild_id: int, kind: str) -> list[Season]:
        async with self.db.reader() as conn:
            found = await rows(
                conn, "SELECT * FROM seasons WHERE guild_id = ? AND kind = ? ORDER BY id DESC", (guild_id, kind)
            )
        return [Season.from_row(r) for r in found]

    async def pick(self, caller: Caller, kind: str, season_opt: str | None = None) -> Season:
        """The season a command is for: the one named (its id), else the server's open one."""
        if not caller.in_guild:
            raise UserError("Use the season commands in the server the season belongs to.")
        if season_opt:
            wanted = season_opt.strip().lstrip("#")
            for season in await self.of_guild(caller.guild_id or 0, kind):
                if str(season.id) == wanted or season.name.casefold() == wanted.casefold():
                    return season
            raise UserError("No such season in this server; pick one from the list.")
        found = await self.current(caller.guild_id or 0, kind)
        if found is None:
            raise UserError("This server has no open season. A host opens one with the season's `new` command.")
        return found

    def _require_host(self, caller: Caller) -> None:
        if not self.finder.may_open(caller):
            raise NotAllowed("Seasons are run by members with Manage Server (or the host role).")

    # ---- the season and its roster --------------------------------------------------------------------------

    async def open(self, caller: Caller, kind: str, name: str) -> Season:
        self._require_host(caller)
        name = " ".join(name.split())[:80]
        if not name:
            raise UserError("A season needs a name.")
        try:
            async with self.db.transaction() as conn:
                season_id = await insert(
                    conn,
                    "INSERT INTO seasons(guild_id, kind, name, status, created_by, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (caller.guild_id or 0, kind, name, OPEN, caller.user_id, self.clock()),
                )
        except Conflict:
            raise UserError("This server already has an open season: end it first.") from None
        season = await self.get(season_id)
        assert season is not None
        return season

    async def end(self, caller: Caller, kind: str) -> Season:
        self._require_host(caller)
        season = await self.pick(caller, kind)
        async with self.db.transaction() as conn:
            await run(
                conn, "UPDATE seasons SET status = ?, ended_at = ? WHERE id = ?", (ENDED, self.clock(), season.id)
            )
        return season

    async def enrol(self, caller: Caller, kind: str, member: Member | None = None) -> Season:
        """Put `member` (or the caller) on the open season's roster; a host adds others."""
        if member is not None and member.user_id != caller.user_id:
            self._require_host(caller)
        who = member or Member(caller.user_id, caller.user_name, caller.display_name)
        season = await self.pick(caller, kind)
        async with self.db.transaction() as conn:
            found = await row(
                conn, "SELECT left_at FROM season_members WHERE season_id = ? AND user_id = ?", (season.id, who.user_id)
            )
            if found is not None and found["left_at"] is None:
                raise UserError(f"{who.display_name} is already on the season's roster.")
            await run(
                conn,
                "INSERT INTO season_members(season_id, user_id, user_name, display_name, joined_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT(season_id, user_id) DO UPDATE SET left_at = NULL,"
                " user_name = excluded.user_name, display_name = excluded.display_name",
                (season.id, who.user_id, who.user_name, who.display_name, self.clock()),
            )
        return season

    async def remove(self, caller: Caller, kind: str, member: Member) -> Season:
        self._require_host(caller)
        season = await self.pick(caller, kind)
        async with self.db.transaction() as conn:
            changed = await run(
                conn,
                "UPDATE season_members SET left_at = ? WHERE season_id = ? AND user_id = ? AND left_at IS NULL",
                (self.clock(), season.id, member.user_id),
            )
        if not changed:
            raise UserError(f"{member.display_name} is not on the season's roster.")
        return season

    async def is_member(self, season_id: int, user_id: int) -> bool:
        async with self.db.reader() as conn:
            found = await row(
                conn,
                "SELECT 1 AS x FROM season_members WHERE season_id = ? AND user_id = ? AND left_at IS NULL",
                (season_id, user_id),
            )
        return found is not None

    # ---- balances, marks, matches --------------------------------------------------------------------------

    async def adjust(self, caller: Caller, kind: str, member: Member, amount: int, reason: str) -> int:
        """A host's adjustment of a balance (a ledger row with its reason); returns the new balance."""
        self._require_host(caller)
        if not -MAX_AMOUNT <= amount <= MAX_AMOUNT:
            raise UserError("That amount is out of range.")
        reason = " ".join(reason.split())[:200] or "adjusted by the host"
        season = await self.pick(caller, kind)
        async with self.db.transaction() as conn:
            await self._require_member(conn, season, member)
            await self._ledger(conn, season.id, member.user_id, amount, reason, None, caller.user_id)
            return await self._balance(conn, season.id, member.user_id)

    async def mark(self, caller: Caller, kind: str, member: Member, mark: str, count: int, reason: str) -> int:
        """A host's record of a mark for a member (e.g. an elimination, a token used); the new count."""
        self._require_host(caller)
        season = await self.pick(caller, kind)
        async with self.db.transaction() as conn:
            await self._require_member(conn, season, member)
            await self._mark(conn, season.id, member.user_id, mark, count, reason, None, caller.user_id)
            found = await row(
                conn,
                "SELECT COALESCE(SUM(count), 0) AS n FROM season_marks"
                " WHERE season_id = ? AND user_id = ? AND mark = ?",
                (season.id, member.user_id, mark),
            )
            return int(found["n"]) if found else 0

    async def record_off_bot(
        self,
        caller: Caller,
        kind: str,
        placements: list[Member],
        deltas: Mapping[int, int],
        marks: Mapping[int, Mapping[str, int]],
        summary: Mapping[str, Any],
    ) -> Match:
        """A match played off the bot: its placements, balance changes and marks, as the host gives them."""
        self._require_host(caller)
        season = await self.pick(caller, kind)
        now = self.clock()
        async with self.db.transaction() as conn:
            for member in placements:
                await self._require_member(conn, season, member)
            match_id = await insert(
                conn,
                "INSERT INTO season_matches(season_id, game_id, placements, summary, recorded_by, played_at)"
                " VALUES (?, NULL, ?, ?, ?, ?)",
                (
                    season.id,
                    json.dumps([m.user_id for m in placements]),
                    json.dumps(dict(summary)),
                    caller.user_id,
                    now,
                ),
            )
            for user_id, amount in deltas.items():
                if amount:
                    await self._ledger(conn, season.id, user_id, amount, "a match played off the bot", match_id, None)
            for user_id, counts in marks.items():
                for mark, count in counts.items():
                    if count:
                        await self._mark(
                            conn, season.id, user_id, mark, count, "a match played off the bot", match_id, None
                        )
        return Match(match_id, None, [m.user_id for m in placements], dict(summary), now)

    async def record_game(self, conn: Any, game: GameRow, roster: Roster, outcome: Outcome) -> bool:
        """Inside the game's last transaction: its match, ledger rows and marks, once. False if it was
        recorded already (a second firing of the same end)."""
        if game.season_id is None:
            return False
        exists = await row(conn, "SELECT id FROM season_matches WHERE game_id = ?", (game.id,))
        if exists is not None:
            return False
        # Every member of a seat (a shared seat's two) shares its placement, changes and marks.
        members = {seat: roster.members_of(seat) for seat in roster.seats}
        placements = [user for s in outcome.placements for user in members.get(s, ())]
        now = self.clock()
        match_id = await insert(
            conn,
            "INSERT INTO season_matches(season_id, game_id, placements, summary, played_at) VALUES (?, ?, ?, ?, ?)",
            (game.season_id, game.id, json.dumps(placements), json.dumps(dict(outcome.summary)), now),
        )
        reason = f"game #{game.id}"
        for seat, amount, why in outcome.changes:
            for user in members.get(seat, ()) if amount else ():
                await self._ledger(conn, game.season_id, user, amount, f"{reason}: {why}", match_id, None)
        for seat, counts in outcome.marks.items():
            for user in members.get(seat, ()):
                for mark, count in counts.items():
                    if count:
                        await self._mark(conn, game.season_id, user, mark, count, reason, match_id, None)
        log.info("game %s: recorded in season %s", game.id, game.season_id)
        return True

    # ---- reading -----------------------------------------------------------------------------------------

    async def balances(self, season_id: int) -> dict[int, int]:
        async with self.db.reader() as conn:
            found = await rows(
                conn,
                "SELECT user_id, SUM(amount) AS total FROM season_ledger WHERE season_id = ? GROUP BY user_id",
                (season_id,),
            )
        return {r["user_id"]: int(r["total"]) for r in found}

    async def last_placements(self, season_id: int) -> list[int]:
        """The previous match's final placement (user ids, best first), or [] before the first."""
        async with self.db.reader() as conn:
            found = await row(
                conn,
                "SELECT placements FROM season_matches WHERE season_id = ? ORDER BY played_at DESC, id DESC LIMIT 1",
                (season_id,),
            )
        return [] if found is None else list(json.loads(found["placements"]))

    async def standings(self, season_id: int) -> list[Standing]:
        async with self.db.read() as conn:
            members = await rows(conn, "SELECT * FROM season_members WHERE season_id = ?", (season_id,))
            totals = {
                r["user_id"]: int(r["total"])
                for r in await rows(
                    conn,
                    "SELECT user_id, SUM(amount) AS total FROM season_ledger WHERE season_id = ? GROUP BY user_id",
                    (season_id,),
                )
            }
            marks: dict[int, dict[str, int]] = {}
            for r in await rows(
                conn,
                "SELECT user_id, mark, SUM(count) AS n FROM season_marks WHERE season_id = ? GROUP BY user_id, mark",
                (season_id,),
            ):
                marks.setdefault(r["user_id"], {})[r["mark"]] = int(r["n"])
            played: dict[int, int] = {}
            for r in await rows(conn, "SELECT placements FROM season_matches WHERE season_id = ?", (season_id,)):
                for user in json.loads(r["placements"]):
                    played[user] = played.get(user, 0) + 1
        out = [
            Standing(
                m["user_id"],
                m["user_name"],
                m["display_name"],
                totals.get(m["user_id"], 0),
                marks.get(m["user_id"], {}),
                played.get(m["user_id"], 0),
                m["left_at"] is None,
            )
            for m in members
        ]
        out.sort(key=lambda s: (-s.balance, s.display_name.casefold(), s.user_id))
        return out

    async def matches(self, season_id: int) -> list[Match]:
        async with self.db.reader() as conn:
            found = await rows(
                conn, "SELECT * FROM season_matches WHERE season_id = ? ORDER BY played_at, id", (season_id,)
            )
        return [
            Match(r["id"], r["game_id"], json.loads(r["placements"]), json.loads(r["summary"]), r["played_at"])
            for r in found
        ]

    async def ledger(self, season_id: int) -> list[dict[str, Any]]:
        async with self.db.reader() as conn:
            found = await rows(
                conn,
                "SELECT l.id, l.user_id, m.display_name, l.amount, l.reason, l.match_id, l.by_user, l.created_at"
                " FROM season_ledger l LEFT JOIN season_members m"
                " ON m.season_id = l.season_id AND m.user_id = l.user_id"
                " WHERE l.season_id = ? ORDER BY l.id",
                (season_id,),
            )
        return [dict(r) for r in found]

    # ---- rows ----------------------------------------------------------------------------------------------

    async def _require_member(self, conn: Any, season: Season, member: Member) -> None:
        found = await row(
            conn,
            "SELECT 1 AS x FROM season_members WHERE season_id = ? AND user_id = ? AND left_at IS NULL",
            (season.id, member.user_id),
        )
        if found is None:
            raise UserError(f"{member.display_name} is not on the season's roster.")

    async def _balance(self, conn: Any, season_id: int, user_id: int) -> int:
        found = await row(
            conn,
            "SELECT COALESCE(SUM(amount), 0) AS total FROM season_ledger WHERE season_id = ? AND user_id = ?",
            (season_id, user_id),
        )
        return int(found["total"]) if found else 0

    async def _ledger(
        self,
        conn: Any,
        season_id: int,
        user_id: int,
        amount: int,
        reason: str,
        match_id: int | None,
        by_user: int | None,
    ) -> None:
        await run(
            conn,
            "INSERT INTO season_ledger(season_id, user_id, amount, reason, match_id, by_user, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (season_id, user_id, amount, reason, match_id, by_user, self.clock()),
        )

    async def _mark(
        self,
        conn: Any,
        season_id: int,
        user_id: int,
        mark: str,
        count: int,
        reason: str,
        match_id: int | None,
        by_user: int | None,
    ) -> None:
        await run(
            conn,
            "INSERT INTO season_marks(season_id, user_id, mark, count, reason, match_id, by_user, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (season_id, user_id, mark, count, reason, match_id, by_user, self.clock()),
        )
