"""The loads of the interaction benches, for a game whose moves come one at a time per game.

A game's driver gives `one(kind, spot)`: one interaction of `kind` in the game at `spot`, awaited until the
bot answers, returning what it timed (`{kind: seconds}`, several figures for one interaction, or nothing
when the game had nothing to do). `Games` hands out games so that no two interactions are in flight in one
game at once (a game awaits one decider: a second move would be refused, not measured).

- one in flight: kinds in alternating blocks, the bot's CPU per interaction of each kind too;
- paced: Poisson arrivals at `rate` interactions per second, kinds mixed (the game-night peak);
- closed loop: `workers` interactions in flight at once, each followed at once by the next (the bot saturated);
  with one worker, one in flight with the kinds mixed: the floor is then measured while the bot sends and
  draws what the moves before produced, as the moves are.

Prints nothing; `report` prints the figures against the floor (`ping`).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from random import Random
from typing import Any

from _harness import BotProcess, machine, pct, summary

Times = dict[str, float]
One = Callable[[str, Any], Awaitable[Times]]


class Games:
    """The games a load may use: live ones (not over), each lent to one interaction at a time."""

    def __init__(self, spots: Sequence[Any], rng: Random) -> None:
        self.spots = list(spots)
        self.rng = rng
        self.over: set[int] = set()
        self.busy: set[int] = set()
        self._free = asyncio.Condition()

    def live(self) -> list[Any]:
        return [s for s in self.spots if s.game_id not in self.over]

    @asynccontextmanager
    async def lend(self, spot: Any = None) -> Any:
        async with self._free:
            while True:
                free = [s for s in ([spot] if spot is not None else self.live()) if s.game_id not in self.busy]
                if free:
                    chosen = self.rng.choice(free)
                    break
                await self._free.wait()
            self.busy.add(chosen.game_id)
        try:
            yield chosen
        finally:
            async with self._free:
                self.busy.discard(chosen.game_id)
                self._free.notify_all()


def _plan(kinds: Sequence[str], per_kind: int, rng: Random) -> list[str]:
    plan = [k for k in kinds for _ in range(per_kind)]
    rng.shuffle(plan)
    return plan


def _add(out: dict[str, list[float]], times: Times) -> None:
    for k, v in times.items():
        out.setdefault(k, []).append(v)


BOT_SIDE: dict[int, float] = {}  # interaction id -> the bot's own side of its answer, during `sequential`
OWN_CPU: dict[str, float] = {}  # the bot process's own CPU per interaction of each kind, in the last `sequential`
PHASES_SEEN: list[dict[str, float]] = []  # each move's phases during `sequential` (CC_BENCH_PHASES=1)
GC_SEEN: list[tuple[int, float]] = []  # the bot's collections (generation, seconds) during `sequential`


def bot_side_line(ids: list[tuple[str, int]]) -> str:
    """The bot's own side of each kind's answers (BOT_SIDE), p50 / p99, and the move's p99 ÷ the floor's."""
    by: dict[str, list[float]] = {}
    for kind, iid in ids:
        if iid in BOT_SIDE:
            by.setdefault(kind, []).append(BOT_SIDE[iid])
    parts = [f"{k} p50 {statistics.median(xs) * 1e3:.2f} / p99 {pct(xs, 0.99) * 1e3:.2f} ms" for k, xs in by.items()]
    if "ping" in by and "move" in by:
        parts.append(f"move p99 ÷ ping p99 x{pct(by['move'], 0.99) / pct(by['ping'], 0.99):.2f}")
    return "; ".join(parts) or "none"


def gc_line() -> str:
    """The bot's garbage collections while one interaction was in flight, by generation."""
    by: dict[int, list[float]] = {}
    for generation, seconds in GC_SEEN:
        by.setdefault(generation, []).append(seconds)
    return "; ".join(f"gen {g}: {len(xs)}, max {max(xs) * 1e3:.2f} ms" for g, xs in sorted(by.items())) or "none"


