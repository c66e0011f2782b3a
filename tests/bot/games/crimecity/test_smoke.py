"""The bot connects to the fake Discord, syncs /crimecity and answers the lobby commands."""

from __future__ import annotations

from tests.support.table import NAMES, Table


async def test_lobby_and_draft_open(table: Table) -> None:
    commands = table.fd.commands()
    assert "crimecity" in [c["name"] for c in commands]  # beside the other games' groups
    reply = await table.cmd(table.host, "new", deadline_hours=1.0)
    assert "new game" in reply.text() and not reply.ephemeral
    for n in NAMES:
        reply = await table.cmd(table.players[n], "join")
        assert "joined" in reply.text()
    reply = await table.cmd(table.host, "start")
    assert "draft is open" in reply.text()
