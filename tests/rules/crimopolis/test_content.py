"""The content pack (rulings Part 6): the house pack as shipped, validation that names file, entry and
field, and a group's own pack through `make_game` and `--content DIR`."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules.contract import FormatError
from rules.crimopolis import ContentError, load_content, make_game
from rules.crimopolis.content_files import packaged_docs

from .replaying import golden

ROOT = Path(__file__).resolve().parents[3]
SPEC = Path("/work/shared/spec/crimopolis/content")


def docs() -> dict[str, Any]:
    return copy.deepcopy(packaged_docs())


def test_the_house_pack() -> None:
    c = load_content(docs())
    assert c.id == "house-1" and len(c.city_tiles) == 48 and len(c.clock_tiles) == 15
    assert sum(1 for t in c.city_tiles if c.tiles[t].streets == 3) == 12
    assert {len(v) for v in c.decks.values()} == {48, 42}
    assert c.clock_tiles == (
        "T01",
        "T05",
        "T09",
        "T13",
        "T17",
        "T21",
        "T25",
        "T27",
        "T29",
        "T31",
        "T33",
        "T35",
        "T37",
        "T41",
        "T45",
    )
    assert c.designs["F28"].id == "bombing" and c.designs["F28"].defendable
    assert c.designs["N36"].destiny and c.designs["N36"].target == "chosen_other"
    assert sum(c.designs[f].endgame for f in c.decks["fortunes"]) == 31  # rulings 6.4: 31/48 on average


def test_the_packaged_files_are_the_spec_files() -> None:
    if not SPEC.is_dir():
        pytest.skip("the shared spec is not on this machine (the package does not need it)")
    for f in SPEC.glob("*.json"):
        assert json.loads(f.read_text()) == packaged_docs()[f.name], f.name


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        node: Any = d
        for key in path[:-1]:
            node = node[key]
        if value is KeyError:
            del node[path[-1]]
        else:
            node[path[-1]] = value

    return change


BROKEN = [
    (_set(["pack.json", "schema"], "crimopolis-pack/2"), "pack.json: schema:"),
    (_set(["pack.json", "files", "jobs"], "work.json"), "work.json: missing"),
    (_set(["pack.json", "gang_colors"], ["a", "b"]), "pack.json: gang_colors:"),
    (_set(["pack.json", "counts", "jobs"], 47), "pack.json: counts.jobs:"),
    (_set(["tiles.json", "city_tiles", 3, "streets"], 5), "tiles.json: city_tiles[3] (T04).streets:"),
    (_set(["tiles.json", "city_tiles", 3, "location"], "zoo"), "tiles.json: city_tiles[3] (T04).location:"),
    (_set(["tiles.json", "city_tiles", 3, "clock"], True), "pack.json: counts:"),  # 16 clock tiles
    (_set(["tiles.json", "city_tiles", 3, "id"], "T03"), "tiles.json: city_tiles[3] (T03).id:"),
    (_set(["tiles.json", "gang_tiles", 0, "id"], "hq_gold"), "tiles.json: gang_tiles[0] (hq_gold).id:"),
    (_set(["tiles.json", "gang_tiles", 0, "streets"], 3), "tiles.json: gang_tiles[0] (hq_yellow).streets:"),
    (_set(["jobs.json", "jobs", 4, "gangsters"], 0), "jobs.json: jobs[4] (J05).gangsters:"),
    (_set(["jobs.json", "jobs", 4, "hours"], "2"), "jobs.json: jobs[4] (J05).hours:"),
    (_set(["jobs.json", "jobs", 4, "prestige"], KeyError), "jobs.json: jobs[4] (J05).prestige: missing"),
    (_set(["jobs.json", "house"], "yes"), "jobs.json: house:"),
    (
        _set(["newsflashes.json", "designs", 0, "effect", "kind"], "steal_fortune"),
        "newsflashes.json: designs[0] (quiet_night).effect.kind:",
    ),
    (
        _set(["newsflashes.json", "designs", 1, "effect", "amount"], 0),
        "newsflashes.json: designs[1] (front_page).effect.amount:",
    ),
    (
        _set(["newsflashes.json", "designs", 1, "effect", "bonus"], 1),
        "newsflashes.json: designs[1] (front_page).effect.bonus:",
    ),
    (_set(["newsflashes.json", "designs", 1, "target"], "all"), "newsflashes.json: designs[1] (front_page).target:"),
    (
        _set(["newsflashes.json", "designs", 1, "defendable"], True),
        "newsflashes.json: designs[1] (front_page).defendable:",
    ),
    (
        _set(["newsflashes.json", "designs", 7, "destiny"], False),
        "newsflashes.json: designs[7] (stool_pigeon).destiny:",
    ),
    (
        _set(["newsflashes.json", "designs", 1, "cards", 0], "N01"),
        "newsflashes.json: designs[1] (front_page).cards[0]:",
    ),
    (_set(["fortunes.json", "designs", 0, "timing"], "job"), "fortunes.json: designs[0] (strong_coffee).timing:"),
    (_set(["fortunes.json", "designs", 0, "timing"], "soon"), "fortunes.json: designs[0] (strong_coffee).timing:"),
    (_set(["fortunes.json", "designs", 0, "endgame"], -1), "fortunes.json: designs[0] (strong_coffee).endgame:"),
    (
        _set(["fortunes.json", "designs", 5, "effect", "kind"], "raid"),
        "fortunes.json: designs[5] (bombing).effect.kind:",
    ),
    (_set(["fortunes.json", "designs", 9, "endgame"], 0), "fortunes.json: designs[9] (nest_egg).endgame:"),
    (_set(["fortunes.json", "designs", 0, "cards"], ["F01"]), "pack.json: counts:"),  # 42 fortunes left
    (_set(["locations.json", "locations", 0, "name"], ""), "locations.json: locations[0] (bank).name:"),
    (_set(["jobs.json", "jobs", 4, "id"], "T01"), "tiles.json and jobs.json: id 'T01' names two things"),
]


@pytest.mark.parametrize(("change", "start"), BROKEN)
def test_a_broken_pack_is_refused_naming_file_entry_and_field(
    change: Callable[[dict[str, Any]], None], start: str
) -> None:
    d = docs()
    change(d)
    with pytest.raises(ContentError) as err:
        load_content(d)
    assert str(err.value).startswith(start), str(err.value)


def test_a_jobs_location_needs_a_tile() -> None:
    d = docs()
    d["locations.json"]["locations"].append({"id": "zoo", "name": "Zoo", "color": "green"})
    d["jobs.json"]["jobs"][0]["location"] = "zoo"
    with pytest.raises(ContentError, match=r"^jobs.json: jobs\[0\] \(J01\).location:"):
        load_content(d)


def _write(tmp: Path, d: dict[str, Any]) -> Path:
    tmp.mkdir(exist_ok=True)
    for name, doc in d.items():
        (tmp / name).write_text(json.dumps(doc))
    return tmp


def _own_pack() -> dict[str, Any]:
    """A group's pack: pack id "club-1", Front Page worth 3, Bank jobs worth one more prestige."""
    d = docs()
    d["pack.json"]["id"] = "club-1"
    for f in d.values():
        f["house"] = False
    d["newsflashes.json"]["designs"][1]["effect"]["amount"] = 3
    for j in d["jobs.json"]["jobs"]:
        if j["location"] == "bank":
            j["prestige"] += 1
    return d


