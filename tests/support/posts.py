"""Posts queued straight into a game's outbox, as a step queues them: for the tests of delivery itself."""

from __future__ import annotations

from bot.host import Post
from bot.storage.models import GameRow
from tests.support.table import Table


async def open_game(t: Table) -> int:
    """A Crime City lobby in the table's channel, its living post sent: the game's id."""
    await t.cmd(t.host, "new", deadline_hours=24.0)
    await t.idle()  # the living lobby post is edited once it is known
    found = await t.bot.db.fetchone("SELECT id FROM games WHERE channel_id = ?", (t.chan.id,))
    return int(found["id"])


async def queue_posts(t: Table, game_id: int, *posts: Post) -> None:
    """The presentation's posts queued by the host, in a transaction under the game's lock; the sender kicked."""
    async with t.bot.host.locks(game_id), t.bot.db.transaction() as conn:
        row = await t.bot.db.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        await t.bot.host.stepper.queue(conn, GameRow.from_row(row), posts, 1.0)
    t.bot.delivery.kick()
