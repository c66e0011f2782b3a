"""The house content (rulings Appendix A) loads and validates; a broken file is refused naming file, entry and
field; a group's replacement directory is used by `with_content` and `python -m rules … --content DIR`."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules.organizedcrime.content import FILES, ContentError, validate
from rules.organizedcrime.content_files import house
from rules.organizedcrime.game import GAME

CONTENT = Path(__file__).resolve().parents[3] / "rules" / "organizedcrime" / "content"
GOLDEN = Path(__file__).resolve().parent / "golden"


def _docs() -> dict[str, Any]:
    return {name: json.loads((CONTENT / name).read_text()) for name in FILES}


def test_the_house_content_is_oc_h1() -> None:
    c = house()
    assert c.board_id == "oc-h1"
    assert len(c.kinds) == 64 and len(c.edge) == 2 * 72
    assert sum(1 for k in c.kinds.values() if k == "city") == 12
    assert len(c.cards) == 63 and [len(c.decks[d]) for d in ("power", "official", "mistake", "penalty")] == [
        24, 15, 12, 12]
    assert c.cards["CO07"].price == 30000 and c.cities["new_york"][0] == 40000
    assert c.adjacent["o02"] == (("i00", "ring", "right"), ("i15", "ring", "left"), ("o01", "ring", "left"),
                                 ("o03", "ring", "right"))


BROKEN = [
    ("decks.json", ["decks", "power", "cards", 0, "kind"], "bomb", "decks.json: decks.power.cards[0].kind"),
    ("decks.json", ["decks", "power", "cards", 1, "id"], "PW01", "decks.json: decks.power.cards[1].id"),
    ("decks.json", ["decks", "mistake", "cards", 0, "avoided_by", 0], "mayor",
     "decks.json: decks.mistake.cards[0].avoided_by[0]"),
    ("decks.json", ["decks", "penalty", "cards", 9, "count"], 0, "decks.json: decks.penalty.cards[9].count"),
    ("board.json", ["spaces", 3, "kind"], "castle", "board.json: spaces[3].kind"),
    ("board.json", ["edges", 0, "b"], "o99", "board.json: edges[0].b"),
    ("board.json", ["edges", 0, "type"], "tunnel", "board.json: edges[0].type"),
    ("catalogue.json", ["cities", 0, "value"], 15000, "catalogue.json: cities[0].value"),
    ("catalogue.json", ["business", 0, "circles"], 0, "catalogue.json: business[0].circles"),
    ("rules.json", ["men"], "twenty", "rules.json.men"),
    # values of the wrong type deep in a list: refused by name, not a traceback
    ("decks.json", ["decks", "mistake", "cards", 0, "avoided_by", 0], ["judge"],
     "decks.json: decks.mistake.cards[0].avoided_by[0]"),
    ("board.json", ["bases", 0, "entries", 0], 1, "board.json: bases[0].entries[0]"),
    # Appendix A's display fields, which the bot shows and the picture draws
    ("decks.json", ["decks", "power", "cards", 0, "title"], 5, "decks.json: decks.power.cards[0].title"),
    ("board.json", ["spaces", 0, "ring"], "middle", "board.json: spaces[0].ring"),
    ("board.json", ["spaces", 0, "draw"], [], "board.json: spaces[0].draw"),
    ("board.json", ["spaces", 0, "draw", "angle"], "north", "board.json: spaces[0].draw.angle"),
    ("catalogue.json", ["cities", 0, "name"], None, "catalogue.json: cities[0].name"),
    ("rules.json", ["house"], "yes", "rules.json.house"),
]


@pytest.mark.parametrize(("name", "path", "value", "message"), BROKEN, ids=[b[3] for b in BROKEN])
def test_a_broken_file_is_refused_naming_file_entry_and_field(name: str, path: list[Any], value: Any,
                                                             message: str) -> None:
    docs = copy.deepcopy(_docs())
    cur = docs[name]
    for key in path[:-1]:
        cur = cur[key]
    cur[path[-1]] = value
    with pytest.raises(ContentError) as info:
        validate(docs)
    assert str(info.value).startswith(message), str(info.value)


def test_a_file_that_cannot_be_written_back_is_refused(tmp_path: Path) -> None:
    for name in FILES:
        shutil.copy(CONTENT / name, tmp_path / name)
    board = (tmp_path / "board.json").read_text()
    (tmp_path / "board.json").write_text(board.replace('"oc-h1"', '"oc-\\ud800"', 1))
    with pytest.raises(ContentError, match=r"^board.json.id: not valid text"):
        GAME.with_content(str(tmp_path))
    (tmp_path / "board.json").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ContentError, match="^board.json: nested too deeply"):
        GAME.with_content(str(tmp_path))


def test_a_home_or_boss_space_outside_its_bases_entry_is_refused() -> None:
    docs = copy.deepcopy(_docs())
    home = next(sp for sp in docs["board.json"]["spaces"] if sp["kind"] == "home")
    docs["board.json"]["spaces"].append({**home, "id": "h9"})
    with pytest.raises(ContentError, match=r"^board.json: spaces: space 'h9' is a home space of base"):
        validate(docs)


def test_a_home_space_needs_its_three_edges() -> None:
    docs = copy.deepcopy(_docs())
    edges = docs["board.json"]["edges"]
    docs["board.json"]["edges"] = [e for e in edges if not (e["type"] == "boss" and e["a"] == "h2")]
    with pytest.raises(ContentError, match=r"board.json: bases\[2\]"):
        validate(docs)


def test_replacement_content_from_a_directory(tmp_path: Path) -> None:
    for name in FILES:
        shutil.copy(CONTENT / name, tmp_path / name)
    board = json.loads((tmp_path / "board.json").read_text())
    board["id"] = "club-board"
    (tmp_path / "board.json").write_text(json.dumps(board))
    decks = json.loads((tmp_path / "decks.json").read_text())
    decks["decks"]["power"]["cards"][0]["max"] = 2  # the club's PW01 hits one or two
    (tmp_path / "decks.json").write_text(json.dumps(decks))
    game = GAME.with_content(str(tmp_path))
    assert game.content.board_id == "club-board" and game.content.cards["PW01"].max == 2
    doc = json.loads((GOLDEN / "we_b.replay.json").read_text())
    doc["content"] = "club-board"
    assert game.replay(doc)["content"] == "club-board"
    with pytest.raises(Exception, match="^content"):
        GAME.replay(doc)  # the house board is not the file's


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    root = Path(__file__).resolve().parents[3]
    return subprocess.run([sys.executable, "-m", "rules", *args], capture_output=True, text=True, cwd=root, timeout=60)


def test_cli_replay_legal_and_content(tmp_path: Path) -> None:
    out = _cli("replay", str(GOLDEN / "we_b.replay.json"))
    assert out.returncode == 0 and json.loads(out.stdout)["format"] == "organizedcrime-result/1"
    legal = _cli("legal", str(GOLDEN / "we_a_green1.replay.json"), "--player", "green", "--content", str(CONTENT))
    assert legal.returncode == 0 and json.loads(legal.stdout)["actions"] == [{"act": "step", "to": "o01"}]
    bad = _cli("replay", str(GOLDEN / "s16_bad_shuffle.replay.json"))
    assert bad.returncode == 2 and bad.stderr.startswith("error: shuffles.power[0]")
    for name in FILES:
        shutil.copy(CONTENT / name, tmp_path / name)
    (tmp_path / "rules.json").write_text("{}")
    broken = _cli("replay", str(GOLDEN / "we_b.replay.json"), "--content", str(tmp_path))
    assert broken.returncode == 3 and broken.stderr.startswith("error: rules.json")
    other = tmp_path / "crimecity.json"
    other.write_text(json.dumps({"format": "crimecity-replay/1"}))
    crimecity = _cli("replay", str(other), "--content", str(CONTENT))
    assert crimecity.returncode == 2 and "no content to replace" in crimecity.stderr


def test_simulate_on_replacement_content(tmp_path: Path) -> None:
    # a host tuning a group's content judges it by simulating on it: its own player limits and board
    for name in FILES:
        shutil.copy(CONTENT / name, tmp_path / name)
    rules = json.loads((tmp_path / "rules.json").read_text())
    rules["players_max"] = 3
    (tmp_path / "rules.json").write_text(json.dumps(rules))
    board = json.loads((tmp_path / "board.json").read_text())
    board["id"] = "club-board"
    (tmp_path / "board.json").write_text(json.dumps(board))
    out = _cli("simulate", "--game", "organizedcrime", "--games", "6", "--seed", "2", "--content", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Organized Crime: 6 random games (board club-board,"), out.stdout
    assert "players: 2: 3, 3: 3\n" in out.stdout, out.stdout
    broken = _cli("simulate", "--game", "organizedcrime", "--games", "2", "--content", str(tmp_path / "none"))
    assert broken.returncode == 3 and broken.stdout == "" and broken.stderr.startswith("error: board.json: "), broken
