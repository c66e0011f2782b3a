"""Whole games through the fake Discord, from `/organizedcrime new` to the results: two players (played to
the last Boss standing) and four (sealed ballots, a round cap, meetings), each action played with legal
moves from `rules.organizedcrime.legal`, partly by slash command and partly by panel clicks.

Asserts what members see (the lobby, the setup rolls, turn headings, every move's board and picture,
prompts by DM and mention, private receipts, the results, the history), scans everything public for
hidden cards and sealed ballots as it happens, and replays the export to what the bot announced.
"""

from __future__ import annotations

import json
import logging
import re
from random import Random

from rules.organizedcrime.game import GAME
from tests.support.ocdriver import pick_social, play_out
from tests.support.ocsecrets import CARD, Watch
from tests.support.octable import fixed_chance, game_row, oc, seats, state_of
from tests.support.table import Table

TURN = re.compile(r"Turn \d+ · Round \d+ — (green|yellow|white|red) to play \(\w+\)")


async def lobby(t: Table, names: list[str], **options) -> None:
    reply = await oc(t, t.host, "new", **options)
    assert not reply.ephemeral and "Organized Crime — lobby" in reply.text()
    for name in names:
        joined = await oc(t, t.players[name], "join")
        assert f"{name} joined" in joined.text()  # public, or private beside a living lobby post
    start = await oc(t, t.host, "start")
    assert "Seat order: 1. " + names[0] in start.text()
    await t.idle()


def public_events(rows: list[dict]) -> list[tuple[str, dict]]:
    return [(r["kind"], json.loads(r["data_json"])) for r in rows]


async def export_replays(t: Table, *, ended_by_host: bool = False) -> dict:
    """`admin export` replays (python -m rules replay) to the bot's own record: the final state and hands,
    and exactly the public events the bot announced, in order."""
    reply = await oc(t, t.host, "admin export")
    assert reply.ephemeral and reply.attachments
    doc = json.loads(reply.attachments[0][1])
    out = GAME.replay(doc)
    state = await state_of(t)
    row = await game_row(t)
    names = dict(zip(state["players"], doc["players"], strict=True))

    def named(value):
        text = json.dumps(value, sort_keys=True)
        for seat, name in names.items():
            text = re.sub(rf'"{seat}(:\d+)?"', lambda m, name=name: f'"{name}{m.group(1) or ""}"', text)
        return json.loads(text)

    expected = named(GAME.view(state, None))
    if ended_by_host:  # the file stops just before the host's end: the same state, still waiting
        assert expected["phase"] == "over" and out["pending"] is not None
        expected["phase"] = out["state"]["phase"]
    assert out["state"] == expected, "the replay ends where the bot's game is"
    assert out["hands"] == named({p: {"power": sorted(state["pl"][p]["power"]),
                                      "official": sorted(state["pl"][p]["official"])} for p in state["players"]})
    announced = await t.bot.db.fetchall(
        "SELECT kind, data_json FROM events WHERE game_id = ? AND public = 1 ORDER BY id", (row["id"],))
    replayed = [e for e in out["prelude"] + [e for entry in out["log"] for e in entry["events"]]
                if e["audience"] == "public"]
    replayed = [(e["kind"], {k: v for k, v in e.items() if k not in ("audience", "kind")}) for e in replayed]
    ours = [(k, named(d)) for k, d in public_events(announced)]
    if ended_by_host:
        assert ours[-1][0] == "game_over" and ours[-1][1]["reason"] == "host"
        ours = ours[:-1]
    assert replayed == ours
    return doc


