"""Shared set-up for the bot benches: a fake Discord world with N games, a seeded database, and the
real bot (discord.py client) running in a child process so the fake's own work does not share its core.

Layout of one bench run:

- parent process: `tests.fakediscord.FakeDiscord` (REST + gateway on 127.0.0.1) and the driver that
  sends interactions and timestamps them (`Probe`);
- child process (`BotProcess`, spawn): `create_bot(db)` plus a trivial `/ping` command (the floor),
  pointed at the fake's URLs, answering a few control messages over a pipe (memory, stop).

Games are seeded through the bot's own host (`tests/support/service.py`: new → 5 joins → start → 5 drafts →
draft resolution → optionally a few rounds of random legal submissions), so every game is a real game in
round play; only the seeding connection runs with synchronous=OFF, to keep seeding fast.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import multiprocessing as mp
import os
import resource
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

GAMES_PER_GUILD = 100
TOKEN = "fake-bot-token"

# ---- figures ---------------------------------------------------------------------------------------


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def ms(x: float) -> str:
    return f"{x * 1e3:.2f} ms"


def summary(xs: list[float]) -> str:
    if not xs:
        return "no samples"
    return f"p50 {ms(statistics.median(xs))}, p99 {ms(pct(xs, 0.99))}, max {ms(max(xs))} (n={len(xs)})"


def rss_bytes() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def machine() -> str:
    import platform

    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"{os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()} {platform.release()}, "
        f"load average {load}, CRIMECITY_DB_SYNC={os.environ.get('CRIMECITY_DB_SYNC') or 'full'}"
    )


# ---- the world -------------------------------------------------------------------------------------


@dataclass
class Spot:
    """One game's place in the fake world, and (after seeding) what the driver needs to act in it."""

    guild: Any
    chan: Any
    host: Any
    players: list[Any]
    game_id: int = 0
    seats: dict[int, str] = field(default_factory=dict)  # user id -> seat
    acts: dict[str, list[tuple[str, str | None]]] = field(default_factory=dict)  # seat -> legal (first, second)


def build_world(fd: Any, n_games: int) -> list[Spot]:
    """Guilds of up to GAMES_PER_GUILD channels, each channel with five members of its own and a host per guild."""
    spots: list[Spot] = []
    guild = host = None
    for i in range(n_games):
        if i % GAMES_PER_GUILD == 0:
            guild = fd.add_guild(f"Crime Club {i // GAMES_PER_GUILD}")
            host = guild.add_member(f"host{i // GAMES_PER_GUILD}", manage_guild=True)
        chan = guild.add_text_channel(f"crime-city-{i}")
        players = [guild.add_member(f"g{i}p{k}") for k in range(5)]
        spots.append(Spot(guild, chan, host, players))
    return spots


def caller(member: Any, chan: Any, *, manage: bool = False) -> Any:
    from bot.host.context import Caller

    return Caller(
        user_id=member.id,
        user_name=member.name,
        display_name=member.name,
        guild_id=chan.guild.id,
        channel_id=chan.id,
        manage_guild=manage,
    )


