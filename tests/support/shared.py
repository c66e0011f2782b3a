"""Several bot "processes" on one PostgreSQL database, as host objects: each has its own connections,
locks, caches and timer dispatcher, exactly what a second `python -m bot` would have (no Discord)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.games import presentations
from bot.games.crimecity import moves
from bot.host import Caller, Host, HostOptions, Member
from bot.storage import PgDatabase
from tests.support.crimecity import CAST
from tests.support.table import NAMES

GUILD, CHANNEL = 1000, 2000
USERS = {name: 100 + i for i, name in enumerate(NAMES)}
HOST_USER = 99


def caller(name: str, channel: int = CHANNEL) -> Caller:
    user = HOST_USER if name == "host" else USERS[name]
    return Caller(user, name, name.title(), guild_id=GUILD, channel_id=channel, manage_guild=name == "host")


@dataclass
class Process:
    db: PgDatabase
    host: Host


async def processes(url: str, n: int) -> list[Process]:
    out = []
    for _ in range(n):
        db = PgDatabase(url)
        await db.open()
        out.append(Process(db, Host(db, presentations())))
    return out


async def close(procs: list[Process]) -> None:
    for p in procs:
        await p.db.close()


async def drafted_game(procs: list[Any], *, wait_for_deadline: bool = False, channel: int = CHANNEL) -> int:
    """A Crime City game with its draft resolved (the worked example's cast): round 1 is open."""
    first = procs[0].host
    members = [Member(USERS[n], n, n.title()) for n in NAMES]
    options = HostOptions(wait_for_deadline=True)
    advance, _ = await first.lobby.open_started(caller("host", channel), "crimecity", {"garnets": 20}, options, members)
    game_id = advance.game.id
    for name in NAMES:  # all through the first process: the others have seen nothing of the game yet
        role, char = CAST[name]
        await moves.submit_draft(first, caller(name, channel), bid=0, roles=role, characters=char)
    assert await first.due.resolve_now(game_id)
    if not wait_for_deadline:
        async with first.locks(game_id):
            async with first.db.transaction() as conn:
                game = await conn.execute_fetchall("SELECT options_json FROM games WHERE id = ?", (game_id,))
                import json

                opts = json.loads(game[0]["options_json"]) | {"wait_for_deadline": False}
                await conn.execute("UPDATE games SET options_json = ? WHERE id = ?", (json.dumps(opts), game_id))
    return game_id


async def collected(proc: Process, game_id: int) -> dict[str, Any]:
    import json

    rows = await proc.db.fetchall(
        "SELECT seat, move_json FROM submissions WHERE game_id = ? AND step = (SELECT step FROM games WHERE id = ?)",
        (game_id, game_id),
    )
    return {r["seat"]: json.loads(r["move_json"]) for r in rows}
