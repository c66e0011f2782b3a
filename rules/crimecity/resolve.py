"""Round resolution in the exact order of rulings R65-R78 (Appendix A).

A pure reducer: (S0, submissions) -> (new state, events). Invalid submissions are refused
here as well and resolve as no submission (R44).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .actions import ABILITY, CONVERSE, HORIZONTAL, MOVE, Action, Submission
from .errors import RuleError
from .events import PUBLIC, Event
from .ids import H_BIT, V_BIT, Character, Location, Role, pair_key, toggle
from .results import final_results
from .state import GameState, Progress
from .validate import BUY_COST, validate_submission
from .views import public_view

C = Character
END_COMPLETIONS = 4


@dataclass(slots=True)
class RoundResult:
    state: GameState
    events: list[Event]
    rejected: dict[str, RuleError] = field(default_factory=dict)


def _info(state: GameState, owner: Character, action: Action) -> dict[str, Any]:
    """Step 2: the static fact a Detective or Secretary ability reveals (Q36); `owner` is one of them."""
    if owner is C.DETECTIVE:
        assert action.target is not None, "the Detective's ability takes a target"
        return {"kind": "investigation", "character": action.target.value, "role": state.role_of(action.target).value}
    if action.player is not None:
        return {"kind": "identification", "player": action.player, "character": state.own(action.player).value}
    assert action.target is not None, "the Secretary's ability names a player or a target"
    return {"kind": "identification", "player": state.controller(action.target), "character": action.target.value}


def resolve_round(
    state: GameState, submissions: Mapping[str, Submission | None], *, trusted: bool = False, publish: bool = True
) -> RoundResult:
    """Resolve one round. `trusted=True` skips validation (for callers that already checked);
    `publish=False` skips the events (a computer player's search needs the new state only)."""
    if state.over:
        raise ValueError("the game is over")
    rejected: dict[str, RuleError] = {}
    subs: dict[str, Submission] = {}
    for p in state.players:
        sub = submissions.get(p)
        if sub is None:
            continue
        err = None if trusted else validate_submission(state, p, sub)
        if err is None:
            subs[p] = sub
        else:
            rejected[p] = err

    pos0 = state.positions
    friendship = dict(state.friendship)
    garnets = dict(state.garnets)
    private: dict[str, list[dict[str, Any]]] = {}
    detained: set[Character] = set()
    sends: list[tuple[Character, Location]] = []
    summoners: list[Character] = []
    h_count: dict[Character, int] = {}
    v_count: dict[Character, int] = {}
    diag: dict[Character, int] = {}
    cooldowns: dict[str, frozenset[str]] = {}

    for p in state.players:
        sub = subs.get(p)
        if sub is None:
            cooldowns[p] = frozenset()
            continue
        own = state.own(p)
        keys = []
        for a in sub.actions:
            keys.append(a.key(own))
            if a.kind == MOVE:
                assert a.character is not None, "a well-formed move names its character"
                counter = h_count if a.direction == HORIZONTAL else v_count
                counter[a.character] = counter.get(a.character, 0) + 1
                continue
            if a.kind == CONVERSE:  # step 1
                assert a.character is not None, "a well-formed conversation names its character"
                k = pair_key(own, a.character)
                friendship[k] = friendship.get(k, 0) + 1
                continue
            owner = own if a.kind == ABILITY else a.friend
            if owner is C.STORE_CLERK:  # step 1
                assert a.target is not None, "the Store Clerk's ability takes a target"
                k = pair_key(own, a.target)
                friendship[k] = friendship.get(k, 0) + 1
            elif owner is C.DETECTIVE or owner is C.SECRETARY:  # step 2
                private.setdefault(p, []).append(_info(state, owner, a))
            elif owner is C.POLICEMAN:  # step 3
                assert a.target is not None, "the Policeman's ability takes a target"
                detained.add(a.target)
            elif owner is C.GOVERNOR:
                assert a.target is not None and a.destination is not None, "the Governor's ability takes both"
                sends.append((a.target, a.destination))
            elif owner is C.BANKER:
                diag[own] = diag.get(own, 0) + 1
            elif owner is C.ARMED_GUARD:
                assert a.target is not None, "the Armed Guard's ability takes a target"
                diag[a.target] = diag.get(a.target, 0) + 1
            elif owner is C.GOVERNORS_DAUGHTER:
                summoners.append(own)
        for x, y in sub.buys:  # step 1
            k = pair_key(x, y)
            friendship[k] = friendship.get(k, 0) + 1
        garnets[p] -= BUY_COST * len(sub.buys)
        cooldowns[p] = frozenset(keys)  # step 9 (R47): kept whatever the outcome

    # Step 4: the Governor's send, cancelled unless every send is the same (R70, Q17).
    pos1 = dict(pos0)
    if sends and all(s == sends[0] for s in sends):
        target, dest = sends[0]
        if target not in detained:
            pos1[target] = dest
    # Step 5: toggles by parity (R71); a detained character stays where it was at S0.
    pos2 = {}
    for c, loc in pos1.items():
        if c in detained:
            pos2[c] = pos0[c]
            continue
        d = diag.get(c, 0)
        mask = (H_BIT if (h_count.get(c, 0) + d) & 1 else 0) | (V_BIT if (v_count.get(c, 0) + d) & 1 else 0)
        pos2[c] = toggle(loc, mask) if mask else loc
    # Step 6: the Daughter's summon to the summoner's new place (R72, Q18).
    pos3 = pos2
    if summoners:
        summoned = C.GOVERNOR if state.governor_alive else C.STORE_CLERK
        dests = {pos2[s] for s in summoners}
        if len(dests) == 1 and summoned not in detained:
            pos3 = dict(pos2)
            pos3[summoned] = dests.pop()

    # Step 7: goals on the end-of-round board, all at once (R73).
    rnd = state.round
    completed = dict(state.completed)
    progress = dict(state.progress)
    newly: list[str] = []
    by_place: dict[Location, list[Character]] = {}
    for c, loc in pos3.items():
        by_place.setdefault(loc, []).append(c)
    for p in state.players:
        if p in completed:
            continue
        role = state.role(p)
        own = state.own(p)
        pr = progress.get(p) or Progress()
        done = False
        if role is Role.MOB_BOSS:
            sub = subs.get(p)
            if sub is not None and sub.guess is not None:
                done = all(sub.guess[c] is state.role_of(c) for c in sub.guess)
        elif own in pos3:
            here = pos3[own]
            people = by_place[here]
            if role is Role.BANK_ROBBER:
                if here is Location.BANK and C.ARMED_GUARD not in people and C.POLICEMAN not in people:
                    pr = Progress(pr.stolen, pr.bank_turns + 1, pr.fraud_stage)
                    done = pr.bank_turns >= 2
            elif role is Role.HITMAN:
                done = state.governor_alive and len(people) == 2 and C.GOVERNOR in people
            elif role is Role.PICKPOCKET:
                stolen = pr.stolen.union(c for c in people if c is not own)
                if stolen != pr.stolen:
                    pr = Progress(frozenset(stolen), pr.bank_turns, pr.fraud_stage)
                done = len(stolen) >= 4 and here is Location.MAIN_STREET
            elif role is Role.FRAUD and here is Location.TOWN_HALL:
                if C.SECRETARY not in people:
                    if pr.fraud_stage == 0:
                        pr = Progress(pr.stolen, pr.bank_turns, rnd)
                elif 0 < pr.fraud_stage < rnd:
                    done = True
        progress[p] = pr
        if done:
            completed[p] = rnd
            newly.append(p)
            private.setdefault(p, []).append({"kind": "goal_complete", "role": role.value})

    # Step 8: the Hitman's success kills the Governor after every goal check (R74, R80).
    governor_alive = state.governor_alive
    if governor_alive and any(state.role(p) is Role.HITMAN for p in newly):
        governor_alive = False
        pos3 = {c: loc for c, loc in pos3.items() if c is not C.GOVERNOR}

    over = len(completed) >= END_COMPLETIONS or rnd >= state.rounds_total  # step 10
    new_state = state.with_changes(
        round=rnd if over else rnd + 1,
        positions=pos3,
        governor_alive=governor_alive,
        friendship=friendship,
        cooldowns=cooldowns,
        garnets=garnets,
        progress=progress,
        completed=completed,
        over=over,
    )
    # Step 11: publish.
    if not publish:
        return RoundResult(new_state, [], rejected)
    board = public_view(new_state)
    board["round"] = rnd
    events = [Event(PUBLIC, "board", board)]
    for p in state.players:
        for item in private.get(p, ()):
            events.append(Event(p, item["kind"], item))
    if over:
        events.append(Event(PUBLIC, "game_over", final_results(new_state).to_json()))
    return RoundResult(new_state, events, rejected)
