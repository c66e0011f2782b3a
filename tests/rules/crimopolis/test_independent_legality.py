"""The engine's legality against an independent reading of the spec (independent_legality.py): over seeded
random games, every `legal` action passes `check` and `step`, every candidate action (legal, mutated,
sent by the wrong seat, of the wrong decision) gets the refusal code replay.md's order requires, and the
hours follow the 7-hour budget's accounting (R31-R38)."""

from __future__ import annotations

from random import Random

import pytest

from tests.rules.crimopolis.independent_legality import drive, examples


@pytest.mark.parametrize("seed", range(6))
def test_engine_refusals_match_an_independent_reading_of_the_spec(seed: int) -> None:
    bad, stats = drive(seed, steps=300, sample=0.35)
    assert bad == [], bad[:5]
    # the run compared something of every family, so it cannot pass by comparing nothing
    assert stats["legal"] > 100 and stats["candidate"] > 100 and stats["mutated"] > 20
    assert stats["wrong_seat"] > 10 and stats["stepped"] > 20
    assert stats["hours:step"] > 50 and stats["hours:turn_start"] > 5


def test_refusals_match_once_the_tile_stack_is_empty() -> None:
    # a game that explores and does no jobs, so the stack runs out (R55, Q47) and the late city is checked
    bad, stats = drive(2, steps=1000, sample=0.05, explorer=True)
    assert bad == [], bad[:5]
    assert stats["state:stack_empty"] > 100 and stats["candidate"] > 500


def test_refusals_match_at_every_state_of_the_spec_scenarios() -> None:
    # the worked examples and scenarios reach corners random play seldom does (a full Headquarters,
    # over-occupation, two destinies, a bombed Headquarters); each of their states is probed
    bad, stats = examples(Random(0))
    assert bad == [], bad[:5]
    assert stats["files"] >= 30 and stats["recruit:capacity"] > 0 and stats["job:count"] > 0
