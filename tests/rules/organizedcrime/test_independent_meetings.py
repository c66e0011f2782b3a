"""Organized Crime's Commission Meetings, votes, money and the end, cross-checked against an independent model.

`independent_oc` recomputes from the spec (rulings R13-R128, B.5-B.7, errata) and the content files what every
step of a seeded random legal game must do, and compares it with the engine's events and views field by field:
vote entitlements and voting order (R77-R78, R93), who is awaited (open and sealed ballots, R121), ballots and
results (R79-R80, ties), the Marker after a carried vote (R74), the penalty window and the order of its meetings
(R84-R86), money and debts with their events in order (B.5, E1, E2), income (R14, R31, R33), the refusal codes of
the meeting, vote and money acts (replay.md), the round cap's standing and the results (R127, E39).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.rules.organizedcrime.independent_oc import Divergence, play, play_seeds, settings_for

# Seeds 0-15, plus games found to reach rarer paths: two penalty meetings in one turn (47, 74, 82), a Marker placed
# during the session (77), a missed penalty choice (195).
SEEDS = [*range(16), 47, 74, 77, 82, 195]


def test_random_games_agree_with_the_independent_model_of_meetings_and_money() -> None:
    seen = play_seeds(SEEDS)
    # What was compared (so that the test cannot pass by checking nothing).
    for what, least in {"vote_called": 40, "ballot_for": 30, "ballot_against": 30, "ballot_abstain": 30,
                        "carried": 15, "rejected": 8, "tie": 5, "meeting_acquisition": 15, "meeting_penalty": 20,
                        "acquired_city_vote": 1, "acquired_illegal_vote": 1, "acquired_city_first": 10,
                        "marker_waits": 1, "placement_lapsed": 1, "placed_in_session": 1, "sealed_timeout": 2,
                        "ballots_revealed": 5,
                        "penalty_window": 30, "queue": 2, "penalty_choice_default": 1, "income": 100,
                        "gave_money": 10, "debt": 50, "debt_paid": 100, "debt_settled": 10, "debt_transferred": 5,
                        "E1_payback": 10, "over_round_cap": 2, "over_last_survivor": 2, "over_host": 1,
                        "probe": 10000}.items():
        assert seen.get(what, 0) >= least, (what, seen.get(what, 0))


def _tampered(seed: int, tamper: Any) -> None:
    players, settings = settings_for(seed)
    play(seed, players, settings, tamper=tamper)


def _first(kind: str, change: Any) -> Any:
    done: list[bool] = []

    def tamper(events: list[dict[str, Any]], after: dict[str, Any]) -> None:
        for e in events:
            if e["kind"] == kind and not done:
                change(e, after)
                done.append(True)
    return tamper


def _flip(e: dict[str, Any], after: dict[str, Any]) -> None:
    e["carried"] = not e["carried"]


def _more_votes(e: dict[str, Any], after: dict[str, Any]) -> None:
    first = next(iter(e["entitlements"]))
    e["entitlements"][first] += 1


def _reverse(e: dict[str, Any], after: dict[str, Any]) -> None:
    e["order"] = list(reversed(e["order"]))


def _income(e: dict[str, Any], after: dict[str, Any]) -> None:
    after["players"][e["player"]]["money"] += 10000


def _debt_order(e: dict[str, Any], after: dict[str, Any]) -> None:
    e["left"] += 10000


@pytest.mark.parametrize("kind, change, rule", [
    ("vote_result", _flip, "R80"),
    ("vote_called", _more_votes, "R77"),
    ("vote_called", _reverse, "R78"),
    ("income", _income, "B.5 money"),
    ("debt_paid", _debt_order, "B.5/E1/E2"),
])
def test_the_model_catches_a_planted_error(kind: str, change: Any, rule: str) -> None:
    with pytest.raises(Divergence, match=rule):
        _tampered(2, _first(kind, change))
