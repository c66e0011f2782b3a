"""Organized Crime: the bot's answer to a move, through the real discord.py client and the fake Discord,
against the floor of discord.py (modelled on interaction_latency.py).

N games of 4 players (seeded through the bot's own host: lobby, start, the Home Base choices, then a few
random legal actions each). From the moment the fake queues INTERACTION_CREATE to the bot's callback:
  (a) /ping, a trivial command that only answers (the floor),
  (b) a move: whatever the awaited player of a game plays next (a legal action of
      rules.organizedcrime.policy, sent as its /organizedcrime command: buys, declarations, rolls, each
      step of a path, votes...), through host.play.submit, the step, its texts and the outbox,
  (c) autocomplete of the legal list (`path item` during a move, else `declare piece`).
Loads (bench/_loads.py, as interaction_latency.py): one in flight; paced (RATE interactions/s, Poisson
arrivals, kinds mixed); CONCURRENCY in flight at once in different games (closed loop); and one in flight
with the kinds mixed, the floor measured beside the posts and pictures of the moves before. The bot
runs in a child process; the driver reads the games' states from the database file (read-only) to choose
legal moves, outside the timed span. Prints figures; asserts nothing.

Run: .venv/bin/python bench/organizedcrime_latency.py [--games 500] [--samples 400]
(CC_BENCH_PHASES=1: also a move's own side by phase, bench/_phases.py)
(or bench/interaction_latency.py --game organizedcrime)
"""

from __future__ import annotations

import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _phases  # noqa: E402
from _harness import BotProcess, Probe, Spot, build_world, caller, ms, quiet_driver_gc, summary  # noqa: E402
from _loads import (  # noqa: E402
    BOT_SIDE,
    CONCURRENCY,
    GC_SEEN,
    OWN_CPU,
    PHASES_SEEN,
    RATE,
    Games,
    bot_side_line,
    cli,
    closed_loop,
    gc_line,
    paced,
    report,
    sequential,
)

KIND = "organizedcrime"
KINDS = ("ping", "move", "ac")
PLAYERS = 4


async def seed(db_path: Path, spots: list[Spot], rng: Random, ahead: int = 30) -> float:
    """Real games through the host: lobby, start, bases, then up to `ahead` random legal actions each."""
    from bot.games import presentations
    from bot.games.organizedcrime.lobby import host_options, settings_of
    from bot.games.organizedcrime.moves import context, play
    from bot.host import Host
    from bot.storage.db import Database
    from rules.contract import NoChance
    from rules.organizedcrime.engine import Engine
    from rules.organizedcrime.game import GAME
    from rules.organizedcrime.policy import random_action

    t0 = time.perf_counter()
    db = Database(db_path)
    await db.open()
    await db.conn.execute("PRAGMA synchronous=OFF")  # seeding only; the bot itself runs with FULL
    host = Host(db, presentations())
    settings = settings_of({"bargain_minimum_minutes": 0.00001})
    for spot in spots:
        boss = caller(spot.host, spot.chan, manage=True)
        game = await host.lobby.open(boss, KIND, settings, host_options(settings))
        spot.game_id = game.id
        members = spot.players[:PLAYERS]
        for m in members:
            await host.lobby.join(caller(m, spot.chan), KIND)
        await host.lobby.start(boss, KIND)
        roster = await host.finder.roster(game.id)
        spot.seats = {p.user_id: p.seat for p in roster.players if p.user_id is not None}
        by_seat = {spot.seats[m.id]: m for m in members}
        for i in range(200):
            row = await db.fetchone("SELECT state_json FROM games WHERE id = ?", (game.id,))
            state = GAME.decode_state(json.loads(row["state_json"]))
            pending = GAME.pending(state)
            if pending is None or (state["phase"] == "turn" and i >= ahead):
                break
            seat = pending.awaited[0]
            action = random_action(Engine(GAME.content, state, NoChance()), seat, rng)
            who = caller(by_seat[seat], spot.chan)
            ctx = await context(host, who, None)
            await play(host, who, ctx, [action], None)
    async with db.transaction() as conn:
        await conn.execute("UPDATE outbox SET delivered_at = ? WHERE delivered_at IS NULL", (time.time(),))
    await db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    await db.close()
    return time.perf_counter() - t0


