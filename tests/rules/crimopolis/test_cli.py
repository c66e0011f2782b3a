"""`python -m rules replay|legal|simulate` on Crimopolis files (replay.md "Commands")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .replaying import GOLDEN, golden, with_steps

ROOT = Path(__file__).resolve().parents[3]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rules", *args], cwd=ROOT, capture_output=True, text=True)


def test_replay_a_golden_file() -> None:
    r = run("replay", str(GOLDEN / "s17_end_and_scoring.replay.json"))
    assert r.returncode == 0 and r.stderr == ""
    out = json.loads(r.stdout)
    assert out["format"] == "crimopolis-result/1" and out["result"]["winners"] == ["ben"]
    assert r.stdout == run("replay", str(GOLDEN / "s17_end_and_scoring.replay.json")).stdout  # deterministic


def test_legal_for_a_player() -> None:
    r = run("legal", str(GOLDEN / "s16_abort.replay.json"), "--player", "ann")
    assert r.returncode == 0
    out = json.loads(r.stdout)
    assert out["player"] == "ann" and out["decision"] == "turn" and {"kind": "end"} in out["actions"]
    r = run("legal", str(GOLDEN / "s16_abort.replay.json"), "--player", "ben")
    assert json.loads(r.stdout) == {"player": "ben", "decision": None, "actions": []}
    r = run("legal", str(GOLDEN / "s16_abort.replay.json"), "--player", "zed")
    assert r.returncode == 2 and r.stdout == "" and r.stderr.startswith("error: --player:")


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("{", "error: "),
        ('{"format": "crimopolis-replay/1", "players": ["a", "b"]}', "error: steps: missing"),
        (
            '{"format": "crimopolis-replay/1", "players": ["a", "b"], "steps": [{"player": "a", '
            '"action": {"kind": "move", "from": "0,0", "to": "h:0,1", "count": "x"}}]}',
            "error: steps[0].action.count: not an integer",
        ),
    ],
)
def test_format_errors_exit_2_with_one_line_and_no_output(tmp_path: Path, text: str, start: str) -> None:
    f = tmp_path / "bad.json"
    f.write_text(text)
    for args in (("replay", str(f)), ("legal", str(f), "--player", "a")):
        r = run(*args)
        assert r.returncode == 2 and r.stdout == ""
        assert r.stderr.startswith(start) and len(r.stderr.strip().splitlines()) == 1


def test_a_late_format_error_prints_nothing(tmp_path: Path) -> None:
    doc = with_steps(golden("we02_carry"), [{"player": "ann", "action": {"kind": "explore", "tile": "T99"}}])
    f = tmp_path / "late.json"
    f.write_text(json.dumps(doc))
    r = run("replay", str(f))
    assert r.returncode == 2 and r.stdout == "" and r.stderr.startswith("error: steps[6].action.tile:")


def test_simulate_prints_figures_deterministically() -> None:
    a = run("simulate", "--game", "crimopolis", "--games", "8", "--seed", "3")
    assert a.returncode == 0 and "game length" in a.stdout and "seat advantage" in a.stdout
    assert a.stdout == run("simulate", "--game", "crimopolis", "--games", "8", "--seed", "3").stdout


def test_content_is_refused_for_a_game_without_content(tmp_path: Path) -> None:
    f = tmp_path / "crimecity.json"
    f.write_text('{"format": "crimecity-replay/1", "players": []}')
    r = run("replay", str(f), "--content", str(tmp_path))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip() == "error: --content: Crime City has no content to replace"


def test_an_integer_of_thousands_of_digits_is_refused_by_its_field(tmp_path: Path) -> None:
    """Python reads no integer of more than 4,300 digits: the reader takes one that long as beyond range and names
    its field, as for 1e400 (401 digits are read, and the count is refused `malformed`)."""
    doc = with_steps(golden("s02_large_block_west"), [
        {"player": "ann", "action": {"kind": "move", "from": "0,0", "to": "h:0,0", "count": 987654321}}], keep=0)
    path = tmp_path / "n401.json"
    path.write_text(json.dumps(doc).replace("987654321", "9" * 401))
    r = run("replay", str(path))
    assert r.returncode == 0 and json.loads(r.stdout)["steps"][0]["refused"]["code"] == "malformed"
    path.write_text(json.dumps(doc).replace("987654321", "9" * 5000))
    r = run("replay", str(path))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip() == "error: steps[0].action.count: the number is out of range (beyond a double's)"