async def seed(
    db_path: Path,
    spots: list[Spot],
    *,
    rng_seed: int = 1,
    max_rounds_ahead: int = 2,
    wait_for_deadline: bool = True,
    submitted_share: float = 0.5,
    acts_per_seat: int = 4,
) -> float:
    """Real games in round play, through the host; returns the seconds it took."""
    import json as _json

    from bot.storage import games as games_repo
    from bot.storage.db import Database
    from rules.crimecity.game import GAME
    from rules.crimecity.notation import format_action
    from rules.crimecity.simulate import random_submission
    from tests.support.service import Service

    t0 = time.perf_counter()
    rng = Random(rng_seed)
    db = Database(db_path)
    await db.open()
    await db.conn.execute("PRAGMA synchronous=OFF")  # seeding only; the bot itself runs with FULL
    service = Service(db)

    async def put(game_id: int, seat: str, move: dict) -> None:
        async with db.transaction() as conn:
            step = (await (await conn.execute("SELECT step FROM games WHERE id = ?", (game_id,))).fetchone())[0]
            await conn.execute(
                "INSERT INTO submissions(game_id, step, seat, move_json, at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT(game_id, step, seat) DO UPDATE SET move_json = excluded.move_json",
                (game_id, step, seat, _json.dumps(move), time.time()),
            )

    async def state_of(game_id: int):  # noqa: ANN202
        async with db.read() as conn:
            g = await games_repo.get_game(conn, game_id)
        return GAME.decode_state(g.state).game

    def move_of(state, seat: str, extras: bool = True) -> dict:  # noqa: ANN001
        j = random_submission(state, seat, rng).to_json()
        return {"kind": "round", "actions": j["actions"], "buy": j["buy"] if extras else [],
                "guess": j["guess"] if extras else None}

    for spot in spots:
        host = caller(spot.host, spot.chan, manage=True)
        game = await service.new_game(
            host, rounds=6, deadline_hours=24.0, garnets=10 + rng.randrange(6), wait_for_deadline=wait_for_deadline
        )
        spot.game_id = game.id
        for m in spot.players:
            await service.join(caller(m, spot.chan))
        await service.start(host)
        for m in spot.players:
            await service.submit_draft(caller(m, spot.chan), bid=rng.randrange(4), roles=None, characters=None)
        await service.resolve(game.id)
        for _ in range(rng.randrange(max_rounds_ahead + 1)):
            state = await state_of(game.id)
            if state.over:
                break
            for seat in state.seats:
                await put(game.id, seat, move_of(state, seat))
            await service.resolve(game.id)
        async with db.read() as conn:
            roster = {p.seat: p for p in await games_repo.seats(conn, game.id)}
        state = await state_of(game.id)
        spot.seats = {p.user_id: seat for seat, p in roster.items()}
        names = {seat: p.display_name for seat, p in roster.items()}
        for seat in state.seats:
            choices = []
            for _ in range(acts_per_seat):
                sub = random_submission(state, seat, rng)
                texts = [format_action(a, names.get) for a in sub.actions]
                choices.append((texts[0], texts[1] if len(texts) > 1 else None))
            spot.acts[seat] = choices
            if rng.random() < submitted_share:
                await put(game.id, seat, move_of(state, seat, extras=False))
    # Everything the seeding queued (draft results, boards, DMs) counts as delivered long ago.
    async with db.transaction() as conn:
        await conn.execute("UPDATE outbox SET delivered_at = ? WHERE delivered_at IS NULL", (time.time(),))
    await db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    await db.close()
    return time.perf_counter() - t0


# ---- the driver (parent side) ----------------------------------------------------------------------


