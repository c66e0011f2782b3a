"""The `/crimopolis` command surface is commands.md's contract: names and options as written, within Discord's
limits; the lobby, help, rules pages, board, status and autocomplete answer as they should."""

from __future__ import annotations

import json
import random
from typing import Any

from rules.crimopolis import GAME
from tests.bot.games.crimopolis.test_game import fixed_seed  # noqa: F401 (a fixture)
from tests.bot.games.crimopolis.test_restart import active, to_turn
from tests.support.crimopolis import CARD, CpTable, Driver, open_game
from tests.support.lobbies import lobby_verbs_in_a_dm

SUBCOMMANDS = {
    "new": {
        "variant",
        "turn_hours",
        "reaction_minutes",
        "reminder_hours",
        "influence_on_the_streets",
        "big_business",
        "team_mode",
        "timeout_time",
        "first_player",
        "target_prestige",
        "gangsters",
        "clock_tiles_first",
    },
    "join": {"with"},
    "leave": set(),
    "start": set(),
    "act": {"action"},
    "move": {"from", "to", "count"},
    "recruit": {"to"},
    "occupy": {"block", "from"},
    "takeover": {"block", "from"},
    "job": {"card", "block", "from", "fortunes"},
    "abort": {"card"},
    "invest": set(),
    "fortune": {"card", "target"},
    "redraw": set(),
    "end": set(),
    "decide": {"choice"},
    "panel": set(),
    "prefs": {"reactions"},
    "status": set(),
    "board": {"public"},
    "rules": {"topic"},
    "help": set(),
    "history": set(),
}
ADMIN = {"resolve": set(), "deadline": {"hours"}, "reminder": {"hours"}, "pause": set(), "resume": set()}
ADMIN |= {"end": {"reveal"}, "replace": {"old", "new"}, "export": set()}
EXTRA = {"game", "page"}  # the `game` option of commands used in DMs (commands.md), history's page


def test_the_command_surface_is_the_contract(cp: CpTable) -> None:
    (cmd,) = [c for c in cp.fd.commands() if c["name"] == "crimopolis"]
    subs = {o["name"]: o for o in cmd["options"]}
    assert set(subs) == set(SUBCOMMANDS) | {"admin"} and len(subs) == 24
    for name, wanted in SUBCOMMANDS.items():
        got = {o["name"] for o in subs[name].get("options", [])}
        assert wanted <= got and got - wanted <= EXTRA, (name, got)
    admin = {o["name"]: o for o in subs["admin"]["options"]}
    assert set(admin) == set(ADMIN)
    for name, wanted in ADMIN.items():
        got = {o["name"] for o in admin[name].get("options", [])}
        assert wanted <= got and got - wanted <= EXTRA, (name, got)
    variant = next(o for o in subs["new"]["options"] if o["name"] == "variant")
    assert [c["value"] for c in variant["choices"]] == ["standard", "lucky_speed", "deeper_strategy"]
    prefs = next(o for o in subs["prefs"]["options"] if o["name"] == "reactions")
    assert [c["value"] for c in prefs["choices"]] == ["ask", "never", "auto"]

    def size(node: dict) -> int:
        return len(node["name"]) + len(node.get("description", "")) + sum(map(size, node.get("options", [])))

    assert size(cmd) <= 8000, "a top-level command's names and descriptions total at most 8,000 characters"


