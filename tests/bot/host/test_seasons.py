"""bot/host/seasons.py: for any sequence of games (some of whose ends fire twice or crash before their
commit), off-bot matches and adjustments, every balance equals the sum of its ledger and equals a model
that applies each game once."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.host.context import Caller, Member
from bot.host.finder import Finder
from bot.host.roster import Roster
from bot.host.seasons import Outcome, Seasons
from bot.storage import games as games_repo
from bot.storage.db import Database
from bot.storage.models import HostOptions

GUILD, CHANNEL = 10, 20
HOST = Caller(1, "host", "host", guild_id=GUILD, channel_id=CHANNEL, manage_guild=True)
USERS = [Member(100 + i, f"u{i}", f"U{i}") for i in range(5)]
amounts = st.integers(min_value=-50, max_value=50)
op = st.one_of(
    st.tuples(st.just("adjust"), st.integers(0, 4), amounts),
    # a game's end: its changes by seat, how many times the end fires, whether the first try crashes
    st.tuples(st.just("game"), st.lists(amounts, min_size=5, max_size=5), st.integers(1, 3), st.booleans()),
    st.tuples(st.just("offbot"), st.lists(amounts, min_size=5, max_size=5)),
)


class Crash(Exception):
    pass


async def scenario(path: Path, ops: list[tuple[Any, ...]]) -> None:
    db = Database(path)
    await db.open()
    try:
        seasons = Seasons(db, Finder(db, str), clock=lambda: 1.0)
        season = await seasons.open(HOST, "crimecity", "S")
        for user in USERS:
            await seasons.enrol(HOST, "crimecity", user)
        model = {u.user_id: 0 for u in USERS}
        recorded = 0
        for step in ops:
            if step[0] == "adjust":
                _, who, amount = step
                await seasons.adjust(HOST, "crimecity", USERS[who], amount, "why")
                model[USERS[who].user_id] += amount
            elif step[0] == "offbot":
                deltas = {u.user_id: a for u, a in zip(USERS, step[1], strict=True)}
                await seasons.record_off_bot(HOST, "crimecity", list(USERS), deltas, {}, {})
                for user, amount in deltas.items():
                    model[user] += amount
                recorded += 1
            else:
                _, changes, fires, crash_first = step
                async with db.transaction() as conn:
                    game_id = await games_repo.create_game(
                        conn,
                        kind="crimecity",
                        guild_id=GUILD,
                        channel_id=CHANNEL + recorded + 1000 * len(model),
                        host_id=1,
                        settings={},
                        options=HostOptions(),
                        now=1.0,
                        season_id=season.id,
                    )
                    for u in USERS:
                        await games_repo.add_seat(
                            conn,
                            game_id,
                            user_id=u.user_id,
                            user_name=u.user_name,
                            display_name=u.display_name,
                            now=1.0,
                        )
                    await games_repo.update_game(conn, game_id, status="ended")
                    game = await games_repo.get_game(conn, game_id)
                    roster = Roster(await games_repo.seats(conn, game_id))
                assert game is not None
                outcome = Outcome(
                    placements=roster.seats,
                    changes=[(s, a, "game") for s, a in zip(roster.seats, changes, strict=True)],
                    marks={roster.seats[0]: {"tol": 1}},
                )
                if crash_first:
                    try:
                        async with db.transaction() as conn:
                            assert await seasons.record_game(conn, game, roster, outcome)
                            raise Crash
                    except Crash:
                        pass
                firsts = []
                for _ in range(fires):
                    async with db.transaction() as conn:
                        firsts.append(await seasons.record_game(conn, game, roster, outcome))
                assert firsts == [True] + [False] * (fires - 1), "recorded once, whatever fires again"
                for u, amount in zip(USERS, changes, strict=True):
                    model[u.user_id] += amount
                recorded += 1
        standings = {s.user_id: s for s in await seasons.standings(season.id)}
        sums: dict[int, int] = {}
        for r in await seasons.ledger(season.id):
            sums[r["user_id"]] = sums.get(r["user_id"], 0) + r["amount"]
        assert {u: s.balance for u, s in standings.items()} == model
        assert {u: sums.get(u, 0) for u in model} == model
        assert await seasons.balances(season.id) == {u: b for u, b in model.items() if u in sums}
        assert len(await seasons.matches(season.id)) == recorded
        games = sum(1 for step in ops if step[0] == "game")
        assert standings[USERS[0].user_id].marks.get("tol", 0) == games, "one token per game, never two"
    finally:
        await db.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(op, max_size=8))
def test_every_balance_is_the_sum_of_its_ledger_and_no_game_counts_twice(ops: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(scenario(Path(tmp) / "s.db", ops))


async def test_every_member_of_a_shared_seat_shares_its_result(tmp_path: Path) -> None:
    db = Database(tmp_path / "s.db")
    await db.open()
    try:
        seasons = Seasons(db, Finder(db, str), clock=lambda: 1.0)
        season = await seasons.open(HOST, "crimecity", "S")
        for user in USERS[:3]:
            await seasons.enrol(HOST, "crimecity", user)
        async with db.transaction() as conn:
            game_id = await games_repo.create_game(
                conn, kind="crimecity", guild_id=GUILD, channel_id=CHANNEL, host_id=1, settings={},
                options=HostOptions(shared_seats=True), now=1.0, season_id=season.id,
            )
            for u in USERS[:2]:
                await games_repo.add_seat(
                    conn, game_id, user_id=u.user_id, user_name=u.user_name, display_name=u.display_name, now=1.0
                )
            partner = USERS[2]
            seat = (await games_repo.seats(conn, game_id))[0].seat
            await games_repo.add_partner(
                conn, game_id, seat, user_id=partner.user_id, user_name=partner.user_name,
                display_name=partner.display_name,
            )
            game = await games_repo.get_game(conn, game_id)
            roster = Roster(await games_repo.seats(conn, game_id))
            assert game is not None
            first, second = roster.seats
            outcome = Outcome(placements=[first, second], changes=[(first, 7, "won"), (second, -2, "lost")],
                              marks={first: {"tol": 1}})
            assert await seasons.record_game(conn, game, roster, outcome)
        balances = await seasons.balances(season.id)
        assert balances == {USERS[0].user_id: 7, USERS[2].user_id: 7, USERS[1].user_id: -2}
        assert await seasons.last_placements(season.id) == [USERS[0].user_id, USERS[2].user_id, USERS[1].user_id]
    finally:
        await db.close()
