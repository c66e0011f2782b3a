"""bench/crash_kill_pg.py in small: worker processes sharing one PostgreSQL are SIGKILLed while players
submit through all of them; nothing acknowledged is lost, nothing resolved or queued twice."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.slow
@pytest.mark.postgres
def test_sigkills_across_two_processes_lose_nothing_and_repeat_nothing(pg_server: object) -> None:
    # pg_server: the harness starts a server of its own; this only fails early, and clearly, without one.
    done = subprocess.run(
        [sys.executable, "bench/crash_kill_pg.py", "--processes", "2", "--kills", "12", "--games", "4"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert " 0 lost, " in done.stdout and " 0 resolved twice, " in done.stdout
    assert "4/4 games finished" in done.stdout