async def test_lobby_help_rules_and_team_mode(cp: CpTable) -> None:
    t = cp
    lobby = await t.cmd(t.host, "new", first_player=t.players["ben"], gangsters=6)
    assert "ben" in lobby.text() or "<@" in lobby.text()
    await t.cmd(t.players["ann"], "join")
    early = await t.cmd(t.host, "start")
    assert "needs 2 to 5 players" in early.text()
    team = await t.cmd(t.players["cat"], "join", options={"with": t.players["ann"]})
    assert team.ephemeral and "not in team mode" in team.text(), "a game without team_mode shares no seat"
    await t.cmd(t.players["cat"], "join")
    left = await t.cmd(t.players["cat"], "leave")
    assert "left" in left.text()
    await t.cmd(t.players["cat"], "join")
    no_ben = await t.cmd(t.host, "start")
    assert "chosen to start but has not joined" in no_ben.text()
    await t.cmd(t.players["ben"], "join")
    await t.idle()
    lobby_msg = t.fd.channel_messages(t.chan)[0]
    assert "Players (3/5): ann, cat, ben" in lobby_msg.text(), "the lobby message is edited as players join"
    assert {"Join", "Leave", "Start"} <= {b["label"] for b in lobby_msg.buttons()}
    started = await t.fd.click(t.host, lobby_msg, label="Start")
    assert "started" in started.text()
    await t.idle()
    start = next(p for p in t.posts() if "starts!" in p)
    assert "1. 🟡 ben (yellow), 2. 🟢 ann (green), 3. 🔴 cat (red)" in start, (
        "join order, rotated so the first player sits first"
    )
    assert "6 gangsters" in start
    help_ = await t.cmd(t.players["ann"], "help")
    assert help_.ephemeral and "/crimopolis" in help_.text()
    index = await t.cmd(t.players["ann"], "rules")
    assert "notation" in index.text() and "job-cards" in index.text()
    jobs = await t.cmd(t.players["ann"], "rules", topic="job-cards")
    assert "J01" in jobs.text() and "J48" in jobs.text()
    topics = await t.ac(t.players["ann"], "rules", "topic")
    assert 10 <= len(topics) <= 25
    assert all(len(c["name"]) <= 100 for c in topics)


async def test_board_status_and_autocomplete(cp: CpTable, fixed_seed: None) -> None:  # noqa: F811
    t = cp
    await open_game(t, ["ann", "ben"], target_prestige=6)
    driver = Driver(t, random.Random(3))
    await to_turn(t, driver, 2)
    name, member = await active(t)
    other = t.players["ben" if name == "ann" else "ann"]
    state = await t.state()
    seats = {n: s for s, n in (await t.seat_names()).items()}
    hand = GAME.view(state, seats[name])["private"][seats[name]]

    status = await t.cmd(member, "status")
    assert status.ephemeral and all(card in status.text() for card in hand["jobs"])
    assert "Pending: **turn**" in status.text() and "Reactions: ask" in status.text()
    not_theirs = await t.cmd(other, "status")
    assert not any(card in not_theirs.text() for card in hand["jobs"])

    board = await t.cmd(other, "board")
    assert board.ephemeral and board.attachments and "Turn 2" in board.text()
    public = await t.cmd(other, "board", public=True)
    assert not public.ephemeral and public.attachments
    assert not set(CARD.findall(public.text())) & set(hand["jobs"])

    choices = await t.ac(member, "act", "action")
    assert 1 <= len(choices) <= 25 and all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in choices)
    ends = await t.ac(member, "act", "action", action="end")
    assert [c["value"] for c in ends] == ["end"], "end is always reachable by typing it"
    assert await t.ac(other, "act", "action") == [], "nothing is offered to a player who does not decide"
    froms = await t.ac(member, "move", "from")
    assert froms and all(c["value"] for c in froms)
    tos = await t.ac(member, "move", "to", **{"from": froms[0]["value"]})
    assert tos
    counts = await t.ac(member, "move", "count", **{"from": froms[0]["value"], "to": tos[0]["value"]})
    assert counts and all(1 <= c["value"] <= 3 for c in counts)
    # the options already filled in narrow the others, whichever order they came in (commands.md)
    far = (await t.ac(member, "move", "to", **{"from": froms[-1]["value"]}))[-1]["value"]
    narrowed = await t.ac(member, "move", "from", to=far)
    assert narrowed and {c["value"] for c in narrowed} <= {c["value"] for c in froms}
    for c in narrowed:
        assert far in {x["value"] for x in await t.ac(member, "move", "to", **{"from": c["value"]})}
    assert await t.ac(member, "move", "from", to="99,99") == [], "no gangster can go there"
    for k in (1, 3):  # `to` honours a count filled in first
        narrowed = await t.ac(member, "move", "to", **{"from": froms[0]["value"], "count": k})
        assert narrowed or k > 1, "one gangster can always go"
        for c in narrowed:
            assert c["value"] in {x["value"] for x in tos}
            assert k in {x["value"] for x in await t.ac(member, "move", "count", **{"from": froms[0]["value"],
                                                                                     "to": c["value"]})}
    assert await t.ac(member, "move", "from", count=3) == [] or all(
        3 in {x["value"] for x in await t.ac(member, "move", "count", **{"from": c["value"]})}
        for c in await t.ac(member, "move", "from", count=3))
    refused = await t.cmd(member, "move", options={"from": froms[0]["value"], "to": froms[0]["value"], "count": 1})
    assert refused.ephemeral and "not allowed" in refused.text()
    garbage = await t.cmd(member, "act", action="fly to the moon")
    assert "Could not read" in garbage.text()
    unknown = await t.cmd(member, "act", action="abort J99")
    assert "Unknown card 'J99' (card)" in unknown.text() and "move." not in unknown.text(), unknown.text()
    not_yours = await t.cmd(other, "end")
    assert f"`end` — It is {name}'s decision, not yours (R108)" in not_yours.text(), not_yours.text()
    export = await t.cmd(t.players["ann"], "admin export")
    assert "Only the game's host" in export.text(), "the export holds every secret: host only"
    host_export = await t.cmd(t.host, "admin export")
    assert json.loads(host_export.attachments[0][1])["format"] == "crimopolis-replay/1"


