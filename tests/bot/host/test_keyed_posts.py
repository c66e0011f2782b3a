"""Keyed posts (`Post.edit_key`): one message that later posts with the key edit, exactly once across crashes."""

from __future__ import annotations

from typing import Any

import pytest

from bot.host import Post
from bot.storage import outbox as outbox_repo
from bot.storage.models import GameRow
from tests.support.posts import open_game, queue_posts
from tests.support.table import Table

_game = open_game


async def _queue(t: Table, game_id: int, *posts: Post) -> None:
    """As a step does, then until everything is sent."""
    await queue_posts(t, game_id, *posts)
    await t.idle()


def _requests(t: Table, method: str) -> list[Any]:
    return [r for r in t.fd.requests if r.method == method and r.path.startswith(f"/channels/{t.chan.id}/messages")]


async def _posted(t: Table, game_id: int, key: str) -> tuple[int, str] | None:
    async with t.bot.db.reader() as conn:
        return await outbox_repo.posted(conn, game_id, t.chan.id, key)


async def test_a_keyed_post_is_one_message_edited_by_the_next_ones(table: Table) -> None:
    t = table
    game_id = await _game(t)
    before, patched = len(t.fd.channel_messages(t.chan)), len(_requests(t, "PATCH"))
    await _queue(t, game_id, Post("Turn 1: Andy rolls 4.", edit_key="turn:1", append=True))
    await _queue(t, game_id, Post("Andy moves to Little Italy.", edit_key="turn:1", append=True))
    await _queue(t, game_id, Post("The board", mention=()))  # an ordinary post between two steps
    await _queue(t, game_id, Post("Andy ends his turn.", edit_key="turn:1", append=True))
    await _queue(t, game_id, Post("Turn 2: Cara.", edit_key="turn:2", append=True))
    await _queue(t, game_id, Post("Score: 3", edit_key="score"))
    await _queue(t, game_id, Post("Score: 5", edit_key="score"))
    messages = t.fd.channel_messages(t.chan)[before:]
    assert [m.text() for m in messages] == [
        "Turn 1: Andy rolls 4.\nAndy moves to Little Italy.\nAndy ends his turn.",
        "The board",
        "Turn 2: Cara.",
        "Score: 5",
    ]
    assert len(_requests(t, "PATCH")) - patched == 3
    assert await _posted(t, game_id, "turn:1") == (messages[0].id, messages[0].text())


async def test_a_deleted_or_full_message_is_continued_in_a_new_one(table: Table) -> None:
    t = table
    game_id = await _game(t)
    before = len(t.fd.channel_messages(t.chan))
    await _queue(t, game_id, Post("Turn 1.", edit_key="turn:1", append=True))
    first = t.fd.channel_messages(t.chan)[-1]
    t.fd.factory.delete(t.fd.message(first.id))  # a moderator deleted it: the next step posts anew
    await _queue(t, game_id, Post("Andy rolls 4.", edit_key="turn:1", append=True))
    second = t.fd.channel_messages(t.chan)[-1]
    assert second.id != first.id and second.text() == "Turn 1.\nAndy rolls 4."
    long = "x" * 1980
    await _queue(t, game_id, Post(long, edit_key="turn:1", append=True))  # does not fit: a new message goes on
    await _queue(t, game_id, Post("Andy ends.", edit_key="turn:1", append=True))
    texts = [m.text() for m in t.fd.channel_messages(t.chan)[before:]]
    assert texts == ["Turn 1.\nAndy rolls 4.", f"{long}\nAndy ends."]
    # A heading opens each message the key starts, and is not repeated in what is appended.
    await _queue(t, game_id, Post("Andy rolls.", edit_key="turn:2", append=True, heading="Turn 2"))
    await _queue(t, game_id, Post("Andy moves.", edit_key="turn:2", append=True, heading="Turn 2"))
    assert t.fd.channel_messages(t.chan)[-1].text() == "Turn 2\nAndy rolls.\nAndy moves."


