"""Crime City's game flow without Discord, on a real SQLite file: the host's services and the
presentation's move builders behind a few plain methods (for service-level tests and benches)."""

from __future__ import annotations

import json
from typing import Any

from bot.games import presentations
from bot.games.crimecity import moves
from bot.host import Caller, Host, HostOptions, Member
from bot.storage.db import Database
from bot.storage.models import TimerRow

KIND = "crimecity"


class Service:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.host = Host(db, presentations())
        self.clock = self.host.clock

    async def new_game(
        self,
        caller: Caller,
        *,
        rounds: int = 6,
        deadline_hours: float = 24,
        garnets: int = 0,
        wait_for_deadline: bool = False,
        reminder_hours: float = 1.0,
    ) -> Any:
        options = HostOptions(deadline_hours, reminder_hours, wait_for_deadline)
        return await self.host.lobby.open(caller, KIND, {"rounds": rounds, "garnets": garnets}, options)

    async def join(self, caller: Caller) -> Any:
        return await self.host.lobby.join(caller, KIND)

    async def start(self, caller: Caller, game_opt: str | None = None) -> Any:
        return await self.host.lobby.start(caller, KIND, game_opt)

    async def submit_draft(
        self, caller: Caller, *, bid: int, roles: str | None, characters: str | None, game_opt: str | None = None
    ) -> Any:
        return await moves.submit_draft(
            self.host, caller, bid=bid, roles=roles, characters=characters, game_opt=game_opt
        )

    async def submit_actions(self, caller: Caller, first: str, second: str | None, game_opt: str | None = None) -> Any:
        return await moves.submit_actions(self.host, caller, first, second, game_opt)

    async def submit_guess(self, caller: Caller, text: str, game_opt: str | None = None) -> Any:
        return await moves.submit_guess(self.host, caller, text, game_opt)

    async def buy_friendship(self, caller: Caller, a: str, b: str, points: int, game_opt: str | None = None) -> Any:
        return await moves.buy_friendship(self.host, caller, a, b, points, game_opt)

    async def resolve(self, game_id: int, step: int | None = None) -> bool:
        return await self.host.due.resolve_now(game_id, step)

    async def on_timer(self, game_id: int, kind: str, step: int, clock: str | None = None) -> None:
        await self.host.due(TimerRow(0, game_id, kind, step, clock, self.clock(), 0))

    async def admin_resolve(self, caller: Caller, game_opt: str | None = None) -> Any:
        return await self.host.hosting.resolve(caller, KIND, game_opt)

    async def admin_pause(self, caller: Caller, pause: bool, game_opt: str | None = None) -> Any:
        return await self.host.hosting.pause(caller, KIND, pause, game_opt)

    async def admin_deadline(self, caller: Caller, hours: float, game_opt: str | None = None) -> Any:
        return await self.host.hosting.deadline(caller, KIND, hours * 3600, game_opt)

    async def admin_end(self, caller: Caller, reveal: bool = True, game_opt: str | None = None) -> Any:
        return await self.host.hosting.end(caller, KIND, reveal=reveal, game_opt=game_opt)

    async def admin_replace(self, caller: Caller, old: Member, new: Member, game_opt: str | None = None) -> Any:
        brief = presentations()[KIND].brief  # type: ignore[attr-defined]
        return await self.host.hosting.replace(caller, KIND, old, new, brief, game_opt)

    async def turn(self, caller: Caller, game_opt: str | None = None) -> Any:
        return await self.host.play.turn(caller, KIND, game_opt)

    async def game(self, game_id: int) -> Any:
        row = await self.db.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        from bot.storage.models import GameRow

        return None if row is None else GameRow.from_row(row)

    async def outbox(self) -> list[dict[str, Any]]:
        rows = await self.db.fetchall("SELECT * FROM outbox ORDER BY id")
        return [dict(r) | {"payload": json.loads(r["payload_json"])} for r in rows]

    # ---- what people read, and the host's game-specific moves (as the cog calls them) ------------------

    async def leave(self, caller: Caller) -> Any:
        return await self.host.lobby.leave(caller, KIND)

    async def status(self, caller: Caller, game_opt: str | None = None) -> str:
        from bot.games.crimecity import reports

        return await reports.status_text(self.host, caller, game_opt)

    async def board(self, caller: Caller, game_opt: str | None = None) -> Any:
        from bot.games.crimecity import reports

        text, view = await reports.board_text(self.host, caller, game_opt)
        return BoardText(text, view)

    async def choose_ec(self, caller: Caller, target: Member, game_opt: str | None = None) -> str:
        from bot.games.crimecity import reports

        return await reports.choose_ec(self.host, caller, target, game_opt)

    async def admin_garnets(self, caller: Caller, player: Member, amount: int, game_opt: str | None = None) -> str:
        from bot.games.crimecity import reports

        return await reports.set_garnets(self.host, caller, player, amount, game_opt)

    async def admin_placements(self, caller: Caller, order: str, game_opt: str | None = None) -> str:
        from bot.games.crimecity import reports

        return await reports.set_placements(self.host, caller, order, game_opt)

    async def admin_export(self, caller: Caller, game_opt: str | None = None) -> tuple[str, bytes]:
        return await self.host.hosting.export(caller, KIND, game_opt)


class BoardText:
    def __init__(self, text: str, view: dict[str, Any] | None) -> None:
        self.text = text
        self.view = view


# ---- a game in round 1, and callers, for races and refusals ------------------------------------------

GUILD, CHANNEL = 10, 20
NAMES = ["andy", "grunkle", "cara", "dev", "eve"]
HOST = 1
PLAYERS = {n: 100 + i for i, n in enumerate(NAMES)}


def caller(uid: int, name: str, *, admin: bool = False) -> Caller:
    import time

    return Caller(uid, name, name, guild_id=GUILD, channel_id=CHANNEL, manage_guild=admin, issued_at=time.time())


def now(who: str | int) -> Caller:
    """A command issued now by `who` (a player name, HOST, or another admin id)."""
    if isinstance(who, str):
        return caller(PLAYERS[who], who)
    return caller(who, f"admin{who}", admin=True)


async def round_one(tmp_path: Any) -> tuple[Service, int]:
    """A game whose draft resolved (everyone drafted the book's order): round 1 is open, waiting for its
    deadline even when everyone is in."""
    db = Database(tmp_path / "races.db")
    await db.open()
    svc = Service(db)
    game = await svc.new_game(now(HOST), rounds=6, deadline_hours=24, garnets=0, wait_for_deadline=True)
    for n in NAMES:
        await svc.join(now(n))
    await svc.start(now(HOST))
    for n in NAMES:
        await svc.submit_draft(now(n), bid=0, roles=None, characters=None)
    assert await svc.resolve(game.id)
    return svc, game.id


TABLES = ("games", "seats", "moves", "steps", "submissions", "events", "event_seats", "clocks", "timers", "outbox",
          "inbox", "panels")  # fmt: skip


async def snapshot(db: Any) -> list[Any]:
    """Every row of every table of a game's record: a refused command must leave it as it was."""
    out = []
    async with db.read() as conn:
        for table in TABLES:
            rows = await (await conn.execute(f"SELECT * FROM {table}")).fetchall()
            out.append(sorted(repr(tuple(r)) for r in rows))  # in any order: both backends' rows compare
    return out