async def test_replace_hands_the_seat_over(cp: CpTable, fixed_seed: None) -> None:  # noqa: F811
    t = cp
    await open_game(t, ["ann", "ben"], target_prestige=6)
    driver = Driver(t, random.Random(3))
    await to_turn(t, driver, 2)
    state = await t.state()
    seats = {n: s for s, n in (await t.seat_names()).items()}
    hand = GAME.view(state, seats["ann"])["private"][seats["ann"]]
    reply = await t.cmd(t.host, "admin replace", old=t.players["ann"], new=t.players["eve"])
    assert "eve now holds ann's seat" in reply.text()
    await t.idle()
    brief = t.dm_texts(t.players["eve"])[-1]
    assert "you now hold a seat" in brief and all(c in brief for c in hand["jobs"]) and "Reactions:" in brief
    running = await t.bot.db.fetchone("SELECT deadline_at FROM clocks WHERE deadline_at IS NOT NULL")
    assert f"deadline <t:{int(running['deadline_at'])}:" in brief and "paused" not in brief, brief
    assert any("takes over" in p for p in t.posts()[-2:])
    status = await t.cmd(t.players["eve"], "status")
    assert all(c in status.text() for c in hand["jobs"])


DEFERRED_MESSAGE = 5  # Discord's "deferred channel message" callback type


async def test_commands_that_touch_the_game_defer_first(cp: CpTable) -> None:
    """commands.md: commands that call the engine or write the database defer first (ephemerally for private
    answers) and answer in a follow-up; a refusal of a public command still reaches only its caller."""
    t = cp
    ann, ben, eve = t.players["ann"], t.players["ben"], t.players["eve"]

    async def deferred(who: Any, command: str, *, public: bool = False, **options: Any) -> str:
        reply = await t.cmd(who, command, **options)
        seen = t.fd.interactions[-1]
        assert seen.response_type == DEFERRED_MESSAGE, (command, seen)
        assert reply.ephemeral is not public, (command, reply.text())
        return str(reply.text())

    no_game = await deferred(ann, "board", public=False, options={"public": True})
    assert "game" in no_game, "a public board's refusal (no game here) reaches only its caller"
    assert "Crimopolis" in await deferred(t.host, "new", public=True)
    assert "Manage Server" in await deferred(ann, "new"), "a refusal stays private"
    assert "already has a game" in await deferred(t.host, "new")
    assert "joined" in await deferred(ann, "join", public=True)
    assert "already in this game" in await deferred(ann, "join")
    assert "left" in await deferred(ann, "leave", public=True)
    assert "not in this game" in await deferred(ann, "leave")
    for name in ("ann", "ben"):
        await deferred(t.players[name], "join", public=True)
    await deferred(t.host, "start")
    await t.idle()
    assert "your status" in await deferred(ann, "status")
    assert "Reaction windows" in await deferred(ben, "prefs", reactions="never")
    assert "New deadline" in await deferred(t.host, "admin deadline", hours=5.0)
    assert "before each deadline" in await deferred(t.host, "admin reminder", hours=2.0)
    assert "paused" in await deferred(t.host, "admin pause")
    assert "run again" in await deferred(t.host, "admin resume")
    assert "eve now holds" in await deferred(t.host, "admin replace", old=ann, new=eve)
    assert "Only the game's host" in await deferred(ben, "admin pause")


