"""Closed DMs never block the game: the bot keeps the message in the player's inbox, says in the channel (without
any secret) where to read it, and /crimopolis status (or the host's My status button) shows it."""

from __future__ import annotations

import random

from rules.crimopolis import GAME
from tests.support.crimopolis import CARD, CpTable, Driver, open_game


async def test_closed_dms_go_to_the_inbox(cp: CpTable) -> None:
    t = cp
    ann = t.players["ann"]
    t.fd.close_dms(ann)
    await open_game(t, ["ann", "ben"], target_prestige=6)
    note = await t.fd.wait_for(lambda: next((p for p in t.posts() if "could not send you a direct" in p), None))
    assert "crimopolis status" in note and not CARD.search(note)
    seats = {n: s for s, n in (await t.seat_names()).items()}
    hand = GAME.view(await t.state(), seats["ann"])["private"][seats["ann"]]["jobs"]
    status = await t.cmd(ann, "status")
    assert status.ephemeral and "Inbox" in status.text() and "You drew:" in status.text()
    assert all(card in status.text() for card in hand)
    driver = Driver(t, random.Random(1))
    while not any("host:status:1" in m.custom_ids() for m in t.fd.channel_messages(t.chan)):
        assert await driver.step()  # through the setup, to the first board post
    posted = next(m for m in reversed(t.fd.channel_messages(t.chan)) if "host:status:1" in m.custom_ids())
    mine = await t.fd.click(ann, posted, "host:status:1")
    hand = GAME.view(await t.state(), seats["ann"])["private"][seats["ann"]]["jobs"]
    assert mine.ephemeral and all(card in mine.text() for card in hand)
    other = await t.fd.click(t.players["ben"], posted, "host:status:1")
    assert not any(card in other.text() for card in hand), "My status shows the clicker's own seat only"
