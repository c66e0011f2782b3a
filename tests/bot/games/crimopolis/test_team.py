"""Team mode (R118) through the fake Discord: up to two members share a seat, either acts for it, both get its DMs.

Whole games of team seats (two seats of two members; a team seat beside a solo seat) played by whichever member
the driver picks; `join with:` and its refusals; a team member leaving their place; `admin replace` of one team
member; a member with closed DMs; a restart in the middle of a team's turn. Everything public and every member's
DMs are scanned for the other seats' secrets after every step (`Driver.scan_new`).
"""

from __future__ import annotations

import json
import logging
import random
import re
import time
from typing import Any

import pytest

from rules.crimopolis import GAME
from tests.bot.games.crimopolis.test_game import check_public, fixed_seed  # noqa: F401 (a fixture)
from tests.support.crimopolis import CARD, CpTable, Driver


async def join(t: CpTable, name: str, partner: str | None = None) -> Any:
    options = {} if partner is None else {"with": t.players[partner]}
    return await t.cmd(t.players[name], "join", options=options)


async def open_teams(t: CpTable, seats: list[list[str]], **options: Any) -> None:
    """/crimopolis new team_mode:true, each seat's first member joins, then its second `with` the first."""
    lobby = await t.cmd(t.host, "new", team_mode=True, **options)
    assert "team mode" in lobby.text(), lobby.text()
    for members in seats:
        first = await join(t, members[0])
        assert "joined" in first.text(), first.text()
        for second in members[1:]:
            joined = await join(t, second, members[0])
            assert not joined.ephemeral and f"joined the seat of {' & '.join(members)}" in joined.text(), joined.text()
    started = await t.cmd(t.host, "start")
    assert "started" in started.text(), started.text()
    await t.idle()


def member(t: CpTable, name: str) -> Any:
    if name not in t.players:
        t.players[name] = t.guild.add_member(name)
    return t.players[name]


async def seat_of(t: CpTable, name: str) -> str:
    return next(s for s, names in (await t.seat_members()).items() if name in names)


async def hand(t: CpTable, seat: str) -> set[str]:
    private = GAME.view(await t.state(), seat)["private"][seat]
    return {*private["jobs"], *private["fortunes"]}


async def play_until(t: CpTable, driver: Driver, done: Any, limit: int = 400) -> None:
    for _ in range(limit):
        state = await t.state()
        if done(state, GAME.pending(state)):
            return
        assert await driver.step(), "the game ended first"
    raise AssertionError("not reached")


def picker(rng: random.Random, acted: set[tuple[str, str]]) -> Any:
    def choose(seat: str, members: list[str]) -> str:
        name = rng.choice(members)
        acted.add((seat, name))
        return name

    return choose


async def test_two_team_seats_play_a_whole_game(
    cp: CpTable, fixed_seed: None, caplog: pytest.LogCaptureFixture  # noqa: F811
) -> None:
    t = cp
    caplog.set_level(logging.INFO, logger="bot")
    await open_teams(t, [["ann", "ben"], ["cat", "dan"]], target_prestige=5)
    lobby = t.fd.channel_messages(t.chan)[0].text()
    assert "Players (2/5): ann & ben, cat & dan." in lobby, "the seat count counts seats; a seat names both"
    start = next(p for p in t.posts() if "starts!" in p)
    assert "ann & ben" in start and "cat & dan" in start, start
    # commands.md: the start post states the house options; team mode is one (rulings "Variants", R118)
    assert "team mode (2 members per seat)" in start, start
    outsider = await t.cmd(t.players["eve"], "recruit")
    assert outsider.ephemeral and "not a player" in outsider.text()
    acted: set[tuple[str, str]] = set()
    driver = Driver(t, random.Random(5), chooser=picker(random.Random(11), acted))
    while await driver.step():
        assert driver.steps < 600, "the game should have ended"
    print("steps", driver.steps, driver.by)
    assert driver.steps > 20 and {"command", "act", "panel", "dm_submit"} <= set(driver.by), driver.by
    seats = await t.seat_members()
    assert acted == {(s, n) for s, names in seats.items() for n in names}, "each member's moves were the seat's"
    check_public(t, driver, caplog)
    for a, b in (("ann", "ben"), ("cat", "dan")):
        dms_a, dms_b = t.dm_texts(t.players[a]), t.dm_texts(t.players[b])
        assert dms_a == dms_b and any("You drew:" in d for d in dms_a), f"{a} and {b} get every DM of their seat"
        assert any("**Your turn" in d for d in dms_a)
    assert not set(t.dm_texts(t.players["ann"])) & set(t.dm_texts(t.players["cat"])), "no seat gets another's DMs"
    assert t.dm_texts(t.players["eve"]) == []
    results = next(p for p in reversed(t.posts()) if "final scoring" in p)
    assert re.search(r"ann & ben:.*total \d+", results) and re.search(r"cat & dan:.*total \d+", results), results
    reply = await t.cmd(t.host, "admin export")
    doc = json.loads(reply.attachments[0][1])
    assert sorted(doc["players"]) == ["ann", "cat"], "the replay file names a seat by its first member"
    out = GAME.replay(doc)
    assert out["result"] is not None and all(step["refused"] is None for step in out["steps"])


