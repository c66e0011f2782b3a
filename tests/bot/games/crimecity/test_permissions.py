"""Who may do what: non-players, non-admins, players of another game; DMs closed; the host role."""

from __future__ import annotations

from tests.support.crimecity import CAST, assert_no_secret
from tests.support.table import NAMES, Table, draft_cast, open_game


async def test_refusals(table: Table) -> None:
    t = table
    outsider = t.guild.add_member("zed")
    refused = await t.cmd(outsider, "new")
    assert refused.ephemeral and "Manage Server" in refused.text()

    await open_game(t, garnets=20)
    late = await t.cmd(outsider, "join")
    assert "already started" in late.text()
    await draft_cast(t, CAST)

    # a second game in another channel of the same server, with other players
    other_chan = t.guild.add_text_channel("crime-city-2")
    other_players = [t.guild.add_member(f"o{i}") for i in range(5)]
    await t.fd.slash(t.host, other_chan, "crimecity new")
    for m in other_players:
        await t.fd.slash(m, other_chan, "crimecity join")

    not_player = await t.cmd(outsider, "act", first="move vertical secretary", second="converse banker")
    assert not_player.ephemeral and "not a player" in not_player.text()
    other_game = await t.cmd(other_players[0], "act", first="move vertical secretary", second="converse banker")
    assert "not a player" in other_game.text()
    in_dm = await t.fd.slash(other_players[0], t.fd.dm_channel(other_players[0]), "crimecity status")
    assert "Players (5/5)" in in_dm.text(), "in a DM the command finds the caller's own game"
    for command, options in [
        ("admin resolve", {}),
        ("admin deadline", {"hours": 1.0}),
        ("admin pause", {}),
        ("admin end", {}),
        ("admin export", {}),
        ("admin garnets", {"player": t.players["andy"], "amount": 99}),
        ("admin replace", {"old": t.players["andy"], "new": outsider}),
    ]:
        reply = await t.cmd(t.players["andy"], command, **options)
        assert reply.ephemeral and "Only the game's host" in reply.text(), (command, reply.text())
    # the other game's players are not admins of this game either (and cannot see its secrets)
    reply = await t.cmd(other_players[1], "admin export")
    assert "Only the game's host" in reply.text() and not reply.attachments
    # a Manage Server member who is not the host may administer
    mod = t.guild.add_member("mod", manage_guild=True)
    reply = await t.cmd(mod, "admin pause")
    assert "paused" in reply.text()
    reply = await t.cmd(t.host, "admin resume")
    assert "runs again" in reply.text()


async def test_closed_dms_go_to_the_inbox(table: Table) -> None:
    t = table
    await open_game(t, garnets=20)
    t.fd.close_dms(t.players["andy"])
    await draft_cast(t, CAST)
    assert t.dm_texts(t.players["andy"]) == []
    note = [p for p in t.posts() if "could not send you a direct message" in p]
    assert len(note) == 1 and str(t.players["andy"].id) in note[0]
    assert_no_secret(note[0], "the closed-DM note")
    status = await t.cmd(t.players["andy"], "status")
    assert "Inbox" in status.text() and "Your character: **The Detective**" in status.text()
    # the others were not held up
    assert "The Banker" in t.dm_texts(t.players["grunkle"])[-1]


async def test_host_role_may_open_a_game(table: Table, tmp_path) -> None:
    from bot import Settings, create_bot

    t = table
    await t.stop_bot()
    client = create_bot(t.db_path, Settings(command_sync="global", host_role="Game Master"))
    t.fd.start(client)
    await t.fd.wait_ready()
    t.bots.append(client)
    role = t.guild.add_role("Game Master")
    gm = t.guild.add_member("gm", roles=[role])
    reply = await t.cmd(gm, "new")
    assert "new game" in reply.text()
    for n in NAMES:
        await t.cmd(t.players[n], "join")
    reply = await t.cmd(gm, "start")
    assert "draft is open" in reply.text()
