"""Property tests over random legal games (hypothesis): invariants the rulings guarantee."""

from __future__ import annotations

import json
from random import Random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.crimecity import legal_actions, resolve_round, validate_submission, view_for
from rules.crimecity.draft import DraftSubmission, resolve_draft
from rules.crimecity.ids import CHARACTERS, LOCATIONS, ROLES
from rules.crimecity.replay import dumps, export_replay, run_replay, start_block
from rules.crimecity.simulate import PLAYERS, random_submission
from rules.crimecity.state import new_game

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(seed: int, rounds_total: int = 6):
    """A random legal game, keeping every intermediate state and every submission."""
    rng = Random(seed)
    bank = dict.fromkeys(PLAYERS, rng.randint(0, 12))
    draft = {}
    for p in PLAYERS:
        roles, chars = list(ROLES), list(CHARACTERS)
        rng.shuffle(roles)
        rng.shuffle(chars)
        draft[p] = DraftSubmission(rng.randint(0, bank[p]), tuple(roles[: rng.randint(0, 5)]), tuple(chars))
    res = resolve_draft(PLAYERS, draft, PLAYERS, bank)
    state = new_game(PLAYERS, res.seats, res.garnets, rounds_total)
    states, rounds = [state], []
    while not state.over:
        subs = {p: random_submission(state, p, rng, buy_rate=0.3) for p in PLAYERS if rng.random() < 0.95}
        for p, s in subs.items():
            assert validate_submission(state, p, s) is None
        state = resolve_round(state, subs).state
        states.append(state)
        rounds.append(subs)
    doc = export_replay(list(PLAYERS), rounds_total=rounds_total, garnets=bank, rounds=rounds,
                        placements=list(PLAYERS), draft=draft)
    return states, doc


@SETTINGS
@given(st.integers(0, 2**32), st.integers(1, 6))
def test_games_end_in_time_and_stay_on_the_board(seed: int, rounds_total: int) -> None:
    states, _ = play(seed, rounds_total)
    final = states[-1]
    assert final.over and len(states) - 1 <= rounds_total
    for s in states:
        assert set(s.positions.values()) <= set(LOCATIONS)
        assert ("governor" in {c.value for c in s.positions}) == s.governor_alive
        assert len(s.positions) == (8 if s.governor_alive else 7)


@SETTINGS
@given(st.integers(0, 2**32))
def test_points_never_decrease_and_completions_stay(seed: int) -> None:
    states, _ = play(seed)
    for a, b in zip(states, states[1:], strict=False):
        assert all(b.friendship.get(k, 0) >= v for k, v in a.friendship.items())
        assert all(b.completed.get(p) == r for p, r in a.completed.items())
        assert all(b.garnets[p] <= a.garnets[p] for p in PLAYERS)


@SETTINGS
@given(st.integers(0, 2**32))
def test_views_hold_no_other_seat(seed: int) -> None:
    states, _ = play(seed)
    for s in states:
        for p in PLAYERS:
            text = json.dumps(view_for(s, p))
            for q in PLAYERS:
                if q != p:
                    assert f'"{q}"' not in text
            assert view_for(s, p)["seat"]["role"] == s.role(p).value


@SETTINGS
@given(st.integers(0, 2**32))
def test_replay_is_byte_identical_and_matches_the_engine(seed: int) -> None:
    states, doc = play(seed)
    a, b = dumps(run_replay(doc)), dumps(run_replay(json.loads(json.dumps(doc))))
    assert a == b
    out = json.loads(a)
    assert all(r["rejected"] == {} for r in out["rounds"])
    assert out["rounds"][-1]["completed"] == states[-1].completed


@SETTINGS
@given(st.integers(0, 2**32), st.data())
def test_stop_and_continue_from_start_block(seed: int, data) -> None:
    states, doc = play(seed)
    k = data.draw(st.integers(0, len(doc["rounds"]) - 1))
    whole = run_replay(doc)
    cut = dict(doc)
    cut.pop("draft")
    cut.pop("placements")
    cut["seats"] = {p: {"character": s.character.value, "role": s.role.value} for p, s in states[0].seats.items()}
    cut["garnets"] = dict(states[k].garnets)
    cut["start"] = start_block(states[k])
    cut["rounds"] = doc["rounds"][k:]
    rest = run_replay(cut)
    assert rest["rounds"] == whole["rounds"][k:]
    assert rest["result"] == whole["result"]


@SETTINGS
@given(st.integers(0, 2**32))
def test_every_listed_legal_action_is_accepted_alone_or_paired(seed: int) -> None:
    states, _ = play(seed)
    from rules.crimecity import check_action

    for s in states[:-1]:
        for p in PLAYERS:
            for a in legal_actions(s, p):
                assert check_action(s, p, a) is None
