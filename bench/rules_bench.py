"""Speed of the rules engine: legal_actions p99, one round's resolution, simulate games/s.

Run: python bench/rules_bench.py   (prints figures; asserts nothing)
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.crimecity import legal_actions, legal_seconds, resolve_round  # noqa: E402
from rules.crimecity.simulate import PLAYERS, random_game, random_submission  # noqa: E402
from rules.crimecity.state import GameState  # noqa: E402


def _states(n_games: int, seed: int) -> list[GameState]:
    """Mid-game states from random games, replayed round by round."""
    rng = Random(seed)
    out = []
    for _ in range(n_games):
        final = random_game(rng)
        out.append(final)
    # Rebuild intermediate states: play fresh games and keep every S0.
    rng = Random(seed + 1)
    from rules.crimecity.draft import resolve_draft
    from rules.crimecity.state import new_game

    for _ in range(n_games):
        d = resolve_draft(PLAYERS, {}, PLAYERS, dict.fromkeys(PLAYERS, 10))
        st = new_game(PLAYERS, d.seats, d.garnets)
        while not st.over:
            out.append(st)
            st = resolve_round(st, {p: random_submission(st, p, rng) for p in PLAYERS}, trusted=True).state
    return [s for s in out if not s.over]


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    states = _states(300, 11)
    rng = Random(5)
    samples = []
    for st in states:
        for p in PLAYERS:
            t = time.perf_counter()
            legal_actions(st, p)
            samples.append(time.perf_counter() - t)
    print(f"legal_actions: {len(samples)} calls over {len(states)} states: "
          f"p50 {statistics.median(samples) * 1e6:.1f} us, p99 {pct(samples, 0.99) * 1e6:.1f} us, "
          f"max {max(samples) * 1e6:.1f} us")
    sec = []
    for st in states:
        p = rng.choice(PLAYERS)
        acts = legal_actions(st, p)
        first = rng.choice(acts)
        t = time.perf_counter()
        legal_seconds(st, p, first)
        sec.append(time.perf_counter() - t)
    print(f"legal_seconds: p50 {statistics.median(sec) * 1e6:.1f} us, p99 {pct(sec, 0.99) * 1e6:.1f} us")
    res, res_v = [], []
    for st in states:
        subs = {p: random_submission(st, p, rng) for p in PLAYERS}
        t = time.perf_counter()
        resolve_round(st, subs, trusted=True)
        res.append(time.perf_counter() - t)
        t = time.perf_counter()
        resolve_round(st, subs)
        res_v.append(time.perf_counter() - t)
    print(f"resolve_round (trusted): p50 {statistics.median(res) * 1e6:.1f} us, p99 {pct(res, 0.99) * 1e6:.1f} us")
    print(f"resolve_round (validating all 5 submissions): p50 {statistics.median(res_v) * 1e6:.1f} us, "
          f"p99 {pct(res_v, 0.99) * 1e6:.1f} us")
    n = 3000
    rng = Random(1)
    t = time.perf_counter()
    for _ in range(n):
        random_game(rng)
    dt = time.perf_counter() - t
    print(f"simulate: {n} full games in {dt:.2f} s = {n / dt:.0f} games/s on one core")


if __name__ == "__main__":
    main()
