"""/crimecity history: this server's finished games, newest first, with date, rounds played,
completion order, ToL and EC, paged inside Discord's embed limits."""

from __future__ import annotations

from tests.support.crimecity import CAST, WE1
from tests.support.table import NAMES, Table, draft_cast, open_game


def fields(reply) -> list[tuple[str, str]]:
    (embed,) = reply.embeds
    return [(f["name"], f["value"]) for f in embed.get("fields", [])]


async def test_history_lists_finished_games_newest_first(table: Table, monkeypatch) -> None:
    t = table
    empty = await t.cmd(t.players["eve"], "history")
    assert "No game has finished here yet" in empty.text()

    # game 1: one round, nobody completes, all five decide the EC (R89), disagree, and the host settles it
    await open_game(t, rounds=1, garnets=20)
    await draft_cast(t, CAST)
    for n in NAMES:
        first, second = WE1[n]
        await t.cmd(t.players[n], "act", first=first, second=second)
    await t.idle()
    for i, n in enumerate(NAMES):
        await t.cmd(t.players[n], "ec", player=t.players["eve" if i else "dev"])
    settled = await t.cmd(t.host, "ec", player=t.players["eve"])
    assert "As host you decided" in settled.text(), settled.text()
    # game 2: ended by the host in its lobby
    await t.cmd(t.host, "new")
    await t.cmd(t.host, "admin end")
    # game 3: ended by the host during round 1, then closed with the EC decision left open
    await open_game(t)
    await draft_cast(t, CAST)
    await t.cmd(t.host, "admin end")
    await t.cmd(t.host, "admin end")
    await t.idle()
    # a game in another server is not listed here
    other = t.fd.add_guild("Elsewhere")
    chan2 = other.add_text_channel("city")
    host2 = other.add_member("host2", manage_guild=True)
    await t.fd.slash(host2, chan2, "crimecity new")
    await t.fd.slash(host2, chan2, "crimecity admin end")

    reply = await t.cmd(t.players["eve"], "history")
    assert reply.ephemeral
    listed = fields(reply)
    assert [name for name, _ in listed] == ["Game #3", "Game #2", "Game #1"]
    assert "after 0 rounds" in listed[0][1] and "EC: not decided" in listed[0][1]
    assert "before the first round" in listed[1][1]
    one = listed[2][1]
    assert "<t:" in one and "after 1 round." in one
    assert "Nobody completed their goal." in one and "ToL: none · EC: eve" in one
    assert "Page 1/1 · 3 games" in reply.text()

    monkeypatch.setattr("bot.host.reports.PER_PAGE", 2)
    first = await t.cmd(t.players["eve"], "history")
    assert [n for n, _ in fields(first)] == ["Game #3", "Game #2"] and "page:2" in first.text()
    second = await t.cmd(t.players["eve"], "history", page=2)
    assert [n for n, _ in fields(second)] == ["Game #1"] and "Page 2/2" in second.text()
    beyond = await t.cmd(t.players["eve"], "history", page=9)
    assert [n for n, _ in fields(beyond)] == ["Game #1"], "a page past the end shows the last"
    in_dm = await t.cmd(t.players["eve"], "history", dm=True)
    assert "in a server channel" in in_dm.text()
