"""`python -m rules tournament` as a host runs it: figures per level and role, decision times, one-line
errors (exit 2), and the same figures whatever the interpreter's hash seed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
SEATS = "strong,random,random,random,random"


def run(*args: str, hashseed: str = "0") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    return subprocess.run([sys.executable, "-m", "rules", "tournament", *args], cwd=ROOT, capture_output=True,
                          text=True, env=env, timeout=120)


def _figures(out: str) -> str:
    return out.split("time per decision")[0]


def test_a_short_tournament_prints_figures_per_level_and_role() -> None:
    r = run("--games", "3", "--seed", "4", "--seats", SEATS)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == f"Tournament of crimecity: 3 games, seed 4, seats {SEATS}"
    head = next(line for line in lines if line.startswith("level"))
    for column in ("goal", "ToL", "EC", "award"):
        assert column in head
    rows = [line.split() for line in lines if line.startswith(("strong ", "random "))]
    assert ["strong", "all", "3"] == rows[0][:3]
    assert any(row[:3] == ["random", "all", "12"] for row in rows)
    assert sum(int(row[2]) for row in rows if row[0] == "strong" and row[1] != "all") == 3
    timing = [line for line in lines if line.strip().startswith(("strong", "random")) and "p99" in line]
    assert len(timing) == 2


def test_the_figures_do_not_depend_on_the_hash_seed() -> None:
    a = run("--games", "2", "--seed", "9", "--seats", "strong,strong,random,random,random", hashseed="1")
    b = run("--games", "2", "--seed", "9", "--seats", "strong,strong,random,random,random", hashseed="2")
    assert a.returncode == b.returncode == 0
    assert _figures(a.stdout) == _figures(b.stdout)


def test_every_error_is_one_line_and_exit_2() -> None:
    cases = [
        (["--games", "1", "--seats", "strong,random"], "--seats: Crime City needs 5 levels, one per seat, not 2"),
        (["--games", "1", "--seats", "strong,random,random,random,wizard"], "unknown level 'wizard'"),
        (["--games", "0", "--seats", SEATS], "--games: must be at least 1"),
        (["--games", "1", "--seats", SEATS, "--setting", "rounds=9"], "--setting: rounds must be between 1 and 6"),
        (["--games", "1", "--seats", SEATS, "--setting", "colour"], "--setting: 'colour' is not NAME=VALUE"),
        (["--games", "1", "--seats", SEATS, "--draft", "grand"], "unknown level 'grand'"),
        (["--games", "1", "--seats", SEATS, "--game", "chess"], "invalid choice"),
    ]
    for args, message in cases:
        r = run(*args)
        assert r.returncode == 2, (args, r.stderr)
        errors = [line for line in r.stderr.splitlines() if line.startswith("error:")]
        assert len(errors) == 1 and message in errors[0], (args, r.stderr)
        assert "Traceback" not in r.stderr
