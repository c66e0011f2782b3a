"""Meetings and penalty windows with their clocks, on a game whose seed brings both (four players, sealed
ballots): the caller cannot call the vote before `bargain_minimum` ("ample time", Q22); the bargaining's
timeout calls the vote; a penalty window's silence declines (faithful, R122)."""

from __future__ import annotations

import asyncio
from random import Random

from rules.organizedcrime.game import GAME
from tests.support.ocdriver import pick_social, play_out
from tests.support.octable import fixed_chance, oc, open_game, seats, state_of
from tests.support.table import Table

NAMES = ["andy", "grunkle", "cara", "dev"]


async def test_the_vote_waits_for_ample_time_then_the_clock_calls_it(table: Table, monkeypatch) -> None:
    fixed_chance(monkeypatch, "four-47")
    t = table
    await open_game(t, NAMES, ballots="sealed", round_cap=3)
    await play_out(t, Random(4), panel_share=0.5, picker=pick_social, until=lambda st: st["phase"] == "bargain")
    state = await state_of(t)
    who = await seats(t)
    caller = state["meeting"]["caller"]
    early = await oc(t, who[caller], "meeting callvote")
    assert "cannot be called yet" in early.text() and "Q22" in early.text(), early.text()
    panel = await oc(t, who[caller], "panel")
    clicked = await t.fd.click(who[caller], panel, panel.component(label="Call vote")["custom_id"])
    assert "cannot be called yet" in clicked.text()
    assert (await state_of(t))["phase"] == "bargain"
    await t.idle()
    meeting = next(p for p in t.posts() if "asks for" in p and "Bargaining is open" in p)
    assert "**Meeting 1**" in meeting
    # commands.md, decisions: the bargaining prompts its caller (DM + channel mention), with its deadline
    assert f"<@{who[caller].id}>, you called meeting 1" in meeting and "Deadline: <t:" in meeting, meeting
    asked = [d for d in t.dm_texts(who[caller]) if "you called meeting 1" in d]
    assert asked and "Deadline: <t:" in asked[-1], t.dm_texts(who[caller])[-2:]
    reply = await oc(t, t.host, "admin resolve")
    assert "the bargaining of meeting 1" in reply.text()
    await t.idle()
    post = t.posts()[-1]
    assert "Time is up for the bargaining" in post and "Voting order (votes):" in post
    state = await state_of(t)
    voters = state["meeting"]["order"]
    # commands.md "What people read": the meeting post states the issue in one line, then the voting order
    # with each member's entitlement.
    colours = {s: pl["colour"] for s, pl in GAME.view(state, None)["players"].items()}
    ent = state["meeting"]["entitlements"]
    issue = next(line for line in post.splitlines() if f"{colours[caller]} asks for " in line)
    order = ", ".join(f"{colours[s]} {ent[s]}" for s in voters)
    assert post.index(issue) < post.index(f"Voting order (votes): {order}"), post
    for seat in voters:
        assert "vote in meeting 1" in t.dm_texts(who[seat])[-1] and "sealed" in t.dm_texts(who[seat])[-1]


async def test_a_pause_does_not_count_as_ample_time(table: Table, monkeypatch) -> None:
    # Q22 as a fair host would clock it: the minimum is of bargaining time, so time paused is left out.
    fixed_chance(monkeypatch, "four-47")
    t = table
    await open_game(t, NAMES, ballots="sealed", round_cap=3, bargain_minimum_minutes=0.01)
    await play_out(t, Random(4), panel_share=0.5, picker=pick_social, until=lambda st: st["phase"] == "bargain")
    caller = (await state_of(t))["meeting"]["caller"]
    who = await seats(t)
    assert "Every clock is stopped" in (await oc(t, t.host, "admin pause")).text()
    await asyncio.sleep(0.8)  # longer than the minimum of 0.6 s, all of it paused
    assert "run again" in (await oc(t, t.host, "admin resume")).text()
    early = await oc(t, who[caller], "meeting callvote")
    assert "cannot be called yet" in early.text(), early.text()
    await asyncio.sleep(0.7)
    called = await oc(t, who[caller], "meeting callvote")
    assert "cannot be called yet" not in called.text(), called.text()
    assert (await state_of(t))["phase"] != "bargain"


