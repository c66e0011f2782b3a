"""Interaction latency through the real discord.py client and the fake Discord, against the floor.

For 1, 50 and 500 games in round play, from the moment the fake queues INTERACTION_CREATE on the
gateway to the moment the bot's interaction callback reaches the fake:
  (a) /ping, a trivial command that only answers (registered by this bench: the floor of discord.py),
  (b) /crimecity act with a legal submission,
  (c) its autocomplete (`first`, a few typed characters).
Four loads: one interaction in flight; a game-night peak of RATE interactions/s arriving at random
(open loop, kinds mixed); CONCURRENCY players in flight at once (closed loop: the bot saturated); and a
burst of BURST simultaneous interactions of one kind.

The bot runs in a child process, the fake Discord and this driver in the parent (2 cores: one each),
so the fake's own cost does not distort the floor. Prints figures; asserts nothing.

Run: .venv/bin/python bench/interaction_latency.py [--games 1,50,500] [--samples 300]
     [--game crimecity|organizedcrime|crimopolis]  (the other games: a move of theirs in place of the act,
     same loads, from bench/organizedcrime_latency.py and bench/crimopolis_latency.py)
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import BotProcess, Probe, Spot, build_world, machine, ms, pct, quiet_driver_gc, seed, summary  # noqa: E402

CONCURRENCY = 16
RATE = 300.0  # interactions/s: 2,500 players submitting within a minute, each typing a few keystrokes
BURST = 250
KINDS = ("ping", "act", "ac", "button")


class Driver:
    def __init__(self, probe: Probe, spots: list[Spot], rng: Random) -> None:
        self.probe = probe
        self.spots = spots
        self.rng = rng
        self.refused: list[str] = []
        self.touched: set[int] = set()  # games that have had an act (their round context is in memory)
        self.posts: dict[int, object] = {}  # game id -> a post with its My status button

    def _who(self, spot: Spot | None = None) -> tuple[Spot, object, str]:
        spot = spot or self.rng.choice(self.spots)
        member = self.rng.choice(spot.players)
        return spot, member, spot.seats[member.id]

    async def one(self, kind: str, spot: Spot | None = None) -> float:
        spot, member, seat = self._who(spot)
        if kind == "act":
            self.touched.add(spot.game_id)
        if kind == "ping":
            dt, body = await self.probe.slash(member, spot.chan, "ping")
        elif kind == "act":
            first, second = self.rng.choice(spot.acts[seat])
            opts = {"first": first} | ({"second": second} if second else {})
            dt, body = await self.probe.slash(member, spot.chan, "crimecity act", **opts)
            text = (body.get("data") or {}).get("content") or ""
            if not text.startswith("Round"):
                self.refused.append(f"{opts} -> {text[:120]!r}")
        elif kind == "button":  # "My status" on a board post: the caller's own status, ephemeral
            post = self.posts.get(spot.game_id)
            if post is None:
                post = self.posts[spot.game_id] = self.probe.post_with_button(
                    spot.chan, f"host:status:{spot.game_id}", "My status"
                )
            dt, body = await self.probe.click(member, post, f"host:status:{spot.game_id}")
            text = (body.get("data") or {}).get("content") or ""
            if "your status" not in text:
                self.refused.append(f"My status -> {text[:120]!r}")
        else:
            first, _ = self.rng.choice(spot.acts[seat])
            typed = first[: self.rng.choice((0, 1, 2, 3, 5, 8))]
            dt, body = await self.probe.autocomplete(member, spot.chan, "crimecity act", "first", first=typed)
            if not (body.get("data") or {}).get("choices") and not typed:
                self.refused.append(f"no choices for {seat} in game {spot.game_id}")
        return dt

    async def sequential(self, per_kind: int, bot: BotProcess, chunks: int = 5) -> tuple[dict, dict]:
        """One in flight, kinds in alternating blocks; also the bot's CPU time per interaction of each kind."""
        out: dict[str, list[float]] = {k: [] for k in KINDS}
        cpu: dict[str, float] = dict.fromkeys(KINDS, 0.0)
        self.commit_times: list[float] = []
        self.gc_pauses: list[tuple[int, float]] = []
        for chunk in range(chunks):
            for kind in KINDS:
                n = per_kind // chunks + (1 if chunk < per_kind % chunks else 0)
                before = (await bot.stats())["cpu"]
                for _ in range(n):
                    out[kind].append(await self.one(kind))
                after = await bot.stats()
                cpu[kind] += after["cpu"] - before
                self.commit_times += after["commit_times"]
                self.gc_pauses += after["gc_pauses"]
        return out, {k: cpu[k] / max(1, len(out[k])) for k in KINDS}

    async def concurrent(self, per_kind: int, workers: int) -> dict[str, list[float]]:
        plan = [k for k in KINDS for _ in range(per_kind)]
        self.rng.shuffle(plan)
        out: dict[str, list[float]] = {k: [] for k in KINDS}

        async def worker() -> None:
            while plan:
                kind = plan.pop()
                out[kind].append(await self.one(kind))

        await asyncio.gather(*(worker() for _ in range(workers)))
        return out

    async def open_loop(self, per_kind: int, rate: float) -> dict[str, list[float]]:
        """Poisson arrivals at `rate` interactions/s, kinds mixed, whatever is still in flight."""
        plan = [k for k in KINDS for _ in range(per_kind)]
        self.rng.shuffle(plan)
        out: dict[str, list[float]] = {k: [] for k in KINDS}

        async def one(kind: str) -> None:
            out[kind].append(await self.one(kind))

        tasks = []
        t_next = time.perf_counter()
        for kind in plan:
            t_next += self.rng.expovariate(rate)
            delay = t_next - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(one(kind)))
        await asyncio.gather(*tasks)
        return out

    async def burst(self, kind: str, n: int) -> list[float]:
        return list(await asyncio.gather(*(self.one(kind) for _ in range(n))))


