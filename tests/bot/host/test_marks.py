"""bot/host/marks.py: delivery marks are written in groups, a little after the sends; meanwhile the sender
knows what it sent (a keyed post is edited, not posted twice), and marks that could not be written make
their rows go again, which the nonces make harmless."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.host import Post
from bot.storage import outbox as outbox_repo
from tests.support.posts import open_game, queue_posts
from tests.support.table import Table

# Grouped marks are for a database of one process: on a shared one (PostgreSQL) each is written at once.
pytestmark = pytest.mark.sqlite_file


_game, _queue = open_game, queue_posts


def _requests(t: Table, method: str) -> list[Any]:
    return [r for r in t.fd.requests if r.method == method and r.path.startswith(f"/channels/{t.chan.id}/messages")]


async def _until(check: Any, timeout: float = 5.0) -> None:
    for _ in range(int(timeout / 0.01)):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("not reached in time")


async def _pending(t: Table) -> int:
    async with t.bot.db.reader() as conn:
        return await outbox_repo.count_pending(conn)


async def test_the_marks_of_rows_sent_together_are_written_in_one_transaction(table: Table) -> None:
    t = table
    game_id = await _game(t)
    assert t.bot.delivery.marks is not None
    t.bot.delivery.marks.EVERY = 0.5
    posts = len(_requests(t, "POST"))
    await _queue(t, game_id, Post("one"), Post("two"), Post("three"))
    await _until(lambda: len(_requests(t, "POST")) - posts == 3)
    assert await _pending(t) == 3, "sent, and not marked yet"
    before = t.bot.db.transactions
    await t.idle()
    assert await _pending(t) == 0
    assert t.bot.db.transactions - before == 1


async def test_a_keyed_post_sent_again_before_its_mark_is_written_is_edited(table: Table) -> None:
    t = table
    game_id = await _game(t)
    marks = t.bot.delivery.marks
    assert marks is not None
    marks.EVERY = 30.0  # the marks wait: the second row must learn the first's message from the sender itself
    before, patched = len(t.fd.channel_messages(t.chan)), len(_requests(t, "PATCH"))
    await _queue(t, game_id, Post("Turn 1: Andy rolls 4.", edit_key="turn:1", append=True))
    await _until(lambda: len(t.fd.channel_messages(t.chan)) - before == 1)
    await _queue(t, game_id, Post("Andy moves.", edit_key="turn:1", append=True))
    await _until(lambda: len(_requests(t, "PATCH")) - patched == 1)
    messages = t.fd.channel_messages(t.chan)[before:]
    assert [m.text() for m in messages] == ["Turn 1: Andy rolls 4.\nAndy moves."]
    async with t.bot.db.reader() as conn:
        assert await outbox_repo.posted(conn, game_id, t.chan.id, "turn:1") is None, "not written yet"
    await marks.write()
    async with t.bot.db.reader() as conn:
        assert await outbox_repo.posted(conn, game_id, t.chan.id, "turn:1") == (messages[0].id, messages[0].text())
    assert marks.posted(game_id, t.chan.id, "turn:1") is None
    assert await _pending(t) == 0


async def test_marks_that_cannot_be_written_send_their_rows_again_once(table: Table, monkeypatch: Any) -> None:
    t = table
    game_id = await _game(t)
    real = outbox_repo.mark_delivered
    failed: list[int] = []

    async def failing(conn: Any, outbox_id: int, now: float, note: str | None = None) -> None:
        if not failed:
            failed.append(outbox_id)
            raise OSError("disk I/O error")
        await real(conn, outbox_id, now, note)

    monkeypatch.setattr(outbox_repo, "mark_delivered", failing)
    before, posts = len(t.fd.channel_messages(t.chan)), len(_requests(t, "POST"))
    await _queue(t, game_id, Post("The board"))
    await t.idle()
    assert failed, "the first mark failed"
    assert len(_requests(t, "POST")) - posts == 2, "sent again once its mark was lost"
    assert [m.text() for m in t.fd.channel_messages(t.chan)[before:]] == ["The board"], "the nonce: one message"
    assert await _pending(t) == 0