async def test_a_team_seat_and_a_solo_seat_across_a_restart(cp: CpTable, fixed_seed: None) -> None:  # noqa: F811
    t = cp
    await open_teams(t, [["ann", "ben"], ["cat"]], target_prestige=6)
    team, solo = await seat_of(t, "ann"), await seat_of(t, "cat")
    driver = Driver(t, random.Random(2), chooser=lambda seat, names: names[-1])  # the partner plays the team seat
    await play_until(t, driver, lambda s, p: s.phase == "play" and s.number >= 2 and p.decision == "turn" and (
        s.active == team
    ))
    ann, ben, cat, eve = (t.players[n] for n in ("ann", "ben", "cat", "eve"))

    # Reaction preferences: each member's own; the seat answers the stricter (ask, then never, then auto).
    said = await t.cmd(ann, "prefs", reactions="never")
    assert "stricter of its two members': ask" in said.text(), said.text()
    assert "Reactions: ask" in (await t.cmd(ben, "status")).text()
    await t.cmd(ben, "prefs", reactions="auto")
    mine = (await t.cmd(ann, "status")).text()
    assert "Reactions: never" in mine and "yours: never" in mine, mine
    assert "yours: auto" in (await t.cmd(ben, "status")).text()

    # The seat's DM buttons work for either member: ben's copy of the "your turn" DM opens the seat's panel.
    dm = next(m for m in reversed(t.fd.dms(ben)) if any(c.startswith("host:submit:") for c in m.custom_ids()))
    opened = await t.fd.click(ben, dm, next(c for c in dm.custom_ids() if c.startswith("host:submit:")))
    assert opened.ephemeral and any(c.endswith(":kind") for c in opened.custom_ids()), opened.text()
    board = next(m for m in reversed(t.fd.channel_messages(t.chan)) if any("host:status:" in c for c in m.custom_ids()))
    theirs = await t.fd.click(cat, board, next(c for c in board.custom_ids() if c.startswith("host:status:")))
    assert not set(CARD.findall(theirs.text())) & await hand(t, team), "My status shows the clicker's own seat"
    outsider = await t.fd.click(eve, board, next(c for c in board.custom_ids() if c.startswith("host:status:")))
    assert not CARD.search(outsider.text()), outsider.text()
    early = await t.cmd(cat, "recruit")
    assert early.ephemeral and "✅" not in early.text(), "the other seat may not act for the team"
    panel = await t.cmd(ben, "panel")
    kind = next(c for c in panel.custom_ids() if c.endswith(":kind"))
    panel = await t.fd.select(ben, panel, kind, ["move"])
    hours = (await t.state()).hours

    await t.stop_bot()
    await t.start_bot()

    status = await t.cmd(ben, "status")
    assert f"{hours} hours left this turn" in status.text() and "Your jobs" in status.text()
    assert "Reactions: never" in (await t.cmd(ann, "status")).text(), "preferences survive the restart"
    for part in ("p1", "p2", "p3"):  # the partner's panel from before the restart, its picks kept
        cid = next(c for c in panel.custom_ids() if c.endswith(f":{part}"))
        panel = await t.fd.select(ben, panel, cid, [panel.component(cid)["options"][0]["value"]])
    done = await t.fd.click(ben, panel, next(c for c in panel.custom_ids() if c.endswith(":go")))
    assert "✅" in done.text(), done.text()
    await t.idle()
    for _ in range(25):  # on across the restart, the team's moves by its first member now
        driver.chooser = lambda seat, names: names[0]
        if not await driver.step():
            break
    assert driver.findings == [], "\n".join(driver.findings[:10])
    assert t.dm_texts(ann) == t.dm_texts(ben) and len(t.dm_texts(ann)) > 3
    team_cards = await hand(t, team)
    assert not any(c in team_cards for d in t.dm_texts(cat) for c in CARD.findall(d)), "cat sees none of the team's"
    solo_cards = await hand(t, solo)
    assert not any(c in solo_cards for d in t.dm_texts(ben) for c in CARD.findall(d))


