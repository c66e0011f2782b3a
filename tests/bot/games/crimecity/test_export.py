"""/crimecity admin export gives a replay file that rules replays to what the bot announced."""

from __future__ import annotations

import json

from rules.crimecity.replay import run_replay
from tests.support.crimecity import CAST, WE1, WE3
from tests.support.table import NAMES, Table, draft_cast, open_game


async def test_export_replays_to_the_announced_boards(table: Table) -> None:
    t = table
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    for rnd in (WE1, WE3):
        for n in NAMES:
            first, second = rnd[n]
            await t.cmd(t.players[n], "act", first=first, **({"second": second} if second else {}))
        await t.idle()
    reply = await t.cmd(t.host, "admin export")
    assert reply.ephemeral and reply.attachments
    doc = json.loads(reply.attachments[0].data)
    assert doc["format"] == "crimecity-replay/1"
    assert doc["players"] == NAMES, "players are named by their Discord user names"
    assert doc["rounds"][0]["cara"]["actions"][1] == {"kind": "ability", "player": "andy"}
    result = run_replay(doc)
    assert result["draft"]["seats"]["andy"] == {"character": "detective", "role": "pickpocket"}
    assert result["rounds"][0]["board"] == {
        "town_hall": ["banker", "governor", "policeman"],
        "mansion": ["governors_daughter"],
        "main_street": ["detective", "secretary", "store_clerk"],
        "bank": ["armed_guard"],
    }
    assert result["rounds"][1]["board"]["bank"] == []
    assert result["rounds"][1]["friendship"]["banker+governor"] == 2
