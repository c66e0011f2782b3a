"""The fourteen attacks of the hardening issue, each a regression test (docs/reliability.md lists them).

Through the fake Discord, as a hostile member, a careless host or a flaky network would attack.
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from bot.host.errors import Stale
from tests.support.crimecity import CAST, WE1, match_of
from tests.support.service import HOST, now, round_one
from tests.support.table import NAMES, Table, draft_cast, open_game

ATTACH_FILES, SEND_MESSAGES = 1 << 15, 1 << 11


async def round_of(t: Table, names: list[str] | None = None) -> None:
    for n in names or NAMES:
        first, second = WE1[n]
        await t.cmd(t.players[n], "act", first=first, second=second)


# ---- 1. a seated host reads every seat ------------------------------------------------------------------


async def test_a_host_who_plays_cannot_export_while_the_game_runs(table: Table) -> None:
    t = table
    mod = t.guild.add_member("mod", manage_guild=True)  # opens the game and plays in it
    await t.fd.slash(mod, t.chan, "crimecity new")
    for n in NAMES[:4]:
        await t.cmd(t.players[n], "join")
    await t.fd.slash(mod, t.chan, "crimecity join")
    await t.fd.slash(mod, t.chan, "crimecity start")
    refused = await t.fd.slash(mod, t.chan, "crimecity admin export")
    assert refused.ephemeral and not refused.attachments
    assert "hold a seat" in refused.text() and "once the game has ended" in refused.text()
    other = await t.cmd(t.host, "admin export")  # a host who does not play still can
    assert other.attachments
    await t.fd.slash(mod, t.chan, "crimecity admin end")
    await t.fd.slash(mod, t.chan, "crimecity admin end")
    after = await t.fd.slash(mod, t.chan, "crimecity admin export")
    assert after.attachments, "after the end, the record is everyone's"


# ---- 2. a stale host command lands on the next decision -------------------------------------------------


async def test_a_host_command_issued_before_the_decision_opened_is_refused(tmp_path) -> None:
    svc, gid = await round_one(tmp_path)
    typed = now(HOST)  # issued while round 1 was open
    await asyncio.sleep(0.01)
    await svc.admin_resolve(now(HOST))  # round 1 resolves; round 2 opens
    for call in (
        svc.admin_deadline(typed, 0),
        svc.admin_pause(typed, True),
        svc.host.hosting.move(typed, "crimecity", {"host": "garnets", "seat": "p1", "amount": 3}),
        svc.admin_resolve(typed),
    ):
        with pytest.raises(Stale, match="just resolved"):
            await call
    game = await svc.game(gid)
    assert not game.paused
    clock = await svc.db.fetchone("SELECT deadline_at FROM clocks WHERE game_id = ?", (gid,))
    assert clock["deadline_at"] > time.time() + 3600, "round 2's deadline was not moved"
    await svc.db.close()


# ---- 3. a deadline timer already firing ignores an extension or a pause ------------------------------------


async def test_an_extension_that_wins_the_race_keeps_the_round_open(tmp_path) -> None:
    svc, gid = await round_one(tmp_path)
    game = await svc.game(gid)
    clock = (await svc.db.fetchone("SELECT clock FROM clocks WHERE game_id = ?", (gid,)))["clock"]
    await svc.admin_deadline(now(HOST), 0)  # due now ...
    lock = svc.host.locks(gid)
    await lock.acquire()
    firing = asyncio.create_task(svc.on_timer(gid, "deadline", game.step, clock))
    extending = asyncio.create_task(svc.admin_deadline(now(HOST), 5))  # ... then extended: queued behind it?
    await asyncio.sleep(0.02)
    lock.release()
    await asyncio.gather(firing, extending, return_exceptions=True)
    after = await svc.game(gid)
    # Whichever won, the host's answer was true: either the round resolved and the extension was refused,
    # or the extension holds and the round is still open.
    if after.step == game.step:
        row = await svc.db.fetchone("SELECT deadline_at FROM clocks WHERE game_id = ?", (gid,))
        assert row["deadline_at"] > time.time() + 4 * 3600
        assert extending.exception() is None
    else:
        assert isinstance(extending.exception(), Stale)
    # and a deadline timer firing after a pause does nothing
    if after.step != game.step:
        game = after
        clock = (await svc.db.fetchone("SELECT clock FROM clocks WHERE game_id = ?", (gid,)))["clock"]
    await svc.admin_pause(now(HOST), True)
    await svc.on_timer(gid, "deadline", game.step, clock)
    assert (await svc.game(gid)).step == game.step
    await svc.db.close()


# ---- 4. admin garnets is not in the record ---------------------------------------------------------------


async def test_a_balance_set_below_a_recorded_bid_refuses_that_bid_at_the_draft(table: Table) -> None:
    t = table
    await open_game(t, garnets=10)
    await t.cmd(t.players["andy"], "draft", bid=8)
    assert "now has 2 garnets" in (await t.cmd(t.host, "admin garnets", player=t.players["andy"], amount=2)).text()
    for n in NAMES[1:]:
        await t.cmd(t.players[n], "draft", bid=0)
    await t.idle()
    told = t.dm_texts(t.players["andy"])[-1]
    assert "refused when the draft resolved" in told and "Garnets: 2" in told, told
    doc = json.loads((await t.cmd(t.host, "admin export")).attachments[0].data)
    assert "andy" not in doc["draft"] and doc["garnets"]["andy"] == 2, "a valid file: the bid counted as none"



async def test_a_balance_beyond_the_cap_names_the_cap(table: Table) -> None:
    t = table
    await open_game(t, garnets=10)
    reply = await t.cmd(t.host, "admin garnets", player=t.players["andy"], amount=2**53)
    assert reply.ephemeral and "from 0 to 1,000,000,000" in reply.text(), reply.text()


# ---- 5. lost posts when permissions change ---------------------------------------------------------------


async def test_without_attach_files_the_board_goes_as_text(table: Table) -> None:
    t = table
    await open_game(t, garnets=20)
    t.guild.set_permissions(t.chan, t.guild.bot_member, deny=ATTACH_FILES)
    await draft_cast(t, CAST)
    await t.idle()
    (post,) = [m for m in t.fd.channel_messages(t.chan) if "the draft is resolved" in m.text()]
    assert post.attachments == [] and "**Town Hall**" in post.text()


async def test_without_send_messages_the_host_is_told_once_and_it_is_posted_later(table: Table) -> None:
    t = table
    await open_game(t, garnets=20)
    t.guild.set_permissions(t.chan, t.guild.bot_member, deny=SEND_MESSAGES)
    for n in NAMES:  # the draft resolves; its board cannot be posted (nor, then, what follows it)
        role, char = CAST[n]
        await t.cmd(t.players[n], "draft", bid=0, roles=role, characters=char)
    await t.fd.wait_for(lambda: any("I cannot post in" in m.text() for m in t.fd.dms(t.host)), 10, "host not told")
    await round_of(t)
    await t.fd.settle(quiet=0.3)
    notes = [m.text() for m in t.fd.dms(t.host) if "I cannot post in" in m.text()]
    assert len(notes) == 1 and "board" in notes[0], notes
    assert not any("the board after the round" in m.text() for m in t.fd.channel_messages(t.chan))
    board = await t.cmd(t.players["eve"], "board")  # readable meanwhile
    assert "Round 2" in board.text()
    t.guild.clear_permissions(t.chan, t.guild.bot_member)
    t.bot.delivery.clock = lambda: time.time() + 3600  # the next try is due
    t.bot.delivery.kick()
    await t.fd.wait_for(lambda: any("the board after the round" in m.text() for m in t.fd.channel_messages(t.chan)),
                        10, "the board was never posted")
    posts = [m.text() for m in t.fd.channel_messages(t.chan)]
    assert posts.index(next(p for p in posts if "draft is resolved" in p)) < posts.index(
        next(p for p in posts if "the board after the round" in p)
    ), "in order"


async def test_a_deleted_channel_is_told_to_the_host(table: Table) -> None:
    t = table
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    await t.idle()
    t.guild.delete_channel(t.chan)
    await t.fd.slash(t.players["andy"], t.fd.dm_channel(t.players["andy"]), "crimecity status")
    for n in NAMES:
        first, second = WE1[n]
        await t.fd.slash(t.players[n], t.fd.dm_channel(t.players[n]), "crimecity act", first=first, second=second)
    await t.fd.wait_for(lambda: any("deleted" in m.text() for m in t.fd.dms(t.host)), 10, "the host was not told")
    assert len([m for m in t.fd.dms(t.host) if "I cannot post in" in m.text()]) == 1


# ---- 6. anyone can make the bot post without limit ---------------------------------------------------------


async def test_public_boards_are_limited_and_need_the_members_own_right_to_post(table: Table) -> None:
    t = table
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    before = len(t.fd.channel_messages(t.chan))
    replies = [await t.cmd(t.players["eve"], "board", public=True) for _ in range(10)]
    posted = len(t.fd.channel_messages(t.chan)) - before
    assert posted <= 3, f"{posted} public boards from one member"
    assert any(r.ephemeral and "try again in" in r.text() for r in replies)
    muted = t.guild.add_role("muted")
    t.guild.give_role(t.players["dev"], muted)
    t.guild.set_permissions(t.chan, muted, deny=SEND_MESSAGES)
    reply = await t.cmd(t.players["dev"], "board", public=True)
    assert reply.ephemeral and "may not post in this channel" in reply.text()


# ---- 7. names that collide or impersonate ------------------------------------------------------------------


async def test_equal_names_stay_apart_and_choices_carry_ids(table: Table) -> None:
    t = table
    impostor = t.guild.add_member("impostor", nick="andy")  # the same display name as andy
    await t.cmd(t.host, "new", garnets=20)
    for n in ["andy", "grunkle", "cara", "dev"]:
        await t.cmd(t.players[n], "join")
    await t.fd.slash(impostor, t.chan, "crimecity join")
    await t.cmd(t.host, "start")
    cast = dict(CAST)
    for n in ["andy", "grunkle", "cara", "dev"]:
        role, char = cast[n]
        await t.cmd(t.players[n], "draft", bid=0, roles=role, characters=char)
    await t.fd.slash(impostor, t.chan, "crimecity draft", bid=0, roles=cast["eve"][0], characters=cast["eve"][1])
    await t.idle()
    choices = await t.fd.autocomplete(t.players["cara"], t.chan, "crimecity act", focused="second",
                                      first="converse policeman")
    players = [c for c in choices if c["value"].startswith("ability player")]
    values = [c["value"] for c in players]
    assert f"ability player <@{t.players['andy'].id}>" in values and f"ability player <@{impostor.id}>" in values
    names = [c["name"] for c in players]
    assert len(set(names)) == len(names), f"two choices look alike: {names}"
    panel = await t.cmd(t.players["cara"], "panel")
    panel = await t.fd.select(t.players["cara"], panel, panel.custom_ids()[0], ["ability"])
    options = [o["value"] for c in panel.all_components() for o in c.get("options", [])]
    assert len(options) == len(set(options)), "no repeated value (Discord refuses those)"


# ---- 8. a removed host keeps control --------------------------------------------------------------------


async def test_a_host_removed_from_the_server_loses_host_rights_in_dms(table: Table) -> None:
    t = table
    mod = t.guild.add_member("mod", manage_guild=True)
    await t.fd.slash(mod, t.chan, "crimecity new")
    for n in NAMES:
        await t.cmd(t.players[n], "join")
    await t.fd.slash(mod, t.chan, "crimecity start")
    dm = t.fd.dm_channel(mod)
    ok = await t.fd.slash(mod, dm, "crimecity admin pause")
    assert "paused" in ok.text()
    t.guild.kick(mod)
    for command in ("crimecity admin resume", "crimecity admin export", "crimecity admin end"):
        refused = await t.fd.slash(mod, dm, command)
        assert refused.ephemeral and "Only the game's host" in refused.text(), (command, refused.text())
    assert (await match_of(t)).phase == "draft", "nothing changed"


# ---- 9. after one failed post, later posts overtake it ----------------------------------------------------


async def test_posts_to_one_channel_keep_their_order_through_a_failure(table: Table) -> None:
    t = table
    await open_game(t, rounds=1, garnets=20)
    await draft_cast(t, CAST)
    t.fd.fail_next(rf"/channels/{t.chan.id}/messages", status=503, method="POST")
    await round_of(t)
    t.bot.delivery.clock = lambda: time.time() + 3600
    await t.fd.wait_for(lambda: any("game over" in m.text() for m in t.fd.channel_messages(t.chan)), 10, "no end")
    await t.idle()
    posts = [m.text() for m in t.fd.channel_messages(t.chan)]
    board = next(i for i, p in enumerate(posts) if "the board after the round (final)" in p)
    over = next(i for i, p in enumerate(posts) if "game over" in p)
    assert board < over, "the final board before the game over"


# ---- 11. history lists games of private channels ---------------------------------------------------------


async def test_history_leaves_out_games_of_channels_the_member_cannot_see(table: Table) -> None:
    t = table
    secret = t.guild.add_text_channel("staff-only", private=True, visible_to=[t.host])
    await t.fd.slash(t.host, secret, "crimecity new")
    await t.fd.slash(t.host, secret, "crimecity admin end")
    await t.cmd(t.host, "new")
    await t.cmd(t.host, "admin end")
    seen = await t.cmd(t.players["eve"], "history")
    assert "Game #2" in seen.text() and "Game #1" not in seen.text()
    staff = await t.cmd(t.host, "history")
    assert "Game #1" in staff.text()


# ---- 12. the host settles the EC before any decider has voted ---------------------------------------------


async def test_the_host_decides_the_ec_only_when_the_deciders_disagree(table: Table) -> None:
    t = table
    await open_game(t, rounds=1, garnets=20)
    await draft_cast(t, CAST)
    await round_of(t)
    await t.idle()
    match = await match_of(t)
    assert match.phase == "ec", "nobody completed: all five decide among the tied"
    early = await t.cmd(t.host, "ec", player=t.players["eve"])
    assert "not allowed" in early.text() and "disagree" in early.text(), early.text()
    assert (await match_of(t)).phase == "ec"


# ---- 13. one rate-limited channel holds up every other game --------------------------------------------------


async def test_a_rate_limited_channel_delays_only_itself(table: Table) -> None:
    t = table
    other = t.guild.add_text_channel("crime-city-2")
    fd = t.fd
    await open_game(t, garnets=20)
    await fd.slash(t.host, other, "crimecity new")
    members = [t.guild.add_member(f"x{i}") for i in range(5)]
    for m in members:
        await fd.slash(m, other, "crimecity join")
    await fd.slash(t.host, other, "crimecity start")
    fd.rate_limit_channel(t.chan, 8.0)
    started = time.monotonic()
    for m in members:
        await fd.slash(m, other, "crimecity draft", bid=0)
    for n in NAMES:
        role, char = CAST[n]
        await t.cmd(t.players[n], "draft", bid=0, roles=role, characters=char)
    await fd.wait_for(lambda: any("the draft is resolved" in m.text() for m in fd.channel_messages(other)), 5,
                      "the other game's board waited for the rate-limited channel")
    # its DMs go out after its board (one outbox per target), not after the 8 s of the other channel
    await fd.wait_for(lambda: any("the draft is resolved" in m.text() for m in fd.dms(members[0])), 5,
                      "the other game's DMs waited for the rate-limited channel")
    assert time.monotonic() - started < 6


# ---- 14. panel rows without limit -------------------------------------------------------------------------


async def test_panels_do_not_pile_up(table: Table) -> None:
    t = table
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    for _ in range(30):
        await t.cmd(t.players["andy"], "panel")
    rows = await t.bot.db.fetchone("SELECT COUNT(*) AS n FROM panels")
    assert rows["n"] == 1

