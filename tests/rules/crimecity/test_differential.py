"""Differential test: the rules engine against an independent reference implementation.

tests/reference/crimecity_ref.py implements replay.md's ``replay`` and ``legal`` outputs straight from the
spec (rulings R1-R96, Q1-Q42, Appendix A). tests/reference/generate.py makes random but realistic replay
documents: drafts and seat files, mid-game starts, mostly legal submissions with a share of deliberately
illegal ones (every refusal code), buys and Mob Boss guesses. Both implementations must agree field by field.

bench/differential.py runs many more cases and prints the mismatch count.
"""

from __future__ import annotations

import copy
import os

import pytest

from rules.crimecity.replay import legal_for, run_replay
from tests.support.reference import crimecity_ref as R
from tests.support.reference.generate import check_case, compare_legal, compare_replay

N_CASES = int(os.environ.get("DIFF_CASES", "2000"))  # bench/differential.py runs 20,000
CHUNK = 250


@pytest.mark.parametrize("first", range(0, N_CASES, CHUNK))
def test_engine_matches_reference(first: int) -> None:
    failures = {}
    for seed in range(first, first + CHUNK):
        diffs = check_case(seed, run_replay, legal_for)
        if diffs:
            failures[seed] = diffs[:5]
    assert not failures, "\n".join(f"seed {s}: {d}" for s, d in list(failures.items())[:10])


def _seats_doc(rounds: list[dict], start: dict | None = None) -> dict:
    seats = {
        "andy": ("detective", "pickpocket"),
        "grunkle": ("banker", "mob_boss"),
        "cara": ("secretary", "hitman"),
        "dev": ("governor", "bank_robber"),
        "eve": ("armed_guard", "fraud"),
    }
    doc = {
        "format": "crimecity-replay/1",
        "players": list(seats),
        "garnets": {"andy": 6, "grunkle": 3, "cara": 3, "dev": 9, "eve": 3},
        "seats": {p: {"character": c, "role": r} for p, (c, r) in seats.items()},
        "rounds": rounds,
    }
    if start is not None:
        doc["start"] = start
    return doc


def _truth() -> dict[str, str]:
    return {
        "policeman": "none",
        "secretary": "hitman",
        "banker": "mob_boss",
        "armed_guard": "fraud",
        "store_clerk": "none",
        "detective": "pickpocket",
        "governor": "bank_robber",
        "governors_daughter": "none",
    }


def _mv(c: str, d: str = "vertical") -> dict:
    return {"kind": "move", "direction": d, "character": c}


def _cv(c: str) -> dict:
    return {"kind": "converse", "character": c}


# Hand-made endings that random play rarely reaches: all five complete (R84 re-classification), four complete
# first together (R86: ToLs void), and a tie for the lowest balance among 5 non-completers (R89, Q33).
_POS = {
    "policeman": "town_hall",
    "secretary": "mansion",
    "banker": "bank",
    "armed_guard": "bank",
    "store_clerk": "main_street",
    "detective": "main_street",
    "governor": "mansion",
    "governors_daughter": "town_hall",
}
HANDMADE = {
    # Round 3: Cara's Secretary ends alone with the Governor (Hitman) and Grunkle guesses right (Mob Boss).
    "all_five_complete": _seats_doc(
        [{"grunkle": {"actions": [_mv("policeman"), _cv("armed_guard")], "guess": _truth()}}],
        start={"round": 3, "completed": {"andy": 1, "eve": 2, "dev": 2}, "positions": _POS},
    ),
    # Round 2: Hitman, Bank Robber (second turn), Pickpocket (4th steal at Main Street) and Mob Boss together.
    "four_first_together": _seats_doc(
        [
            {
                "grunkle": {
                    "actions": [_cv("policeman"), _mv("governors_daughter", "horizontal")],
                    "guess": _truth(),
                }
            }
        ],
        start={
            "round": 2,
            "positions": {
                **_POS,
                "secretary": "bank",
                "governor": "bank",
                "banker": "town_hall",
                "armed_guard": "mansion",
                "governors_daughter": "mansion",
            },
            "progress": {
                "andy": {"stolen": ["armed_guard", "banker", "policeman"], "bank_turns": 0, "fraud_stage": 0},
                "dev": {"stolen": [], "bank_turns": 1, "fraud_stage": 0},
            },
        },
    ),
    "nobody_completes_tie": _seats_doc([{}], start={"round": 6}),
    "mob_boss_alone": _seats_doc([{"grunkle": {"actions": [_mv("policeman"), _cv("armed_guard")], "guess": _truth()}}]),
}


@pytest.mark.parametrize("name", sorted(HANDMADE))
def test_handmade_endings(name: str) -> None:
    doc = HANDMADE[name]
    diffs = compare_replay(run_replay(copy.deepcopy(doc)), R.replay(copy.deepcopy(doc)))
    assert not diffs, diffs
    state, _ = R.replay_state(copy.deepcopy(doc))
    if not state.over:
        assert not compare_legal(legal_for(copy.deepcopy(doc), "andy"), R.legal(copy.deepcopy(doc), "andy"))
