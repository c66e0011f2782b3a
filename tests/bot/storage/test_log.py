"""bot/storage/log.py: a step's log entry and events are written without asking the database anything first
(their numbers and the private events' recipients are worked out by the INSERTs), on both backends."""

from __future__ import annotations

from bot.storage import Storage, database_for
from bot.storage import games as games_repo
from bot.storage import log as log_repo
from bot.storage.models import HostOptions
from rules.contract import Action, Event, LogEntry


async def _game(db: Storage, channel_id: int) -> int:
    async with db.transaction() as conn:
        return await games_repo.create_game(
            conn, kind="crimecity", guild_id=1, channel_id=channel_id, host_id=3, settings={}, options=HostOptions(),
            now=0.0,
        )


async def test_entries_are_numbered_in_order_and_events_reach_their_own_audience(db_setting: str) -> None:
    db = database_for(db_setting)
    await db.open()
    try:
        game, other = await _game(db, 2), await _game(db, 3)
        entry = LogEntry((Action("p1", {"act": "x"}),), ())
        async with db.transaction() as conn:
            await log_repo.add_events(conn, game, 0, 0, [Event.public("setup")], 0.0)
            for step, g in ((1, game), (1, other), (2, game)):
                await log_repo.add_move(conn, g, step, entry, None, 1.0)
                await log_repo.add_events(conn, g, None, step, [
                    Event.to(("p1", "p2"), f"both{step}"),
                    Event.public(f"all{step}"),
                    Event.to("p2", f"p2-{step}"),
                ], 1.0)
        async with db.read() as conn:
            assert [e.seq for e in await log_repo.events_for(conn, game, None)] == [0, 1, 2]
            mine = {s: [(e.kind, e.seq) for e in await log_repo.events_for(conn, game, s, private_only=True)]
                    for s in ("p1", "p2", "p3")}
            theirs = [(e.kind, e.seq) for e in await log_repo.events_for(conn, other, "p2", private_only=True)]
            moves = await log_repo.moves(conn, game)
        assert mine == {
            "p1": [("both1", 1), ("both2", 2)],
            "p2": [("both1", 1), ("p2-1", 1), ("both2", 2), ("p2-2", 2)],
            "p3": [],
        }
        assert theirs == [("both1", 1), ("p2-1", 1)], "the other game's entries are numbered on their own"
        assert len(moves) == 2
    finally:
        await db.close()
