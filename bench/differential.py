"""Differential run: the rules engine against tests/reference, on many generated replay documents.

Run: python bench/differential.py [N_CASES] [FIRST_SEED]   (default 20000 cases from seed 0)
Prints the mismatch count, the first mismatching seeds with their differences, and the runtime.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.crimecity.replay import legal_for, run_replay  # noqa: E402
from tests.support.reference.generate import check_case  # noqa: E402


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    t0 = time.perf_counter()
    bad: dict[int, list[str]] = {}
    for seed in range(first, first + n):
        diffs = check_case(seed, run_replay, legal_for)
        if diffs:
            bad[seed] = diffs
    for seed, diffs in list(bad.items())[:20]:
        print(f"seed {seed}:")
        for d in diffs[:6]:
            print("   ", d[:400])
    print(f"{len(bad)} mismatching cases out of {n} ({time.perf_counter() - t0:.1f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
