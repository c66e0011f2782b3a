"""/crimecity admin export gives a replay file that rules replays to what the bot announced."""

from __future__ import annotations

import json

from bot.games.crimecity.texts import board_lines
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


async def test_a_balance_the_host_sets_mid_round_is_in_the_record(table: Table) -> None:
    """Regression (issue 11): `admin garnets` during a round changed the state and logged nothing, so the
    export replayed to another game (the purchase it made impossible was accepted in the replay)."""
    t = table
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    bought = await t.cmd(t.players["andy"], "friendship", a="banker", b="governor", points=2)
    assert "6 of your 20 garnets" in bought.text(), bought.text()
    for n in NAMES:
        if n == "eve":  # before the last one acts, the host lowers Andy's balance below his purchase
            assert "now has 2" in (await t.cmd(t.host, "admin garnets", player=t.players["andy"], amount=2)).text()
        first, second = WE1[n]
        assert "recorded" in (await t.cmd(t.players[n], "act", first=first, second=second)).text()
    await t.idle()
    told = t.dm_texts(t.players["andy"])[-1]
    assert "refused at resolution" in told and "garnets" in told, told
    post = [m for m in t.posts() if "the board after the round" in m][-1]
    doc = json.loads((await t.cmd(t.host, "admin export")).attachments[0].data)
    result = run_replay(doc)
    (first,) = result["rounds"]
    assert first["rejected"]["andy"]["code"] == "garnets"
    assert first["garnets"]["andy"] == 2
    view = {k: first[k] for k in ("round", "board", "dead", "friendship")}
    assert "\n".join(board_lines(view)) in post, "the replay gives the board the bot posted"
    moves = [json.loads(r["actions_json"]) for r in await t.bot.db.fetchall("SELECT actions_json FROM moves")]
    assert [{"by": None, "move": {"host": "garnets", "seat": "p1", "amount": 2}}] in moves