class Driver:
    def __init__(self, probe: Probe, db_path: Path) -> None:
        self.probe = probe
        self.db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, check_same_thread=False)
        self.db.row_factory = sqlite3.Row
        self.refused: list[str] = []
        self.games: Games | None = None
        self.by_command: dict[str, list[float]] = {}  # a move's latency by its command, for the breakdown
        self.ids: list[tuple[str, int]] = []  # (kind, interaction id) of each timed interaction

    def state(self, spot: Spot) -> tuple[Any, dict[str, str]]:
        from rules.organizedcrime.game import GAME

        row = self.db.execute("SELECT state_json FROM games WHERE id = ?", (spot.game_id,)).fetchone()
        names = {r["seat"]: r["display_name"] for r in self.db.execute(
            "SELECT seat, display_name FROM seats WHERE game_id = ?", (spot.game_id,))}
        return GAME.decode_state(json.loads(row["state_json"])), names

    async def one(self, kind: str, spot: Spot) -> dict[str, float]:
        """The awaited player's next move, sent as its command (chosen from the state on disk, untimed)."""
        from bot.games.organizedcrime.names import Names
        from rules.contract import NoChance
        from rules.organizedcrime.engine import Engine
        from rules.organizedcrime.game import GAME
        from rules.organizedcrime.policy import random_action
        from tests.support.ocdriver import command_for

        assert self.games is not None
        rng = self.games.rng
        members = {spot.seats[m.id]: m for m in spot.players[:PLAYERS]}
        if kind == "ping":
            dt, _ = await self.probe.slash(rng.choice(list(members.values())), spot.chan, "ping")
            self.ids.append(("ping", self.probe.last_id))
            return {"ping": dt}
        state, shown = self.state(spot)
        pending = GAME.pending(state)
        if pending is None:
            self.games.over.add(spot.game_id)
            return {}
        seat = pending.awaited[0]
        names = Names(GAME.view(state, None), lambda s: shown.get(s, s))
        if kind == "ac":
            option = "item" if state["phase"] == "path" else "piece"
            command = "path" if option == "item" else "declare"
            dt, body = await self.probe.autocomplete(members[seat], spot.chan, f"{KIND} {command}", option)
            self.ids.append(("ac", self.probe.last_id))
            return {"ac": dt}
        action = random_action(Engine(GAME.content, state, NoChance()), seat, rng)
        command, options = command_for(action, names, members)
        dt, body = await self.probe.slash(members[seat], spot.chan, f"{KIND} {command}", **options)
        self.by_command.setdefault(command, []).append(dt)
        self.ids.append(("move", self.probe.last_id))
        text = (body.get("data") or {}).get("content") or ""
        if "Not allowed" in text or "Could not" in text or "Sorry" in text:
            self.refused.append(f"{action} -> {text[:120]!r}")
        return {"move": dt}


NAMES = {"ping": "(a) /ping (floor)", "move": "(b) a move", "ac": "(c) autocomplete"}


async def scenario(n_games: int, samples: int, rng_seed: int, rate: float = RATE, workers: int = CONCURRENCY) -> None:
    from tests.fakediscord import FakeDiscord

    rng = Random(rng_seed)
    with tempfile.TemporaryDirectory(prefix="oc-bench-") as tmp:
        db_path = Path(tmp) / "bench.db"
        async with FakeDiscord() as fd:
            spots = build_world(fd, n_games)
            seeded = await seed(db_path, spots, rng)
            probe = Probe(fd)
            bot = BotProcess(fd, db_path)
            info = await bot.start()
            quiet_driver_gc()
            print(f"\n== {n_games} game(s) of {PLAYERS} players in turn play; seeded in {seeded:.1f} s, bot ready in "
                  f"{info['ready']:.2f} s ==")
            try:
                drv = Driver(probe, db_path)
                games = drv.games = Games(spots, rng)
                await sequential(drv.one, games, KINDS, max(10, samples // 10), bot)  # warm-up
                drv.refused.clear()
                drv.by_command.clear()
                drv.ids.clear()
                GC_SEEN.clear()
                PHASES_SEEN.clear()
                BOT_SIDE.clear()
                res, cpu, commits = await sequential(drv.one, games, KINDS, samples, bot)
                report("one interaction in flight", res, NAMES)
                print("    moves by command: " + "; ".join(
                    f"{c} {statistics.median(xs) * 1e3:.2f}/{max(xs) * 1e3:.2f} ms (n={len(xs)})"
                    for c, xs in sorted(drv.by_command.items(), key=lambda kv: -len(kv[1]))) + " (p50/max)")
                print("    bot CPU per interaction (user+sys, all threads, the outbox's posts and pictures "
                      "included, in whichever process): " + ", ".join(f"{k} {ms(cpu[k])}" for k in KINDS))
                print("    of which the bot's own process (the answers' event loop): "
                      + ", ".join(f"{k} {ms(OWN_CPU[k])}" for k in KINDS))
                print(f"    the bot's garbage collections meanwhile: {gc_line()}")
                print(f"    the bot's own side (INTERACTION_CREATE parsed → callback sent): {bot_side_line(drv.ids)}")
                if PHASES_SEEN:
                    print(f"    a move's own side, by phase (CC_BENCH_PHASES=1): {_phases.line(PHASES_SEEN)}")
                if commits:
                    print(f"    commits meanwhile (fsync, the writer's thread; outbox marks included): "
                          f"{summary(commits)}")
                await bot.idle()  # each load starts with the outbox sent: none inherits another's backlog
                report("one interaction in flight, kinds mixed (the floor beside the moves' posts and pictures)",
                       await closed_loop(drv.one, games, KINDS, samples, 1), NAMES)
                if n_games > 1:
                    await bot.idle()
                    report(f"paced: {rate:.0f} interactions/s arriving at random (Poisson), kinds mixed",
                           await paced(drv.one, games, KINDS, samples, rate), NAMES)
                    await bot.idle()
                    report(f"{min(workers, n_games)} players in flight at once (different games, closed loop)",
                           await closed_loop(drv.one, games, KINDS, samples, min(workers, n_games)), NAMES)
                print(f"  deferred responses: {probe.deferred}; refused moves: {len(drv.refused)}; "
                      f"games over meanwhile: {len(games.over)}")
                for line in drv.refused[:5]:
                    print(f"    refused: {line}")
            finally:
                await bot.stop()



if __name__ == "__main__":
    cli("Organized Crime", __doc__, scenario)
