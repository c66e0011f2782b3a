"""`python -m rules replay|legal|simulate` as a host runs them (replay.md contract)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.rules_helpers import GOLDEN, doc

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rules", *args], cwd=ROOT, capture_output=True, text=True)


def test_replay_prints_deterministic_json() -> None:
    a = run("replay", str(GOLDEN / "we1_we3.replay.json"))
    b = run("replay", str(GOLDEN / "we1_we3.replay.json"))
    assert a.returncode == 0 and a.stdout == b.stdout
    out = json.loads(a.stdout)
    assert out["format"] == "crimecity-result/1" and len(out["rounds"]) == 2 and out["result"] is None


def test_legal_for_the_next_round(tmp_path: Path) -> None:
    d = json.loads((GOLDEN / "we1_we3.replay.json").read_text())
    d["rounds"] = d["rounds"][:1]
    f = tmp_path / "g.json"
    f.write_text(json.dumps(d))
    r = run("legal", str(f), "--player", "eve")
    out = json.loads(r.stdout)
    assert out["round"] == 2 and out["player"] == "eve" and out["single_move_only"] is True
    assert all(a["kind"] == "move" for a in out["actions"])
    assert {"kind": "move", "direction": "vertical", "character": "armed_guard"} in out["actions"]
    texts = [json.dumps(a, sort_keys=True) for a in out["actions"]]
    assert texts == sorted(texts)
    andy = json.loads(run("legal", str(f), "--player", "andy").stdout)
    assert {"kind": "converse", "character": "secretary"} in andy["actions"]
    assert {"kind": "move", "direction": "vertical", "character": "secretary"} not in andy["actions"]


BAD = [
    ("players", lambda d: d.update(players=d["players"][:4])),
    ("seats.andy.character", lambda d: d["seats"]["andy"].update(character="wizard")),
    ("rounds[0].andy.actions[0].kind", lambda d: d["rounds"][0]["andy"]["actions"][0].update(kind="dance")),
    ("rounds[0].andy.actions[0].direction", lambda d: d["rounds"][0]["andy"]["actions"][0].update(direction="up")),
    ("rounds[0]", lambda d: d["rounds"][0].update(zed={"actions": []})),
    ("draft", lambda d: d.update(draft={"andy": {"bid": 1}}, placements=d["players"])),
    ("draft.andy.roles", lambda d: (d.pop("seats"), d.update(placements=d["players"],
                                    draft={"andy": {"roles": ["hitman", "hitman"]}}))),
    ("draft.andy.bid", lambda d: (d.pop("seats"), d.update(placements=d["players"],
                                  draft={"andy": {"bid": 99}}))),
    ("rounds_total", lambda d: d.update(rounds_total=9)),
    ("rounds[1]", lambda d: d.update(rounds_total=1)),
    ("start.positions", lambda d: d.update(start={"positions": {"policeman": "bank"}})),
]


@pytest.mark.parametrize(("field", "spoil"), BAD, ids=[b[0] for b in BAD])
def test_malformed_file_exits_2_naming_the_field(tmp_path: Path, field: str, spoil) -> None:
    d = json.loads((GOLDEN / "we1_we3.replay.json").read_text())
    spoil(d)
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(d))
    r = run("replay", str(f))
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and field in lines[0], r.stderr


def test_not_json_and_missing_file(tmp_path: Path) -> None:
    f = tmp_path / "x.json"
    f.write_text("{nope")
    r = run("replay", str(f))
    assert r.returncode == 2 and "not valid JSON" in r.stderr
    assert run("replay", str(tmp_path / "absent.json")).returncode == 2


def test_illegal_submission_is_rejected_not_a_format_error(tmp_path: Path) -> None:
    d = doc([{"andy": {"actions": []}, "eve": {"actions": [{"kind": "ability", "target": "armed_guard"}]}}])
    f = tmp_path / "g.json"
    f.write_text(json.dumps(d))
    out = json.loads(run("replay", str(f)).stdout)
    assert out["rounds"][0]["rejected"]["andy"]["code"] == "shape"
    assert out["rounds"][0]["rejected"]["eve"]["code"] == "bad_target"
    assert out["rounds"][0]["cooldowns"]["andy"] == []


def test_extra_field_is_malformed(tmp_path: Path) -> None:
    d = doc([{"andy": {"actions": [{"kind": "converse", "character": "store_clerk", "target": "banker"},
                                   {"kind": "ability", "target": "banker"}]}}])
    f = tmp_path / "g.json"
    f.write_text(json.dumps(d))
    assert json.loads(run("replay", str(f)).stdout)["rounds"][0]["rejected"]["andy"]["code"] == "malformed"


def test_legal_after_the_end_is_a_format_error(tmp_path: Path) -> None:
    f = tmp_path / "g.json"
    f.write_text(json.dumps(doc([{}], rounds_total=1)))
    r = run("legal", str(f), "--player", "andy")
    assert r.returncode == 2 and "ended" in r.stderr


def test_simulate_prints_figures() -> None:
    r = run("simulate", "--games", "50", "--seed", "7")
    assert r.returncode == 0
    assert "The Pickpocket" in r.stdout and "ended after round" in r.stdout
    assert r.stdout == run("simulate", "--games", "50", "--seed", "7").stdout
