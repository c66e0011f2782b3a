"""A group's own board (CRIMECITY_CONTENT) through the fake Discord: the game is played on it, its export
replays only on it, and the bot will not restart on the house board under the unfinished game."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from random import Random

import pytest

from bot import Settings, create_bot
from bot.content import ContentChanged
from tests.support.content import OC_BOARD, group_content, other_board
from tests.support.octable import fixed_chance, oc, state_of, two_player_turn
from tests.support.table import Table

ROOT = Path(__file__).resolve().parents[4]


def replay(path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rules", "replay", str(path), *extra],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


async def test_a_game_on_a_groups_board(table: Table, monkeypatch, tmp_path: Path) -> None:
    t = table
    root = group_content(tmp_path / "content")
    await t.stop_bot()
    t.settings["content"] = str(root)
    await t.start_bot()
    drawn_on = dict(t.bot.delivery.painter._key[2])
    assert drawn_on["organizedcrime"].content_id == OC_BOARD, "the picture workers draw the group's board"
    fixed_chance(monkeypatch, "group")
    state, who, active = await two_player_turn(t)
    page = await oc(t, who[active], "rules", topic="house content")
    assert OC_BOARD in page.embeds[0]["description"] and "house versions" not in page.embeds[0]["description"]
    await oc(t, who[active], "buy hitmen", count=2)
    route = await t.fd.autocomplete(who[active], t.chan, "organizedcrime declare", focused="piece")
    assert route, "the turn goes on"

    exported = await oc(t, t.host, "admin export")
    doc = json.loads(exported.attachments[0][1])
    assert doc["content"] == OC_BOARD
    assert f"board `{OC_BOARD}`" in exported.text() and "--content DIR" in exported.text()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    house = replay(path)
    assert house.returncode == 2 and f"not {OC_BOARD!r}" in house.stderr, house.stderr
    ours = replay(path, "--content", str(root / "organizedcrime"))
    assert ours.returncode == 0, ours.stderr
    out = json.loads(ours.stdout)
    bought = [e for entry in out["log"] for e in entry["events"] if e["kind"] == "bought_hitmen"]
    assert len(bought) == 1 and len(bought[0]["pieces"]) == 2, "the file replays to the move the bot took"
    assert out["state"]["turn"] == (await state_of(t))["turn"]

    await t.stop_bot()
    on_house = create_bot(t.db_path, Settings(command_sync="global"))
    try:
        with pytest.raises(ContentChanged, match=f"started on the content '{OC_BOARD}'"):
            await on_house.setup_hook()
    finally:
        await on_house.db.close()
    await t.start_bot()  # on the group's board again: the game goes on
    status = await oc(t, who[active], "status")
    assert "It is up to you" in status.text(), status.text()


async def test_a_whole_game_on_a_board_of_another_shape(table: Table, monkeypatch, tmp_path: Path) -> None:
    """Nothing in the presentation assumes the house board: a game on one more space plays to its end, by
    commands and panels with the autocomplete checked, and its export replays on that board."""
    import tests.support.ocdriver as driver
    from rules.organizedcrime.game import GAME

    t = table
    root = other_board(tmp_path / "content")
    board = GAME.with_content(str(root / "organizedcrime"))
    monkeypatch.setattr(driver, "GAME", board)  # the driver's legal moves, on the same board as the bot's
    await t.stop_bot()
    t.settings["content"] = str(root)
    await t.start_bot()
    fixed_chance(monkeypatch, "d")  # with Random(1) below: 29 turns, across the new space
    await two_player_turn(t, bargain_minimum_minutes=0.00001)
    commands, clicks = await driver.play_out(t, Random(1), panel_share=0.4, autocomplete=0.3)
    assert commands > 20 and clicks > 20, (commands, clicks)
    await t.idle()
    state = await state_of(t)
    assert state["result"] is not None and state["result"]["reason"] == "last_survivor"
    walked = any("Back Alley" in p or "x1" in p for p in t.posts())
    pictured = [m for m in t.fd.channel_messages(t.chan) if m.attachments]
    assert pictured and all(m.attachment_info()[0]["content_type"] == "image/png" for m in pictured)

    exported = await oc(t, t.host, "admin export")
    doc = json.loads(exported.attachments[0][1])
    out = board.replay(doc)
    assert out["result"] is not None and out["result"]["winners"] == [
        doc["players"][list(state["players"]).index(w)] for w in state["result"]["winners"]
    ]
    assert walked or "x1" in json.dumps(doc["actions"]), "a piece passed the new space (else the test proves less)"
