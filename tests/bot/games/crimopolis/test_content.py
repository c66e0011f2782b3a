"""A group's own pack (CRIMECITY_CONTENT) through the fake Discord: the game is set up on it, its cards are
named from it, and its export replays on that pack only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.contract import FormatError
from rules.crimopolis import GAME
from tests.support.content import CP_PACK, JOB, group_content
from tests.support.crimopolis import CpTable, open_game


async def test_a_game_on_a_groups_pack(cp: CpTable, tmp_path: Path) -> None:
    t = cp
    root = group_content(tmp_path / "content")
    await t.stop_bot()
    t.settings["content"] = str(root)
    await t.start_bot()
    await open_game(t, ["ann", "ben"], target_prestige=5)
    cards = await t.cmd(t.players["ann"], "rules", topic="job-cards")
    text = json.dumps(cards.embeds)
    assert JOB in text and f"pack `{CP_PACK}`" in text and "house pack" not in text
    row = await t.bot.db.fetchone("SELECT state_json FROM games WHERE kind = 'crimopolis'")
    assert json.loads(row["state_json"])["content"] == CP_PACK, "the game is set up on the group's pack"
    exported = await t.cmd(t.host, "admin export")
    doc = json.loads(exported.attachments[0][1])
    assert doc["content"] == CP_PACK and f"pack `{CP_PACK}`" in exported.text() and "--content DIR" in exported.text()
    with pytest.raises(FormatError, match=CP_PACK):
        GAME.replay(doc)
    out = GAME.with_content(str(root / "crimopolis")).replay(doc)
    assert all(step["refused"] is None for step in out["steps"])
