"""The command surface of commands.md, one behaviour at a time: refusals that name the rule and change
nothing, whole commands checked before anything is sent, autocomplete of legal choices only, `move … to`,
the panel's custom ids and layout, the board, the rules pages, help, and the admin commands' rights."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from bot.games.organizedcrime.choices import legal
from bot.games.organizedcrime.moves import context_of
from bot.games.organizedcrime.rules_pages import TOPICS
from rules.organizedcrime.game import GAME
from tests.support.lobbies import lobby_verbs_in_a_dm
from tests.support.octable import fixed_chance, oc, state_of, two_player_turn
from tests.support.table import Table

PANEL_ID = re.compile(r"^oc:panel:\d+:[0-9a-f]{12}:[a-z]+$")


def colour(state, seat: str) -> str:
    return GAME.view(state, None)["players"][seat]["colour"]


async def test_refusals_name_the_rule_and_change_nothing(table: Table, monkeypatch) -> None:
    fixed_chance(monkeypatch, "refusals")
    t = table
    state, who, active = await two_player_turn(t)
    other = next(s for s in who if s != active)
    before = len(t.posts())
    reply = await oc(t, who[other], "roll")
    assert reply.ephemeral and "not allowed" in reply.text() and "not your turn" in reply.text(), reply.text()
    assert who[active].name in reply.text(), "names the player whose turn it is, not a seat id"
    early = await oc(t, who[active], "roll")
    assert "R34" in early.text() and "Declare a mover before the roll" in early.text()
    passing = await oc(t, who[active], "pass")
    assert "R16" in passing.text()
    junk = await oc(t, who[active], "path", item="fly to the moon")
    assert "Could not read" in junk.text() or "not an action" in junk.text(), junk.text()
    await t.idle()
    assert len(t.posts()) == before, "a refused command posts nothing"
    assert (await state_of(t)) == state


async def test_declare_is_checked_whole_before_anything_is_sent(table: Table, monkeypatch) -> None:
    fixed_chance(monkeypatch, "declare")
    t = table
    state, who, active = await two_player_turn(t)
    me = colour(state, active)
    before = len(t.posts())
    # the second mover is the same piece: the whole command is refused, the first declaration not sent
    reply = await oc(t, who[active], "declare", piece="boss", direction="right", piece2=f"{me}:0", direction2="left")
    assert "not allowed" in reply.text() and "R34" in reply.text(), reply.text()
    await t.idle()
    assert len(t.posts()) == before and (await state_of(t))["ts"]["movers"] == []
    choices = await t.fd.autocomplete(who[active], t.chan, "organizedcrime declare", focused="piece")
    assert [c["value"] for c in choices] == [f"{me}:0"] and "(Boss)" in choices[0]["name"]
    other = next(s for s in who if s != active)
    assert await t.fd.autocomplete(who[other], t.chan, "organizedcrime declare", focused="piece") == []
    reply = await oc(t, who[active], "declare", piece="boss", direction="right", roll=True)
    assert "declares" in reply.text() and "rolls" in reply.text() and "Next: move" in reply.text(), reply.text()
    await t.idle()
    # One new message, the turn's running one: posted at the declaration, edited at the roll.
    messages = t.fd.channel_messages(t.chan)[before:]
    assert len(messages) == 1, "one turn message that changes, not a post per action"
    text = messages[0].text()
    assert "declares" in text and "rolls" in text.split("declares")[1], text
    assert sum(r.method == "PATCH" and r.path.endswith(f"/messages/{messages[0].id}") for r in t.fd.requests) == 1


async def _boss_rolled(t: Table, monkeypatch: Any, seed: str, direction: str) -> tuple[Any, str, str, int]:
    """A two-player game whose active player declared his Boss `direction` and rolled (chance fixed by `seed`):
    the members by seat, the active seat, its colour and the dice's total."""
    fixed_chance(monkeypatch, seed)
    state, who, active = await two_player_turn(t)
    await oc(t, who[active], "declare", piece="boss", direction=direction, roll=True)
    return who, active, colour(state, active), sum((await state_of(t))["ts"]["dice"])


async def test_move_to_a_destination_plays_the_whole_path(table: Table, monkeypatch) -> None:
    t = table
    who, active, me, share = await _boss_rolled(t, monkeypatch, "move-to", "left")
    state = await state_of(t)
    shares = await t.fd.autocomplete(who[active], t.chan, "organizedcrime move", focused="share", piece=f"{me}:0")
    assert [c["value"] for c in shares] == [share]
    found = await t.fd.autocomplete(who[active], t.chan, "organizedcrime move", focused="to", piece=f"{me}:0",
                                    share=share)
    assert found and all(re.match(r"^[oihb]\d{1,2}$", c["value"]) for c in found), found
    assert all(" (via " in c["name"] for c in found)
    wrong = await oc(t, who[active], "move", piece=f"{me}:0", share=share, to="o99")
    assert "not a destination" in wrong.text()
    # a share not on the dice, with `to`: the rules' own refusal, at once (no search of a 10**6-step walk)
    for bad in (share + 1, 0, 10**6):
        refused = await oc(t, who[active], "move", piece=f"{me}:0", share=bad, to="o04")
        assert refused.ephemeral and f"The share must be one of [{share}]" in refused.text(), refused.text()
    target = found[-1]["value"]
    before = len(t.posts())
    reply = await oc(t, who[active], "move", piece=f"{me}:0", share=share, to=target)
    assert f"lands on {target}" in reply.text() or "Next:" in reply.text(), reply.text()
    await t.idle()
    posts = t.posts()[before:]
    assert len(posts) == 1 and "lands on" in posts[0], "the landing, with the board: a new message"
    # The move's steps went into the turn's running message (posted at the declaration), edited at each step.
    running = next(p for p in t.posts()[:before] if "declares" in p)
    assert running.count(" → ") >= share - 1, running
    assert f"→ {target}" in posts[-1] and t.fd.channel_messages(t.chan)[-1].attachments, "the board ends the move"
    state = await state_of(t)
    assert state["pl"][active]["pieces"][f"{active}:0"] == target