async def test_silence_in_the_penalty_window_declines(table: Table, monkeypatch) -> None:
    fixed_chance(monkeypatch, "four-47")
    t = table
    await open_game(t, NAMES, ballots="sealed", round_cap=3, window_seconds=0.4, bargain_minimum_minutes=0.00001)
    await play_out(t, Random(4), panel_share=0.5, picker=pick_social,
                   until=lambda st: st["phase"] == "penalty_window")
    state = await state_of(t)
    offended = [o["player"] for o in state["window"]["offended"]]
    who = await seats(t)
    await t.idle()
    window = next(p for p in reversed(t.posts()) if "Penalty window" in p)
    assert all(f"<@{who[s].id}>" in window for s in offended)
    for _ in range(60):
        await t.idle()
        if (await state_of(t))["phase"] != "penalty_window":
            break
        await asyncio.sleep(0.05)
    await t.idle()
    posts = "\n".join(t.posts()[-4:])
    assert "Time is up for the penalty window" in posts and "declines to call a penalty (no answer in time)" in posts


async def test_a_panel_click_stands_after_another_voters_sealed_ballot(table: Table, monkeypatch) -> None:
    # commands.md: "every click is checked again against the caller and the current decision". Each sealed
    # ballot is a step of its own; the vote still awaits the others, so their panels' choices still stand.
    fixed_chance(monkeypatch, "four-47")
    t = table
    await open_game(t, NAMES, ballots="sealed", round_cap=3)
    await play_out(t, Random(4), panel_share=0.5, picker=pick_social, until=lambda st: st["phase"] == "bargain")
    await oc(t, t.host, "admin resolve")
    await t.idle()
    state = await state_of(t)
    assert state["phase"] == "vote", state["phase"]
    who = await seats(t)
    first, second, third = state["meeting"]["order"][:3]
    early = await oc(t, who[first], "panel")
    late = await oc(t, who[second], "panel")
    spare = await oc(t, who[third], "panel")
    done = await t.fd.click(who[second], late, late.component(label="Abstain")["custom_id"])
    assert "✅" in done.text(), done.text()
    stale = await t.fd.click(who[first], early, early.component(label="Abstain")["custom_id"])
    assert "✅" in stale.text() and "earlier moment" not in stale.text(), stale.text()
    assert {first, second} <= set((await state_of(t))["meeting"]["voted"]), (await state_of(t))["meeting"]
    # a choice no longer open to the caller is not played: the panel of now comes instead
    voted = await oc(t, who[third], "vote", side="abstain")
    assert "earlier moment" not in voted.text(), voted.text()
    before = (await state_of(t))["meeting"]
    again = await t.fd.click(who[third], spare, spare.component(label="Abstain")["custom_id"])
    assert "earlier moment" in again.text() and "✅" not in again.text(), again.text()
    assert (await state_of(t))["meeting"] == before


async def test_a_bargain_minimum_of_zero_lets_the_caller_call_the_vote_at_once(table: Table, monkeypatch) -> None:
    # commands.md: `bargain_minimum_minutes` is an optional override; given as 0, there is no wait (not given,
    # the pace's preset of 1 minute, as the test above shows).
    fixed_chance(monkeypatch, "four-47")
    t = table
    await open_game(t, NAMES, ballots="sealed", round_cap=3, bargain_minimum_minutes=0)
    assert "(vote callable at once)" in t.posts()[0], t.posts()[0]
    await play_out(t, Random(4), panel_share=0.5, picker=pick_social, until=lambda st: st["phase"] == "bargain")
    caller = (await state_of(t))["meeting"]["caller"]
    called = await oc(t, (await seats(t))[caller], "meeting callvote")
    assert "cannot be called yet" not in called.text(), called.text()
    assert (await state_of(t))["phase"] != "bargain"
