"""Speed of Organized Crime's rules: `legal` for one decision (p99), one contract `step` (p99), simulate games/s.

Run: python bench/organizedcrime_rules.py [--games N]   (prints figures; asserts nothing)

States come from random games played through the contract (tests/support/playthrough.py's driver, as the host
drives it). `legal` is the engine's `legal_doc` for the awaited player (actions and, during a move, the
destinations of rulings B.3); `step` is `GAME.step` on one action, state copy included.

Times are CPU time of this process (`time.process_time`), so that other work on a shared machine does not inflate
them; the wall time of the simulate run is printed beside its CPU time.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.contract import RecordedChance  # noqa: E402
from rules.organizedcrime.actions import awaited  # noqa: E402
from rules.organizedcrime.engine import Engine  # noqa: E402
from rules.organizedcrime.game import GAME  # noqa: E402
from rules.organizedcrime.legal import legal_doc  # noqa: E402
from rules.organizedcrime.simulate import simulate  # noqa: E402
from tests.support.playthrough import play_random  # noqa: E402


def _p(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def _games(n: int) -> list[Any]:
    return [play_random(GAME, Random(seed), settings={"round_cap": 15}) for seed in range(n)]


def bench_step_and_legal(n_games: int) -> tuple[list[float], list[float], dict[str, list[float]]]:
    steps: list[float] = []
    legal: list[float] = []
    by_decision: dict[str, list[float]] = {}
    for play in _games(n_games):
        state = GAME.setup(play.seats, play.settings, RecordedChance(play.setup_chance)).state
        for entry in play.log:
            if GAME.results(state) is not None:
                break
            for player in awaited(state)[:1]:
                t = time.process_time()
                legal_doc(Engine(GAME.content, state, RecordedChance([])), player)
                dt = time.process_time() - t
                legal.append(dt)
                by_decision.setdefault(state["phase"], []).append(dt)
            t = time.process_time()
            state = GAME.step(state, entry.actions, RecordedChance(entry.chance)).state
            steps.append(time.process_time() - t)
    return steps, legal, by_decision


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300, help="simulated games for the games/s figure")
    ap.add_argument("--sample", type=int, default=40, help="random games whose every decision is timed")
    args = ap.parse_args()
    steps, legal, by_decision = bench_step_and_legal(args.sample)
    ms = 1000
    print(f"legal (one decision, awaited player): n={len(legal)} p50 {_p(legal, .5) * ms:.3f} ms, "
          f"p99 {_p(legal, .99) * ms:.3f} ms, max {max(legal) * ms:.3f} ms   (target p99 < 5 ms)")
    for decision, xs in sorted(by_decision.items()):
        print(f"  {decision:15s} n={len(xs):6d} p99 {_p(xs, .99) * ms:.3f} ms")
    print(f"step (GAME.step, one action): n={len(steps)} p50 {_p(steps, .5) * ms:.3f} ms, "
          f"p99 {_p(steps, .99) * ms:.3f} ms, max {max(steps) * ms:.3f} ms   (target p99 < 1 ms)")
    t, wall = time.process_time(), time.perf_counter()
    report = simulate(GAME.content, args.games, 1)
    dt, wall = time.process_time() - t, time.perf_counter() - wall
    print(f"simulate: {args.games} full games in {dt:.2f} s CPU ({wall:.2f} s wall) = {args.games / dt:.0f} games/s "
          f"on one core ({report.steps / args.games:.0f} actions a game)   (target >= 50)")


if __name__ == "__main__":
    main()