def gc_line(pauses: list[tuple[int, float]]) -> str:
    full = [p for g, p in pauses if g == 2]
    young = [p for g, p in pauses if g < 2]
    worst = f", longest {max(full) * 1e3:.1f} ms" if full else ""
    return (f"    garbage collections in the bot meanwhile: {len(young)} young (longest "
            f"{max(young, default=0) * 1e3:.1f} ms), {len(full)} full{worst}")


def report(label: str, res: dict[str, list[float]]) -> dict[str, float]:
    floor = pct(res["ping"], 0.99)
    floor50 = statistics.median(res["ping"])
    print(f"  {label}")
    for kind, name in (("ping", "(a) /ping (floor)"), ("act", "(b) /crimecity act"), ("ac", "(c) act autocomplete"),
                       ("button", "(d) My status button")):
        xs = res[kind]
        ratio = "" if kind == "ping" else (
            f"  ratio to floor: p50 x{statistics.median(xs) / floor50:.2f}, p99 x{pct(xs, 0.99) / floor:.2f}"
        )
        print(f"    {name:24s} {summary(xs)}{ratio}")
    return {k: pct(v, 0.99) for k, v in res.items()}


async def scenario(n_games: int, samples: int, rng_seed: int, only: str | None = None) -> None:
    from tests.fakediscord import FakeDiscord

    rng = Random(rng_seed)
    with tempfile.TemporaryDirectory(prefix="cc-bench-") as tmp:
        async with FakeDiscord() as fd:
            spots = build_world(fd, n_games)
            seeded = await seed(Path(tmp) / "crimecity.db", spots, rng_seed=rng_seed)
            probe = Probe(fd)
            bot = BotProcess(fd, Path(tmp) / "crimecity.db")
            info = await bot.start()
            quiet_driver_gc()
            print(f"\n== {n_games} game(s) in round play ({5 * n_games} players); seeded in {seeded:.1f} s, "
                  f"bot ready in {info['ready']:.2f} s ==")
            try:
                drv = Driver(probe, spots, rng)
                if only:  # for profiling one kind (CC_BENCH_PROFILE=file samples the bot with py-spy)
                    xs = [await drv.one(only) for _ in range(samples)]
                    print(f"  only {only}, one in flight: {summary(xs)}")
                    return
                await drv.sequential(max(30, samples // 10), bot)  # warm-up
                # The first act in each game since the bot started is the first use of that game's state
                # and rows (the bot reads every running game's context at start-up, Play.warm).
                # Measured apart: one act in each game not touched yet, then one in every other game, so
                # the loads below see every game warm (as between two deadlines of a game night).
                cold = [s for s in spots if s.game_id not in drv.touched]
                xs = [await drv.one("act", spot) for spot in cold[:samples]]
                if xs:
                    print(f"  first act in a game since start-up, one in flight: {summary(xs)}")
                for spot in spots:
                    if spot.game_id not in drv.touched:
                        await drv.one("act", spot)
                drv.refused.clear()
                await bot.stats()
                drv.commit_times.clear()
                drv.gc_pauses.clear()
                res, cpu = await drv.sequential(samples, bot)
                report("one interaction in flight", res)
                print("    bot CPU per interaction (user+sys, all threads): "
                      + ", ".join(f"{k} {ms(cpu[k])}" for k in KINDS)
                      + f"; act x{cpu['act'] / cpu['ping']:.2f}, autocomplete x{cpu['ac'] / cpu['ping']:.2f} and"
                      f" button x{cpu['button'] / cpu['ping']:.2f} the floor's")
                commits = drv.commit_times
                if commits:
                    print(f"    commit (fsync, on the writer's thread): {summary(commits)}")
                print(gc_line(drv.gc_pauses))
                res = await drv.open_loop(samples, RATE)
                st = await bot.stats()
                report(f"game-night peak: {RATE:.0f} interactions/s arriving at random (Poisson), kinds mixed", res)
                if st["commit_times"]:
                    acts = len(res["act"])
                    print(f"    {acts} acts in {len(st['commit_times'])} commits; commit {summary(st['commit_times'])}")
                print(gc_line(st["gc_pauses"]))
                res = await drv.concurrent(samples, CONCURRENCY)
                st = await bot.stats()
                report(f"{CONCURRENCY} players in flight at once (closed loop, kinds mixed)", res)
                if st["commit_times"]:
                    acts = len(res["act"])
                    print(f"    {acts} acts in {len(st['commit_times'])} commits (group commit: "
                          f"{acts / len(st['commit_times']):.1f} per fsync); commit {summary(st['commit_times'])}")
                print(gc_line(st["gc_pauses"]))
                burst = min(BURST, 5 * n_games) if n_games > 1 else 5
                await drv.burst("ping", burst)  # warm-up: discord.py opens its pool of HTTP connections
                print(f"  burst: {burst} simultaneous interactions of one kind (all five players of "
                      f"{max(1, burst // 5)} game(s) at once)")
                for kind, name in (("ping", "/ping"), ("act", "/crimecity act"), ("ac", "autocomplete"),
                                   ("button", "My status")):
                    t = time.perf_counter()
                    xs = await drv.burst(kind, burst)
                    wall = time.perf_counter() - t
                    over = sum(x > 3.0 for x in xs)
                    print(f"    {name:16s} {summary(xs)}; all answered in {wall * 1e3:.0f} ms; "
                          f"over 3 s: {over}")
                print(f"  deferred responses: {probe.deferred}; refused acts / empty autocompletes: "
                      f"{len(drv.refused)}")
                for line in drv.refused[:5]:
                    print(f"    refused: {line}")
            finally:
                await bot.stop()


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", default="1,50,500")
    ap.add_argument("--samples", type=int, default=300, help="interactions of each kind per load")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--only", choices=KINDS, help="just this kind, one in flight (for profiling)")
    ap.add_argument("--game", choices=("crimecity", "organizedcrime", "crimopolis"), default="crimecity",
                    help="the game whose move is measured (the other two: bench/<game>_latency.py, same loads)")
    args = ap.parse_args()
    if args.game != "crimecity":
        other = __import__(f"{args.game}_latency")
        print(f"{args.game} latency — {machine()}; bot in a child process, fake Discord + driver in this one")
        t = time.perf_counter()
        for n in (int(x) for x in args.games.split(",")):
            await other.scenario(n, args.samples, args.seed, RATE, CONCURRENCY)
        print(f"\n(total {time.perf_counter() - t:.0f} s)")
        return
    print(f"interaction latency — {machine()}; bot in a child process, fake Discord + driver in this one")
    t = time.perf_counter()
    for n in (int(x) for x in args.games.split(",")):
        await scenario(n, args.samples, args.seed, args.only)
    print(f"\n(total {time.perf_counter() - t:.0f} s)")


if __name__ == "__main__":
    asyncio.run(main())