class Probe:
    """Timestamps interactions at the moment the fake queues INTERACTION_CREATE and when the bot's callback
    arrives, without polling; also timestamps every message the fake stores (channel posts and DMs)."""

    def __init__(self, fd: Any) -> None:
        self.fd = fd
        self.sent: dict[int, float] = {}
        self.waiters: dict[int, asyncio.Future] = {}
        self.stored: list[tuple[float, Any]] = []
        self.deferred = 0
        self.last_id = 0  # the last interaction sent (to match the bot's own timing of it: `BotProcess.stats`)
        gw_dispatch = fd.gateway.dispatch
        desk_callback = fd.desk.callback
        world_store = fd.world.store

        def dispatch(event: str, data: dict[str, Any]) -> None:
            if event == "INTERACTION_CREATE":
                self.sent[int(data["id"])] = time.perf_counter()
            gw_dispatch(event, data)

        def callback(iid: int, token: str, body: dict, uploads: list) -> Any:
            result = desk_callback(iid, token, body, uploads)
            now = time.perf_counter()
            fut = self.waiters.pop(iid, None)
            if body.get("type") == 5:
                self.deferred += 1
            if fut is not None and not fut.done():
                fut.set_result((now - self.sent.pop(iid, now), body))
            return result

        def store(msg: Any) -> Any:
            self.stored.append((time.time(), msg))
            return world_store(msg)

        fd.gateway.dispatch = dispatch
        fd.world.emit = dispatch
        fd.desk.callback = callback
        fd.world.store = store

    async def _run(self, kind: int, actor: Any, chan: Any, command: str, values: dict, focused: str | None):
        fut = asyncio.get_running_loop().create_future()
        p = self.fd._command_interaction(kind, actor, chan, command, values, focused)
        self.waiters[p.id] = fut
        self.last_id = int(p.id)
        return await asyncio.wait_for(fut, 30)

    async def slash(self, actor: Any, chan: Any, command: str, **values: Any) -> tuple[float, dict]:
        return await self._run(2, actor, chan, command, values, None)

    async def autocomplete(self, actor: Any, chan: Any, command: str, focused: str, **values: Any):
        values.setdefault(focused, "")
        return await self._run(4, actor, chan, command, values, focused)

    def post_with_button(self, chan: Any, custom_id: str, label: str) -> Any:
        """A message the bot "posted" in `chan` carrying one button (as a board post carries My status)."""
        body = {"content": "a board", "components": [{"type": 1, "components": [
            {"type": 2, "style": 2, "label": label, "custom_id": custom_id}]}]}
        msg = self.fd.factory.create(chan, self.fd.bot, body, [])
        return self.fd.factory.publish(msg)

    async def click(self, actor: Any, message: Any, custom_id: str) -> tuple[float, dict]:
        """A member clicks `custom_id` on `message`; timed like a slash command."""
        from tests.fakediscord.interactions import MESSAGE_COMPONENT, Resolver, component_data

        fut = asyncio.get_running_loop().create_future()
        component = message.component(custom_id)
        channel = self.fd.world.channels[message.channel_id]
        p = self.fd.desk.open(MESSAGE_COMPONENT, actor.user, channel, message, name=custom_id)
        self.waiters[p.id] = fut
        self.fd._send(p, actor, component_data(component, None, Resolver(self.fd.factory, channel, actor)), message)
        return await asyncio.wait_for(fut, 30)


# ---- the bot (child process) -----------------------------------------------------------------------


def workers_cpu(*more: int | None) -> float:
    """CPU seconds of the bot's picture worker processes (bot/host/pictures.py) and of the processes `more`
    (the sending process, bot/sender.py), which RUSAGE_SELF leaves out."""
    from bot.host.pictures import worker_pids

    total = 0.0
    for pid in [*worker_pids(), *(p for p in more if p is not None)]:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
    return total


def _bot_child(conn: Any, db_path: str, base_url: str, gateway_url: str, use_tracemalloc: bool) -> None:
    import logging

    logging.basicConfig(level=logging.WARNING)
    _time_gc()
    if use_tracemalloc:
        import tracemalloc

        tracemalloc.start()
    prof_out = os.environ.get("CC_BENCH_CPROFILE")
    if prof_out:  # deterministic profile of the bot's event-loop thread, written when it stops
        import cProfile

        prof = cProfile.Profile()
        prof.enable()
    asyncio.run(_bot_main(conn, db_path, base_url, gateway_url, use_tracemalloc))
    if prof_out:
        prof.disable()
        prof.dump_stats(prof_out)


