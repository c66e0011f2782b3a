"""The Mob Boss's guess and a goal completion, rules-decided EC, seat replacement,
several games for one member (the `game` option in DMs), help and rules pages.
(The action panel's tests are in test_bot_gamenight_panel.py.)"""

from __future__ import annotations

from tests.support.crimecity import CAST, WE1, assert_no_secret
from tests.support.table import NAMES, Table, draft_cast, open_game

PERFECT = (
    "policeman=none, secretary=hitman, banker=mob_boss, armed_guard=fraud, store_clerk=none, "
    "detective=pickpocket, governor=bank_robber, governors_daughter=none"
)


async def test_mob_boss_guess_completes_and_rules_decide_the_ec(table: Table) -> None:
    t = table
    await open_game(t, garnets=20, rounds=1)
    await draft_cast(t, CAST)
    bad = await t.cmd(t.players["grunkle"], "guess", roles="banker=mob_boss")
    assert "not allowed" in bad.text() and "all 8 characters" in bad.text()
    not_boss = await t.cmd(t.players["andy"], "guess", roles=PERFECT)
    assert "Only the Mob Boss" in not_boss.text()
    ok = await t.cmd(t.players["grunkle"], "guess", roles=PERFECT)
    assert "Guess recorded" in ok.text()
    bought = await t.cmd(t.players["dev"], "friendship", a="banker", b="governor", points=2)
    assert "6 of your 20 garnets" in bought.text()
    too_much = await t.cmd(t.players["eve"], "friendship", a="banker", b="the governor", points=7)
    assert "not allowed" in too_much.text() and "garnets" in too_much.text()
    reply = await t.cmd(t.host, "admin garnets", player=t.players["cara"], amount=5)
    assert "5 garnets" in reply.text()
    for n in NAMES:
        first, second = WE1[n]
        await t.cmd(t.players[n], "act", first=first, second=second)
    await t.idle()
    assert "Your goal is complete" in "\n".join(t.dm_texts(t.players["grunkle"]))
    posts = t.posts()
    results = next(p for p in posts if "game over after Round 1" in p)
    assert "1. grunkle" in results and "ToL: grunkle" in results
    assert "EC: cara" in results, "cara has the lowest balance among the four who did not complete"
    assert "grunkle: +15" in results
    assert "grunkle — The Banker — The Mob Boss" in posts[-1]
    board = [p for p in posts if "Round 1**: the board after the round" in p][0]
    assert "The Banker + The Governor: 2" in board
    # the game has ended: the channel is free for a new one
    reply = await t.cmd(t.host, "new")
    assert "new game" in reply.text()


async def test_replace_hands_the_seat_and_its_secrets(table: Table) -> None:
    t = table
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    for n in NAMES:
        first, second = WE1[n]
        await t.cmd(t.players[n], "act", first=first, second=second)
    await t.idle()
    zed = t.guild.add_member("zed")
    reply = await t.cmd(t.host, "admin replace", old=t.players["andy"], new=zed)
    assert "zed now holds andy's seat" in reply.text()
    await t.idle()
    brief = t.dm_texts(zed)[-1]
    assert "The Detective" in brief and "The Pickpocket" in brief and "The Store Clerk has no hidden role" in brief
    running = await t.bot.db.fetchone("SELECT deadline_at FROM clocks WHERE deadline_at IS NOT NULL")
    assert f"Deadline: <t:{int(running['deadline_at'])}:f>" in brief, brief
    assert "zed takes over andy's seat" in t.posts()[-1]
    assert_no_secret(t.posts()[-1], "the replacement note")
    gone = await t.cmd(t.players["andy"], "act", first="move vertical detective", second="converse store_clerk")
    assert "not a player" in gone.text()
    ok = await t.cmd(zed, "act", first="move vertical detective", second="converse store_clerk")
    assert "actions recorded" in ok.text()


async def test_several_games_need_the_game_option_in_dms(table: Table) -> None:
    t = table
    await open_game(t)
    other = t.guild.add_text_channel("crime-city-2")
    await t.fd.slash(t.host, other, "crimecity new")
    andy = t.players["andy"]
    await t.fd.slash(andy, other, "crimecity join")
    dm = t.fd.dm_channel(andy)
    reply = await t.fd.slash(andy, dm, "crimecity status")
    assert "several games" in reply.text()
    choices = await t.fd.autocomplete(andy, dm, "crimecity status", focused="game")
    assert len(choices) == 2 and all("crime-city" in c["name"] for c in choices)
    reply = await t.fd.slash(andy, dm, "crimecity draft", bid=0, characters="detective", game=choices[0]["value"])
    assert "Draft submission recorded" in reply.text()
    reply = await t.fd.slash(andy, dm, "crimecity draft", bid=0, game="999999")
    assert "not one of your active games" in reply.text()
    # commands.md: in a DM the `game` option picks the game, lobby verbs included
    lobby = next(c["value"] for c in choices if "crime-city-2" in c["name"])
    refused = await t.fd.slash(andy, dm, "crimecity leave")
    assert "several games" in refused.text()
    left = await t.fd.slash(andy, dm, "crimecity leave", game=lobby)
    assert "You left" in left.text(), left.text()
    assert "several games" not in (await t.fd.slash(andy, dm, "crimecity status")).text()


async def test_help_and_rules(table: Table) -> None:
    t = table
    reply = await t.cmd(t.players["eve"], "help")
    assert "/crimecity act" in reply.text()
    reply = await t.cmd(t.players["eve"], "rules")
    assert reply.embeds and reply.ephemeral
    topics = await t.fd.autocomplete(t.players["eve"], t.chan, "crimecity rules", focused="topic")
    assert topics and len(topics) <= 25
    reply = await t.cmd(t.players["eve"], "rules", topic=topics[0]["value"])
    assert reply.embeds


async def test_games_in_two_servers_run_side_by_side(table: Table) -> None:
    import asyncio

    t = table
    guild2 = t.fd.add_guild("Other Club")
    chan2 = guild2.add_text_channel("city")
    host2 = guild2.add_member("host2", manage_guild=True)
    players2 = [guild2.add_member(f"q{i}") for i in range(5)]
    await open_game(t)
    await t.fd.slash(host2, chan2, "crimecity new")
    for m in players2:
        await t.fd.slash(m, chan2, "crimecity join")
    await t.fd.slash(host2, chan2, "crimecity start")
    await asyncio.gather(
        *(t.cmd(t.players[n], "draft", bid=0) for n in NAMES),
        *(t.fd.slash(m, chan2, "crimecity draft", bid=0) for m in players2),
    )
    await t.idle()
    assert any("starting positions" in p for p in t.posts())
    assert any("starting positions" in m.text() for m in t.fd.channel_messages(chan2))
    assert len([p for p in t.posts() if "starting positions" in p]) == 1