async def test_two_players_to_the_last_boss(table: Table, monkeypatch, caplog) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    fixed_chance(monkeypatch, "two-players")
    t = table
    watch = Watch(t)
    await lobby(t, ["andy", "grunkle"], bargain_minimum_minutes=0.00001)
    posts = t.posts()
    setup = next(p for p in posts if p.startswith("The decks are shuffled"))
    assert "for the Home Base order" in setup and "Home Base order:" in setup and "➡ <@" in setup
    who = await seats(t)
    state = await state_of(t)
    chooser = state["choosers"][0]
    dm = t.dm_texts(who[chooser])[-1]
    assert "choose your Home Base" in dm and "Deadline: <t:" in dm
    bases = await t.fd.autocomplete(who[chooser], t.chan, "organizedcrime base", focused="home")
    assert [c["value"] for c in bases] == ["0", "1", "2", "3"] and bases[1]["name"] == "1 — yellow, doors at o15/o16"
    other = next(s for s in who if s != chooser)
    assert await t.fd.autocomplete(who[other], t.chan, "organizedcrime base", focused="home") == []
    await watch.scan(state)

    import tests.support.ocdriver as driver

    before = driver.COMPLETED
    commands, clicks = await play_out(t, Random(11), watch=watch, panel_share=0.4, autocomplete=0.3)
    assert commands > 20 and clicks > 20, (commands, clicks)
    assert driver.COMPLETED - before > 10, "autocomplete was checked along the way"
    await t.idle()

    state = await state_of(t)
    result = state["result"]
    assert result["reason"] == "last_survivor" and len(result["winners"]) == 1
    posts = t.posts()
    assert any(TURN.search(p) for p in posts)
    messages = t.fd.channel_messages(t.chan)
    pictured = [m for m in messages if m.attachments]
    turns = state["turn"]
    assert len(pictured) >= turns, "a picture at the end of every turn (and move)"
    for m in pictured:
        assert m.attachment_info()[0]["description"].startswith("Organized Crime board")
        assert "Decks (face down)" in m.text() and m.attachment_info()[0]["content_type"] == "image/png"
    final = posts[-1]
    colour = GAME.view(state, None)["players"][result["winners"][0]]["colour"]
    winner = f"{colour} ({who[result['winners'][0]].name})"
    assert "Game over" in final and f"Winner: **{winner}**" in final and "Hands at the end" in final
    assert "Standing (votes, money, income)" in final and "out on turn" in final

    drawn = await t.bot.db.fetchall(
        "SELECT e.data_json, s.seat FROM events e JOIN event_seats s ON s.event_id = e.id"
        " WHERE e.kind = 'drew_card' ORDER BY e.id")
    assert drawn, "cards were drawn"
    for r in drawn:
        card = json.loads(r["data_json"])["card"]
        assert any(f"You drew **{card} " in d for d in t.dm_texts(who[r["seat"]])), card
        other = next(s for s in who if s != r["seat"])
        assert not any(f"You drew **{card} " in d for d in t.dm_texts(who[other]))

    history = await oc(t, t.players["andy"], "history")
    assert history.ephemeral and "Winners: " + winner in history.text() and f"after {turns} turns" in history.text()

    await export_replays(t)
    watch.scan_delivered()
    assert watch.findings == [] and watch.checked > 300

    info = [r.getMessage() for r in caplog.records if r.name.startswith("bot") and r.levelno >= logging.INFO]
    for line in info:
        assert not CARD.search(line) and not re.search(r"\bp[1-4]\b", line), line


async def test_four_players_sealed_ballots_and_a_round_cap(table: Table, monkeypatch) -> None:
    fixed_chance(monkeypatch, "four-47")  # a seed with an acquisition meeting and a penalty meeting
    t = table
    watch = Watch(t)
    names = ["andy", "grunkle", "cara", "dev"]
    await lobby(t, names, ballots="sealed", round_cap=3, bargain_minimum_minutes=0.00001)
    assert "Ballots: **sealed** (house rule)" in t.posts()[0] and "Round cap: **3** (house rule)" in t.posts()[0]

    await play_out(t, Random(4), watch=watch, panel_share=0.5, picker=pick_social, autocomplete=0.2)
    await t.idle()

    state = await state_of(t)
    assert state["result"]["reason"] == "round_cap"
    posts = "\n".join(t.posts())
    assert re.search(r"Meeting \d+\*\*: (green|yellow|white|red) asks for \w+", posts), "the issue in one line"
    assert re.search(r"(green|yellow|white|red) asks a penalty for (green|yellow|white|red)", posts)
    assert re.search(r"Votes now \(fixed when the vote is called\): \w+ \d+", posts)
    assert re.search(r"(green|yellow|white|red) has voted\.", posts), "sealed ballots: who, not how"
    assert "Voting order (votes):" in posts and "has voted." in posts and "The sealed ballots:" in posts
    assert "round cap (house rule)" in posts and "Standing (votes, money, income)" in posts
    who = await seats(t)
    dms = [d for m in who.values() for d in t.dm_texts(m)]
    assert any("Your sealed ballot" in d for d in dms)
    await export_replays(t)
    watch.scan_delivered()
    assert watch.findings == []
