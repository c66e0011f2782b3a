"""Organized Crime's decks and cards, cross-checked against an independent model (see test_independent_meetings).

At every step of seeded random legal games `independent_oc` follows each deck's face-down count and face-up pile
and every hand from the spec alone: draws take a face-down card (R113), a reshuffle happens only when a draw finds
none and turns over exactly the face-up cards (R114, Q31), used cards go face up to the bottom (R115: Hit and Money
cards, a Corrupt Official used for a purchase, Mistake and Penalty cards as shown, vote-limit cards when they expire),
each Mistake card's effect and its cancelling offices (R64, Q40), each Penalty card's effect (R87-R93), card gifts
(R83) and the cards of an eliminated player (R104-R106: to the attacker, or to the bottoms in ascending id order).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.rules.organizedcrime.independent_oc import Divergence, play, play_seeds, settings_for

# Seeds 100-115, plus games found to reshuffle the Power (47, 254), Corrupt Official (586) and Mistake (83) decks.
SEEDS = [*range(100, 116), 47, 83, 254, 586]


def test_random_games_agree_with_the_independent_model_of_the_decks() -> None:
    seen = play_seeds(SEEDS)
    for what, least in {"drew_power": 100, "drew_official": 50, "bought_power": 30, "bought_official": 10,
                        "cashed": 30, "gave_card": 20, "mistake_removed": 20, "mistake_fine": 30,
                        "mistake_avoided": 3, "penalty_remove_offender": 3, "penalty_remove_hitmen": 3,
                        "penalty_pay_caller": 2, "penalty_lose_official_votes": 3, "limit_expired": 3,
                        "penalty_choice_made": 1, "reshuffle_power": 2, "reshuffle_official": 1,
                        "reshuffle_mistake": 1, "eliminated_rubout": 10, "eliminated_mistake": 3,
                        "eliminated_failed_attack": 1, "eliminated_penalty": 1}.items():
        assert seen.get(what, 0) >= least, (what, seen.get(what, 0))


def _tamper_first(kind: str, change: Any) -> Any:
    done: list[bool] = []

    def tamper(events: list[dict[str, Any]], after: dict[str, Any]) -> None:
        for e in events:
            if e["kind"] == kind and not done and change(e, after) is not False:
                done.append(True)
    return tamper


def _avoid(e: dict[str, Any], after: dict[str, Any]) -> None:
    e["avoided"] = not e["avoided"]


def _keep_card(e: dict[str, Any], after: dict[str, Any]) -> None:
    after["decks"]["power"]["discard"].pop()


def _longer_limit(e: dict[str, Any], after: dict[str, Any]) -> bool:
    if e["card"] not in ("PN10", "PN11", "PN12"):
        return False  # not a vote-limit card: wait for one
    for lim in after["players"][e["player"]]["limits"]:
        lim["turns_left"] += 1
    return True


def _no_shuffle(e: dict[str, Any], after: dict[str, Any]) -> None:
    e["cards"] += 1


@pytest.mark.parametrize("seed, kind, change, rule", [
    (100, "mistake", _avoid, "R64/Q40"),
    (100, "cashed", _keep_card, "R113-R117"),
    (11, "penalty_card", _longer_limit, "R93"),
    (47, "shuffled", _no_shuffle, "R114"),
])
def test_the_model_catches_a_planted_error(seed: int, kind: str, change: Any, rule: str) -> None:
    players, settings = settings_for(seed)
    with pytest.raises(Divergence, match=rule):
        play(seed, players, settings, tamper=_tamper_first(kind, change))
