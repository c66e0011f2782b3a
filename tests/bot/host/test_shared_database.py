"""Several processes on one PostgreSQL database (issue 14's reproduced problems): each process is a host
with its own connections, locks and caches (tests/support/shared.py).

With `PgDatabase.shared = False` (what the code did before: in-process locks only, remembered contexts,
every process firing every due timer) the first four fail: the purchase is erased, nobody sees
everyone in, acknowledged moves are missing from their round's log, 200 timers fire ~800 times."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from bot.games.crimecity import moves
from bot.host import Turn
from bot.host.errors import Refused, Stale
from bot.host.scheduler import Scheduler
from bot.storage import timers as timers_repo
from bot.storage.models import TimerRow
from rules.crimecity.legal import legal_actions, legal_seconds
from tests.support.crimecity import WE1
from tests.support.shared import caller, close, collected, drafted_game, processes

pytestmark = pytest.mark.postgres


async def test_a_purchase_through_one_process_survives_an_act_through_another(pg_url: str) -> None:
    a, b = await processes(pg_url, 2)
    try:
        game_id = await drafted_game([a, b])
        # Process a serves andy's act first: it has read (and, before, remembered) the round's context.
        await moves.submit_actions(a.host, caller("andy"), *WE1["andy"], None)
        # grunkle buys points through b, then acts through a.
        await moves.buy_friendship(b.host, caller("grunkle"), "banker", "governor", 2)
        await moves.submit_actions(a.host, caller("grunkle"), *WE1["grunkle"], None)
        found = await collected(a, game_id)
        seat = next(s for s, m in found.items() if m["actions"] and "governor" in str(m["actions"][0]))
        assert found[seat]["buy"] == [["banker", "governor"]] * 2, found[seat]
    finally:
        await close([a, b])


async def test_everyone_in_is_seen_when_the_five_submit_through_different_processes(pg_url: str) -> None:
    procs = await processes(pg_url, 2)
    try:
        game_id = await drafted_game(procs)
        played = []
        for i, name in enumerate(WE1):
            host = procs[i % 2].host
            played.append(await moves.submit_actions(host, caller(name), *WE1[name], None))
        assert [p.all_in for p in played] == [False] * 4 + [True]
        async with procs[0].db.reader() as conn:
            due = await timers_repo.timers_of(conn, game_id)
        assert [t.kind for t in due if t.kind == "resolve"] == ["resolve"]
    finally:
        await close(procs)


async def test_no_acknowledged_submission_is_missed_by_a_concurrent_resolution(pg_url: str) -> None:
    """A resolution through one process races submissions through another, round after round: every
    submission acknowledged as recorded is in the move log of the step it was recorded for."""
    a, b = await processes(pg_url, 2)
    try:
        game_id = await drafted_game([a, b], wait_for_deadline=True)
        acknowledged: list[tuple[int, str]] = []
        for _ in range(6):
            game = await a.db.fetchone("SELECT status FROM games WHERE id = ?", (game_id,))
            if game["status"] != "running":
                break

            async def submit(name: str) -> None:
                try:
                    played = await b.host.play.submit(caller(name), "crimecity", first_legal)
                except (Stale, Refused):  # too late for this round, or nothing to do in it
                    return
                acknowledged.append((played.turn.game.step, played.turn.seat))

            await asyncio.gather(a.host.due.resolve_now(game_id), *(submit(n) for n in WE1))
        assert acknowledged, "no submission was acknowledged: the race was not exercised"
        logged = {
            (r["step"], seat)
            for r in await a.db.fetchall("SELECT step, actions_json FROM moves WHERE game_id = ?", (game_id,))
            for seat in {a["by"] for a in json.loads(r["actions_json"]) if isinstance(a, dict)}
        }
        missed = [ack for ack in acknowledged if ack not in logged]
        pending = await collected(a, game_id)
        missed = [(step, seat) for step, seat in missed if seat not in pending]
        assert missed == []
    finally:
        await close([a, b])


def first_legal(turn: Turn) -> dict[str, Any]:
    """The seat's first legal action, and the first legal one after it."""
    legal = legal_actions(turn.state.game, turn.seat)
    if not legal:
        raise Refused("none", "nothing legal")
    first = legal[0]
    second = legal_seconds(turn.state.game, turn.seat, first)[:1]
    return moves.round_move(turn, actions=[a.to_json() for a in (first, *second)])


async def test_each_due_timer_fires_once_across_four_processes(pg_url: str) -> None:
    procs = await processes(pg_url, 4)
    fired: list[int] = []
    try:
        game_id = await drafted_game(procs[:1], wait_for_deadline=True)
        async with procs[0].db.transaction() as conn:
            await conn.execute("DELETE FROM timers")
            for _ in range(200):
                await timers_repo.add_timer(conn, game_id, "test", 0, 1.0)

        async def handler(timer: TimerRow) -> None:
            fired.append(timer.id)
            await asyncio.sleep(0.001)

        schedulers = [Scheduler(p.db, handler) for p in procs]
        for s in schedulers:
            s.start()
        for _ in range(500):
            left = await procs[0].db.fetchone("SELECT COUNT(*) AS n FROM timers")
            if left["n"] == 0 and not any(s.busy for s in schedulers):
                break
            await asyncio.sleep(0.02)
        for s in schedulers:
            await s.stop()
        assert len(fired) == 200 and len(set(fired)) == 200
        assert sum(1 for s in schedulers if s.fired) >= 2  # the work was shared, not taken by one process
    finally:
        await close(procs)


async def test_processes_starting_together_sync_the_commands_once(pg_url: str) -> None:
    from bot import Settings, create_bot
    from tests.fakediscord import FakeDiscord

    async with FakeDiscord() as fd:
        fd.add_guild("Crime Club").add_text_channel("crime-city")
        bots = [create_bot(pg_url, Settings(command_sync="global")) for _ in range(3)]
        for bot in bots:
            fd.start(bot)
        await fd.wait_ready(timeout=20)
        syncs = [r for r in fd.requests if r.method == "PUT" and r.path.endswith("/commands")]
        assert len(syncs) == 1
        assert all(bot.command_ids == bots[0].command_ids != {} for bot in bots)
