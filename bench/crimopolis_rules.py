"""Speed of the Crimopolis rules: `legal` for one decision (p99), one contract `step` (p99), and simulate's
full random games per second on one core.

Run: python bench/crimopolis_rules.py   (prints figures; asserts nothing)
Targets (docs/crimopolis/balance.md): legal p99 < 5 ms, step p99 < 1 ms, simulate >= 50 games/s.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.contract import Action, NoChance, SeededChance  # noqa: E402
from rules.crimopolis.game import GAME  # noqa: E402
from rules.crimopolis.legal import legal_actions  # noqa: E402
from rules.crimopolis.simulate import simulate  # noqa: E402
from rules.crimopolis.state import OVER, State  # noqa: E402

C = GAME.content


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def states(games: int, seed: int) -> list[tuple[State, Action]]:
    """(state, the action a random player took there) over whole random games of 2 to 5 players."""
    rng = Random(seed)
    out = []
    for i in range(games):
        seats = tuple(f"p{k}" for k in range(1, 2 + i % 4 + 1))
        state = GAME.setup(seats, {}, SeededChance(f"bench-{i}")).state
        while state.phase != OVER:
            seat = state.pending["player"]
            move = GAME.random_move(state, seat, rng)
            action = Action(seat, move)
            out.append((state, action))
            state = GAME.step(state, [action], NoChance()).state
    return out


def crowded() -> tuple[float, int]:
    """A contrived worst case: every combination of job fortunes is listed for every split of the gangsters."""
    import json

    from rules.crimopolis.engine import Run
    from rules.crimopolis.replay_format import parse_replay

    doc = json.loads(
        (Path(__file__).resolve().parent.parent / "tests/rules/crimopolis/golden/s01_city_a.replay.json").read_text()
    )
    doc["options"] = {"gangsters": 9}
    start = doc["start"]
    start["gangsters"] = {
        "h:1,1": {"ann": 2},
        "h:2,1": {"ann": 2},
        "v:1,1": {"ann": 1},
        "h:1,2": {"ann": 2},
        "h:2,2": {"ann": 1},
        "v:3,1": {"ann": 1},
        "3,0": {"ben": 1},
    }
    start["players"]["ann"] = {"jobs": ["J36", "J40"], "fortunes": [f"F{i}" for i in range(14, 28)]}
    state = parse_replay(C, doc).start
    assert state is not None
    run = Run(C, state)
    run.start_turn("ann", 30, 9)
    n = len(legal_actions(C, run.s, "ann"))
    return best(lambda: legal_actions(C, run.s, "ann")), n


def best(call: Callable[[], object], repeat: int = 3) -> float:
    out = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        call()
        out = min(out, time.perf_counter() - t)
    return out


def line(name: str, xs: list[float]) -> str:
    return (
        f"{name}: {len(xs)} calls: p50 {statistics.median(xs) * 1e3:.3f} ms, p99 {pct(xs, 0.99) * 1e3:.3f} ms, "
        f"max {max(xs) * 1e3:.3f} ms"
    )


def main() -> None:
    sample = states(40, 3)
    legal_t, step_t = [], []
    for state, action in sample:
        legal_t.append(best(lambda s=state: legal_actions(C, s, s.pending["player"])))
        step_t.append(best(lambda s=state, a=action: GAME.step(s, [a], NoChance())))
    print(f"states from 40 random games (2-5 players), {len(sample)} decisions; each call timed 3 times, the best kept")
    print("(the machine is shared: a single timing also measures other processes)")
    print(line("legal (one decision, every action listed and sorted)", legal_t))
    print(line("step (contract GAME.step: copy the state, check, apply one action)", step_t))
    worst, n = crowded()
    print(
        f"legal, a crowded decision ({n} legal actions: 14 job fortunes held, 9 gangsters round a large block): "
        f"{worst * 1e3:.1f} ms"
    )
    games = 300
    t = time.process_time()
    simulate(C, games, 11)
    cpu = time.process_time() - t
    print(f"simulate: {games} full random games in {cpu:.2f} s of CPU: {games / cpu:.1f} games/s on one core")


if __name__ == "__main__":
    main()
