"""Kill the bot process at random moments while five players submit and rounds resolve, then check
that nothing acknowledged was lost and nothing was resolved or sent twice.

Used by tests/bot/reliability/test_crash.py (a handful of kills) and bench/crash_kill.py (hundreds).
The fake Discord runs in this process; the bot runs in a subprocess (tests/support/crash_runner.py) against
it and its SQLite file, and is stopped with SIGKILL (or SIGTERM for a clean shutdown). `run(...,
processes=N)` runs N such processes on one PostgreSQL instead (tests/support/crashkit_fleet.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import sqlite3
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.crimecity import CHARACTERS, ROLES, GameState, legal_actions, legal_seconds, single_move_only
from rules.crimecity.notation import format_action
from rules.crimecity.replay import run_replay
from tests.fakediscord import FakeDiscord
from tests.support.table import NAMES

ROOT = Path(__file__).resolve().parents[2]
ACTIVE = ("lobby", "running")


@dataclass
class Figures:
    kills: int = 0
    restarts: int = 0
    kills_in_recovery: int = 0
    acked: int = 0  # submissions a player saw "recorded" for
    lost: int = 0  # acknowledged submissions missing after a restart
    recorded_unacked: int = 0  # in the database although the player never saw the answer (fine)
    phases_resolved: int = 0
    games_finished: int = 0
    duplicate_posts: int = 0
    duplicate_dms: int = 0
    nonce_replays: int = 0  # resends after a crash that Discord (the fake) answered with the first message
    integrity_failures: int = 0
    replay_mismatches: int = 0
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (
            f"{self.kills} SIGKILLs ({self.kills_in_recovery} during restart recovery), {self.restarts} restarts, "
            f"{self.acked} acknowledged submissions, {self.lost} lost, {self.recorded_unacked} recorded but "
            f"unacknowledged, {self.phases_resolved} phases resolved, {self.games_finished} games finished, "
            f"{self.duplicate_posts} duplicate posts, {self.duplicate_dms} duplicate DMs, "
            f"{self.nonce_replays} resends deduplicated by nonce, {self.integrity_failures} integrity failures, "
            f"{self.replay_mismatches} replay mismatches"
        )


class CrashWorld:
    """One fake server, one channel, a host, five players, and the bot as a separate process."""

    def __init__(
        self,
        fd: FakeDiscord,
        db_path: Path,
        log_path: Path,
        seed: int = 0,
        *,
        guild_name: str = "Crime Club",
        shard: int | None = None,
    ) -> None:
        self.fd = fd
        self.db_path = db_path
        self.log_path = log_path
        self.rng = random.Random(seed)
        self.guild = fd.add_guild(guild_name, shard=shard)
        self.chan = self.guild.add_text_channel("crime-city")
        self.host = self.guild.add_member("hosty", manage_guild=True)
        self.players = {n: self.guild.add_member(n) for n in NAMES}
        self.proc: asyncio.subprocess.Process | None = None
        self.figures = Figures()
        # (game id, phase key) -> {name: expected stored value}; phase key "draft" or the round number
        self.acked: dict[tuple[int, Any], dict[str, Any]] = {}
        self.game_start: dict[int, tuple[int, dict[str, int]]] = {}  # game id -> (channel index, dm indexes)
        self.checked_games: set[int] = set()
        self.unacked: dict[tuple[tuple[int, Any], str], Any] = {}
        self.env: dict[str, str] = {}  # extra environment for the bot process (e.g. where to kill itself)

    # ---- the process -------------------------------------------------------------------------

    async def start(self) -> None:
        before = self.fd.gateway.identifies
        args = [str(self.db_path), f"{self.fd.base_url}/api/v10", self.fd.gateway.url, self.fd.token]
        log = open(self.log_path, "ab")  # noqa: SIM115 - handed to the child
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1", **self.env)
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.support.crash_runner", *args, cwd=ROOT, stdout=log, stderr=log, env=env
        )
        log.close()
        proc = self.proc

        def up() -> bool:
            if proc.returncode is not None:
                raise AssertionError(f"bot process exited with {proc.returncode}; see {self.log_path}")
            return self.fd.gateway.identifies > before and self.fd.gateway.is_ready()

        await self.fd.wait_for(up, 20, "the bot process never became ready")
        self.figures.restarts += 1

    async def kill(self) -> None:
        assert self.proc is not None
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        self.proc = None
        self.figures.kills += 1
        await asyncio.sleep(0.05)  # let the fake finish handling what the bot sent before it died

    async def terminate(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(self.proc.wait(), 20)
        self.proc = None
        return code

    async def stop(self) -> None:
        """End of the run (not counted as a kill)."""
        if self.proc is not None and self.proc.returncode is None:
            await self.kill()
            self.figures.kills -= 1

    # ---- the database (read from this process; WAL lets the bot write meanwhile) -------------------

    def db(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.db_path, timeout=10)
        conn.row_factory = sqlite3.Row
        return conn

    def query(self, sql: str, args: tuple = ()) -> list[sqlite3.Row]:
        conn = self.db()
        try:
            return conn.execute(sql, args).fetchall()
        finally:
            conn.close()

    def current_game(self) -> dict[str, Any] | None:
        rows = self.query(
            f"SELECT * FROM games WHERE channel_id = ? AND status IN {ACTIVE} ORDER BY id DESC LIMIT 1", (self.chan.id,)
        )
        return game_of(rows[0]) if rows else None

    def latest_game(self) -> dict[str, Any]:
        return game_of(
            self.query("SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (self.chan.id,))[0]
        )

    async def idle(self, timeout: float = 20) -> None:
        """No message waiting in the outbox, no timer due, and the fake heard nothing for a while."""

        def calm() -> bool:
            now = time.time()
            pending = self.query("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")[0][0]
            due = self.query("SELECT COUNT(*) FROM timers WHERE due_at <= ?", (now,))[0][0]
            return pending == 0 and due == 0

        deadline = time.monotonic() + timeout
        while True:
            await self.fd.wait_for(calm, max(0.1, deadline - time.monotonic()), "the bot did not become idle")
            await self.fd.settle(quiet=0.1, timeout=timeout)
            if calm():
                return

    # ---- players -----------------------------------------------------------------------------

    async def cmd(self, who: Any, command: str, timeout: float = 10, **options: Any) -> Any:
        return await self.fd.slash(who, self.chan, f"crimecity {command}", timeout=timeout, **options)

    async def new_game(self) -> int:
        before_chan = len(self.fd.channel_messages(self.chan))
        before_dms = {n: len(self.fd.dms(m)) for n, m in self.players.items()}
        reply = await self.cmd(self.host, "new", deadline_hours=24.0, garnets=6)
        assert "new game" in reply.text(), reply.text()
        for n in NAMES:
            await self.cmd(self.players[n], "join")
        await self.cmd(self.host, "start")
        game = self.current_game()
        assert game is not None and game["status"] == "draft"
        self.game_start[game["id"]] = (before_chan, before_dms)
        return game["id"]

    def plan(self, game: dict[str, Any]) -> dict[str, tuple[dict[str, Any], Any]]:
        """For each player without an acknowledged submission in this phase: (options, expected row)."""
        key = (game["id"], "draft" if game["status"] == "draft" else game["round"])
        done = self.acked.get(key, {})
        seats = {r["user_id"]: r["seat"] for r in self.query("SELECT * FROM seats WHERE game_id = ?", (game["id"],))}
        names = {
            r["seat"]: r["display_name"] for r in self.query("SELECT * FROM seats WHERE game_id = ?", (game["id"],))
        }
        out: dict[str, tuple[dict[str, Any], Any]] = {}
        for n in NAMES:
            if n in done:
                continue
            seat = seats[self.players[n].id]
            if game["status"] == "draft":
                roles = [r.value for r in self.rng.sample(ROLES, len(ROLES))]
                chars = [c.value for c in self.rng.sample(CHARACTERS, len(CHARACTERS))]
                bid = self.rng.randint(0, 3)
                options = {"bid": bid, "roles": ", ".join(roles), "characters": ", ".join(chars)}
                out[n] = (options, (bid, roles, chars))
            elif game["status"] == "round":
                actions = self._pick(game["state"], seat)
                if actions is None:
                    continue
                text = [format_action(a, lambda s: names[s]) for a in actions]
                options = {"first": text[0]} | ({"second": text[1]} if len(text) > 1 else {})
                out[n] = (options, [a.to_json() for a in actions])
        return out

    def _pick(self, state: GameState, seat: str) -> list[Any] | None:
        firsts = legal_actions(state, seat)
        if single_move_only(state, seat):
            moves = [a for a in firsts if a.is_move]
            return [self.rng.choice(moves)] if moves else None
        for _ in range(20):
            if not firsts:
                return None
            first = self.rng.choice(firsts)
            seconds = legal_seconds(state, seat, first)
            if seconds:
                return [first, self.rng.choice(seconds)]
        return None

    async def submit_all(self, game: dict[str, Any], kill_after: float | None) -> None:
        """Everyone without an acknowledged submission submits at once; SIGKILL after `kill_after` s."""
        key, plan, tasks = self.launch(game)
        if kill_after is None:
            await asyncio.gather(*tasks.values(), return_exceptions=True)
        else:
            await asyncio.sleep(kill_after)
            await self.kill()
        await self.collect(key, plan, tasks)

    def launch(self, game: dict[str, Any]) -> tuple[Any, dict[str, tuple[dict[str, Any], Any]], dict[str, Any]]:
        """Start everyone's submission: (phase key, plan, name -> task answering with the reply)."""
        key = (game["id"], "draft" if game["status"] == "draft" else game["round"])
        plan = self.plan(game)
        command = "draft" if game["status"] == "draft" else "act"
        tasks = {n: asyncio.create_task(self.cmd(self.players[n], command, **opts)) for n, (opts, _) in plan.items()}
        return key, plan, tasks

    async def collect(self, key: Any, plan: dict[str, tuple[dict[str, Any], Any]], tasks: dict[str, Any]) -> None:
        """Note the acknowledged submissions; the unanswered ones are cancelled (their process died)."""
        self.unacked = {}
        for n, task in tasks.items():
            if not task.done():
                task.cancel()
            with contextlib.suppress(BaseException):
                reply = await task
                if acknowledged(reply.text()):
                    self.acked.setdefault(key, {})[n] = plan[n][1]
                    self.figures.acked += 1
            if n not in self.acked.get(key, {}):
                self.unacked[(key, n)] = plan[n][1]

    def count_recorded_unacked(self) -> None:
        """Submissions whose answer the player never saw (the bot died first) but that were committed."""
        for (key, n), planned in self.unacked.items():
            if self.stored(key[0], key[1], n) == planned:
                self.figures.recorded_unacked += 1
        self.unacked = {}

    def stored(self, game_id: int, phase: Any, name: str) -> Any:
        """What the bot holds as `name`'s submission for `phase`: in the move log once the phase resolved,
        else among the collected moves."""
        rows = self.query("SELECT seat FROM seats WHERE game_id = ? AND user_id = ?", (game_id, self.players[name].id))
        seat = rows[0]["seat"]
        clock = "draft" if phase == "draft" else f"round:{phase}"
        steps = [
            r["step"]
            for r in self.query("SELECT step, pending_json FROM steps WHERE game_id = ?", (game_id,))
            if any(c["id"] == clock for c in json.loads(r["pending_json"]).get("clocks", []))
        ]
        if not steps:
            return None
        move = None
        for r in self.query(
            "SELECT actions_json FROM moves WHERE game_id = ? AND step = ? AND kind = 'step'", (game_id, steps[0])
        ):
            for action in json.loads(r["actions_json"]):
                if action["by"] == seat:
                    move = action["move"]
        if move is None:
            found = self.query(
                "SELECT move_json FROM submissions WHERE game_id = ? AND step = ? AND seat = ?",
                (game_id, steps[0], seat),
            )
            move = json.loads(found[0]["move_json"]) if found else None
        if move is None:
            return None
        if phase == "draft":
            return (move["bid"], move["roles"], move["characters"])
        return move.get("actions")

    def logged_boards(self, game_id: int) -> dict[int, dict[str, Any]]:
        """Round -> the public view of the board the bot logged when that round resolved."""
        rows = self.query(
            "SELECT data_json FROM events WHERE game_id = ? AND kind = 'board' AND public = 1", (game_id,)
        )
        return {d["round"]: d["view"] for d in (json.loads(r["data_json"]) for r in rows)}

    # ---- checks ------------------------------------------------------------------------------

    def problem(self, text: str) -> None:
        if text not in self.figures.problems:
            self.figures.problems.append(text)

    def check(self) -> None:
        """After a restart, once idle: nothing acknowledged lost, nothing done twice, the file is sound."""
        f = self.figures
        self.check_integrity()
        for (game_id, phase), done in self.acked.items():
            for n, want in done.items():
                got = self.stored(game_id, phase, n)
                if got != want:
                    f.lost += 1
                    self.problem(f"game {game_id} {phase} {n}: acknowledged {want!r}, stored {got!r}")
        f.duplicate_posts = f.duplicate_dms = 0  # recounted over every game's whole history
        for game_id in self.game_start:
            self._check_messages(game_id)
        f.nonce_replays = len(self.fd.api.nonce_replays)

    def check_integrity(self) -> None:
        if self.query("PRAGMA integrity_check")[0][0] != "ok":
            self.figures.integrity_failures += 1
            self.problem("integrity_check failed")

    def _game_posts(self, game_id: int) -> list[str]:
        start, _ = self.game_start[game_id]
        later = [g for g in sorted(self.game_start) if g > game_id]
        end = self.game_start[later[0]][0] if later else None
        return [m.text() for m in self.fd.channel_messages(self.chan)[start:end]]

    def _game_dms(self, game_id: int, name: str) -> list[str]:
        _, dms = self.game_start[game_id]
        later = [g for g in sorted(self.game_start) if g > game_id]
        end = self.game_start[later[0]][1][name] if later else None
        return [m.text() for m in self.fd.dms(self.players[name])[dms[name] : end]]

    def _check_messages(self, game_id: int) -> None:
        f = self.figures
        posts = self._game_posts(game_id)
        dupes = [t for t, c in Counter(posts).items() if c > 1]
        if dupes:
            f.duplicate_posts += sum(Counter(posts)[t] - 1 for t in dupes)
            self.problem(f"game {game_id}: the same post twice: {dupes[0][:80]!r}")
        resolved = set(self.logged_boards(game_id))
        drafted = self.query("SELECT COUNT(*) FROM events WHERE game_id = ? AND kind = 'draft_resolved'", (game_id,))
        for rnd in range(1, 7):
            boards = [p for p in posts if re.search(rf"Round {rnd}\*\*: the board after the round", p)]
            if len(boards) != (1 if rnd in resolved else 0):
                f.duplicate_posts += max(0, len(boards) - 1)
                self.problem(f"game {game_id} round {rnd}: {len(boards)} board posts, resolved={rnd in resolved}")
        drafts = [p for p in posts if "the draft is resolved" in p]
        if len(drafts) != drafted[0][0]:
            self.problem(f"game {game_id}: {len(drafts)} draft posts")
        for n in NAMES:
            dms = self._game_dms(game_id, n)
            counts = Counter(dms)
            extra = sum(c - 1 for c in counts.values() if c > 1)
            if extra:
                f.duplicate_dms += extra
                self.problem(f"game {game_id}: {n} got a DM twice")
            for rnd in range(1, 7):
                got = [d for d in dms if d.startswith(f"**Crime City — Round {rnd}**")]
                if len(got) > 1:
                    f.duplicate_dms += len(got) - 1
                    self.problem(f"game {game_id}: {n} got {len(got)} DMs for round {rnd}")

    async def check_export(self, game_id: int) -> None:
        """The game's export replays to exactly the boards the bot logged (each round resolved once, as stored)."""
        if game_id in self.checked_games:
            return
        self.checked_games.add(game_id)
        reply = await self.cmd(self.host, "admin export")
        assert reply.attachments, reply.text()
        doc = json.loads(reply.attachments[0][1])
        result = run_replay(doc)
        logged = self.logged_boards(game_id)
        replayed = {r["round"]: r["board"] for r in result["rounds"]}
        for rnd, view in logged.items():
            if view["board"] != replayed.get(rnd):
                self.figures.replay_mismatches += 1
                self.problem(f"game {game_id} round {rnd}: logged board differs from the replay")
        if set(logged) != set(replayed):
            self.figures.replay_mismatches += 1
            self.problem(f"game {game_id}: rounds logged {sorted(logged)} vs replayed {sorted(replayed)}")

    # ---- the scenario ------------------------------------------------------------------------

    async def step(self, window: float, recovery_kill_p: float = 0.25) -> None:
        """Everyone still owing a submission submits; SIGKILL at a random moment; restart; check."""
        game = self.current_game()
        if game is None:
            await self.new_game()
            game = self.current_game()
        assert game is not None
        if game["status"] in ("draft", "round"):
            await self.submit_all(game, self.rng.uniform(0, window))
        else:  # EC pending or similar: nothing to submit; still kill once while idle
            await asyncio.sleep(self.rng.uniform(0, window))
            await self.kill()
        await self.start()
        self.count_recorded_unacked()
        if self.rng.random() < recovery_kill_p:  # die again while catching up (outbox, due timers)
            await asyncio.sleep(self.rng.uniform(0, 0.3))
            await self.kill()
            self.figures.kills_in_recovery += 1
            await self.start()
        await self.idle()
        self.check()
        await self._after_phase()

    async def _after_phase(self) -> None:
        latest = self.latest_game()
        if latest["status"] == "ec":
            await self.cmd(self.host, "admin end")
            await self.idle()
        latest = self.latest_game()
        if latest["status"] == "ended":
            await self.check_export(latest["id"])
            self.figures.games_finished = len(self.checked_games)
        self.figures.phases_resolved = self.query(
            "SELECT COUNT(*) FROM events WHERE kind IN ('board', 'draft_resolved') AND public = 1"
        )[0][0]

    async def measure(self) -> float:
        """One phase without a kill: how long five submissions plus the resolution take (the kill window)."""
        game = self.current_game()
        if game is None:
            await self.new_game()
            game = self.current_game()
        assert game is not None
        t0 = time.monotonic()
        await self.submit_all(game, None)
        await self.idle()
        elapsed = time.monotonic() - t0
        self.check()
        await self._after_phase()
        return elapsed


