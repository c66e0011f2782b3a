"""SIGKILL the bot process at random moments while five players submit and rounds resolve.

    .venv/bin/python bench/crash_kill.py [--kills 200] [--seed 1]

Prints the figures (see docs/reliability.md) and exits 1 if anything acknowledged was lost, any
round resolved or any board/DM was sent twice, the database failed `PRAGMA integrity_check`, or a
finished game's export does not replay to the boards the bot logged.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.crashkit import run  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="crimecity-crash-") as tmp:
        figures = asyncio.run(run(args.kills, Path(tmp), seed=args.seed, progress=True))
    print(f"seed {args.seed}, {time.monotonic() - started:.0f} s")
    print(figures.line())
    for problem in figures.problems:
        print("PROBLEM:", problem)
    bad = figures.problems or figures.lost or figures.duplicate_posts or figures.duplicate_dms
    return 1 if bad or figures.integrity_failures or figures.replay_mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