async def sequential(
    one: One, games: Games, kinds: Sequence[str], per_kind: int, bot: BotProcess, chunks: int = 5
) -> tuple[dict[str, list[float]], dict[str, float], list[float]]:
    """One in flight. Also the bot's CPU per interaction of each kind, and the commits meanwhile."""
    out: dict[str, list[float]] = {k: [] for k in kinds}
    cpu = dict.fromkeys(kinds, 0.0)
    own = dict.fromkeys(kinds, 0.0)
    counts = dict.fromkeys(kinds, 0)
    commits: list[float] = []
    await bot.stats()
    for chunk in range(chunks):
        for kind in kinds:
            n = per_kind // chunks + (1 if chunk < per_kind % chunks else 0)
            stats = await bot.stats()
            before, before_own = stats["cpu"], stats.get("cpu_own", 0.0)
            for _ in range(n):
                if not games.live():
                    break
                async with games.lend() as spot:
                    times = await one(kind, spot)
                _add(out, times)
                counts[kind] += bool(times)
            after = await bot.stats()
            cpu[kind] += after["cpu"] - before
            own[kind] += after.get("cpu_own", 0.0) - before_own
            commits += after["commit_times"]
            GC_SEEN.extend(after["gc_pauses"])
            BOT_SIDE.update(after.get("answers") or {})
            PHASES_SEEN.extend(after.get("phases") or [])
    OWN_CPU.clear()
    OWN_CPU.update({k: own[k] / max(1, counts[k]) for k in kinds})
    return out, {k: cpu[k] / max(1, counts[k]) for k in kinds}, commits


async def paced(one: One, games: Games, kinds: Sequence[str], per_kind: int, rate: float) -> dict[str, list[float]]:
    """Poisson arrivals at `rate` interactions/s, kinds mixed, whatever is still in flight (open loop)."""
    out: dict[str, list[float]] = {k: [] for k in kinds}

    async def run(kind: str) -> None:
        async with games.lend() as spot:
            _add(out, await one(kind, spot))

    tasks = []
    t_next = time.perf_counter()
    for kind in _plan(kinds, per_kind, games.rng):
        t_next += games.rng.expovariate(rate)
        delay = t_next - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(run(kind)))
    await asyncio.gather(*tasks)
    return out


async def closed_loop(
    one: One, games: Games, kinds: Sequence[str], per_kind: int, workers: int
) -> dict[str, list[float]]:
    """`workers` interactions in flight at once, in different games, each followed at once by the next."""
    out: dict[str, list[float]] = {k: [] for k in kinds}
    plan = _plan(kinds, per_kind, games.rng)

    async def worker() -> None:
        while plan and games.live():
            kind = plan.pop()
            async with games.lend() as spot:
                _add(out, await one(kind, spot))

    await asyncio.gather(*(worker() for _ in range(workers)))
    return out


def report(label: str, res: dict[str, list[float]], names: dict[str, str]) -> None:
    """p50 / p99 / max of each kind, and its ratio to the floor (`ping`)."""
    floor, floor50 = pct(res["ping"], 0.99), statistics.median(res["ping"])
    print(f"  {label}")
    for kind, name in names.items():
        xs = res.get(kind) or []
        if not xs:
            continue
        ratio = "" if kind == "ping" else (
            f"  ratio to floor: p50 x{statistics.median(xs) / floor50:.2f}, p99 x{pct(xs, 0.99) / floor:.2f}"
        )
        print(f"    {name:26s} {summary(xs)}{ratio}")


RATE = 300.0  # interactions/s of the paced load, kinds mixed, as bench/interaction_latency.py
CONCURRENCY = 16  # interactions in flight in the closed loop

Scenario = Callable[[int, int, int, float, int], Awaitable[None]]  # (games, samples, seed, rate, workers)


def cli(title: str, doc: str | None, scenario: Scenario) -> None:
    """A latency bench's command line: its scenario at each `--games` count, on the shared loads."""
    ap = argparse.ArgumentParser(description=doc)
    ap.add_argument("--games", default="500")
    ap.add_argument("--samples", type=int, default=400, help="interactions of each kind per load")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--rate", type=float, default=RATE, help="interactions/s of the paced load")
    ap.add_argument("--workers", type=int, default=CONCURRENCY, help="interactions in flight in the closed loop")
    args = ap.parse_args()

    async def run() -> None:
        print(f"{title} latency — {machine()}; bot in a child process, fake Discord + driver in this one")
        t = time.perf_counter()
        for n in (int(x) for x in args.games.split(",")):
            await scenario(n, args.samples, args.seed, args.rate, args.workers)
        print(f"\n(total {time.perf_counter() - t:.0f} s)")

    asyncio.run(run())
