"""SIGKILL bot processes at random while they share one PostgreSQL: 2 to 4 processes, players submitting
through all of them, rounds resolving through whichever process claims the "everyone is in" timer.

    .venv/bin/python bench/crash_kill_pg.py [--processes 3] [--kills 500] [--games 40] [--seed 1]

Each worker is a real OS process with the host, its game locks and its timer dispatcher on the shared
database (no Discord: the host's API is driven directly). Every game's seats are spread over the
workers, so a round's five moves arrive through different processes. A worker writes a line to its
acknowledgement file (fsync'd) once a submission returned "recorded". The parent kills a random
worker every few tenths of a second and starts it again, then lets the workers finish every game.

Checks: every acknowledged submission is in the move log of its round (or still collected for an
open one); no round was resolved twice (one step move per round); no message was queued twice
(each outbox row's text once per game); every game played all its rounds. Prints the figures and
exits 1 on any problem. Starts its own throwaway PostgreSQL (initdb and pg_ctl must be installed).
Timer claims are leased for 2 s here (30 s in the bot), so a killed worker's claims lapse quickly.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHANNEL0 = 7000
ROUNDS = 6


# ---- a worker ----------------------------------------------------------------------------------------


class Sent:
    """Stands for Discord: records each message the outbox sends (its row's nonce), fsync'd. It is the
    delivery's client (asked whether it is ready) and, through `sender()`, what makes its calls."""

    def __init__(self, path: Path) -> None:
        self.out = open(path, "a", buffering=1)  # noqa: SIM115 - lives as long as the process
        self.command_ids: dict[str, int] = {}
        self.allowed_mentions = None
        self._ids = iter(range(1, 10**12))

    def record(self, nonce: str | None, channel: int) -> None:
        self.out.write(json.dumps([nonce, channel, os.getpid()]) + "\n")
        os.fsync(self.out.fileno())

    def is_ready(self) -> bool:
        return True

    def sender(self) -> Any:
        from bot.sending import Outgoing, Sender
        from bot.sending import Sent as Posted

        sent = self

        class Recording(Sender):
            async def send(self, out: Outgoing) -> Posted:
                sent.record(out.nonce, out.channel_id)
                return Posted(next(sent._ids), out.content or "")

            async def edit(self, out: Outgoing) -> None:
                return None

            async def open_dm(self, user_id: int) -> int:
                return 10**9 + user_id

        return Recording()


async def worker(url: str, index: int, processes: int, games: int, acks: Path) -> None:
    from bot.games import presentations
    from bot.games.crimecity import moves
    from bot.host import Host
    from bot.host.delivery import Delivery
    from bot.host.errors import Refused, Stale, UserError
    from bot.host.scheduler import Scheduler
    from bot.storage import PgDatabase
    from bot.storage import timers as timers_repo
    from rules.crimecity.legal import legal_actions, legal_seconds
    from tests.support.shared import caller
    from tests.support.table import NAMES

    timers_repo.LEASE = 2.0
    db = PgDatabase(url)
    await db.open()
    host = Host(db, presentations())
    scheduler = Scheduler(db, host.due)
    host.timers_changed = scheduler.wake
    discord_stand_in = Sent(acks.with_suffix(".sent"))
    delivery = Delivery(db, discord_stand_in)  # type: ignore[arg-type]
    delivery.sender = discord_stand_in.sender()
    host.outbox_changed = delivery.kick
    db.on_notify(scheduler.wake)
    db.on_notify(delivery.kick)
    scheduler.start()
    await delivery.start()
    out = open(acks, "a", buffering=1)  # noqa: SIM115 - lives as long as the process
    mine = [n for i, n in enumerate(NAMES) if i % processes == index]
    rng = random.Random(os.getpid())

    def build(turn: Any) -> dict[str, Any]:
        legal = legal_actions(turn.state.game, turn.seat)
        if not legal:
            raise Refused("none", "nothing legal")
        first = rng.choice(legal)
        second = legal_seconds(turn.state.game, turn.seat, first)
        return moves.round_move(turn, actions=[a.to_json() for a in (first, *rng.sample(second, min(1, len(second))))])

    while True:
        open_games = 0
        for g in rng.sample(range(games), games):
            channel = CHANNEL0 + g
            game = await db.fetchone(
                "SELECT id, step, status, pending_json FROM games WHERE channel_id = ?", (channel,)
            )
            if game is None or game["status"] != "running" or '"decision":"round"' not in (game["pending_json"] or ""):
                continue
            open_games += 1
            have = {
                r["seat"]
                for r in await db.fetchall(
                    "SELECT seat FROM submissions WHERE game_id = ? AND step = ?", (game["id"], game["step"])
                )
            }
            seats = {
                r["user_name"]: r["seat"]
                for r in await db.fetchall("SELECT user_name, seat FROM seats WHERE game_id = ?", (game["id"],))
            }
            for name in mine:
                if seats[name] in have:
                    continue
                try:
                    played = await host.play.submit(caller(name, channel), "crimecity", build)
                except (Stale, Refused, UserError):
                    continue
                line = json.dumps([played.turn.game.id, played.turn.game.step, played.turn.seat, played.move])
                out.write(line + "\n")
                os.fsync(out.fileno())
        if not open_games:
            await asyncio.sleep(0.2)


# ---- the parent --------------------------------------------------------------------------------------


async def setup(url: str, games: int) -> None:
    from bot.games import presentations
    from bot.host import Host
    from bot.storage import PgDatabase
    from tests.support.shared import Process, drafted_game

    db = PgDatabase(url)
    await db.open()
    proc = Process(db, Host(db, presentations()))
    for g in range(games):
        await drafted_game([proc], channel=CHANNEL0 + g)
    await db.close()


async def check(url: str, acks: list[Path], games: int, killed: set[int] | None = None) -> dict[str, Any]:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        moves = await conn.fetch("SELECT game_id, step, actions_json FROM moves WHERE kind = 'step'")
        per_step = Counter((r["game_id"], r["step"]) for r in moves)
        logged = {}
        for r in moves:
            for action in json.loads(r["actions_json"]):
                if isinstance(action, dict) and "by" in action:
                    logged[(r["game_id"], r["step"], action["by"])] = action.get("move")
        collected = {
            (r["game_id"], r["step"], r["seat"]): json.loads(r["move_json"])
            for r in await conn.fetch("SELECT game_id, step, seat, move_json FROM submissions")
        }
        games_rows = await conn.fetch("SELECT id, step, pending_json FROM games")
        posts = await conn.fetch("SELECT game_id, target, seat, payload_json, delivered_at FROM outbox")
    finally:
        await conn.close()
    acked: dict[tuple[int, int, str], Any] = {}
    for path in acks:
        if path.exists():
            for line in path.read_text().splitlines():
                game, step, seat, move = json.loads(line)
                acked[(game, step, seat)] = move  # a later ack of the same seat and round replaces it
    # A resolved round's acknowledged move must be in its move log; an open round's, collected.
    lost = [k for k, move in acked.items() if ((logged if k[:2] in per_step else collected).get(k)) != move]
    dup_posts = sum(n - 1 for n in Counter(tuple(r)[:4] for r in posts).values() if n > 1)
    sends: Counter[str] = Counter()
    first: dict[str, int] = {}  # nonce -> the process that sent it first
    twice = 0  # sent again although its first sender was never killed: two live processes sent it
    for path in acks:
        sent = path.with_suffix(".sent")
        if sent.exists():
            for line in sent.read_text().splitlines():
                nonce, _, pid = json.loads(line)
                sends[nonce] += 1
                if nonce in first and first[nonce] not in (killed or set()) and first[nonce] != pid:
                    twice += 1
                first.setdefault(nonce, pid)
    undelivered = sum(1 for r in posts if r["delivered_at"] is None)
    finished = sum(1 for r in games_rows if '"decision":"round"' not in (r["pending_json"] or ""))
    return {
        "acknowledged": len(acked),
        "lost": len(lost),
        "rounds_resolved": len(per_step),
        "resolved_twice": sum(1 for n in per_step.values() if n > 1),
        "duplicate_messages_queued": dup_posts,
        "games_finished": finished,
        "sent": sum(sends.values()),
        "messages": len(posts),
        "resent_same_nonce": sum(n - 1 for n in sends.values() if n > 1),
        "undelivered": undelivered,
        "sent_by_two_live_processes": twice,
        "games": games,
        "lost_examples": lost[:5],
    }


def spawn(url: str, index: int, processes: int, games: int, acks: Path, log: Path) -> subprocess.Popen[bytes]:
    argv = [sys.executable, __file__, "--worker", url, str(index), str(processes), str(games), str(acks)]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with open(log, "ab") as out:
        return subprocess.Popen(argv, stdout=out, stderr=out, env=env, cwd=ROOT)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=3, choices=(2, 3, 4))
    parser.add_argument("--kills", type=int, default=500)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worker", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        url, index, processes, games, acks = args.worker
        asyncio.run(worker(url, int(index), int(processes), int(games), Path(acks)))
        return 0
    from tests.support.pgserver import PgServer

    rng = random.Random(args.seed)
    server = PgServer()
    server.start()
    started = time.monotonic()
    try:
        url = asyncio.run(server.new_database())
        asyncio.run(setup(url, args.games))
        work = server.root / "work"
        work.mkdir()
        acks = [work / f"acks-{i}.jsonl" for i in range(args.processes)]
        log = work / "workers.log"
        procs = [spawn(url, i, args.processes, args.games, acks[i], log) for i in range(args.processes)]
        kills = kills_in_play = 0
        killed: set[int] = set()
        while kills < args.kills:
            time.sleep(rng.uniform(0.05, 0.5))
            i = rng.randrange(args.processes)
            procs[i].send_signal(signal.SIGKILL)
            procs[i].wait()
            killed.add(procs[i].pid)
            kills += 1
            procs[i] = spawn(url, i, args.processes, args.games, acks[i], log)
            if kills % 50 == 0:
                progress = asyncio.run(check(url, acks, args.games))
                if progress["games_finished"] < args.games:
                    kills_in_play = kills
                print(
                    f"{kills} kills, {progress['games_finished']} games finished, {time.monotonic() - started:.0f} s",
                    flush=True,
                )
        deadline = time.monotonic() + 600
        figures: dict[str, Any] = {}
        while time.monotonic() < deadline:  # no more kills: every game must reach its end
            time.sleep(2)
            figures = asyncio.run(check(url, acks, args.games, killed))
            if figures["games_finished"] == args.games and not figures["undelivered"]:
                break
        for p in procs:
            p.send_signal(signal.SIGKILL)
            p.wait()
        figures = asyncio.run(check(url, acks, args.games, killed))
    finally:
        server.stop()
    print(
        f"{args.processes} processes, {kills} SIGKILLs ({kills_in_play} with games still open), "
        f"seed {args.seed}, {time.monotonic() - started:.0f} s: "
        f"{figures['acknowledged']} acknowledged submissions, {figures['lost']} lost, "
        f"{figures['rounds_resolved']} rounds resolved, {figures['resolved_twice']} resolved twice, "
        f"{figures['duplicate_messages_queued']} messages queued twice, {figures['messages']} messages, "
        f"{figures['undelivered']} not sent, {figures['sent']} sends ({figures['resent_same_nonce']} resends "
        f"after a kill, with the row's nonce: Discord keeps one; "
        f"{figures['sent_by_two_live_processes']} sent by two live processes), "
        f"{figures['games_finished']}/{figures['games']} games finished"
    )
    bad = (
        figures["lost"]
        or figures["resolved_twice"]
        or figures["duplicate_messages_queued"]
        or figures["undelivered"]
        or figures["sent_by_two_live_processes"]
    )
    if bad or figures["games_finished"] != figures["games"]:
        print("PROBLEM:", figures)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
