"""Helpers of the Crimopolis tests: golden files, replays with changed steps, and quick lookups."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from rules.crimopolis.game import GAME

GOLDEN = Path(__file__).resolve().parent / "golden"
CONTENT = GAME.content


def golden(name: str) -> dict[str, Any]:
    """A golden input file (a copy of spec/crimopolis/examples) by its stem, e.g. `we02_carry`."""
    return json.loads((GOLDEN / f"{name}.replay.json").read_text())


def with_steps(doc: dict[str, Any], steps: list[dict[str, Any]], keep: int | None = None) -> dict[str, Any]:
    """The file with its first `keep` steps (all: None) followed by `steps`."""
    out = copy.deepcopy(doc)
    out["steps"] = (out["steps"] if keep is None else out["steps"][:keep]) + steps
    return out


def act(player: str, kind: str, **fields: Any) -> dict[str, Any]:
    fields = {k.rstrip("_"): v for k, v in fields.items()}  # from_ -> from
    return {"player": player, "action": {"kind": kind, **fields}}


def replay(doc: dict[str, Any]) -> dict[str, Any]:
    return GAME.replay(doc)


def legal(doc: dict[str, Any], player: str) -> dict[str, Any]:
    return GAME.legal(doc, player)


def events(step: dict[str, Any], *kinds: str) -> list[dict[str, Any]]:
    """The step's events of the given kinds (all if none given)."""
    return [e for e in step["events"] if not kinds or e["kind"] in kinds]


def strip(e: dict[str, Any]) -> dict[str, Any]:
    """An event without its audience (most expectations of rulings.md name public events)."""
    return {k: v for k, v in e.items() if k != "audience"}


def final(out: dict[str, Any]) -> dict[str, Any]:
    return out["steps"][-1]["state"] if out["steps"] else out["initial"]["state"]


def gangsters_of(state: dict[str, Any], player: str) -> dict[str, int]:
    """Where a player's gangsters are: location id -> count."""
    out = {}
    city = state["city"]
    for where in ("blocks", "streets"):
        for loc, v in city[where].items():
            if player in v["gangsters"]:
                out[loc] = v["gangsters"][player]
    return out


def refused(out: dict[str, Any]) -> list[str | None]:
    return [None if s["refused"] is None else s["refused"]["code"] for s in out["steps"]]
