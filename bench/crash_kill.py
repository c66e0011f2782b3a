"""SIGKILL the bot process at random moments while five players submit and rounds resolve.

    .venv/bin/python bench/crash_kill.py [--kills 200] [--seed 1]
    .venv/bin/python bench/crash_kill.py --processes 3 [--kills 500] [--database postgresql://...]

Prints the figures (see docs/reliability.md) and exits 1 if anything acknowledged was lost, any
round resolved or any board/DM was sent twice, the database failed `PRAGMA integrity_check`, or a
finished game's export does not replay to the boards the bot logged.

With --processes N: N bot processes (process i holds shard i of N) on one PostgreSQL (a throwaway
server started here, or --database, an empty one), N servers playing at once, players submitting
through every process, a random process killed each time (tests/support/crashkit_fleet.py); at the
end every open game is played to its end, and it exits 1 too if one did not finish.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support import crashkit, crashkit_fleet  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=0, help="bot processes on one PostgreSQL (0: one on SQLite)")
    parser.add_argument("--database", default=None, help="an empty postgresql:// database (with --processes)")
    args = parser.parse_args()
    if args.database and not args.processes:
        parser.error("--database needs --processes (one SQLite process makes its own file)")
    if args.processes and not 1 <= args.processes <= 8:
        parser.error(f"--processes must be 1 to 8, not {args.processes}")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="crimecity-crash-") as tmp:
        figures = asyncio.run(
            crashkit.run(
                args.kills, Path(tmp), args.seed, progress=True, processes=args.processes, database=args.database
            )
        )
    print(f"seed {args.seed}, {time.monotonic() - started:.0f} s")
    print(figures.line())
    for problem in figures.problems:
        print("PROBLEM:", problem)
    bad = figures.problems or figures.lost or figures.duplicate_posts or figures.duplicate_dms
    if isinstance(figures, crashkit_fleet.FleetFigures):
        bad = bad or figures.steps_resolved_twice or figures.games_finished != figures.games_started
    return 1 if bad or figures.integrity_failures or figures.replay_mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