def acknowledged(text: str) -> bool:
    """The player was told their submission is recorded ("... so it was not recorded" is a refusal)."""
    return "recorded" in text and "not recorded" not in text


def game_of(row: sqlite3.Row) -> dict[str, Any]:
    """A game row as the scenario needs it: its phase in Crime City's words, its round and round state."""
    from rules.crimecity.game import GAME

    status = row["status"]
    match = None if row["state_json"] is None else GAME.decode_state(json.loads(row["state_json"]))
    if status == "running":
        status = json.loads(row["pending_json"])["decision"]
    state = None if match is None else match.game
    return {"id": row["id"], "status": status, "round": 0 if state is None else state.round, "state": state}


async def run(
    kills: int,
    workdir: Path,
    seed: int = 0,
    progress: bool = False,
    processes: int = 0,
    database: str | None = None,
) -> Figures:
    """`kills` SIGKILLs of one bot process on a SQLite file in `workdir`; with `processes=N`, of any of N
    processes (a shard each) on one PostgreSQL: `database`, an empty one, or a throwaway server's."""
    if processes:
        from tests.support.crashkit_fleet import run as run_fleet

        return await run_fleet(kills, workdir, processes, database, seed=seed, progress=progress)
    async with FakeDiscord() as fd:
        world = CrashWorld(fd, workdir / "crimecity.db", workdir / "bot.log", seed)
        try:
            await world.start()
            window = max(0.2, await world.measure())
            while world.figures.kills < kills:
                await world.step(window)
                if progress and world.figures.kills % 20 == 0:
                    print(world.figures.line(), flush=True)
        finally:
            await world.stop()
    return world.figures
