"""The computer players' target figures (docs/computer-players.md): strong against four random players.

Run: python bench/computer_players.py [--games 10000] [--jobs 2] [--seed 1]   (prints figures; asserts nothing)

Three tournaments, each split over `--jobs` processes and merged (a tournament's games depend only on
the seed and their number, so the slices add up to the whole):
  A. random x5, every seat drafting at random: how often a random seat completes each role's goal;
  B. strong + random x4, every seat drafting at random: the strong level in the seat of each role;
  C. strong + random x4, each seat drafting at its own level: the strong level choosing its role.
Then D, a few games of strong x4 + random, for the decision time when four seats are computers.
Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.tournament import Tally, percentile, report, run, wilson  # noqa: E402

ROLES = ("bank_robber", "hitman", "pickpocket", "fraud", "mob_boss")


def _slice(args: tuple[list[str], int, int, int, str | None]) -> Tally:
    levels, first, games, seed, draft_by = args
    return run("crimecity", levels, games, seed, draft_by=draft_by, clock=time.perf_counter, first=first)


def tournament(label: str, levels: list[str], games: int, seed: int, draft_by: str | None, jobs: int) -> Tally:
    chunk = max(1, min(250, games // (jobs * 4) or 1))
    parts = [(levels, first, min(chunk, games - first), seed, draft_by) for first in range(0, games, chunk)]
    total: Tally | None = None
    started = time.perf_counter()
    done = 0
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for part in pool.map(_slice, parts):
            if total is None:
                total = part
            else:
                total.merge(part)
            done += part.games
            rate = done / max(time.perf_counter() - started, 1e-9)
            print(f"\r{label}: {done}/{games} games ({rate:.1f}/s)", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    assert total is not None
    total.seed = seed
    return total


def _rate(t: Tally, level: str, group: str, name: str) -> tuple[float, float, float, int]:
    row = t.rows.get((level, group))
    if row is None:
        return 0.0, 0.0, 0.0, 0
    p, lo, hi = wilson(row.rates.get(name, 0), row.n)
    return p, lo, hi, row.n


def targets(baseline: Tally, strong: Tally, chosen: Tally) -> str:
    lines = ["Targets: strong (one seat, roles drafted at random) against four random players", ""]
    lines.append(f"{'role':<12} {'strong goal':>22} {'random goal':>22} {'ratio':>6} {'>= 2x':>6} {'strong ToL':>22}")
    for role in ROLES:
        s, slo, shi, n = _rate(strong, "strong", role, "goal")
        r, rlo, rhi, _ = _rate(baseline, "random", role, "goal")
        tol, tlo, thi, _ = _rate(strong, "strong", role, "ToL")
        ratio = s / r if r else float("inf")
        lines.append(
            f"{role:<12} {100 * s:5.1f}% [{100 * slo:4.1f},{100 * shi:5.1f}] n={n:<5}"
            f" {100 * r:5.1f}% [{100 * rlo:4.1f},{100 * rhi:5.1f}] {ratio:6.2f} {'yes' if ratio >= 2 else 'NO':>6}"
            f" {100 * tol:5.1f}% [{100 * tlo:4.1f},{100 * thi:5.1f}]"
        )
    for label, t in (("roles drafted at random", strong), ("strong drafting its own role", chosen)):
        p, lo, hi, n = _rate(t, "strong", "all", "ToL")
        lines.append(f"strong ToL overall, {label}: {100 * p:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] over {n} games"
                     f" (target >= 30%: {'yes' if lo >= 0.30 else 'yes (point)' if p >= 0.30 else 'NO'})")
    r, rlo, rhi, n = _rate(baseline, "random", "all", "ToL")
    lines.append(f"random seat ToL (all random): {100 * r:.1f}% [{100 * rlo:.1f}, {100 * rhi:.1f}] over {n} seats")
    return "\n".join(lines) + "\n"


def timing(t: Tally, label: str) -> str:
    ts = t.times.get("strong", [])
    if not ts:
        return ""
    return (f"{label}: strong decisions {len(ts)}, p50 {1000 * percentile(ts, 50):.1f} ms, "
            f"p99 {1000 * percentile(ts, 99):.1f} ms, max {1000 * max(ts):.1f} ms (target p99 < 2000 ms)\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    n, jobs, seed = args.games, args.jobs, args.seed
    one_strong = ["strong"] + ["random"] * 4
    baseline = tournament("A random x5", ["random"] * 5, n, seed, "random", jobs)
    strong = tournament("B strong, random draft", one_strong, n, seed, "random", jobs)
    chosen = tournament("C strong, own draft", one_strong, max(1, n // 5), seed, None, jobs)
    four = tournament("D strong x4", ["strong"] * 4 + ["random"], max(1, n // 50), seed, None, jobs)
    print(f"python bench/computer_players.py --games {n} --jobs {jobs} --seed {seed}\n")
    for t in (baseline, strong, chosen, four):
        print(report(t))
    print(targets(baseline, strong, chosen))
    print(timing(strong, "B (one strong seat)") + timing(four, "D (four strong seats)"), end="")


if __name__ == "__main__":
    main()
