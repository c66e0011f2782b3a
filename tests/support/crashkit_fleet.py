"""The crash harness with several bot processes on one PostgreSQL: N real bot subprocesses, process i
holding shard i of N, share one database; N servers (one per shard), each with its own channel, host and
five players, play at once. Players submit through every process: channel commands reach the process
holding their server's shard, DMs (every other submission here) reach shard 0's. A random process is
SIGKILLed while they submit, then started again (and sometimes a random one is killed again while it
recovers). After each kill, once everything is idle: every acknowledged submission is in the database,
no step was resolved twice (one step move per decision, one logged board per round), no board or DM was
sent twice, and each finished game's export replays to its logged boards. At the end every open game is
played to its end without kills.

Used by tests/bot/reliability/test_crash_fleet.py (a few kills) and bench/crash_kill.py --processes N.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import re
import signal
import sys
import threading
from collections import Counter
from collections.abc import Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

from tests.fakediscord import FakeDiscord
from tests.support.crashkit import ROOT, CrashWorld, Figures, acknowledged

T = TypeVar("T")
CHANGE_OF_MIND = 0.3  # share of a round's submitters who send a second, other submission at once
LEASE = "2"  # seconds a due timer's claim lasts in these processes: a killed one's timers fire again soon


@dataclass
class FleetFigures(Figures):
    processes: int = 0
    steps_resolved_twice: int = 0
    kills_in_flight: int = 0  # kills while a submission sent to the killed process was unanswered
    games_started: int = 0
    changes_of_mind: int = 0  # second submissions acknowledged (racing the resolution the fifth one started)
    refused_late: int = 0  # second submissions refused because the round had just resolved

    def line(self) -> str:
        return (
            f"{self.processes} processes on one PostgreSQL: {self.kills} SIGKILLs ({self.kills_in_recovery} during "
            f"restart recovery, {self.kills_in_flight} with a submission to the killed one unanswered), "
            f"{self.restarts} restarts, {self.acked} acknowledged submissions ({self.changes_of_mind} changes of mind, "
            f"{self.refused_late} more refused as the round had resolved), {self.lost} lost, "
            f"{self.recorded_unacked} recorded but unacknowledged, {self.phases_resolved} phases resolved, "
            f"{self.steps_resolved_twice} steps resolved twice, {self.games_finished} of {self.games_started} games "
            f"finished, {self.duplicate_posts} duplicate posts, {self.duplicate_dms} duplicate DMs, "
            f"{self.nonce_replays} resends deduplicated by nonce, {self.replay_mismatches} replay mismatches"
        )


class PgReader:
    """Synchronous reads of the shared database for the checks (an asyncpg connection on a thread of its own,
    so the harness's event loop, where the fake Discord runs, is not re-entered)."""

    def __init__(self, url: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True, name="pg-reader")
        self.thread.start()
        self.conn: asyncpg.Connection = self._call(asyncpg.connect(url))

    def _call(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)

    def query(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        numbers = itertools.count(1)
        return self._call(self.conn.fetch(re.sub(r"\?", lambda _: f"${next(numbers)}", sql), *args))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._call(self.conn.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


class Lane(CrashWorld):
    """One server of the fleet (on shard `shard`): its channel, host, five players, their games."""

    def __init__(self, fleet: Fleet, shard: int, seed: int) -> None:
        super().__init__(
            fleet.fd, Path("unused"), fleet.workdir / "unused.log", seed, guild_name=f"club-{shard}", shard=shard
        )
        self.fleet = fleet
        self.shard = shard
        self.route: dict[str, int] = {}  # player -> the process their submission in flight went to
        self.steps_twice = 0  # over this server's games, recounted at each check
        self.second: dict[str, Any] = {}  # player -> their change of mind, while it is unanswered
        self.changes = self.refused_late = 0

    def query(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        return self.fleet.reader.query(sql, args)

    def check(self) -> None:
        self.figures.lost = 0  # each acknowledged submission found missing counts once, not at every check
        super().check()

    def check_integrity(self) -> None:
        """No step resolved twice in this server's games (the SQLite file check has no meaning here)."""
        rows = self.query(
            "SELECT m.game_id, m.step, COUNT(*) AS n FROM moves m JOIN games g ON g.id = m.game_id"
            " WHERE g.channel_id = ? AND m.kind = 'step' GROUP BY m.game_id, m.step HAVING COUNT(*) > 1",
            (self.chan.id,),
        )
        twice = {(r["game_id"], r["step"]): r["n"] - 1 for r in rows}
        for game_id in self.game_start:
            boards = Counter(
                json.loads(r["data_json"])["round"]
                for r in self.query(
                    "SELECT data_json FROM events WHERE game_id = ? AND kind = 'board' AND public = 1", (game_id,)
                )
            )
            for rnd, n in boards.items():
                if n > 1:
                    twice[(game_id, f"round {rnd}")] = n - 1
        self.steps_twice = sum(twice.values())
        for (game_id, step), n in twice.items():
            self.problem(f"game {game_id} step {step}: resolved {n + 1} times")

    def process_for(self, dm: bool) -> int:
        return 0 if dm else self.shard

    def launch(self, game: dict[str, Any]) -> tuple[Any, dict[str, tuple[dict[str, Any], Any]], dict[str, Any]]:
        """Everyone owing a submission submits, half of them by DM (through shard 0's process); in a round,
        some change their mind at once (a second, other submission as soon as the first is answered),
        racing the resolution the last one in starts, maybe in another process."""
        key = (game["id"], "draft" if game["status"] == "draft" else game["round"])
        plan = self.plan(game)
        command = "draft" if game["status"] == "draft" else "act"
        tasks: dict[str, Any] = {}
        self.route, self.second = {}, {}
        for n, (opts, want) in plan.items():
            dm = self.rng.random() < 0.5  # through shard 0's process, whatever server the game is in
            self.route[n] = self.process_for(dm)
            again = None
            if command == "act" and self.rng.random() < CHANGE_OF_MIND:
                again = self.plan_one(game, n)
            tasks[n] = asyncio.create_task(self._submit(key, n, dm, command, (opts, want), again))
        return key, plan, tasks

    def plan_one(self, game: dict[str, Any], name: str) -> tuple[dict[str, Any], Any] | None:
        """Another legal submission for `name` in this round (None if the first pick is all there is)."""
        saved = self.acked.pop((game["id"], game["round"]), None)
        try:
            return self.plan(game).get(name)
        finally:
            if saved is not None:
                self.acked[(game["id"], game["round"])] = saved

    async def _submit(
        self, key: Any, name: str, dm: bool, command: str, first: tuple[dict[str, Any], Any], again: Any
    ) -> None:
        channel = self.fd.dm_channel(self.players[name]) if dm else self.chan
        for opts, want in [first] + ([again] if again else []):
            if opts is not first[0]:
                self.second[name] = (key, want)  # in flight: if the process dies now, either one may be stored
            reply = await self.fd.slash(self.players[name], channel, f"crimecity {command}", timeout=10, **opts)
            self.second.pop(name, None)
            text = reply.text()
            if opts is not first[0]:
                self.changes += acknowledged(text)
                self.refused_late += "was resolved just before" in text
            if not acknowledged(text):
                return
            found = re.match(r"Round (\d+) actions recorded", text)
            # a change of mind answered after the round resolved counts for the round it was taken for
            phase = key if found is None else (key[0], int(found.group(1)))
            self.acked.setdefault(phase, {})[name] = want
            self.figures.acked += 1

    async def collect(self, key: Any, plan: dict[str, tuple[dict[str, Any], Any]], tasks: dict[str, Any]) -> None:
        self.unacked = {}
        for n, task in tasks.items():
            if not task.done():
                task.cancel()
            with contextlib.suppress(BaseException):
                await task
            if n not in self.acked.get(key, {}):
                self.unacked[(key, n)] = plan[n][1]

    def count_recorded_unacked(self) -> None:
        """Also: a change of mind whose answer never came may be what is stored (for this round, or the next)."""
        super().count_recorded_unacked()
        for n, ((game_id, rnd), want) in self.second.items():
            for phase in (rnd, rnd + 1):
                if self.stored(game_id, phase, n) == want:
                    self.acked.setdefault((game_id, phase), {})[n] = want
                    self.figures.recorded_unacked += 1
                    break
        self.second = {}


class Fleet:
    """N bot processes (process i holds shard i of N) on one PostgreSQL, and the N servers they serve."""

    def __init__(self, fd: FakeDiscord, url: str, processes: int, workdir: Path, seed: int = 0) -> None:
        import random

        if not 1 <= processes <= 8:
            raise ValueError(f"processes must be 1 to 8, not {processes}")
        self.fd = fd
        self.url = url
        self.n = processes
        self.workdir = workdir
        self.rng = random.Random(seed)
        fd.shard_count = processes
        self.reader = PgReader(url)
        self.procs: list[asyncio.subprocess.Process | None] = [None] * processes
        self.killed: Counter[int] = Counter()  # process index -> SIGKILLs
        self.figures = FleetFigures(processes=processes)
        self.lanes = [Lane(self, k, seed * 100 + k) for k in range(processes)]
        self.submit_window = 0.1  # how long the players' submissions take to be answered (measure())

    # ---- the processes -----------------------------------------------------------------------

    def log_path(self, i: int) -> Path:
        return self.workdir / f"bot-{i}.log"

    async def start(self, i: int) -> None:
        before = self.fd.gateway.identifies
        args = [self.url, f"{self.fd.base_url}/api/v10", self.fd.gateway.url, self.fd.token, str(self.n), str(i)]
        log = open(self.log_path(i), "ab")  # noqa: SIM115 - handed to the child
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1", CRIMECITY_TEST_TIMER_LEASE=LEASE)
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.support.crash_runner", *args, cwd=ROOT, stdout=log, stderr=log, env=env
        )
        log.close()
        self.procs[i] = proc

        def up() -> bool:
            if proc.returncode is not None:
                raise AssertionError(f"bot process {i} exited with {proc.returncode}; see {self.log_path(i)}")
            return self.fd.gateway.identifies > before and self.fd.gateway.is_ready()

        await self.fd.wait_for(up, 30, f"bot process {i} never became ready")
        self.figures.restarts += 1

    async def kill(self, i: int) -> None:
        proc = self.procs[i]
        assert proc is not None
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGKILL)
        await proc.wait()
        self.procs[i] = None
        self.figures.kills += 1
        self.killed[i] += 1
        await asyncio.sleep(0.05)  # let the fake finish handling what the process sent before it died

    async def start_all(self) -> None:
        for i in range(self.n):
            await self.start(i)
        self.figures.restarts = 0

    async def stop(self) -> None:
        for i, proc in enumerate(self.procs):
            if proc is not None and proc.returncode is None:
                await self.kill(i)
                self.figures.kills -= 1
                self.killed[i] -= 1
        self.reader.close()

    # ---- the scenario ------------------------------------------------------------------------

    async def _games(self) -> list[dict[str, Any]]:
        async def one(lane: Lane) -> dict[str, Any]:
            game = lane.current_game()
            if game is None:
                await lane.new_game()
                game = lane.current_game()
            assert game is not None
            return game

        return list(await asyncio.gather(*(one(lane) for lane in self.lanes)))

    async def step(self, window: float, recovery_kill_p: float = 0.3) -> None:
        """Every server's players submit through every process; one random process is SIGKILLed meanwhile."""
        games = await self._games()
        launched = [
            (lane, *lane.launch(game))
            for lane, game in zip(self.lanes, games, strict=True)
            if game["status"] in ("draft", "round")
        ]
        # half the kills while the submissions are being answered, half anywhere in the phase (resolution,
        # posts, DMs)
        await asyncio.sleep(self.rng.uniform(0, self.submit_window if self.rng.random() < 0.5 else window))
        victim = self.rng.randrange(self.n)
        if any(not t.done() for lane, _, _, tasks in launched for n, t in tasks.items() if lane.route[n] == victim):
            self.figures.kills_in_flight += 1
        await self.kill(victim)
        # the submissions the living processes hold are answered; the dead one's never will be
        alive = [t for lane, _, _, tasks in launched for n, t in tasks.items() if lane.route[n] != victim]
        if alive:
            await asyncio.wait(alive, timeout=20)
        for lane, key, plan, tasks in launched:
            await lane.collect(key, plan, tasks)
        await self.start(victim)
        for lane in self.lanes:
            lane.count_recorded_unacked()
        if self.rng.random() < recovery_kill_p:  # another death while the fleet catches up
            await asyncio.sleep(self.rng.uniform(0, 0.3))
            again = self.rng.randrange(self.n)
            await self.kill(again)
            self.figures.kills_in_recovery += 1
            await self.start(again)
        await self.settle()

    async def settle(self) -> None:
        await self.lanes[0].idle(timeout=30)
        for lane in self.lanes:
            lane.check()
        await asyncio.gather(*(lane._after_phase() for lane in self.lanes))
        self.tally()

    async def measure(self) -> float:
        """One phase in every server without a kill: the kill window."""
        games = await self._games()
        t0 = asyncio.get_running_loop().time()
        await asyncio.gather(*(lane.submit_all(game, None) for lane, game in zip(self.lanes, games, strict=True)))
        self.submit_window = max(0.05, asyncio.get_running_loop().time() - t0)
        await self.lanes[0].idle(timeout=30)
        elapsed = asyncio.get_running_loop().time() - t0
        await self.settle()
        return elapsed

    async def finish(self, max_phases: int = 40) -> None:
        """Play every open game to its end without kills."""
        for _ in range(max_phases):
            games = [(lane, lane.current_game()) for lane in self.lanes]
            open_games = [(lane, g) for lane, g in games if g is not None]
            if not open_games:
                return
            await asyncio.gather(
                *(lane.submit_all(g, None) for lane, g in open_games if g["status"] in ("draft", "round"))
            )
            await self.settle()
        self.lanes[0].problem(f"games still open after {max_phases} phases without kills")

    def tally(self) -> None:
        """The fleet's figures: the servers' summed, the database's counted once."""
        f = self.figures
        for name in ("acked", "lost", "recorded_unacked", "duplicate_posts", "duplicate_dms", "replay_mismatches"):
            setattr(f, name, sum(getattr(lane.figures, name) for lane in self.lanes))
        f.steps_resolved_twice = sum(lane.steps_twice for lane in self.lanes)
        f.changes_of_mind = sum(lane.changes for lane in self.lanes)
        f.refused_late = sum(lane.refused_late for lane in self.lanes)
        f.games_started = sum(len(lane.game_start) for lane in self.lanes)
        f.games_finished = sum(len(lane.checked_games) for lane in self.lanes)
        f.phases_resolved = self.reader.query(
            "SELECT COUNT(*) FROM events WHERE kind IN ('board', 'draft_resolved') AND public = 1"
        )[0][0]
        f.nonce_replays = len(self.fd.api.nonce_replays)
        f.problems = [p for lane in self.lanes for p in lane.figures.problems]


async def run(
    kills: int, workdir: Path, processes: int, database: str | None = None, seed: int = 0, progress: bool = False
) -> FleetFigures:
    """`kills` SIGKILLs across `processes` bot processes on `database` (a postgresql:// URL of an empty
    database; by default a throwaway server started here), then every open game played to its end."""
    server = None
    if database is None:
        from tests.support.pgserver import PgServer

        server = PgServer()
        server.start()
        database = await server.new_database()
    try:
        async with FakeDiscord() as fd:
            fleet = Fleet(fd, database, processes, workdir, seed)
            try:
                await fleet.start_all()
                window = max(0.2, await fleet.measure())
                shown = told = 0
                while fleet.figures.kills < kills:
                    await fleet.step(window)
                    if progress and fleet.figures.kills // 20 > shown:
                        shown = fleet.figures.kills // 20
                        print(fleet.figures.line(), flush=True)
                    if progress and len(fleet.figures.problems) > told:
                        for problem in fleet.figures.problems[told:]:
                            print(f"PROBLEM after {fleet.figures.kills} kills: {problem}", flush=True)
                        told = len(fleet.figures.problems)
                await fleet.finish()
            finally:
                await fleet.stop()
        return fleet.figures
    finally:
        if server is not None:
            server.stop()