async def test_join_with_refusals_and_leaving_a_team_seat(cp: CpTable) -> None:
    t = cp
    for name in ("fay", "gus"):
        member(t, name)
    await t.cmd(t.host, "new", team_mode=True)
    absent = await join(t, "ann", "ben")
    assert absent.ephemeral and "ben is not in this lobby" in absent.text(), absent.text()
    await join(t, "ann")
    itself = await join(t, "ben", "ben")
    assert itself.ephemeral and "with yourself" in itself.text(), itself.text()
    await join(t, "ben", "ann")
    full = await join(t, "cat", "ann")
    assert full.ephemeral and "at most 2 members" in full.text(), full.text()
    seated = await join(t, "ben", "ann")
    assert seated.ephemeral and "already in this game" in seated.text()
    for name in ("cat", "dan", "eve", "fay"):
        await join(t, name)
    no_seat = await join(t, "gus")
    assert "The lobby is full" in no_seat.text()
    shared = await join(t, "gus", "cat")
    assert "Players (5/5): ann & ben, cat & gus, dan, eve, fay." in shared.text(), "five seats, seven members"
    left = await t.cmd(t.players["ben"], "leave")
    assert "Players (5/5): ann, cat & gus, dan, eve, fay." in left.text(), left.text()
    left = await t.cmd(t.players["cat"], "leave")
    assert "Players (5/5): ann, gus, dan, eve, fay." in left.text(), "the partner keeps the seat (and its place)"
    left = await t.cmd(t.players["gus"], "leave")
    assert "Players (4/5): ann, dan, eve, fay." in left.text()
    await t.idle()
    assert "Players (4/5): ann, dan, eve, fay." in t.fd.channel_messages(t.chan)[0].text(), "the lobby post follows"
    rows = await t.bot.db.fetchall("SELECT seat, user_name, partner_name FROM seats ORDER BY join_seq")
    assert [(r["seat"], r["user_name"], r["partner_name"]) for r in rows] == [
        ("p1", "ann", None), ("p3", "dan", None), ("p4", "eve", None), ("p5", "fay", None),
    ]  # fmt: skip


