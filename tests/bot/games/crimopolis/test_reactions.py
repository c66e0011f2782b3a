"""Reaction windows (R92, commands.md): the target is asked by DM, holding a reaction fortune or not, and answers
with the DM's answer buttons (or the Submit button's); `/crimopolis prefs reactions:never|auto` makes the bot
answer at once.
The answers the bot sends are ordinary moves: they are in the export, which replays.
"""

from __future__ import annotations

import json
import random
import re

from bot.storage.models import GameRow
from rules.crimopolis import GAME
from tests.bot.games.crimopolis.test_game import fixed_seed  # noqa: F401 (a fixture)
from tests.support.crimopolis import CpTable, Driver, open_game


async def reactions(t: CpTable) -> list[dict]:
    rows = await t.bot.db.fetchall("SELECT data_json FROM events WHERE kind = 'reaction' ORDER BY id")
    return [json.loads(r["data_json"]) for r in rows]


async def test_windows_ask_and_never(cp: CpTable, fixed_seed: None) -> None:  # noqa: F811
    t = cp
    await open_game(t, ["ann", "ben"], target_prestige=12)
    seats = {n: s for s, n in (await t.seat_names()).items()}
    reply = await t.cmd(t.players["ann"], "prefs", reactions="never")
    assert reply.ephemeral and "never" in reply.text()
    reply = await t.cmd(t.players["ben"], "prefs", reactions="auto", dm=True)
    assert "auto" in reply.text()
    status = await t.cmd(t.players["ben"], "status")
    assert "Reactions: auto" in status.text()
    await t.cmd(t.players["ben"], "prefs", reactions="ask")

    driver = Driver(t, random.Random(9))
    while await driver.step():
        if {d["player"] for d in await reactions(t)} >= {seats["ann"], seats["ben"]}:
            break
    done = await reactions(t)
    assert {d["player"] for d in done} >= {seats["ann"], seats["ben"]}, done
    print("steps", driver.steps)
    assert all(d["card"] is None for d in done if d["player"] == seats["ann"]), "never: no reaction, at once"
    # ask (ben): a DM for each window, with the card, the deadline and the Submit button
    prompts = [m for m in t.fd.dms(t.players["ben"]) if "React?" in m.text()]
    assert len(prompts) >= len([d for d in done if d["player"] == seats["ben"]]) >= 1
    assert all("deadline" in m.text() and "host:submit:1" in m.custom_ids() for m in prompts)
    assert not any("React?" in m.text() for m in t.fd.dms(t.players["ann"])), "never: no prompt at all"
    assert driver.findings == []

    export = await t.cmd(t.host, "admin export")
    doc = json.loads(export.attachments[0][1])
    reacts = [s for s in doc["steps"] if s.get("action", {}).get("kind") == "react"]
    assert {s["player"] for s in reacts} >= {"ann", "ben"}, "the answers the bot sent are in the record"
    out = GAME.replay(doc)
    assert all(s["refused"] is None for s in out["steps"])


def test_auto_plays_the_lowest_reaction_fortune() -> None:
    from bot.games.crimopolis.presentation import auto_answer
    from rules.contract import SeededChance

    state = GAME.setup(["p1", "p2"], {}, SeededChance("auto")).state.copy()
    state.pl["p2"].fortunes = ["F40", "F36", "F01"]
    state.pending = {"kind": "react", "player": "p2", "card": "F41"}
    assert auto_answer(state, "p2", "auto") == {"kind": "react", "card": "F36"}
    assert auto_answer(state, "p2", "never") == {"kind": "react", "card": None}
    assert auto_answer(state, "p2", "ask") is None
    state.pl["p2"].fortunes = ["F01"]
    assert auto_answer(state, "p2", "auto") == {"kind": "react", "card": None}


async def test_the_dm_prompt_has_the_reaction_buttons(cp: CpTable, fixed_seed: None) -> None:  # noqa: F811
    """The Submit button of the "React?" DM opens the answers as buttons: No reaction first."""
    t = cp
    await open_game(t, ["ann", "ben"], target_prestige=8)
    driver = Driver(t, random.Random(4))
    found = None
    while found is None:
        state = await t.state()
        pending = GAME.pending(state)
        assert pending is not None, "a reaction window opens before the end"
        if pending.decision == "react":
            names = await t.seat_names()
            member = t.players[names[pending.awaited[0]]]
            found = next(m for m in reversed(t.fd.dms(member)) if "React?" in m.text())
            break
        await driver.step()
    answers = await t.fd.click(member, found, "host:submit:1")
    assert answers.ephemeral and "a reaction to" in answers.text()
    labels = [b["label"] for b in answers.buttons()]
    assert labels[0] == "No reaction"
    done = await t.fd.click(member, answers, label="No reaction")
    assert "✅ No reaction" in done.text()
    await t.idle()
    assert "does not react" in t.posts()[-1] or any("does not react" in p for p in t.posts()[-3:])


