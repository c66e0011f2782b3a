"""Computer players through the fake Discord: seated with `admin addbot`, or in a member's seat with
`admin replace level:`; they play whole games, are shown as submitted, get no DM, and the export replays."""

from __future__ import annotations

import json
import subprocess
import sys
from random import Random

from tests.support.computers import (
    fixed_secret,
    latest_game,
    members_play_round,
    play_to_the_end,
    restart_with,
    seats_by_name,
    settle_ec,
    step_actions,
)
from tests.support.crimecity import CAST, WE1, match_of
from tests.support.table import NAMES, Table, draft_cast, open_game

COMPUTERS = {"p3": "Computer 1 (strong)", "p4": "Computer 2 (strong)", "p5": "Computer 3 (random)"}


async def two_members_three_computers(t: Table) -> None:
    await t.cmd(t.host, "new", deadline_hours=24.0, garnets=10)
    for n in ("andy", "grunkle"):
        await t.cmd(t.players[n], "join")
    for level in ("strong", "strong", "random"):
        reply = await t.cmd(t.host, "admin addbot", level=level)
        assert "joined" in reply.text(), reply.text()


async def test_two_members_and_three_computers_play_to_the_results(table: Table, tmp_path, monkeypatch) -> None:
    t = table
    fixed_secret(monkeypatch, "2and3" * 6)
    await restart_with(t, computer_delay=0.0)
    await two_members_three_computers(t)
    await t.idle()
    lobby = t.fd.channel_messages(t.chan)[0].text()
    assert "Players (5/5): andy, grunkle, Computer 1 (strong), Computer 2 (strong), Computer 3 (random)" in lobby
    full = await t.cmd(t.host, "admin addbot", level="random")
    assert "The lobby is full" in full.text()
    await t.cmd(t.host, "start")
    await t.idle()
    board = await t.cmd(t.players["andy"], "board")
    assert "Submitted: Computer 1 (strong), Computer 2 (strong), Computer 3 (random)" in board.text(), board.text()
    for n, (role, char) in (("andy", CAST["andy"]), ("grunkle", CAST["grunkle"])):
        await t.cmd(t.players[n], "draft", bid=0, roles=role, characters=char)
    await t.idle()
    assert (await match_of(t)).phase == "round"
    rng = Random(15)
    members = await seats_by_name(t)
    rounds = 0
    while (await match_of(t)).phase == "round":
        board = await t.cmd(t.players["grunkle"], "board")
        assert "Submitted: Computer 1 (strong), Computer 2 (strong), Computer 3 (random)" in board.text(), board.text()
        await members_play_round(t, rng, members)
        rounds += 1
    await settle_ec(t, members)
    game = await latest_game(t)
    assert game["status"] == "ended" and rounds >= 1
    assert any("game over after Round" in p for p in t.posts())

    # every step with a submission of each computer seat, made by nobody (no member's id)
    steps = await step_actions(t, game["id"])
    collected = [s for s in steps if len({a["by"] for a in s}) >= 3]
    assert len(collected) == rounds + 1  # the draft and every round
    for actions in collected:
        assert set(COMPUTERS) <= {a["by"] for a in actions}
    rows = await t.bot.db.fetchall("SELECT DISTINCT user_id FROM submissions")
    assert rows == [], "a finished game's collected moves are in its log only"
    # no DM was ever written for a computer player's seat
    dms = await t.bot.db.fetchall("SELECT seat FROM outbox WHERE target = 'dm' AND game_id = ?", (game["id"],))
    assert {r["seat"] for r in dms} <= {"p1", "p2"}

    # the export names them as players, with their draft and every round's submission, and replays
    reply = await t.cmd(t.host, "admin export")
    doc = json.loads(reply.attachments[0].data)
    assert doc["players"] == ["andy", "grunkle", *COMPUTERS.values()]
    assert set(COMPUTERS.values()) <= set(doc["draft"])
    assert len(doc["rounds"]) == rounds
    assert all(r[name] is not None for r in doc["rounds"] for name in COMPUTERS.values())
    path = tmp_path / "game.json"
    path.write_bytes(reply.attachments[0].data)
    run = subprocess.run([sys.executable, "-m", "rules", "replay", str(path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    replayed = json.loads(run.stdout)["result"]
    results = json.loads(game["results_json"])
    name = {"p1": "andy", "p2": "grunkle", **COMPUTERS}
    assert replayed["tol"] == [name[s] for s in results["tol"]]
    assert replayed["awards"] == {name[s]: v for s, v in results["awards"].items()}


async def test_a_computer_takes_over_a_members_seat_mid_game(table: Table, tmp_path, monkeypatch) -> None:
    t = table
    fixed_secret(monkeypatch, "h8")  # a game whose EC the members give to the computer player
    await restart_with(t, computer_delay=0.0)
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    for n in NAMES:
        first, second = WE1[n]
        await t.cmd(t.players[n], "act", first=first, second=second)
    await t.idle()
    await members_play_round(t, Random(2), {"eve": "p5"})  # eve's round 2 is in before she goes
    eves = await t.bot.db.fetchone("SELECT move_json FROM submissions WHERE seat = 'p5' AND step = 3")
    eve_dms = len(t.dm_texts(t.players["eve"]))
    refused = await t.cmd(t.host, "admin replace", old=t.players["eve"])
    assert "a member (new:) or a computer player (level:)" in refused.text()
    reply = await t.cmd(t.host, "admin replace", old=t.players["eve"], level="strong")
    assert "Computer 1 (strong) now plays eve's seat" in reply.text(), reply.text()
    await t.idle()
    assert any("Computer 1 (strong) takes over eve's seat" in p for p in t.posts())
    board = await t.cmd(t.players["andy"], "board")
    assert "Submitted: Computer 1 (strong)" in board.text(), board.text()
    named = await play_to_the_end(t, Random(3))
    assert named == {"computer": "p5"}, "the members named the computer player EC with `computer:`"
    game = await latest_game(t)
    assert game["status"] == "ended"
    assert len(t.dm_texts(t.players["eve"])) == eve_dms, "the member who left gets nothing more"
    steps = await step_actions(t, game["id"])
    rounds = [s for s in steps if {a["by"] for a in s} >= {"p1", "p2", "p3", "p4"}][1:]  # after the draft
    assert len(rounds) >= 2 and all("p5" in {a["by"] for a in s} for s in rounds)
    assert next(a["move"] for a in rounds[1] if a["by"] == "p5") == json.loads(eves["move_json"]), "hers stood"
    change = await t.bot.db.fetchone("SELECT actions_json FROM moves WHERE kind = 'seat'")
    assert json.loads(change["actions_json"])["computer"] == "strong"
    doc = json.loads((await t.cmd(t.host, "admin export")).attachments[0].data)
    assert doc["players"][-1] == "Computer 1 (strong)"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    run = subprocess.run([sys.executable, "-m", "rules", "replay", str(path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["result"] is not None


async def test_addbot_is_for_the_host_in_a_lobby(table: Table) -> None:
    t = table
    await t.cmd(t.host, "new", deadline_hours=24.0)
    await t.cmd(t.players["andy"], "join")
    denied = await t.cmd(t.players["andy"], "admin addbot", level="random")
    assert "host" in denied.text().lower() or "permission" in denied.text().lower(), denied.text()
    assert (await latest_game(t))["id"] and len(await seats_by_name(t)) == 1
    for n in ("grunkle", "cara", "dev"):
        await t.cmd(t.players[n], "join")
    await t.cmd(t.host, "admin addbot", level="strong")
    choices = await t.fd.autocomplete(t.host, t.chan, "crimecity admin removebot", focused="computer", computer="")
    assert choices == [{"name": "Computer 1 (strong)", "value": "p5"}], choices
    assert "not a computer player" in (await t.cmd(t.host, "admin removebot", computer="andy")).text()
    removed = await t.cmd(t.host, "admin removebot", computer="p5")
    assert "Computer 1 (strong) left the lobby. Players (4/5)" in removed.text(), removed.text()
    await t.cmd(t.host, "admin addbot", level="random")
    await t.idle()
    assert "Players (5/5): andy, grunkle, cara, dev, Computer 1 (random)" in t.fd.channel_messages(t.chan)[0].text()
    await t.cmd(t.host, "start")
    late = await t.cmd(t.host, "admin addbot", level="strong")
    assert "already started" in late.text(), late.text()


async def test_a_seasons_match_takes_no_computer_player(table: Table) -> None:
    t = table
    opened = await t.cmd(t.host, "season new", name="Main")
    assert "is open" in opened.text()
    assert "You are on the roster" in (await t.cmd(t.players["andy"], "season join")).text()
    choices = await t.fd.autocomplete(t.host, t.chan, "crimecity new", focused="season", season="")
    await t.cmd(t.host, "new", season=choices[0]["value"], deadline_hours=24.0)
    refused = await t.cmd(t.host, "admin addbot", level="strong")
    assert "a match of the server's season" in refused.text(), refused.text()
    assert await t.bot.db.fetchall("SELECT seat FROM seats") == []


async def test_a_computer_added_after_one_left_gets_a_name_of_its_own(table: Table, tmp_path) -> None:
    # The export names players by name: two "Computer 3 (random)" made a file that did not replay.
    t = table
    await restart_with(t, computer_delay=0.0)
    await t.cmd(t.host, "new", deadline_hours=24.0, garnets=10)
    for _ in range(5):
        await t.cmd(t.host, "admin addbot", level="random")
    await t.cmd(t.host, "admin removebot", computer="p1")  # Computer 1 leaves; Computers 2-5 stay
    await t.cmd(t.host, "admin addbot", level="random")
    names = [r["user_name"] for r in await t.bot.db.fetchall("SELECT user_name FROM seats")]
    assert len(names) == len(set(names)) == 5 and "Computer 6 (random)" in names, names
    await t.cmd(t.host, "start")
    await t.idle()
    await settle_ec(t, {})
    await t.idle()
    export = await t.cmd(t.host, "admin export")
    path = tmp_path / "g.json"
    path.write_bytes(export.attachments[0].data)
    run = subprocess.run([sys.executable, "-m", "rules", "replay", str(path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


async def test_a_deadline_brought_forward_brings_the_computers_forward(table: Table) -> None:
    t = table
    await restart_with(t, computer_delay=1.0)  # as in production: minutes ahead of a 24-hour deadline
    await t.cmd(t.host, "new", deadline_hours=24.0, garnets=10)
    for n in ("andy", "grunkle", "cara", "dev"):
        await t.cmd(t.players[n], "join")
    await t.cmd(t.host, "admin addbot", level="strong")
    await t.cmd(t.host, "start")
    await t.cmd(t.host, "admin deadline", hours=2 / 3600)
    timers = await t.bot.db.fetchall("SELECT kind, due_at FROM timers")
    due = {r["kind"]: r["due_at"] for r in timers}
    assert due["computer"] < due["deadline"], timers


async def test_a_member_takes_a_computers_seat_back(table: Table, tmp_path, monkeypatch) -> None:
    t = table
    fixed_secret(monkeypatch, "h8")
    await restart_with(t, computer_delay=0.0)
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    for n in NAMES:
        first, second = WE1[n]
        await t.cmd(t.players[n], "act", first=first, second=second)
    await t.idle()
    await t.cmd(t.host, "admin replace", old=t.players["eve"], level="strong")
    await members_play_round(t, Random(2), {n: s for n, s in (await seats_by_name(t)).items() if n != "eve"})
    await t.idle()
    both = await t.cmd(t.host, "admin replace", computer="p5", level="random")
    assert both.ephemeral and "a computer player's seat goes to a member" in both.text(), both.text()
    nobody = await t.cmd(t.host, "admin replace", computer="Computer 9 (strong)", new=t.players["eve"])
    assert "is not a computer player of this game (they are: Computer 1 (strong))" in nobody.text(), nobody.text()
    offered = await t.fd.autocomplete(t.host, t.chan, "crimecity admin replace", focused="computer", computer="")
    assert [(c["name"], c["value"]) for c in offered] == [("Computer 1 (strong)", "p5")]
    eve_dms = len(t.dm_texts(t.players["eve"]))
    back = await t.cmd(t.host, "admin replace", computer="p5", new=t.players["eve"])
    assert "eve now holds Computer 1 (strong)'s seat" in back.text(), back.text()
    await t.idle()
    brief = t.dm_texts(t.players["eve"])[eve_dms:]
    assert len(brief) == 1 and "you now hold a seat in this game" in brief[0], brief
    assert "Your character: **The Armed Guard**" in brief[0] and "Deadline: <t:" in brief[0], brief[0]
    assert any("Computer 1 (strong)" in p and "eve" in p for p in t.posts()[-3:]), t.posts()[-3:]
    seats = await seats_by_name(t)
    assert seats.get("eve") == "p5", "the seat is hers again"
    others = {n: s for n, s in seats.items() if n != "eve"}
    opened = (await match_of(t)).game.round
    await members_play_round(t, Random(4), others)  # the computer's move for this round stood: it resolves
    await t.idle()
    assert (await match_of(t)).game.round == opened + 1
    await members_play_round(t, Random(5), others)
    await t.idle()
    assert (await match_of(t)).game.round == opened + 1, "nobody plays p5 for eve now: the round waits for her"
    await members_play_round(t, Random(6), {"eve": "p5"})
    await t.idle()
    assert (await match_of(t)).game.round == opened + 2 or (await match_of(t)).phase != "round"
    change = await t.bot.db.fetchall("SELECT actions_json FROM moves WHERE kind = 'seat' ORDER BY seq")
    assert json.loads(change[-1]["actions_json"]) == {"seat": "p5", "from": None, "to": t.players["eve"].id,
                                                      "computer": None}
    doc = json.loads((await t.cmd(t.host, "admin export")).attachments[0].data)
    assert doc["players"][-1] == "eve"


async def test_a_computers_seat_goes_only_to_a_member_of_a_started_game(table: Table) -> None:
    t = table
    robo = t.guild.add_member("robo", bot=True)
    await t.cmd(t.host, "new", deadline_hours=24.0)
    for n in ("andy", "grunkle", "cara", "dev"):
        await t.cmd(t.players[n], "join")
    await t.cmd(t.host, "admin addbot", level="random")
    early = await t.cmd(t.host, "admin replace", computer="Computer 1 (random)", new=t.players["eve"])
    assert early.ephemeral and "has not started: take the computer out of the lobby" in early.text(), early.text()
    await t.cmd(t.host, "start")
    await t.idle()
    to_bot = await t.cmd(t.host, "admin replace", computer="Computer 1 (random)", new=robo)
    assert to_bot.ephemeral and "robo is a bot account: only a member can hold a seat" in to_bot.text()
    seats = await seats_by_name(t)
    assert "robo" not in seats and "eve" not in seats
