"""Races around a resolution, played deterministically on the host (the game's lock is held
while the racing commands queue up, so the order is forced, not hoped for).

Exactly one resolution; a racing submission is either in it or refused with a clear message.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path

import pytest

from bot.host.errors import UserError
from bot.host.roster import Roster
from bot.storage import games as games_repo
from rules.crimecity import legal_actions, legal_seconds
from rules.crimecity.game import GAME
from rules.crimecity.notation import format_action
from tests.support.service import HOST, PLAYERS, Service, now, round_one


async def legal_pair(svc: Service, game_id: int, name: str) -> tuple[str, str]:
    async with svc.db.read() as conn:
        game = await games_repo.get_game(conn, game_id)
        roster = Roster(await games_repo.seats(conn, game_id))
    assert game is not None and game.state is not None
    state = GAME.decode_state(game.state).game
    seat = roster.seat_of(PLAYERS[name])
    assert seat is not None
    for first in legal_actions(state, seat):
        seconds = legal_seconds(state, seat, first)
        if seconds:
            return format_action(first, roster.name_of), format_action(seconds[0], roster.name_of)
    raise AssertionError("no legal pair")


async def counts(svc: Service, game_id: int) -> dict[str, int]:
    out = {}
    async with svc.db.read() as conn:
        for key, sql in {
            "rounds_logged": "SELECT COUNT(*) FROM events WHERE game_id = ? AND kind = 'board'",
            "boards": "SELECT COUNT(*) FROM outbox WHERE game_id = ? AND payload_json LIKE '%board after the round%'",
            "subs_now": "SELECT COUNT(*) FROM submissions WHERE game_id = ? AND step = (SELECT step FROM games"
            " WHERE id = submissions.game_id)",
        }.items():
            out[key] = (await (await conn.execute(sql, (game_id,))).fetchone())[0]
    game = await svc.game(game_id)
    out["round"] = GAME.decode_state(game.state).game.round
    return out


async def open_clock(svc: Service, game_id: int) -> tuple[int, str]:
    game = await svc.game(game_id)
    found = await svc.db.fetchone("SELECT clock FROM clocks WHERE game_id = ? ORDER BY position DESC", (game_id,))
    return game.step, found["clock"]


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)
    await asyncio.sleep(0.02)


async def test_submission_queued_behind_a_forced_resolution_is_refused_not_moved(tmp_path: Path) -> None:
    svc, gid = await round_one(tmp_path)
    first, second = await legal_pair(svc, gid, "eve")
    lock = svc.host.locks(gid)
    await lock.acquire()  # the admin's resolution and Eve's submission both queue behind this
    resolving = asyncio.create_task(svc.admin_resolve(now(HOST)))
    await settle()
    submitting = asyncio.create_task(svc.submit_actions(now("eve"), first, second))
    await settle()
    lock.release()
    await resolving
    with pytest.raises(UserError, match=r"(?s)Round 1 was resolved just before.*not recorded.*Round 2 is open"):
        await submitting
    c = await counts(svc, gid)
    assert c == {"rounds_logged": 1, "boards": 1, "round": 2, "subs_now": 0}, c
    await svc.db.close()


async def test_submission_that_wins_the_race_is_in_the_resolution(tmp_path: Path) -> None:
    svc, gid = await round_one(tmp_path)
    first, second = await legal_pair(svc, gid, "eve")
    lock = svc.host.locks(gid)
    await lock.acquire()
    submitting = asyncio.create_task(svc.submit_actions(now("eve"), first, second))
    await settle()
    resolving = asyncio.create_task(svc.admin_resolve(now(HOST)))
    await settle()
    lock.release()
    played = await submitting
    await resolving
    assert played.turn.state.game.round == 1  # the answer says which round it was recorded for
    async with svc.db.read() as conn:
        found = await conn.execute("SELECT actions_json FROM moves WHERE game_id = ? AND seq = 2", (gid,))
        row = await found.fetchone()
    assert row is not None and any(a["by"] == "p5" for a in json.loads(row[0])), "Eve's move is in round 1"
    assert (await counts(svc, gid))["rounds_logged"] == 1
    await svc.db.close()


async def test_command_read_after_the_resolution_but_issued_before_is_refused(tmp_path: Path) -> None:
    """The other order of the same race: the submission waited for the database, not the lock."""
    svc, gid = await round_one(tmp_path)
    first, second = await legal_pair(svc, gid, "eve")
    typed = now("eve")
    await svc.admin_resolve(now(HOST))
    with pytest.raises(UserError, match="not recorded"):
        await svc.submit_actions(typed, first, second)
    with pytest.raises(UserError, match="not recorded"):
        await svc.buy_friendship(typed, "banker", "policeman", 0)
    assert (await counts(svc, gid))["subs_now"] == 0
    # issued now, it is recorded for round 2 and says so
    first, second = await legal_pair(svc, gid, "eve")
    played = await svc.submit_actions(now("eve"), first, second)
    assert played.turn.state.game.round == 2
    await svc.db.close()


async def test_two_admins_forcing_at_once_resolve_once(tmp_path: Path) -> None:
    svc, gid = await round_one(tmp_path)
    other = 2
    a, b = now(HOST), now(other)  # both issued while round 1 was open
    results = await asyncio.gather(svc.admin_resolve(a), svc.admin_resolve(b), return_exceptions=True)
    ok = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, UserError)]
    assert len(ok) == 1 and len(refused) == 1, results
    assert "just resolved" in refused[0].message
    # the slower admin's command reached the game only after round 2 had opened: still refused
    await asyncio.sleep(0.01)
    late = replace(now(other), issued_at=b.issued_at)
    with pytest.raises(UserError, match="just resolved"):
        await svc.admin_resolve(late)
    c = await counts(svc, gid)
    assert c["rounds_logged"] == 1 and c["boards"] == 1 and c["round"] == 2, c
    await svc.db.close()


async def test_deadline_firing_during_a_forced_resolution_is_a_no_op(tmp_path: Path) -> None:
    svc, gid = await round_one(tmp_path)
    seq, clock = await open_clock(svc, gid)
    lock = svc.host.locks(gid)
    await lock.acquire()
    forced = asyncio.create_task(svc.admin_resolve(now(HOST)))
    await settle()
    deadline = asyncio.create_task(svc.on_timer(gid, "deadline", seq, clock))
    await settle()
    lock.release()
    await asyncio.gather(forced, deadline)
    c = await counts(svc, gid)
    assert c["rounds_logged"] == 1 and c["boards"] == 1 and c["round"] == 2, c
    # and in the other order: the deadline first, the admin's (issued before) refused
    seq, clock = await open_clock(svc, gid)
    typed = now(HOST)
    await svc.host.hosting.deadline(now(HOST), "crimecity", 0)  # the clock runs out now
    await svc.on_timer(gid, "deadline", seq, clock)
    with pytest.raises(UserError, match="just resolved"):
        await svc.admin_resolve(typed)
    c = await counts(svc, gid)
    assert c["rounds_logged"] == 2 and c["boards"] == 2 and c["round"] == 3, c
    await svc.db.close()