async def test_autocomplete_offers_legal_choices_only(table: Table, monkeypatch) -> None:
    fixed_chance(monkeypatch, "autocomplete")
    t = table
    state, who, active = await two_player_turn(t)
    me = colour(state, active)
    # no Money card, no Corrupt Official card: nothing to offer
    assert await t.fd.autocomplete(who[active], t.chan, "organizedcrime cash", focused="card") == []
    assert await t.fd.autocomplete(who[active], t.chan, "organizedcrime buy official", focused="card") == []
    counts = await t.fd.autocomplete(who[active], t.chan, "organizedcrime buy hitmen", focused="count")
    assert [c["value"] for c in counts] == list(range(1, 16)), "$150,000 buys at most 15"
    await oc(t, who[active], "buy hitmen", count=2)
    await oc(t, who[active], "declare", piece=f"{me}:1", direction="right", roll=True)
    await oc(t, who[active], "move", piece=f"{me}:1", share=sum((await state_of(t))["ts"]["dice"]))
    state = await state_of(t)
    items = await t.fd.autocomplete(who[active], t.chan, "organizedcrime path", focused="item")
    turn = await t.bot.host.play.turn(_caller(who[active], t), "organizedcrime")
    expected = [a for a in legal(context_of(turn)) if a["act"] in ("step", "rub", "hit", "stop")]
    assert len(items) == len(expected) and all(c["value"].startswith(("step ", "rub ", "hit ", "stop"))
                                               for c in items)
    assert all("count 1 of" in c["name"] for c in items if c["value"].startswith("step"))
    typed = await t.fd.autocomplete(who[active], t.chan, "organizedcrime path", focused="item", item="zzz")
    assert typed == []


def _caller(member, t: Table):
    from bot.host import Caller

    return Caller(member.id, member.name, member.name, guild_id=t.guild.id, channel_id=t.chan.id)


async def test_the_panel_carries_only_nonces_and_fits_discord(table: Table, monkeypatch) -> None:
    fixed_chance(monkeypatch, "panel")
    t = table
    state, who, active = await two_player_turn(t)
    panel = await oc(t, who[active], "panel")
    assert panel.ephemeral and "your panel" in panel.text() and "it is your turn" in panel.text()
    for custom_id in panel.custom_ids():
        assert PANEL_ID.match(custom_id) and len(custom_id) <= 100, custom_id
    rows = panel.components
    assert len(rows) <= 5
    for select in panel.selects():
        assert 1 <= len(select["options"]) <= 25
        values = [o["value"] for o in select["options"]]
        assert len(set(values)) == len(values) and all(len(v) <= 100 for v in values)
    # commands.md "Writing an action": the panel's select values carry the notation of its actions
    me = colour(state, active)
    assert {o["value"] for o in panel.selects()[0]["options"]} >= {f"declare {me}:0", "buy hitmen 1", "buy hitmen 15"}
    labels = [b["label"] for b in panel.buttons()]
    assert "Refresh" in labels and "Income" not in labels, "income is 0 on the first turn: no button"
    main = panel.selects()[0]
    pick = next(o for o in main["options"] if o["label"].startswith("Declare"))
    panel = await t.fd.select(who[active], panel, main["custom_id"], [pick["value"]])
    assert "choose the direction" in panel.text()
    second = panel.selects()[1]
    assert {o["label"] for o in second["options"]} >= {f"Declare {colour(state, active)}:0 (Boss) right"}
    assert {o["value"] for o in second["options"]} == {f"declare {me}:0 right", f"declare {me}:0 left"} | {
        f"declare {me}:0 {d} attack {colour(state, s)}" for d in ("right", "left") for s in who if s != active}
    choice = next(o for o in second["options"] if o["value"] == f"declare {me}:0 right")
    panel = await t.fd.select(who[active], panel, second["custom_id"], [choice["value"]])
    assert "✅" in panel.text() and "declares" in panel.text()
    roll = panel.component(label="Roll")
    panel = await t.fd.click(who[active], panel, roll["custom_id"])
    assert "rolls" in panel.text() and "Move " in panel.selects()[0]["options"][0]["label"]
    # an old panel (of a decision now past) answers with the options of now, executing nothing
    old = panel
    await oc(t, who[active], "move", piece=f"{colour(state, active)}:0", share=sum((await state_of(t))["ts"]["dice"]))
    again = await t.fd.click(who[active], old, old.component(label="Refresh")["custom_id"])
    assert "earlier moment" in again.text() and "now: the move" in again.text()