async def test_lobby_verbs_in_a_dm_take_the_game_option(cp: CpTable) -> None:
    # commands.md: in a DM with several games, the `game` option (autocomplete) picks one; `start` and `leave` too
    t = cp
    players = [t.players["ann"], t.players["ben"]]
    started, other = await lobby_verbs_in_a_dm(t.fd, t.guild, t.chan, t.host, players, "crimopolis")
    assert "has started" in started.text(), started.text()
    statuses = {r["channel_id"]: r["status"] for r in await t.bot.db.fetchall("SELECT channel_id, status FROM games")}
    assert statuses == {t.chan.id: "lobby", other.id: "running"}, statuses


async def test_a_host_who_plays_gets_the_export_with_a_warning(cp: CpTable, fixed_seed: None) -> None:  # noqa: F811
    # commands.md: host only; "a host who also plays should not export during the game". The file goes to him
    # with that warning; a member with Manage Server who holds a seat in someone else's game is not that host.
    t = cp
    mod = t.guild.add_member("mod", manage_guild=True)
    assert "Crimopolis" in (await t.cmd(t.host, "new")).text()
    for member in (t.host, mod, t.players["ann"]):
        assert "joined" in (await t.cmd(member, "join")).text()
    assert "started" in (await t.cmd(t.host, "start")).text()
    await t.idle()
    refused = await t.cmd(mod, "admin export")
    assert refused.ephemeral and not refused.attachments and "You hold a seat in this game" in refused.text()
    warned = await t.cmd(t.host, "admin export")
    assert warned.ephemeral and "You are also a player" in warned.text(), warned.text()
    assert json.loads(warned.attachments[0][1])["format"] == "crimopolis-replay/1"
    await t.cmd(t.host, "admin end")
    await t.idle()
    after = await t.cmd(t.host, "admin export")
    assert after.attachments and "You are also a player" not in after.text(), after.text()


async def test_another_games_command_in_this_channel_says_which_game_is_here(cp: CpTable, fixed_seed: None) -> None:  # noqa: F811
    t = cp
    await open_game(t, ["ann", "ben"])
    ann = t.players["ann"]
    assert "your status" in (await t.cmd(ann, "status")).text()  # the bot now remembers this channel's game
    for command, options in (("organizedcrime status", {}), ("organizedcrime vote", {"side": "abstain"})):
        reply = await t.fd.slash(ann, t.chan, command, **options)
        assert reply.ephemeral and "This channel's game is Crimopolis: use" in reply.text(), (
            command, reply.text())
    # a value Discord would not offer (a stale or made-up request) is refused by name, not an apology
    junk = await t.cmd(ann, "prefs", reactions="junk")
    assert "reactions must be one of ask, never, auto" in junk.text(), junk.text()


async def test_a_turn_length_out_of_range_is_refused_by_its_own_name(cp: CpTable) -> None:
    for hours in (0, 2000, 1e-9):
        reply = await cp.cmd(cp.host, "new", turn_hours=hours)
        assert "turn_hours must be between 0.001 and 1440" in reply.text() and "deadline_hours" not in reply.text(), (
            hours, reply.text())