def test_make_game_from_another_pack() -> None:
    game = make_game(load_content(_own_pack()))
    doc = golden("s08_presence")
    doc["content"] = "club-1"
    out = game.replay(doc)
    assert out["content"] == "club-1"
    assert out["steps"][-1]["state"]["players"]["ann"]["prestige"] == 3  # J01 gives 2 + 1 here
    with pytest.raises(FormatError, match="^content:"):
        game.replay(golden("s08_presence"))  # content: house-1 is not this pack


def test_cli_content_dir(tmp_path: Path) -> None:
    pack = _write(tmp_path / "club", _own_pack())
    doc = golden("s08_presence")
    doc["content"] = "club-1"
    replay_file = tmp_path / "game.json"
    replay_file.write_text(json.dumps(doc))
    run = [sys.executable, "-m", "rules", "replay", str(replay_file), "--content", str(pack)]
    r = subprocess.run(run, cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["steps"][-1]["state"]["players"]["ann"]["prestige"] == 3
    legal = [sys.executable, "-m", "rules", "legal", str(replay_file), "--player", "ann", "--content", str(pack)]
    r = subprocess.run(legal, cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0 and json.loads(r.stdout)["decision"] == "turn"
    broken = _own_pack()
    broken["jobs.json"]["jobs"][2]["hours"] = -1
    bad = _write(tmp_path / "bad", broken)
    r = subprocess.run([*run[:-1], str(bad)], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip() == "error: jobs.json: jobs[2] (J03).hours: must be an integer of at least 0, not -1"
    r = subprocess.run([*run[:-1], str(tmp_path / "none")], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 2 and r.stdout == "" and r.stderr.startswith("error: ")
    (bad / "tiles.json").write_text("{not json")
    r = subprocess.run([*run[:-1], str(bad)], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.startswith("error: tiles.json: not valid JSON")


def test_a_pack_with_a_positive_destiny_asks_for_the_order() -> None:
    """R41, Q26: two destinies that are not all negative `hours` effects make the `destiny` decision."""
    d = docs()
    d["newsflashes.json"]["designs"][7]["effect"]["amount"] = 2  # Stool Pigeon: +2 hours (a gift)
    game = make_game(load_content(d))
    doc = golden("s13_two_destinies")  # ben has N36 then F41 lying in front of him, 4 hours
    doc["steps"] = [
        {"player": "ben", "action": {"kind": "destiny", "card": "J01"}},
        {"player": "ben", "action": {"kind": "destiny", "card": "F41"}},
    ]
    out = game.replay(doc)
    assert [e["kind"] for e in out["initial"]["events"]] == ["turn_start"]
    assert out["initial"]["state"]["pending"] == {"kind": "destiny", "player": "ben"}
    assert game.legal({**doc, "steps": []}, "ben")["actions"] == [
        {"kind": "destiny", "card": "F41"},
        {"kind": "destiny", "card": "N36"},
    ]
    assert out["steps"][0]["refused"]["code"] == "not_available"
    evs = [(e["kind"], e.get("card"), e.get("amount"), e.get("hours")) for e in out["steps"][1]["events"]]
    # F41 first (-3 from 4), then the one left is executed at once (+2)
    assert evs == [
        ("destiny_executed", "F41", None, None),
        ("hours", None, -3, 1),
        ("destiny_executed", "N36", None, None),
        ("hours", None, 2, 3),
    ]
    assert out["steps"][1]["state"]["pending"] == {"kind": "turn", "player": "ben"}


def test_a_pack_that_cannot_be_written_back_is_refused(tmp_path: Path) -> None:
    pack = _write(tmp_path / "club", _own_pack())
    (pack / "pack.json").write_text((pack / "pack.json").read_text().replace('"club-1"', '"club-\\ud800"', 1))
    replay_file = tmp_path / "game.json"
    replay_file.write_text(json.dumps(golden("s08_presence")))
    r = subprocess.run([sys.executable, "-m", "rules", "replay", str(replay_file), "--content", str(pack)], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode == 2 and r.stdout == "", r.stderr
    assert r.stderr.startswith("error: pack.json.id: not valid text"), r.stderr


def test_simulate_on_another_pack(tmp_path: Path) -> None:
    pack = _write(tmp_path / "club", _own_pack())
    r = subprocess.run([sys.executable, "-m", "rules", "simulate", "--game", "crimopolis", "--games", "4", "--content",
                        str(pack)], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Crimopolis: 4 random legal games (pack club-1;"), r.stdout