async def test_board_rules_help_and_admin_rights(table: Table, monkeypatch) -> None:
    fixed_chance(monkeypatch, "board")
    t = table
    state, who, active = await two_player_turn(t)
    board = await oc(t, who[active], "board")
    assert board.ephemeral and board.attachments and "Decks (face down)" in board.text()
    assert re.search(r"Turn 1 · Round 1 — (green|yellow|white|red) to play \(\w+\)", board.text())
    assert board.attachment_info()[0]["description"].startswith("Organized Crime board")
    before = len(t.fd.channel_messages(t.chan))
    public = await oc(t, who[active], "board", public=True)
    assert not public.ephemeral and len(t.fd.channel_messages(t.chan)) == before + 1
    # commands.md: a command whose work may take longer than 3 seconds (the picture) is deferred
    boards = [i for i in t.fd.interactions if i.name == "organizedcrime board"]
    assert [i.response_type for i in boards] == [5, 5] and [i.ephemeral for i in boards] == [True, False]
    topics = await t.fd.autocomplete(who[active], t.chan, "organizedcrime rules", focused="topic")
    assert [c["value"] for c in topics] == list(TOPICS)
    # commands.md lists the autocomplete's contents: the topics themselves, as named there
    assert [c["name"] for c in topics] == ["overview", "turn", "movement", "rub-outs", "attacks", "meetings", "votes",
                                           "penalties", "debts", "elimination", "house content", "options"]
    typed = await t.fd.autocomplete(who[active], t.chan, "organizedcrime rules", focused="topic", topic="Hit card")
    assert [c["value"] for c in typed] == ["rub-outs"], "a title's words still find the topic"
    for topic in TOPICS:
        page = await oc(t, who[active], "rules", topic=topic)
        assert page.ephemeral and page.embeds and len(page.embeds[0]["description"]) < 4096
    unknown = await oc(t, who[active], "rules", topic="chess")
    assert "The topics" in unknown.text()
    helped = await oc(t, who[active], "help")
    assert "/organizedcrime panel" in helped.text()
    for command in ("admin resolve", "admin pause", "admin end", "admin export"):
        refused = await oc(t, who[active], command)
        assert "Only the game's host" in refused.text(), command
    status = await oc(t, who[active], "status")
    assert status.ephemeral and "Your hand" in status.text() and "It is up to you" in status.text()
    host = await oc(t, t.host, "status")
    assert "hold no seat" in host.text()


async def test_move_to_takes_a_space_by_its_unique_name(table: Table, monkeypatch) -> None:
    # commands.md "Writing an action": a space is its board id or a name only it has (`Boston`); `to` too.
    from bot.games.organizedcrime.names import space_name

    t = table
    who, active, me, share = await _boss_rolled(t, monkeypatch, "move-name-2", "right")
    found = await t.fd.autocomplete(who[active], t.chan, "organizedcrime move", focused="to", piece=f"{me}:0",
                                    share=share)
    target = next(c["value"] for c in found if c["value"] == "o13")
    assert space_name(target) == "Chicago"
    reply = await oc(t, who[active], "move", piece=f"{me}:0", share=share, to="chicago")
    assert "not a destination" not in reply.text() and "not allowed" not in reply.text(), reply.text()
    assert (await state_of(t))["pl"][active]["pieces"][f"{active}:0"] == target


async def test_lobby_verbs_in_a_dm_take_the_game_option(table: Table) -> None:
    # commands.md: in a DM with several games, the `game` option (autocomplete) picks one; `start` and `leave` too
    t = table
    players = [t.players["andy"], t.players["cara"]]
    started, _ = await lobby_verbs_in_a_dm(t.fd, t.guild, t.chan, t.host, players, "organizedcrime")
    assert "begins" in started.text(), started.text()


async def test_moves_that_race_within_a_turn_are_told_the_turn_moved_on(table: Table, monkeypatch) -> None:
    # Two of the active player's moves and the other player's pass, sent at once: the first move is played; the
    # others were issued before the step it opened, so they are not recorded, and they are told so in the words
    # of a turn that goes on (not that it "was resolved").
    t = table
    who, active, me, share = await _boss_rolled(t, monkeypatch, "race", "right")
    other = next(m for s, m in who.items() if s != active)
    replies = await asyncio.gather(oc(t, who[active], "move", piece=f"{me}:0", share=share),
                                   oc(t, who[active], "move", piece=f"{me}:0", share=share), oc(t, other, "pass"))
    texts = [r.text() for r in replies]
    assert all(r.ephemeral for r in replies), texts
    late = [x for x in texts if "not recorded" in x or "not your" in x.casefold() or "not allowed" in x.casefold()]
    assert len(late) == 2, texts
    assert not any("was resolved" in x for x in texts), texts