async def test_replacing_one_team_member_and_a_member_with_closed_dms(cp: CpTable, fixed_seed: None) -> None:  # noqa: F811
    t = cp
    ann, ben = t.players["ann"], t.players["ben"]
    t.fd.close_dms(ben)
    await open_teams(t, [["ann", "ben"], ["cat"]], target_prestige=6)
    note = await t.fd.wait_for(lambda: next((p for p in t.posts() if "could not send you a direct" in p), None))
    assert f"<@{ben.id}>" in note and f"<@{ann.id}>" not in note and not CARD.search(note), note
    assert any("You drew:" in d for d in t.dm_texts(ann)), "ann still gets the seat's DMs"
    team = await seat_of(t, "ann")
    inbox = (await t.cmd(ben, "status")).text()
    assert "Inbox" in inbox and all(c in inbox for c in GAME.view(await t.state(), team)["private"][team]["jobs"])
    driver = Driver(t, random.Random(4))
    await play_until(t, driver, lambda s, p: s.phase == "play" and p.decision == "turn")
    await t.cmd(ben, "prefs", reactions="never")

    fay = member(t, "fay")
    before = len(t.dm_texts(ann))
    reply = await t.cmd(t.host, "admin replace", old=ben, new=fay)
    assert "fay now holds ben's place in the seat of ann & fay" in reply.text(), reply.text()
    await t.idle()
    (brief,) = t.dm_texts(fay)
    assert "you now hold a seat" in brief and f"<@{fay.id}> never" in brief, "the newcomer: hands and preference"
    assert all(c in brief for c in GAME.view(await t.state(), team)["private"][team]["jobs"])
    assert len(t.dm_texts(ann)) == before, "the member who stays is not briefed again"
    assert any("fay takes over ben's seat" in p for p in t.posts())
    gone = await t.cmd(ben, "recruit")
    assert "not a player" in gone.text(), "the replaced member may no longer act"
    driver.chooser = lambda seat, names: names[-1]  # fay plays the team seat
    for _ in range(12):
        assert await driver.step()
    assert t.dm_texts(fay)[1:] == t.dm_texts(ann)[before:], "fay gets the seat's DMs from now on"
    assert len(t.dm_texts(fay)) > 1

    gus = member(t, "gus")
    reply = await t.cmd(t.host, "admin replace", old=ann, new=gus)
    assert "gus now holds ann's place in the seat of gus & fay" in reply.text(), reply.text()
    await t.idle()
    assert "you now hold a seat" in t.dm_texts(gus)[0]
    status = (await t.cmd(gus, "status")).text()
    assert "Your jobs" in status and "yours: ask" in status, status
    assert "not a player" in (await t.cmd(ann, "recruit")).text()


async def test_a_team_seats_dm_reaches_each_member_once_through_a_lost_answer_and_a_restart(cp: CpTable) -> None:
    """Each member's copy has a nonce of its own: a copy resent after a lost answer or a crash between the two
    members' copies is dropped by Discord, and the other member's copy is not sent twice."""
    from bot.host import DM
    from bot.storage import games as games_repo

    t = cp
    fd, ann, ben = t.fd, t.players["ann"], t.players["ben"]
    to_ben = rf"^/channels/{fd.dm_channel(ben).id}/messages$"
    fd.fail_next(to_ben, 503, method="POST", after=True)  # ben's first copy is created, its answer lost
    await open_teams(t, [["ann", "ben"], ["cat"]])
    await fd.wait_for(lambda: not fd.faults.pending, 10, "fault not hit")
    t.bot.delivery.clock = lambda: time.time() + 3600  # the retry's back-off passes
    t.bot.delivery.kick()
    await t.idle()
    assert len(fd.api.nonce_replays) == 1, "ben's copy was resent with its nonce, and dropped"
    assert t.dm_texts(ann) == t.dm_texts(ben) and len(set(t.dm_texts(ann))) == len(t.dm_texts(ann)) > 0

    team = await seat_of(t, "ann")
    fd.fail_next(to_ben, 503, method="POST")  # ann's copy goes, ben's fails: the row waits for its retry
    async with t.bot.db.read() as conn:
        game = await games_repo.get_game(conn, 1)
    assert game is not None
    await t.bot.host.hosting.post(game, [DM(team, "a note for the seat")])
    await fd.wait_for(lambda: not fd.faults.pending, 10, "fault not hit")
    await fd.wait_for(lambda: "a note for the seat" in t.dm_texts(ann), 10, "ann's copy")
    await t.stop_bot()  # the process ends before the retry: it remembers nothing
    await t.start_bot()
    t.bot.delivery.clock = lambda: time.time() + 3600
    t.bot.delivery.kick()
    await fd.wait_for(lambda: "a note for the seat" in t.dm_texts(ben), 10, "ben's copy")
    await t.idle()
    assert t.dm_texts(ann).count("a note for the seat") == 1 and t.dm_texts(ben).count("a note for the seat") == 1
    assert len(fd.api.nonce_replays) == 2, "ann's copy was resent after the restart, and dropped"
    assert "a note for the seat" not in t.dm_texts(t.players["cat"])