async def _bot_main(conn: Any, db_path: str, base_url: str, gateway_url: str, use_tracemalloc: bool) -> None:
    import discord
    import discord.gateway
    import discord.http
    import yarl

    from bot import Settings, create_bot

    discord.http.Route.BASE = f"{base_url}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    gc.collect()
    rss_before = rss_bytes()
    t0 = time.perf_counter()
    # CC_BENCH_SENDER=inline: the posts sent by the bot's own process, as before bot/sender.py
    inline = os.environ.get("CC_BENCH_SENDER") == "inline"
    # CRIMECITY_DB_SYNC=normal: the operators' faster commit (docs/operations.md)
    sync = Settings.from_env().db_sync
    client = create_bot(db_path, Settings(command_sync="global", sender_process=0 if inline else 1, db_sync=sync))
    if os.environ.get("CC_BENCH_GC_YOUNG"):  # diagnosis: the bot's young-generation threshold
        client.collector.young = int(os.environ["CC_BENCH_GC_YOUNG"])
    if os.environ.get("CC_BENCH_NO_OUTBOX"):  # diagnosis: the answer's own cost, without the outbox's posts

        async def nothing() -> float:
            return 60.0

        client.delivery.flush = nothing
    if os.environ.get("CC_BENCH_FIXED_PICTURE"):  # diagnosis: uploads of N bytes, without drawing them
        size = int(os.environ["CC_BENCH_FIXED_PICTURE"])
        client.delivery.renderer = lambda kind, view: b"\x89PNG" + b"x" * size
        client.delivery.painter = None
    if os.environ.get("CC_BENCH_NO_PICTURES"):  # diagnosis: the posts without their board pictures
        client.delivery.renderer = lambda kind, view: None
        client.delivery.painter = None

    @client.tree.command(name="ping", description="Answers at once (the benchmark's floor).")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong", ephemeral=True)

    # As FakeDiscord.attach(fast=True): no 2 s wait after the last GUILD_CREATE, no 5 s before IDENTIFY.
    client._connection.guild_ready_timeout = 0.02

    async def no_wait(shard_id: int | None, initial: bool = False) -> None:
        return None

    client._hooks["before_identify"] = no_wait
    ready = asyncio.Event()

    async def on_ready() -> None:
        ready.set()

    client.add_listener(on_ready, "on_ready")
    commit_times: list[float] = []
    _time_commits(commit_times)
    answers: dict[int, float] = {}
    _time_answers(client, answers)
    if os.environ.get("CC_BENCH_PHASES"):
        import _phases

        _phases.install(client)
    task = asyncio.create_task(client.start(TOKEN))
    await ready.wait()
    t_ready = time.perf_counter() - t0
    await client.wait_idle(timeout=60)
    t_idle = time.perf_counter() - t0
    conn.send({"ready": t_ready, "idle": t_idle, "rss_before": rss_before, "rss": rss_bytes()})
    if os.environ.get("CC_BENCH_GCSAVE"):
        gc.set_debug(gc.DEBUG_SAVEALL)
    while True:
        msg = await asyncio.to_thread(conn.recv)
        if msg == "stop":
            if os.environ.get("CC_BENCH_GCINFO"):  # what the collector's whole-heap collection costs here
                client.collector.collect_whole()
            if os.environ.get("CC_BENCH_GCSAVE"):
                _garbage_census()
            break
        if msg == "idle":
            if not os.environ.get("CC_BENCH_NO_OUTBOX"):  # with nothing delivered, the outbox never empties
                await client.wait_idle(timeout=120)
            conn.send("idle")
        elif msg == "stats":
            usage = resource.getrusage(resource.RUSAGE_SELF)
            conn.send(
                {
                    "cpu": usage.ru_utime + usage.ru_stime + workers_cpu(getattr(client.delivery.sender, "pid", None)),
                    "cpu_own": usage.ru_utime + usage.ru_stime,
                    "commits": getattr(client.db, "commits", None),
                    "transactions": getattr(client.db, "transactions", None),
                    "commit_times": commit_times[:],
                    "gc_pauses": GC_PAUSES[:],
                    "answers": dict(answers),
                    "phases": _taken_phases(),
                }
            )
            commit_times.clear()
            GC_PAUSES.clear()
            answers.clear()
        elif msg == "mem":
            gc.collect()
            out = {"rss": rss_bytes()}
            if use_tracemalloc:
                import tracemalloc

                out["traced"] = tracemalloc.get_traced_memory()[0]
            conn.send(out)
    await client.close()
    with contextlib.suppress(BaseException):
        await asyncio.wait_for(task, 5)
    conn.send("bye")