async def test_a_crash_before_the_delivery_was_recorded_posts_and_appends_once(table: Table) -> None:
    t = table
    game_id = await _game(t)
    before = len(t.fd.channel_messages(t.chan))
    await _queue(t, game_id, Post("Turn 1.", edit_key="turn:1", append=True))
    message_id, _ = await _posted(t, game_id, "turn:1") or (0, "")
    # As if the bot died after sending and before its transaction (delivered + posted) committed.
    async with t.bot.db.transaction() as conn:
        await conn.execute("UPDATE outbox SET delivered_at = NULL WHERE id = (SELECT MAX(id) FROM outbox)")
        await conn.execute("DELETE FROM posted WHERE game_id = ?", (game_id,))
    await t.stop_bot()
    await t.start_bot()
    await t.idle()
    assert await _posted(t, game_id, "turn:1") == (message_id, "Turn 1.")  # the nonce gave the same message back
    await _queue(t, game_id, Post("Andy rolls 4.", edit_key="turn:1", append=True))
    # The same after an edit: the row is edited again from what was recorded, not appended twice.
    async with t.bot.db.transaction() as conn:
        await conn.execute("UPDATE outbox SET delivered_at = NULL WHERE id = (SELECT MAX(id) FROM outbox)")
        await conn.execute("UPDATE posted SET content = ? WHERE game_id = ?", ("Turn 1.", game_id))
    await t.stop_bot()
    await t.start_bot()
    await t.idle()
    assert [m.text() for m in t.fd.channel_messages(t.chan)[before:]] == ["Turn 1.\nAndy rolls 4."]
    assert t.fd.api.nonce_replays == [message_id]


def test_a_keyed_post_carries_no_picture() -> None:
    with pytest.raises(ValueError, match="no picture"):
        Post("board", picture={"x": 1}, edit_key="turn:1")


async def test_appends_queued_together_go_out_as_one_request(table: Table) -> None:
    t = table
    game_id = await _game(t)
    before, requests = len(t.fd.channel_messages(t.chan)), len(t.fd.requests)
    posts = [Post(f"step {i}", edit_key="turn:1", append=True, heading="Turn 1") for i in range(3)]
    await _queue(t, game_id, *posts)
    messages = t.fd.channel_messages(t.chan)[before:]
    assert [m.text() for m in messages] == ["Turn 1\nstep 0\nstep 1\nstep 2"]
    sent = [r for r in t.fd.requests[requests:] if r.path.startswith(f"/channels/{t.chan.id}/messages")]
    assert [r.method for r in sent] == ["POST"], "one request for the three steps"
    left = await t.bot.db.fetchone("SELECT COUNT(*) AS n FROM outbox WHERE delivered_at IS NULL")
    assert left["n"] == 0


async def test_a_resend_with_more_appends_merged_brings_the_message_up_to_date(table: Table) -> None:
    t = table
    game_id = await _game(t)
    before = len(t.fd.channel_messages(t.chan))
    await _queue(t, game_id, Post("Turn 1.", edit_key="turn:1", append=True))
    message_id, _ = await _posted(t, game_id, "turn:1") or (0, "")
    # As if the bot died after sending and before recording it, and the next step was queued meanwhile: the
    # two rows now go as one, with the first's nonce, which gives back the message with the first text only.
    async with t.bot.host.locks(game_id), t.bot.db.transaction() as conn:
        await conn.execute("UPDATE outbox SET delivered_at = NULL WHERE id = (SELECT MAX(id) FROM outbox)")
        await conn.execute("DELETE FROM posted WHERE game_id = ?", (game_id,))
        row = await t.bot.db.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        await t.bot.host.stepper.queue(conn, GameRow.from_row(row), [Post("Andy rolls.", edit_key="turn:1",
                                                                          append=True)], 2.0)
    t.bot.delivery.kick()
    await t.idle()
    assert [m.text() for m in t.fd.channel_messages(t.chan)[before:]] == ["Turn 1.\nAndy rolls."]
    assert t.fd.api.nonce_replays == [message_id]
    assert await _posted(t, game_id, "turn:1") == (message_id, "Turn 1.\nAndy rolls.")
