"""Every worked example and scenario of rulings.md (and replay.md's example, as the errata correct it), replayed
from its golden file and compared field by field with what the spec states (golden/*.expect.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules.contract import FormatError
from rules.organizedcrime.game import GAME

GOLDEN = Path(__file__).resolve().parent / "golden"
NAMES = sorted(p.name[: -len(".replay.json")] for p in GOLDEN.glob("*.replay.json"))


def _at(doc: Any, path: str) -> Any:
    for part in path.split("."):
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def _events(out: dict[str, Any], check: dict[str, Any]) -> list[dict[str, Any]]:
    if "prelude" in check or "prelude_event" in check:
        return list(out["prelude"])
    return list(out["log"][check["log"]]["events"])


def _check(out: dict[str, Any], doc: dict[str, Any], check: dict[str, Any]) -> None:
    if "kinds" in check or "prelude" in check:
        want = check.get("kinds", check.get("prelude"))
        assert [e["kind"] for e in _events(out, check)] == want
    elif "event" in check or "prelude_event" in check:
        kind = check.get("event", check.get("prelude_event"))
        found = [e for e in _events(out, check) if e["kind"] == kind]
        nth = check.get("nth", 0)
        assert len(found) > nth, f"no {kind} event #{nth}"
        event = found[nth]
        for key, value in check["fields"].items():
            assert event.get(key, "<missing>") == value, (kind, key, event)
        if "audience" in check:
            assert event["audience"] == check["audience"]
    elif "refused" in check:
        refused = out["log"][check["log"]]["refused"]
        assert refused is not None and refused["code"] == check["refused"], refused
        assert out["log"][check["log"]]["events"] == []
    elif "turns" in check:
        turn = out["turns"][check["turns"]]
        if "equals_field" in check:
            assert {k: turn[k] for k in check["equals_field"]} == check["equals_field"]
        else:
            assert _at(turn["state"], check["state"]) == check["equals"]
    elif "state" in check:
        assert _at(out["state"], check["state"]) == check["equals"]
    elif "hands" in check:
        assert out["hands"][check["hands"]] == check["equals"]
    elif "pending" in check:
        assert out["pending"] == check["pending"]
    elif "result" in check:
        if check["result"] is None:
            assert out["result"] is None
        else:
            assert _at(out["result"], check["result"]) == check["equals"]
    elif "setup" in check:
        assert out["setup"] == check["setup"]
    elif "legal" in check:
        got = GAME.legal(doc, check["legal"])
        if "only" in check:
            got["actions"] = [a for a in got["actions"] if a["act"] == check["only"]]
        for key in ("actions", "destinations", "decision"):
            if key in check:
                assert got[key] == check[key], key
    else:
        raise AssertionError(f"unknown check {check}")


@pytest.mark.parametrize("name", NAMES)
def test_golden_case(name: str) -> None:
    doc = json.loads((GOLDEN / f"{name}.replay.json").read_text())
    expect = json.loads((GOLDEN / f"{name}.expect.json").read_text())
    errors = [c for c in expect if "format_error" in c]
    if errors:
        with pytest.raises(FormatError) as info:
            GAME.replay(doc)
        assert str(info.value).startswith(errors[0]["format_error"]), str(info.value)
        return
    out = GAME.replay(doc)
    for check in expect:
        _check(out, doc, check)


def test_every_case_is_in_the_golden_directory() -> None:
    from .cases import all_cases

    assert sorted(name for name, _, _ in all_cases()) == NAMES
    assert len(NAMES) >= 60