GC_PAUSES: list[tuple[int, float]] = []  # (generation, seconds) of the bot process's collections


def _garbage_census() -> None:
    """What the bot's collections freed since it was ready (CC_BENCH_GCSAVE=1 kept it all), by type, and
    what is still tracked, by generation: where cycles and long-lived containers come from."""
    import collections

    def census(objects: list[Any]) -> list[tuple[str, int]]:
        kinds = collections.Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in objects)
        return kinds.most_common(25)

    print(f"freed by the collector: {len(gc.garbage)} objects", file=sys.stderr)
    for kind, n in census(gc.garbage):
        print(f"  {n:7d} {kind}", file=sys.stderr)
    gc.set_debug(0)
    gc.garbage.clear()
    gc.collect()
    for generation in range(3):
        tracked = gc.get_objects(generation)
        print(f"tracked in generation {generation}: {len(tracked)} objects", file=sys.stderr)
        for kind, n in census(tracked):
            print(f"  {n:7d} {kind}", file=sys.stderr)


def _time_gc() -> None:
    started: list[float] = []
    sizes: list[int] = []

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            if os.environ.get("CC_BENCH_GCINFO"):
                sizes[:] = [len(gc.get_objects(g)) for g in range(3)]
            started[:] = [time.perf_counter()]
        elif started:
            took = time.perf_counter() - started[0]
            GC_PAUSES.append((info["generation"], took))
            if os.environ.get("CC_BENCH_GCINFO"):
                gen, freed = info["generation"], info["collected"]
                print(f"gc: gen {gen}, {took * 1000:.2f} ms, freed {freed}, generations {sizes}", file=sys.stderr)

    gc.callbacks.append(callback)


def _taken_phases() -> list[dict[str, float]]:
    if not os.environ.get("CC_BENCH_PHASES"):
        return []
    import _phases

    return _phases.take()


def _time_answers(client: Any, out: dict[int, float]) -> None:
    """The bot's own side of each answer, by interaction id: from discord.py's parsing of INTERACTION_CREATE
    to the start of its callback request. It leaves out what the fake Discord's loop (which shares this
    machine and, in the parent, the driver) adds before the bot sees the event and after the answer leaves."""
    import discord.webhook.async_ as webhooks

    arrived: dict[int, float] = {}
    parsers = client._connection.parsers  # bound when the client was made: replaced in its table
    parse = parsers["INTERACTION_CREATE"]
    respond = webhooks.AsyncWebhookAdapter.create_interaction_response

    def parse_interaction_create(data: Any) -> None:
        arrived[int(data["id"])] = time.perf_counter()
        parse(data)

    def create_interaction_response(self: Any, interaction_id: int, *args: Any, **kwargs: Any) -> Any:
        t0 = arrived.pop(int(interaction_id), None)
        if t0 is not None:
            out[int(interaction_id)] = time.perf_counter() - t0
        return respond(self, interaction_id, *args, **kwargs)

    parsers["INTERACTION_CREATE"] = parse_interaction_create
    webhooks.AsyncWebhookAdapter.create_interaction_response = create_interaction_response  # type: ignore[method-assign]


