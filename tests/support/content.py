"""A group's own content for both games (CRIMECITY_CONTENT), made from copies of the house content."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

OC_BOARD = "gotham-1"
CP_PACK = "gotham-pack"
HALL = "Gotham Hall"  # o02's name on the group's board (the house board calls it State Government)
JOB = "Rob the Gotham Mint"  # J01's title in the group's pack


def copy_house(game: str, into: Path) -> Path:
    into.mkdir(parents=True)
    for entry_ in resources.files(f"rules.{game}").joinpath("content").iterdir():
        if entry_.name.endswith(".json"):
            (into / entry_.name).write_text(entry_.read_text(encoding="utf-8"), encoding="utf-8")
    return into


def edit(path: Path, change: Any) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(json.dumps(doc), encoding="utf-8")


def group_content(root: Path) -> Path:
    """A group's content for both games: a renamed board with one space moved, a pack with a job renamed."""
    oc = copy_house("organizedcrime", root / "organizedcrime")

    def board(doc: dict[str, Any]) -> None:
        doc["id"] = OC_BOARD
        spaces = {s["id"]: s for s in doc["spaces"]}
        spaces["o02"]["name"] = HALL
        spaces["o01"]["draw"]["angle"] += 2

    edit(oc / "board.json", board)
    cp = copy_house("crimopolis", root / "crimopolis")
    edit(cp / "pack.json", lambda doc: doc.update(id=CP_PACK))
    edit(cp / "jobs.json", lambda doc: doc["jobs"][0].update(title=JOB))
    return root


OTHER_BOARD = "gotham-2"


def other_board(root: Path) -> Path:
    """Organized Crime on a board of another shape: one more outer space (x1, a Power space) between o00 and o01."""
    oc = copy_house("organizedcrime", root / "organizedcrime")

    def board(doc: dict[str, Any]) -> None:
        doc["id"] = OTHER_BOARD
        doc["spaces"].append({"id": "x1", "kind": "power", "ring": "outer", "quadrant": 0, "name": "Back Alley",
                              "draw": {"angle": 94.5, "radius": 1.0}})
        edges = [e for e in doc["edges"] if (e["a"], e["b"]) != ("o00", "o01")]
        assert len(edges) == len(doc["edges"]) - 1
        doc["edges"] = [*edges, {"a": "o00", "b": "x1", "type": "ring"}, {"a": "x1", "b": "o01", "type": "ring"}]

    edit(oc / "board.json", board)
    return root
