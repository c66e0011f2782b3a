"""`python -m rules replay|legal|simulate` as a host runs them (docs/crimecity/replay.md contract).

Whatever the input, the command prints its result and exits 0, or exits 2 with exactly one line on
stderr, nothing on stdout and no traceback."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.cli import main as rules_main
from tests.support.rules_helpers import GOLDEN, doc

ROOT = Path(__file__).resolve().parents[2]


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
    # replay.md "Unknown identifiers ... are format errors": placements are read with `seats` too
    ("placements", lambda d: d.update(placements=["zed"])),
    # "wrong JSON types are format errors": null where a character is expected is not an absent field
    ("rounds[0].andy.actions[0].target", lambda d: d["rounds"][0]["andy"]["actions"][0].update(target=None)),
    # "`ability:C` (C is the player's own character)"
    ("start.cooldowns.andy", lambda d: d.update(start={"cooldowns": {"andy": [
        "ability:" + ("policeman" if d["seats"]["andy"]["character"] != "policeman" else "banker")]}})),
    # "`fraud_stage` is 0 or the round in which stage one was reached": a round before the start's
    ("start.progress.andy.fraud_stage",
     lambda d: d.update(start={"round": 2, "progress": {"andy": {"fraud_stage": 2}}})),
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


def test_a_start_already_over_ended_after_the_fourth_completion(tmp_path: Path) -> None:
    # R82: the game ends after the round that brought the fourth completion, not at the start's round.
    d = json.loads((GOLDEN / "we1_we3.replay.json").read_text())
    andy, grunkle, cara, dev = d["players"][:4]
    d["start"] = {"round": 5, "completed": {andy: 1, grunkle: 2, cara: 3, dev: 3}}
    d["rounds"] = []
    f = tmp_path / "over.json"
    f.write_text(json.dumps(d))
    r = run("replay", str(f))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["result"]["ended_after_round"] == 3


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


# ---- every refusal is one line --------------------------------------------------------------------


def refused(r: subprocess.CompletedProcess, *words: str) -> str:
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and r.stdout == "" and "Traceback" not in r.stderr, r.stderr
    assert len(lines) == 1, r.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def golden_text() -> str:
    return (GOLDEN / "we1_we3.replay.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("cmd", [["replay"], ["legal", "--player", "andy"]])
def test_a_directory(tmp_path: Path, cmd: list[str]) -> None:
    refused(run(cmd[0], str(tmp_path), *cmd[1:]), "is a directory")


def test_an_unreadable_file(tmp_path: Path) -> None:
    from tests.bot.test_preflight import unprivileged

    f = tmp_path / "g.json"
    f.write_text(golden_text())
    f.chmod(0o000)
    r = subprocess.run(
        [sys.executable, "-m", "rules", "replay", str(f)],
        cwd=ROOT, capture_output=True, text=True, preexec_fn=unprivileged(),
    )  # fmt: skip
    refused(r, "not readable")


@pytest.mark.parametrize("where", ['"rounds_total": 6', '"andy": 20'])
def test_an_integer_of_5000_digits_is_refused_by_its_field(tmp_path: Path, where: str) -> None:
    """Python reads no integer of more than 4,300 digits: the reader takes it as beyond range, naming its field."""
    f = tmp_path / "g.json"
    f.write_text(golden_text().replace(where, where.split(":")[0] + ": " + "9" * 5000, 1))
    line = refused(run("replay", str(f)))
    assert line == refused(run("legal", str(f), "--player", "andy"))
    assert where.split(":")[0].strip('"') in line and "out of range" in line, line


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(tmp_path: Path, constant: str) -> None:
    f = tmp_path / "g.json"
    f.write_text(golden_text().replace('"rounds_total": 6', f'"rounds_total": 6, "note": {constant}', 1))
    refused(run("replay", str(f)), "not valid JSON", constant)


def test_a_number_beyond_a_double_is_named(tmp_path: Path) -> None:
    # 1e400 is JSON, but it reads as infinity, which the output could not write back as JSON
    f = tmp_path / "g.json"
    f.write_text(golden_text().replace('"rounds_total": 6', '"rounds_total": 6, "note": -1e400', 1))
    assert refused(run("replay", str(f)), "out of range").startswith("error: note:")


def test_a_file_without_format_says_how_it_was_read(tmp_path: Path) -> None:
    f = tmp_path / "g.json"
    f.write_text(json.dumps({"players": ["green", "white"], "actions": []}))  # an Organized Crime file, format lost
    line = refused(run("replay", str(f)), "crimecity-replay/1", "which says players:")
    assert line.startswith("error: format: missing")


def test_a_player_name_with_a_lone_surrogate(tmp_path: Path) -> None:
    f = tmp_path / "g.json"
    f.write_text(golden_text().replace('"andy"', '"\\ud800ndy"'))  # every mention, so the file is consistent
    refused(run("replay", str(f)), "lone surrogate")
    refused(run("legal", str(f), "--player", "andy"), "lone surrogate")


def test_a_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    f = tmp_path / "g.json"
    f.write_bytes(b"\xef\xbb\xbf" + golden_text().encode("utf-8"))
    plain = run("replay", str(GOLDEN / "we1_we3.replay.json"))
    with_bom = run("replay", str(f))
    assert with_bom.returncode == 0 and with_bom.stderr == "" and with_bom.stdout == plain.stdout
    assert run("legal", str(f), "--player", "andy").returncode == 0


def test_a_huge_file_past_the_last_round_stops_early(tmp_path: Path) -> None:
    d = json.loads(golden_text())
    # 6 real rounds, then 100,000 that could not even be parsed: the refusal names the first extra round,
    # so none of the rest was read as a round.
    d["rounds"] = d["rounds"] * 3 + [{"nobody": {"actions": "not a list"}}] * 100_000
    f = tmp_path / "huge.json"
    f.write_text(json.dumps(d))
    assert f.stat().st_size > 3_000_000
    refused(run("replay", str(f)), "rounds[6]", "at most 6 rounds")
    refused(run("legal", str(f), "--player", "andy"), "rounds[6]")


def test_a_file_over_the_size_limit_is_not_read(tmp_path: Path) -> None:
    from rules.cli import MAX_BYTES

    f = tmp_path / "big.json"
    with f.open("wb") as out:  # sparse: costs no disk, and reading it would take seconds
        out.write(golden_text().encode())
        out.truncate(MAX_BYTES + 1)
    refused(run("replay", str(f)), "too large")


def test_no_arguments_shows_the_usage() -> None:
    refused(run(), "usage: python -m rules", "replay,legal,simulate")


@pytest.mark.parametrize("games", ["-1", "0"])
def test_simulate_needs_at_least_one_game(games: str) -> None:
    refused(run("simulate", "--games", games), "--games", "usage: python -m rules simulate")


@pytest.mark.parametrize(
    "args",
    [["legal", "x.json"], ["bogus"], ["simulate", "--games", "many"], ["replay"], ["simulate", "--game", "chess"]],
)
def test_usage_errors_are_one_line(args: list[str]) -> None:
    refused(run(*args), "usage: python -m rules")


# ---- fuzz: random bytes and random JSON through replay and legal ---------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=16,
)
players = st.sampled_from(["andy", "grunkle", "cara", "dev", "eve"]) | st.text(max_size=6)


def cli(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = rules_main(args)
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def kept_its_promise(code: int, out: str, err: str) -> None:
    if code == 0:
        json.loads(out)
        assert err == ""
    else:
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, (code, out[:200], err[:300])


def splice(doc: Any, path: list[Any], value: Any) -> Any:
    """`doc` with the value at the deepest existing prefix of `path` replaced by `value`."""
    if not path or not isinstance(doc, dict | list):
        return value
    key, rest = path[0], path[1:]
    if isinstance(doc, dict) and doc:
        key = sorted(doc)[key % len(doc)]
        return {**doc, key: splice(doc[key], rest, value)}
    if isinstance(doc, list) and doc:
        i = key % len(doc)
        return [*doc[:i], splice(doc[i], rest, value), *doc[i + 1 :]]
    return value


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)


@FUZZ
@given(raw=st.binary(max_size=300) | st.binary(max_size=40).map(lambda b: golden_text().encode()[:200] + b))
def test_fuzz_random_bytes(tmp_path_factory, raw: bytes) -> None:
    f = tmp_path_factory.mktemp("fuzz") / "g.json"
    f.write_bytes(raw)
    kept_its_promise(*cli(["replay", str(f)]))
    kept_its_promise(*cli(["legal", str(f), "--player", "andy"]))


@FUZZ
@given(value=json_values, path=st.lists(st.integers(min_value=0, max_value=50), max_size=6), player=players)
def test_fuzz_random_json(tmp_path_factory, value: Any, path: list[int], player: str) -> None:
    base = json.loads(golden_text())
    f = tmp_path_factory.mktemp("fuzz") / "g.json"
    for document in (value, splice(base, path, value)):
        f.write_text(json.dumps(document), encoding="utf-8")
        kept_its_promise(*cli(["replay", str(f)]))
        kept_its_promise(*cli(["legal", str(f), "--player", player]))


@pytest.mark.parametrize("golden", ["organizedcrime/golden/e1_charge", "crimopolis/golden/s01"])
def test_another_games_file_without_its_format_names_format(tmp_path: Path, golden: str) -> None:
    matches = sorted((ROOT / "tests" / "rules").glob(f"{golden}*.replay.json"))
    d = json.loads(matches[0].read_text())
    del d["format"]
    f = tmp_path / "nofmt.json"
    f.write_text(json.dumps(d))
    line = refused(run("replay", str(f)), "crimecity-replay/1")
    assert line.startswith("error: format: missing"), line
    assert refused(run("legal", str(f), "--player", "x")).startswith("error: format: missing")


def test_a_crimecity_file_without_its_format_is_still_read_as_one(tmp_path: Path) -> None:
    d = json.loads(golden_text())
    del d["format"]
    f = tmp_path / "nofmt.json"
    f.write_text(json.dumps(d))
    assert run("replay", str(f)).stdout == run("replay", str(GOLDEN / "we1_we3.replay.json")).stdout