def _time_commits(out: list[float]) -> None:
    """Record how long each commit (the fsync) takes on the writer's aiosqlite thread: a COMMIT, or a
    write run alone in autocommit (`Database.write_alone`; timed with its rows fetched, as a RETURNING
    statement commits only when its last row is fetched)."""
    import sqlite3

    import aiosqlite

    class Rows:
        """A fetched statement, for aiosqlite's execute_fetchall (the only user of a write alone)."""

        def __init__(self, rows: list[Any], rowcount: int) -> None:
            self.rows, self.rowcount = rows, rowcount

        def fetchall(self) -> list[Any]:
            return self.rows

    class TimedConnection(sqlite3.Connection):
        reader = False  # the read-only connection's COMMITs end read snapshots: no fsync, not timed

        def execute(self, sql: str, *args: Any) -> Any:
            alone = not self.in_transaction and sql.startswith(("INSERT", "UPDATE", "DELETE", "WITH"))
            if self.reader or not (sql == "COMMIT" or alone):
                if sql == "PRAGMA query_only=ON":
                    self.reader = True
                return super().execute(sql, *args)
            t = time.perf_counter()
            try:
                cur = super().execute(sql, *args)
                if not alone:
                    return cur
                return Rows(cur.fetchall(), cur.rowcount)
            finally:
                out.append(time.perf_counter() - t)

    real_connect = aiosqlite.connect

    def connect(database: Any, **kwargs: Any) -> aiosqlite.Connection:
        return real_connect(database, factory=TimedConnection, **kwargs)

    aiosqlite.connect = connect  # the bot's process only


def quiet_driver_gc() -> None:
    """Turn off this process's garbage collector for the measurement. This process is the driver and
    the fake Discord, not what is measured, but its collections (up to 100 ms with thousands of fake
    members, seen in the closed loop) would be charged to whatever the bot had in flight. The bot's
    own collector runs as usual, and its pauses are reported."""
    gc.collect()
    gc.freeze()
    gc.disable()


class BotProcess:
    """The bot in a spawned child process, talking to the fake of this process."""

    def __init__(self, fd: Any, db_path: Path, *, use_tracemalloc: bool = False) -> None:
        ctx = mp.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(
            target=_bot_child,
            args=(child, str(db_path), fd.base_url, fd.gateway.url, use_tracemalloc),
            daemon=False,  # the bot starts its picture worker processes, which a daemonic process may not
        )
        self.started = 0.0
        self.info: dict[str, Any] = {}

    async def _recv(self, timeout: float = 120) -> Any:
        ok = await asyncio.to_thread(self.conn.poll, timeout)
        if not ok:
            raise TimeoutError("the bot process did not answer")
        return self.conn.recv()

    async def start(self) -> dict[str, Any]:
        self.started = time.perf_counter()
        self.proc.start()
        self.info = await self._recv()
        self.info["spawn_to_idle"] = time.perf_counter() - self.started
        self._profile()
        return self.info

    def _profile(self) -> None:
        """With CC_BENCH_PROFILE=file, sample the bot process with py-spy (raw collapsed stacks, appended)."""
        out = os.environ.get("CC_BENCH_PROFILE")
        self.spy = None
        if out:
            import subprocess

            spy = Path(sys.executable).with_name("py-spy")
            target = f"{out}.{self.proc.pid}"
            cmd = [str(spy), "record", "-p", str(self.proc.pid), "-r", "1000", "--format", "raw", "-o", target]
            self.spy = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    async def memory(self) -> dict[str, int]:
        self.conn.send("mem")
        return await self._recv()

    async def stats(self) -> dict[str, Any]:
        """CPU seconds used by the bot process so far; COMMITs (and their durations) since the last call."""
        self.conn.send("stats")
        return await self._recv()

    async def idle(self) -> None:
        self.conn.send("idle")
        await self._recv()

    async def stop(self) -> None:
        if getattr(self, "spy", None) is not None:
            import signal

            self.spy.send_signal(signal.SIGINT)
            await asyncio.to_thread(self.spy.wait, 30)
        if self.proc.is_alive():
            self.conn.send("stop")
            with contextlib.suppress(TimeoutError, EOFError):
                await self._recv(15)
        await asyncio.to_thread(self.proc.join, 10)
        if self.proc.is_alive():
            self.proc.kill()