async def test_the_dm_prompt_carries_one_button_per_answer(cp: CpTable, fixed_seed: None) -> None:  # noqa: F811
    """commands.md: the "React?" DM has one button per reaction fortune held and No reaction; one click answers
    the window, and a click once it is closed sends nothing."""
    t = cp
    await open_game(t, ["ann", "ben"], target_prestige=8)
    driver = Driver(t, random.Random(4))
    while True:
        state = await t.state()
        pending = GAME.pending(state)
        assert pending is not None, "a reaction window opens before the end"
        if pending.decision == "react":
            break
        await driver.step()
    await t.idle()
    seat = pending.awaited[0]
    member = t.players[(await t.seat_names())[seat]]
    prompt = next(m for m in reversed(t.fd.dms(member)) if "React?" in m.text())
    held = [c for c in state.pl[seat].fortunes if GAME.check(state, seat, {"kind": "react", "card": c}) is None]
    labels = [b["label"] for b in prompt.buttons()]
    answers = [x for x in labels if x == "No reaction" or x.startswith("React: ")]
    assert answers[0] == "No reaction" and len(answers) == 1 + len(held), labels
    assert all(f"React: {c}" in " ".join(answers) for c in held), (labels, held)
    ids = [cid for cid in prompt.custom_ids() if cid.startswith("host:answer:")]
    assert len(ids) == len(answers) and all(re.fullmatch(r"host:answer:\d+:\d+:\d+", cid) for cid in ids), ids
    done = await t.fd.click(member, prompt, label="No reaction")
    assert done.ephemeral and "✅ No reaction" in done.text(), done.text()
    await t.idle()
    last = (await reactions(t))[-1]
    assert last["player"] == seat and last["card"] is None, last
    again = await t.fd.click(member, prompt, label="No reaction")
    assert "closed" in again.text() and "nothing was sent" in again.text(), again.text()


async def _window_reminder(t: CpTable, driver: Driver) -> tuple[GameRow, float]:
    """Played on until a reaction window opens: the game then, and when the window's reminder is due."""
    while GAME.pending(await t.state()).decision != "react":
        await driver.step()
    game = GameRow.from_row(await t.game_row())
    timer = await t.bot.db.fetchone(
        "SELECT due_at, clock FROM timers WHERE game_id = ? AND kind = 'reminder'", (game.id,)
    )
    assert timer is not None and game.pending is not None and timer["clock"] == game.pending.clock.id
    return game, float(timer["due_at"])


async def test_a_reaction_window_is_reminded_halfway(cp: CpTable, fixed_seed: None) -> None:  # noqa: F811
    """commands.md: reminders `reminder_hours` before a turn deadline, and halfway through a reaction window."""
    t = cp
    await open_game(t, ["ann", "ben"], target_prestige=8, reaction_minutes=4)
    driver = Driver(t, random.Random(4))
    game = GameRow.from_row(await t.game_row())
    turn = await t.bot.db.fetchone("SELECT due_at FROM timers WHERE game_id = ? AND kind = 'reminder'", (game.id,))
    deadline = await t.bot.db.fetchone("SELECT due_at FROM timers WHERE game_id = ? AND kind = 'deadline'", (game.id,))
    assert abs(deadline["due_at"] - turn["due_at"] - 3600) < 1e-6, "an hour before the turn's deadline"
    game, due_at = await _window_reminder(t, driver)
    assert abs(due_at - (game.step_opened_at + 120)) < 1e-6, "two minutes into a window of four"


async def test_a_long_reaction_window_is_reminded_halfway_too(cp: CpTable, fixed_seed: None) -> None:  # noqa: F811
    """A window longer than `reminder_hours` is still reminded halfway (commands.md), not that long before."""
    t = cp
    await open_game(t, ["ann", "ben"], target_prestige=8, reaction_minutes=180)
    game, due_at = await _window_reminder(t, Driver(t, random.Random(4)))
    assert abs(due_at - (game.step_opened_at + 90 * 60)) < 1e-6, "90 minutes into a window of 180"


def test_the_prompt_names_who_played_what_against_you() -> None:
    """commands.md: "ann played Sabotage (3 hours less at the start of your next turn) against you. React?"."""
    from types import SimpleNamespace

    from bot.games.crimopolis.messages import react_prompt
    from bot.games.crimopolis.names import Names
    from rules.contract import Event

    played = Event.public("fortune_played", {"player": "p1", "card": "F41", "design": "sabotage", "params": {}})
    view = SimpleNamespace(events=(played,), game=SimpleNamespace(paused=False), deadline_at=1_800_000_000.0)
    public = {"pending": {"kind": "react", "player": "p2", "card": "F41"}, "turn": {"player": "p1"}, "players": {}}
    prompt = react_prompt(view, public, Names({"p1": "ann", "p2": "ben"}.__getitem__, public), "p2")  # type: ignore[arg-type]
    text = GAME.content.designs["F41"].text
    assert prompt.startswith(f"ann played Sabotage ({text}) against you. React?"), prompt
    assert "<t:1800000000" in prompt, "and the deadline"
