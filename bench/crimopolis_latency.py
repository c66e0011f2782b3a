"""Crimopolis: the bot's answer to a move, through the real discord.py client and the fake Discord, against the
floor (a trivial /ping), modelled on bench/interaction_latency.py.

For N games in turn play (3 seats each), from the moment the fake queues INTERACTION_CREATE:
  (a) /ping, a command that only answers (discord.py's floor);
  (b) /crimopolis act with a legal action of the decider (`rules.crimopolis` legal list): the acknowledgement
      (the command defers, commands.md) and the answer (its follow-up, once the action is applied and on disk);
  (c) the `action` autocomplete of /crimopolis act (a few typed characters);
  (d) /crimopolis status (one read, no engine step).
Loads (bench/_loads.py, as interaction_latency.py): one in flight; paced (RATE interactions/s, Poisson
arrivals, kinds mixed); CONCURRENCY in flight at once in different games (closed loop).

The bot runs in a child process, the fake Discord and this driver in the parent. Prints figures; asserts nothing.

Run: .venv/bin/python bench/crimopolis_latency.py [--games 500] [--samples 400]
(or bench/interaction_latency.py --game crimopolis)
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import BotProcess, Probe, Spot, build_world, ms, quiet_driver_gc, summary  # noqa: E402
from _loads import CONCURRENCY, OWN_CPU, RATE, Games, cli, closed_loop, paced, report, sequential  # noqa: E402

KIND = "crimopolis"
SEATS = 3


class AnswerProbe(Probe):
    """Also timestamps the first follow-up of each interaction (the answer after a deferral)."""

    def __init__(self, fd: Any) -> None:
        super().__init__(fd)
        self.answers: dict[int, asyncio.Future] = {}
        desk_followup = fd.desk.followup

        def followup(token: str, body: dict, uploads: list) -> Any:
            result = desk_followup(token, body, uploads)
            p = fd.desk.by_token.get(token)
            if p is not None:
                fut = self.answers.pop(p.id, None)
                if fut is not None and not fut.done():
                    fut.set_result((time.perf_counter(), body))
            return result

        fd.desk.followup = followup

    async def slash_answer(self, actor: Any, chan: Any, command: str, **values: Any) -> tuple[float, float, dict]:
        """(acknowledged after, answered after, the answer's body)."""
        loop = asyncio.get_running_loop()
        ack, answer = loop.create_future(), loop.create_future()
        p = self.fd._command_interaction(2, actor, chan, command, values, None)
        self.waiters[p.id] = ack
        self.answers[p.id] = answer
        sent = self.sent.get(p.id) or time.perf_counter()
        dt, body = await asyncio.wait_for(ack, 30)
        if body.get("type") != 5:  # answered at once (a refusal, say)
            self.answers.pop(p.id, None)
            return dt, dt, body
        at, final = await asyncio.wait_for(answer, 30)
        return dt, at - sent, final


async def seed(db_path: Path, spots: list[Spot], rng: Random, turns: int = 3) -> float:
    """Real games through the host: lobby, 3 joins, start, random legal play into turn `turns`."""
    from _harness import caller

    from bot.games import presentations
    from bot.games.crimopolis import moves
    from bot.host import Host
    from bot.host import HostOptions as Options
    from bot.storage import games as games_repo
    from bot.storage.db import Database
    from rules.crimopolis import GAME

    t0 = time.perf_counter()
    db = Database(db_path)
    await db.open()
    await db.conn.execute("PRAGMA synchronous=OFF")  # seeding only
    host = Host(db, presentations())
    for spot in spots:
        admin = caller(spot.host, spot.chan, manage=True)
        game = await host.lobby.open(admin, KIND, {}, Options())
        spot.game_id = game.id
        for m in spot.players[:SEATS]:
            await host.lobby.join(caller(m, spot.chan), KIND)
        await host.lobby.start(admin, KIND)
        async with db.read() as conn:
            roster = {p.seat: p for p in await games_repo.seats(conn, game.id)}
        spot.seats = {p.user_id: seat for seat, p in roster.items()}
        by_seat = {seat: next(m for m in spot.players if m.id == p.user_id) for seat, p in roster.items()}
        while True:
            async with db.read() as conn:
                row = await games_repo.get_game(conn, game.id)
            state = GAME.decode_state(row.state)
            if state.phase == "play" and state.number >= turns:
                break
            seat = GAME.pending(state).awaited[0]
            move = GAME.random_move(state, seat, rng)
            await host.play.submit(caller(by_seat[seat], spot.chan), KIND, moves.fixed(move))
    async with db.transaction() as conn:
        await conn.execute("UPDATE outbox SET delivered_at = ? WHERE delivered_at IS NULL", (time.time(),))
    await db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    await db.close()
    return time.perf_counter() - t0


class Driver:
    def __init__(self, probe: AnswerProbe, spots: list[Spot], db_path: Path, rng: Random) -> None:
        self.probe = probe
        self.spots = spots
        self.rng = rng
        self.db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        self.db.row_factory = sqlite3.Row
        self.refused: list[str] = []
        self.games: Games | None = None

    def decider(self, spot: Spot) -> tuple[Any, str, Any] | None:
        from rules.crimopolis import GAME

        row = self.db.execute("SELECT state_json FROM games WHERE id = ?", (spot.game_id,)).fetchone()
        state = GAME.decode_state(json.loads(row["state_json"]))
        pending = GAME.pending(state)
        if pending is None:
            return None
        seat = pending.awaited[0]
        member = next(m for m in spot.players if spot.seats.get(m.id) == seat)
        return member, seat, state

    def notation(self, spot: Spot, seat: str, state: Any) -> str:
        from bot.games.crimopolis.notation import format_action
        from rules.crimopolis import GAME
        from rules.crimopolis.legal import legal_actions

        actions = legal_actions(GAME.content, state, seat)
        # Mostly turn actions that keep the game going (a reaction or an explore is answered like any other).
        keep = [a for a in actions if a["kind"] != "end"] or actions
        action = self.rng.choice(keep if self.rng.random() < 0.85 else actions)
        names = {s: next(m.name for m in spot.players if m.id == uid) for uid, s in spot.seats.items()}
        return format_action(action, lambda s: names.get(s, s))

    async def one(self, kind: str, spot: Spot) -> dict[str, float]:
        found = self.decider(spot)
        if found is None and self.games is not None:
            self.games.over.add(spot.game_id)
        if kind == "ping" or found is None:
            dt, _ = await self.probe.slash(spot.players[0], spot.chan, "ping")
            return {"ping": dt}
        member, seat, state = found
        if kind == "act":
            action = self.notation(spot, seat, state)
            ack, answer, body = await self.probe.slash_answer(member, spot.chan, f"{KIND} act", action=action)
            text = body.get("content") or (body.get("data") or {}).get("content") or ""
            if "✅" not in text:
                self.refused.append(f"{action} -> {text[:100]!r}")
            return {"act": ack, "answer": answer}
        if kind == "ac":
            typed = self.notation(spot, seat, state)[: self.rng.choice((0, 1, 3, 5))]
            dt, body = await self.probe.autocomplete(member, spot.chan, f"{KIND} act", "action", action=typed)
            if not (body.get("data") or {}).get("choices"):
                self.refused.append(f"no choices for {typed!r}")
            return {"ac": dt}
        dt, _ = await self.probe.slash(member, spot.chan, f"{KIND} status")
        return {"status": dt}


NAMES = {
    "ping": "(a) /ping (floor)",
    "act": "(b) act: acknowledged",
    "answer": "(b) act: answered",
    "ac": "(c) act autocomplete",
    "status": "(d) /crimopolis status",
}
LOADS = ("ping", "act", "ac", "status")


async def scenario(n_games: int, samples: int, rng_seed: int, rate: float = RATE, workers: int = CONCURRENCY) -> None:
    from tests.fakediscord import FakeDiscord

    rng = Random(rng_seed)
    with tempfile.TemporaryDirectory(prefix="cp-bench-") as tmp:
        db_path = Path(tmp) / "crimopolis.db"
        async with FakeDiscord() as fd:
            spots = build_world(fd, n_games)
            seeded = await seed(db_path, spots, rng)
            probe = AnswerProbe(fd)
            bot = BotProcess(fd, db_path)
            info = await bot.start()
            quiet_driver_gc()
            print(
                f"\n== {n_games} game(s) in turn play ({SEATS * n_games} players); seeded in {seeded:.1f} s, "
                f"bot ready in {info['ready']:.2f} s =="
            )
            try:
                drv = Driver(probe, spots, db_path, rng)
                games = drv.games = Games(spots, rng)
                await sequential(drv.one, games, LOADS, max(10, samples // 10), bot)  # warm-up
                drv.refused.clear()
                res, cpu, commits = await sequential(drv.one, games, LOADS, samples, bot)
                report("one interaction in flight", res, NAMES)
                print("    bot CPU per interaction (user+sys, all threads, the outbox's posts and pictures "
                      "included, in whichever process): " + ", ".join(f"{k} {ms(cpu[k])}" for k in LOADS))
                print("    of which the bot's own process (the answers' event loop): "
                      + ", ".join(f"{k} {ms(OWN_CPU[k])}" for k in LOADS))
                if commits:
                    print(f"    commits meanwhile (fsync, the writer's thread): {summary(commits)}")
                await bot.idle()  # each load starts with the outbox sent: none inherits another's backlog
                report("one interaction in flight, kinds mixed (the floor beside the moves' posts and pictures)",
                       await closed_loop(drv.one, games, LOADS, samples, 1), NAMES)
                if n_games > 1:
                    await bot.idle()
                    report(f"paced: {rate:.0f} interactions/s arriving at random (Poisson), kinds mixed",
                           await paced(drv.one, games, LOADS, samples, rate), NAMES)
                    await bot.idle()
                    report(f"{min(workers, n_games)} deciders in flight at once (different games, closed loop)",
                           await closed_loop(drv.one, games, LOADS, samples, min(workers, n_games)), NAMES)
                print(f"  deferred responses: {probe.deferred}; refused actions / empty autocompletes: "
                      f"{len(drv.refused)}; games over: {len(games.over)}")
                for line in drv.refused[:5]:
                    print(f"    {line}")
            finally:
                await bot.stop()



if __name__ == "__main__":
    cli("crimopolis", __doc__, scenario)