def test_other_games_keep_one_member_per_seat(cp: CpTable) -> None:
    commands = {c["name"]: c for c in cp.fd.commands()}
    for kind in ("crimecity", "organizedcrime"):
        subs = {o["name"]: o for o in commands[kind]["options"]}
        assert "join" in subs and not subs["join"].get("options"), f"/{kind} join has no `with`"
        assert "team_mode" not in {o["name"] for o in subs["new"].get("options", [])}
    join_opts = {o["name"] for o in {o["name"]: o for o in commands["crimopolis"]["options"]}["join"]["options"]}
    assert join_opts == {"with"}


async def test_a_team_seats_reaction_prompt_and_reminder_reach_both_members(
    cp: CpTable, fixed_seed: None  # noqa: F811
) -> None:
    t = cp
    ann, ben, cat = t.players["ann"], t.players["ben"], t.players["cat"]
    await open_teams(t, [["ann", "ben"], ["cat"]], target_prestige=8)
    team = await seat_of(t, "ann")
    await t.cmd(ann, "prefs", reactions="never")  # ben asks: the seat asks (the stricter)
    driver = Driver(t, random.Random(0), chooser=lambda seat, names: names[0])
    await play_until(t, driver, lambda s, p: p is not None and p.decision == "react" and p.awaited[0] == team)
    await t.idle()
    prompts = {who.name: next(m for m in reversed(t.fd.dms(who)) if "React?" in m.text()) for who in (ann, ben)}
    assert prompts["ann"].text() == prompts["ben"].text() and prompts["ann"].buttons() == prompts["ben"].buttons()
    assert not any("React?" in d for d in t.dm_texts(cat))
    done = await t.fd.click(ben, prompts["ben"], label="No reaction")  # the partner answers on his copy
    assert done.ephemeral and "✅ No reaction" in done.text(), done.text()
    await t.idle()
    again = await t.fd.click(ann, prompts["ann"], label="No reaction")
    assert "closed" in again.text(), "the seat has answered: the first member's copy is closed too"

    await play_until(t, driver, lambda s, p: p is not None and p.decision == "turn" and s.active == team)
    await t.cmd(t.host, "admin reminder", hours=0.001)
    await t.cmd(t.host, "admin deadline", hours=0.0013)  # the reminder comes ~1 s from now
    await t.fd.wait_for(lambda: all(any("reminder" in d for d in t.dm_texts(w)) for w in (ann, ben)), 5, "reminders")
    await t.idle()
    assert [d for d in t.dm_texts(ann) if "reminder" in d] == [d for d in t.dm_texts(ben) if "reminder" in d]
    assert not any("reminder" in d for d in t.dm_texts(cat))


async def test_a_refused_replace_leaves_every_preference_as_it_was(cp: CpTable) -> None:
    t = cp
    ann, ben = t.players["ann"], t.players["ben"]
    await open_teams(t, [["ann", "ben"], ["cat"]])
    await t.cmd(ann, "prefs", reactions="never")
    await t.cmd(ben, "prefs", reactions="auto")
    refused = await t.cmd(t.host, "admin replace", old=ann, new=ben)
    assert "already" in refused.text(), refused.text()
    assert "yours: auto" in (await t.cmd(ben, "status")).text()
    assert "yours: never" in (await t.cmd(ann, "status")).text()
    not_host = await t.cmd(t.players["cat"], "admin replace", old=ann, new=t.players["eve"])
    assert "host" in not_host.text().lower(), not_host.text()
    assert "yours: never" in (await t.cmd(ann, "status")).text()
