"""Every decision a computer player makes is legal: full seeded games of mixed levels, the draft, the
rounds and the EC choice, each move checked by `game.check` before the host applies it."""

from __future__ import annotations

from dataclasses import replace
from random import Random

import pytest

from rules.contract import Action, Event, SeededChance
from rules.crimecity.game import EC, Match
from rules.crimecity.players.drafting import ec_move
from rules.players import make, registered
from tests.support.computer_players import GAME, recorded_game

LEVELS = ("random", "strong")


def _mixed(seed: int) -> list[str]:
    rng = Random(seed)
    return [LEVELS[rng.randrange(2)] for _ in range(5)]


@pytest.mark.parametrize("seed", range(6))
def test_mixed_levels_play_legal_games_to_the_end(seed: int) -> None:
    # tournament.play checks every move with game.check and raises Refused for a refused one
    state, decisions = recorded_game(_mixed(seed), f"legal:{seed}")
    assert GAME.results(state) is not None and GAME.pending(state) is None
    kinds = {d.pending.decision for d in decisions}
    assert {"draft", "round"} <= kinds
    for d in decisions:
        if d.pending.decision in ("draft", "round"):
            assert d.move is not None, "an awaited seat must always submit"
            assert d.move["kind"] == d.pending.decision


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6, 60))
def test_many_more_mixed_games_are_legal(seed: int) -> None:
    state, _ = recorded_game(_mixed(seed), f"legal:{seed}", draft_by="random" if seed % 2 else None)
    assert GAME.results(state) is not None


def _ec_state(deciders: int = 1) -> Match:
    """The first all-random game (by seed) that stops for an EC decision of at least `deciders` deciders."""
    for seed in range(200):
        entry = registered("crimecity")
        chance = SeededChance(f"ec:{seed}")
        state = GAME.setup([f"p{i}" for i in range(1, 6)], entry.setup_for({"garnets": 10}, "x"), chance).state
        rng = Random(seed)
        while state.phase != "over":
            pending = GAME.pending(state)
            if state.phase == EC and len(state.results["ec_pending"]["deciders"]) >= deciders:
                return state
            actions = [Action(s, m) for s in pending.awaited if (m := GAME.random_move(state, s, rng)) is not None]
            state = GAME.step(state, actions, chance).state
    raise AssertionError("no EC decision in 200 random games")


@pytest.mark.parametrize("level", LEVELS)
def test_the_ec_choice_is_a_legal_vote_and_only_deciders_vote(level: str) -> None:
    state = _ec_state()
    pending = GAME.pending(state)
    ec = state.results["ec_pending"]
    seen = [Event.to(list(ec["deciders"]), "ec_decide", {"candidates": ec["candidates"], "unanimous": ec["unanimous"]})]
    player = make("crimecity", level)
    for seat in state.players:
        move = player.decide(GAME.view(state, seat), pending, seen if seat in ec["deciders"] else [], Random(1))
        if seat in pending.awaited:
            assert move is not None and GAME.check(state, seat, move) is None
            assert move["player"] in ec["candidates"]
        else:
            assert move is None


def test_strong_deciders_agree_so_a_unanimous_choice_comes_at_once() -> None:

    results = Event.public("results", {"results": {"final_garnets": {"p1": 4, "p2": 2, "p3": 2}}})
    picks = {ec_move([results], order)["player"] for order in (["p1", "p2", "p3"], ["p3", "p1", "p2"])}
    assert picks == {"p2"}  # fewest garnets, then by name: the same whoever asks


def test_the_host_settles_only_a_deadlock() -> None:
    state = _ec_state(deciders=2)
    entry = registered("crimecity")
    deciders, candidates = state.results["ec_pending"]["deciders"], state.results["ec_pending"]["candidates"]
    assert len(candidates) >= 2
    assert entry.settle(state, Random(0)) is None  # nobody has voted yet
    agreed = replace(state, ec_votes=dict.fromkeys(deciders, candidates[0]))
    assert entry.settle(agreed, Random(0)) is None
    split = replace(state, ec_votes={d: candidates[i % 2] for i, d in enumerate(deciders)})
    host = entry.settle(split, Random(0))
    assert host is not None and host.by is None and GAME.check(split, None, host.move) is None
    assert host.move["player"] in candidates[:2]
