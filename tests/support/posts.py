"""Posts queued straight into a game's outbox, as a step queues them: for the tests of delivery itself."""

from __future__ import annotations

import asyncio

from bot.host import Post
from bot.storage.models import GameRow
from tests.support.table import Table


async def open_game(t: Table) -> int:
    """A Crime City lobby in the table's channel, its living post sent: the game's id."""
    await t.cmd(t.host, "new", deadline_hours=24.0)
    # The command records its reply as the living lobby post after answering, then queues the post's edit:
    # idle only once that is done, so what a test counts afterwards is its own.
    for _ in range(500):
        found = await t.bot.db.fetchone("SELECT id, lobby_message_id FROM games WHERE channel_id = ?", (t.chan.id,))
        if found is not None and found["lobby_message_id"] is not None:
            break
        await asyncio.sleep(0.01)
    else:
        raise AssertionError("the lobby post was never recorded")
    await t.idle()
    return int(found["id"])


async def queue_posts(t: Table, game_id: int, *posts: Post) -> None:
    """The presentation's posts queued by the host, in a transaction under the game's lock; the sender kicked."""
    async with t.bot.host.locks(game_id), t.bot.db.transaction() as conn:
        row = await t.bot.db.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        await t.bot.host.stepper.queue(conn, GameRow.from_row(row), posts, 1.0)
    t.bot.delivery.kick()
