"""Independent reference implementation of the Crime City replay contract.

Written only from /work/shared/spec/crimecity-rulings.md (R1-R96, Q1-Q42, Appendix A) and
/work/shared/spec/replay.md, without looking at the project's ``rules`` package, so that the two can be
compared by ``tests/test_rules_differential.py``. It favours literalness over speed.

Entry points:
- ``replay(doc)``: the output of ``python -m rules replay`` for a parsed replay document;
- ``legal(doc, player)``: the output of ``python -m rules legal``;
- ``replay_state(doc)`` / ``legal_for_state(state, player)`` / ``validate(state, player, sub)``: helpers used
  by the differential test to generate realistic submissions.

Format errors (which the CLI turns into exit status 2) are raised as ``FormatError``; only the few that are
cheap to notice are detected, since the test feeds valid files.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

# --------------------------------------------------------------------------------------------------
# Identifiers (replay.md "Identifiers"; rulings Part 0)

POL, SEC, BAN, ARM, CLK, DET, GOV, DAU = (
    "policeman",
    "secretary",
    "banker",
    "armed_guard",
    "store_clerk",
    "detective",
    "governor",
    "governors_daughter",
)
CHARACTERS = [POL, SEC, BAN, ARM, CLK, DET, GOV, DAU]  # the rule book's order (Q30)

BR, HIT, PP, FR, MB = "bank_robber", "hitman", "pickpocket", "fraud", "mob_boss"
ROLES = [BR, HIT, PP, FR, MB]  # the rule book's order (Q30)
NONE = "none"

TH, MN, MS, BK = "town_hall", "mansion", "main_street", "bank"
LOCATIONS = [TH, MN, MS, BK]

# Part 2: TH=(0,0), MN=(0,1), MS=(1,0), BK=(1,1); (row, column).
COORD = {TH: (0, 0), MN: (0, 1), MS: (1, 0), BK: (1, 1)}
AT = {v: k for k, v in COORD.items()}

# R13
START_POSITIONS = {POL: TH, SEC: TH, BAN: BK, ARM: BK, CLK: MS, DET: MS, GOV: MN, DAU: MN}

# R10: the one role each character cannot hold (CLK: none).
FORBIDDEN_ROLE = {POL: BR, SEC: FR, BAN: BR, ARM: BR, CLK: None, DET: MB, GOV: HIT, DAU: HIT}

# replay.md: the ability's parameters. Secretary: exactly one of player / target.
ABILITY_PARAMS: dict[str, list[frozenset[str]]] = {
    POL: [frozenset({"target"})],
    SEC: [frozenset({"player"}), frozenset({"target"})],
    BAN: [frozenset()],
    ARM: [frozenset({"target"})],
    CLK: [frozenset({"target"})],
    DET: [frozenset({"target"})],
    GOV: [frozenset({"target", "destination"})],
    DAU: [frozenset()],
}

MESSAGES = {
    "malformed": "An action's fields do not fit its kind or ability.",
    "shape": "Submit two actions with at most one movement action, or one movement action only when no "
    "non-movement action is possible (R39).",
    "duplicate": "Two actions in one submission may not share a key (R40).",
    "cooldown": "That action was used on that character last round (R41).",
    "not_here": "The target is not at your character's location (R36).",
    "not_networked": "That character is not in your friendship network (R38).",
    "unavailable": "That ability cannot be used now (R37, R38).",
    "bad_target": "That target is not allowed.",
    "garnets": "Not enough garnets for these purchases (R63).",
    "guess": "The guess is not allowed or not complete (R42).",
}


class FormatError(ValueError):
    """The replay document does not follow the format (exit status 2 in the CLI)."""


def pair_key(a: str, b: str) -> str:
    """A friendship pair's id: the two character ids in alphabetical order joined by '+'."""
    x, y = sorted((a, b))
    return f"{x}+{y}"


def toggle(loc: str, h: int, v: int) -> str:
    """R17: H flips the column bit, V flips the row bit."""
    row, col = COORD[loc]
    return AT[(row ^ v, col ^ h)]


# --------------------------------------------------------------------------------------------------
# State


@dataclass
class State:
    players: list[str]
    seats: dict[str, tuple[str, str]]  # player -> (character, role)
    rounds_total: int
    round: int  # the round about to be played
    positions: dict[str, str]  # living characters only
    gov_alive: bool
    friendship: dict[str, int]  # pair_key -> points
    cooldowns: dict[str, set[str]]  # player -> keys forbidden this round
    garnets: dict[str, int]
    stolen: dict[str, set[str]] = field(default_factory=dict)
    bank_turns: dict[str, int] = field(default_factory=dict)
    fraud_stage: dict[str, int] = field(default_factory=dict)
    completed: dict[str, int] = field(default_factory=dict)
    over: bool = False

    def own(self, player: str) -> str:
        return self.seats[player][0]

    def role(self, player: str) -> str:
        return self.seats[player][1]

    def role_of_character(self, c: str) -> str:
        for char, role in self.seats.values():
            if char == c:
                return role
        return NONE

    def controller(self, c: str) -> str | None:
        for p, (char, _role) in self.seats.items():
            if char == c:
                return p
        return None

    def alive(self, c: str) -> bool:
        return c in self.positions


# --------------------------------------------------------------------------------------------------
# Draft (R6-R12, Q29, Q30)


def complete_ranking(given: list[str] | None, full: list[str]) -> list[str]:
    given = list(given or [])
    if len(set(given)) != len(given):
        raise FormatError("a ranking repeats a name")
    for x in given:
        if x not in full:
            raise FormatError(f"unknown name in ranking: {x}")
    return given + [x for x in full if x not in given]


def run_draft(doc: dict[str, Any], balances: dict[str, int]) -> tuple[dict[str, Any], dict[str, tuple[str, str]]]:
    players = doc["players"]
    placements = doc.get("placements")
    if placements is None or sorted(placements) != sorted(players):
        raise FormatError("placements")
    draft = doc["draft"]
    bids: dict[str, int] = {}
    role_rank: dict[str, list[str]] = {}
    char_rank: dict[str, list[str]] = {}
    for p in players:
        entry = draft.get(p)
        if entry is None:  # Q30: missed the draft: bid 0, the source's list order
            entry = {}
        bid = entry.get("bid", 0)
        if bid is None:
            bid = 0
        if not isinstance(bid, int) or bid < 0 or bid > balances[p]:
            raise FormatError(f"draft.{p}.bid")
        bids[p] = bid
        role_rank[p] = complete_ranking(entry.get("roles"), ROLES)
        char_rank[p] = complete_ranking(entry.get("characters"), CHARACTERS)

    # R7: higher bid first; ties by previous placement, better first (Q29).
    priority = sorted(players, key=lambda p: (-bids[p], placements.index(p)))

    # R9: serial allocation; role first, then the highest-ranked free compatible character.
    free_roles = list(ROLES)
    free_chars = list(CHARACTERS)
    seats: dict[str, tuple[str, str]] = {}
    for p in priority:
        role = next(r for r in role_rank[p] if r in free_roles)
        free_roles.remove(role)
        char = next(c for c in char_rank[p] if c in free_chars and FORBIDDEN_ROLE[c] != role)
        free_chars.remove(char)
        seats[p] = (char, role)

    # R12: bids are paid.
    for p in players:
        balances[p] -= bids[p]

    out = {
        "priority": priority,
        "seats": {p: {"character": seats[p][0], "role": seats[p][1]} for p in players},
        "unassigned": [c for c in CHARACTERS if c not in {s[0] for s in seats.values()}],
        "garnets": dict(balances),
    }
    return out, seats


def initial_state(doc: dict[str, Any]) -> tuple[State, dict[str, Any] | None]:
    players = list(doc["players"])
    if len(players) != 5 or len(set(players)) != 5:
        raise FormatError("players")
    rounds_total = doc.get("rounds_total", 6)
    if rounds_total is None:
        rounds_total = 6
    balances = {p: (doc.get("garnets") or {}).get(p, 0) for p in players}
    has_draft = doc.get("draft") is not None
    has_seats = doc.get("seats") is not None
    if has_draft == has_seats:
        raise FormatError("exactly one of draft and seats")
    if has_draft:
        draft_out, seats = run_draft(doc, balances)
    else:
        draft_out = None
        seats = {p: (doc["seats"][p]["character"], doc["seats"][p]["role"]) for p in players}

    start = doc.get("start") or {}
    gov_alive = start.get("governor_alive", True)
    if gov_alive is None:
        gov_alive = True
    if start.get("positions") is not None:
        positions = dict(start["positions"])
    else:
        positions = {c: loc for c, loc in START_POSITIONS.items() if gov_alive or c != GOV}
    friendship = {k: v for k, v in (start.get("friendship") or {}).items() if v}
    cooldowns = {p: set((start.get("cooldowns") or {}).get(p) or []) for p in players}
    progress = start.get("progress") or {}
    state = State(
        players=players,
        seats=seats,
        rounds_total=rounds_total,
        round=start.get("round", 1) or 1,
        positions=positions,
        gov_alive=gov_alive,
        friendship=friendship,
        cooldowns=cooldowns,
        garnets=balances,
        stolen={p: set((progress.get(p) or {}).get("stolen") or []) for p in players},
        bank_turns={p: (progress.get(p) or {}).get("bank_turns") or 0 for p in players},
        fraud_stage={p: (progress.get(p) or {}).get("fraud_stage") or 0 for p in players},
        completed=dict(start.get("completed") or {}),
    )
    return state, draft_out


# --------------------------------------------------------------------------------------------------
# Friendship network (R50-R60)


def network(state: State, c: str) -> set[str]:
    """The connected component of c in the S0 graph of edges >= 2 between living characters."""
    if not state.alive(c):
        return set()
    adj: dict[str, set[str]] = {x: set() for x in state.positions}
    for key, pts in state.friendship.items():
        if pts < 2:
            continue
        a, b = key.split("+")
        if a in adj and b in adj:
            adj[a].add(b)
            adj[b].add(a)
    seen = {c}
    todo = [c]
    while todo:
        x = todo.pop()
        for y in adj[x]:
            if y not in seen:
                seen.add(y)
                todo.append(y)
    return seen


# --------------------------------------------------------------------------------------------------
# Validation (R34-R49, replay.md "Edge cases")


def ability_owner(state: State, player: str, action: dict[str, Any]) -> str | None:
    if action.get("kind") == "ability":
        return state.own(player)
    if action.get("kind") == "friend":
        return action.get("friend")
    return None


def is_malformed(state: State, player: str, action: dict[str, Any]) -> bool:
    fields = set(action)
    kind = action.get("kind")
    if kind == "move":
        return fields != {"kind", "direction", "character"}
    if kind == "converse":
        return fields != {"kind", "character"}
    if kind == "ability":
        return frozenset(fields - {"kind"}) not in ABILITY_PARAMS[state.own(player)]
    if kind == "friend":
        if "friend" not in fields:
            return True
        return frozenset(fields - {"kind", "friend"}) not in ABILITY_PARAMS[action["friend"]]
    raise FormatError(f"unknown action kind {kind!r}")


def action_key(state: State, player: str, action: dict[str, Any]) -> str:
    kind = action["kind"]
    if kind == "move":
        return f"move:{action['character']}"
    if kind == "converse":
        return f"converse:{action['character']}"
    if kind == "ability":
        return f"ability:{state.own(player)}"
    return f"friend:{action['friend']}"


def action_code(state: State, player: str, action: dict[str, Any]) -> str | None:
    """Checks of one well-formed action, in replay.md's order: dead actor, network, the ability's own
    condition, the target, co-location, cooldown. Returns the refusal code or None."""
    own = state.own(player)
    pos = state.positions
    kind = action["kind"]

    if kind == "move":  # R35: any living character anywhere; no actor needed (Q27)
        if not state.alive(action["character"]):
            return "bad_target"
        if action_key(state, player, action) in state.cooldowns[player]:
            return "cooldown"
        return None

    # dead actor
    if not state.alive(own):
        return "unavailable"

    if kind == "converse":  # R36
        x = action["character"]
        if x == own or not state.alive(x):
            return "bad_target"
        if pos[x] != pos[own]:
            return "not_here"
        if action_key(state, player, action) in state.cooldowns[player]:
            return "cooldown"
        return None

    if kind == "friend":  # R38
        owner = action["friend"]
        if owner == GOV and not state.gov_alive:
            return "unavailable"  # the dead Governor's ability as a friend (R20)
        if owner == own or owner not in network(state, own):
            return "not_networked"
    else:
        owner = own

    # the ability's own condition (actor = own, Q7)
    if owner == BAN and pos[own] not in (TH, BK):
        return "unavailable"
    if owner == GOV and not state.gov_alive:
        return "unavailable"

    # the target
    target = action.get("target")
    if owner == POL:
        if not state.alive(target):
            return "bad_target"
    elif owner in (ARM, CLK):
        if target == own or not state.alive(target):
            return "bad_target"
    elif owner == GOV:
        if not state.alive(target) or action["destination"] == pos[target]:
            return "bad_target"

    # co-location on S0
    if owner in (POL, ARM, GOV) and pos[target] != pos[own]:
        return "not_here"

    if action_key(state, player, action) in state.cooldowns[player]:
        return "cooldown"
    return None


def guess_well_formed(guess: Any) -> bool:
    if not isinstance(guess, dict) or set(guess) != set(CHARACTERS):
        return False
    values = list(guess.values())
    return all(values.count(r) == 1 for r in ROLES) and values.count(NONE) == 3


def validate(state: State, player: str, sub: dict[str, Any]) -> str | None:
    """The refusal code of a submission, or None when it is accepted (replay.md "Edge cases")."""
    actions = sub.get("actions")
    if actions is None:
        raise FormatError("a submission needs actions")
    for a in actions:
        if is_malformed(state, player, a):
            return "malformed"
    n_moves = sum(1 for a in actions if a["kind"] == "move")
    if len(actions) == 0 or len(actions) > 2 or n_moves >= 2:
        return "shape"
    for a in actions:
        code = action_code(state, player, a)
        if code is not None:
            return code
    keys = [action_key(state, player, a) for a in actions]
    if len(set(keys)) != len(keys):
        return "duplicate"
    if len(actions) == 1:
        if actions[0]["kind"] != "move":
            return "shape"
        if has_legal_non_move(state, player):
            return "shape"
    guess = sub.get("guess")
    if guess is not None:
        if state.role(player) != MB or not guess_well_formed(guess):
            return "guess"
    buys = sub.get("buy") or []
    for pair in buys:
        if len(pair) != 2 or pair[0] == pair[1] or not state.alive(pair[0]) or not state.alive(pair[1]):
            return "bad_target"
    if 3 * len(buys) > state.garnets[player]:
        return "garnets"
    return None


# --------------------------------------------------------------------------------------------------
# Candidate actions and legality (Q22, replay.md "Output of legal")


def ability_variants(state: State, owner: str) -> list[dict[str, Any]]:
    """Every parameter combination of owner's ability, legal or not (identifiers only)."""
    if owner in (BAN, DAU):
        return [{}]
    if owner == SEC:
        return [{"player": p} for p in state.players] + [{"target": c} for c in CHARACTERS]
    if owner == GOV:
        return [{"target": c, "destination": d} for c in CHARACTERS for d in LOCATIONS]
    return [{"target": c} for c in CHARACTERS]


def move_candidates() -> list[dict[str, Any]]:
    return [{"kind": "move", "direction": d, "character": c} for c in CHARACTERS for d in ("horizontal", "vertical")]


def non_move_candidates(state: State, player: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"kind": "converse", "character": c} for c in CHARACTERS]
    for params in ability_variants(state, state.own(player)):
        out.append({"kind": "ability", **params})
    for f in CHARACTERS:
        for params in ability_variants(state, f):
            out.append({"kind": "friend", "friend": f, **params})
    return out


def has_legal_non_move(state: State, player: str) -> bool:
    return any(action_code(state, player, a) is None for a in non_move_candidates(state, player))


def legal_for_state(state: State, player: str) -> dict[str, Any]:
    moves = [a for a in move_candidates() if action_code(state, player, a) is None]
    non_moves = [a for a in non_move_candidates(state, player) if action_code(state, player, a) is None]
    actions = moves + non_moves
    actions.sort(key=lambda a: json.dumps(a, sort_keys=True))
    return {
        "round": state.round,
        "player": player,
        "single_move_only": not non_moves,
        "actions": actions,
    }


# --------------------------------------------------------------------------------------------------
# Resolution (Appendix A, R65-R83)


def resolve_round(state: State, accepted: dict[str, dict[str, Any]]) -> tuple[State, dict[str, Any]]:
    """Resolve one round. ``accepted``: player -> accepted submission. Returns the new state and the
    round's private results and new completions."""
    s0 = state
    new = copy.deepcopy(state)
    r = s0.round
    pos0 = s0.positions
    private: dict[str, list[dict[str, Any]]] = {p: [] for p in s0.players}

    uses: list[tuple[str, str, dict[str, Any]]] = []  # (player, ability owner, action)
    for p in s0.players:
        sub = accepted.get(p)
        if sub is None:
            continue
        for a in sub["actions"]:
            if a["kind"] in ("ability", "friend"):
                uses.append((p, ability_owner(s0, p, a), a))

    # Step 1: friendship and garnets
    for p in s0.players:
        sub = accepted.get(p)
        if sub is None:
            continue
        own = s0.own(p)
        for a in sub["actions"]:
            if a["kind"] == "converse":
                k = pair_key(own, a["character"])
                new.friendship[k] = new.friendship.get(k, 0) + 1
        for pair in sub.get("buy") or []:
            k = pair_key(pair[0], pair[1])
            new.friendship[k] = new.friendship.get(k, 0) + 1
            new.garnets[p] -= 3
    for p, owner, a in uses:
        if owner == CLK:
            k = pair_key(s0.own(p), a["target"])
            new.friendship[k] = new.friendship.get(k, 0) + 1

    # Step 2: information, in the order each player's actions were listed
    for p, owner, a in uses:
        if owner == DET:
            c = a["target"]
            private[p].append({"kind": "investigation", "character": c, "role": s0.role_of_character(c)})
        elif owner == SEC:
            if "player" in a:
                q = a["player"]
                private[p].append({"kind": "identification", "player": q, "character": s0.own(q)})
            else:
                c = a["target"]
                private[p].append({"kind": "identification", "player": s0.controller(c), "character": c})

    # Step 3: detain
    detained = {a["target"] for _p, owner, a in uses if owner == POL}

    # Step 4: sends (conflict rule R70)
    pos1 = dict(pos0)
    sends = [(a["target"], a["destination"]) for _p, owner, a in uses if owner == GOV]
    if sends and all(s == sends[0] for s in sends) and sends[0][0] not in detained:
        pos1[sends[0][0]] = sends[0][1]

    # Step 5: toggles
    n_h = {c: 0 for c in pos0}
    n_v = {c: 0 for c in pos0}
    diag = {c: 0 for c in pos0}
    for p in s0.players:
        sub = accepted.get(p)
        if sub is None:
            continue
        for a in sub["actions"]:
            if a["kind"] == "move":
                if a["direction"] == "horizontal":
                    n_h[a["character"]] += 1
                else:
                    n_v[a["character"]] += 1
    for p, owner, a in uses:
        if owner == BAN:
            diag[s0.own(p)] += 1
        elif owner == ARM:
            diag[a["target"]] += 1
    pos2 = {}
    for c in pos0:
        if c in detained:
            pos2[c] = pos0[c]
        else:
            pos2[c] = toggle(pos1[c], (n_h[c] + diag[c]) % 2, (n_v[c] + diag[c]) % 2)

    # Step 6: summon (conflict rule R72)
    summoned = GOV if s0.gov_alive else CLK
    dests = {pos2[s0.own(p)] for p, owner, _a in uses if owner == DAU}
    pos3 = dict(pos2)
    if len(dests) == 1 and summoned not in detained:
        pos3[summoned] = next(iter(dests))

    # Step 7: goals, all on pos3
    def at(loc: str) -> list[str]:
        return [c for c in pos3 if pos3[c] == loc]

    newly: list[str] = []
    for p in s0.players:
        if p in s0.completed:
            continue
        own, role = s0.seats[p]
        here = pos3.get(own)  # None when own is the dead Governor (R29)
        done = False
        if role == BR:
            if here == BK and pos3.get(ARM) != BK and pos3.get(POL) != BK:
                new.bank_turns[p] += 1
                if new.bank_turns[p] >= 2:
                    done = True
        elif role == HIT:
            if GOV in pos3 and here is not None and pos3[GOV] == here and len(at(here)) == 2:
                done = True
        elif role == PP:
            if here is not None:
                new.stolen[p] |= {c for c in at(here) if c != own}
                if len(new.stolen[p]) >= 4 and here == MS:
                    done = True
        elif role == FR:
            if here == TH:
                if pos3.get(SEC) == TH:
                    if s0.fraud_stage[p] and s0.fraud_stage[p] < r:
                        done = True
                elif not s0.fraud_stage[p]:
                    new.fraud_stage[p] = r
        elif role == MB:
            sub = accepted.get(p)
            guess = sub.get("guess") if sub is not None else None
            if guess is not None and all(guess[c] == s0.role_of_character(c) for c in CHARACTERS):
                done = True
        if done:
            newly.append(p)
            new.completed[p] = r
            private[p].append({"kind": "goal_complete", "role": role})

    # Step 8: death
    if any(s0.role(p) == HIT for p in newly):
        new.gov_alive = False
        pos3.pop(GOV, None)
    new.positions = pos3

    # Step 9: cooldown keys of accepted actions (R47)
    for p in s0.players:
        sub = accepted.get(p)
        new.cooldowns[p] = {action_key(s0, p, a) for a in sub["actions"]} if sub is not None else set()

    # Step 10: end check
    new.over = len(new.completed) >= 4 or r >= s0.rounds_total
    new.round = r + 1
    return new, {"private": {p: v for p, v in private.items() if v}, "newly": newly}


# --------------------------------------------------------------------------------------------------
# Results (R84-R96)


def results(state: State, ended_after_round: int) -> dict[str, Any]:
    players = state.players
    rounds_done = sorted(set(state.completed.values()))
    groups = [sorted(p for p in players if state.completed.get(p) == rr) for rr in rounds_done]

    # R91: awards by actual position
    awards = {p: 0 for p in players}
    earlier = 0
    base = {1: 15, 2: 10, 3: 7, 4: 4}
    for g in groups:
        pos = 1 + earlier
        b = base.get(pos, 0)
        amount = b - 2 if len(g) >= 2 else b
        for p in g:
            awards[p] = max(0, amount)
        earlier += len(g)
    final = {p: state.garnets[p] + awards[p] for p in players}

    # R84 re-classification (only when all 5 completed)
    counted_groups = list(groups)
    if len(state.completed) == 5:
        counted_groups = counted_groups[:-1]
    completers = {p for g in counted_groups for p in g}
    non = sorted(p for p in players if p not in completers)
    first = counted_groups[0] if counted_groups else []

    tol = sorted(first) if 1 <= len(first) <= 3 else []

    ec: str | None = None
    pending: dict[str, Any] | None = None
    if len(non) == 1:
        ec = non[0]
    elif len(non) in (2, 3):
        pending = {"deciders": sorted(first), "candidates": non, "unanimous": len(first) > 1}
    elif len(non) in (4, 5):
        low = min(final[p] for p in non)
        tied = sorted(p for p in non if final[p] == low)
        if len(tied) == 1:
            ec = tied[0]
        else:
            pending = {"deciders": sorted(players), "candidates": tied, "unanimous": True}
    return {
        "ended_after_round": ended_after_round,
        "completion_order": groups,
        "awards": awards,
        "final_garnets": final,
        "tol": tol,
        "ec": ec,
        "ec_pending": pending,
    }


# --------------------------------------------------------------------------------------------------
# Replay


def board_of(state: State) -> dict[str, list[str]]:
    return {loc: sorted(c for c, at_ in state.positions.items() if at_ == loc) for loc in LOCATIONS}


def play_round(state: State, subs: dict[str, Any]) -> tuple[State, dict[str, Any]]:
    rejected: dict[str, dict[str, str]] = {}
    accepted: dict[str, dict[str, Any]] = {}
    for p in state.players:
        sub = subs.get(p)
        if sub is None:
            continue
        code = validate(state, p, sub)
        if code is None:
            accepted[p] = sub
        else:
            rejected[p] = {"code": code, "message": MESSAGES[code]}
    r = state.round
    new, info = resolve_round(state, accepted)
    out = {
        "round": r,
        "rejected": rejected,
        "board": board_of(new),
        "dead": [] if new.gov_alive else [GOV],
        "friendship": {k: v for k, v in sorted(new.friendship.items()) if v >= 1},
        "private": info["private"],
        "completed": dict(new.completed),
        "garnets": dict(new.garnets),
        "cooldowns": {p: sorted(new.cooldowns[p]) for p in new.players},
    }
    return new, out


def replay_state(doc: dict[str, Any]) -> tuple[State, dict[str, Any]]:
    """Replay the whole document; returns the final state and the output JSON (as a dict)."""
    state, draft_out = initial_state(doc)
    rounds_out = []
    result = None
    for subs in doc.get("rounds") or []:
        if state.over:
            raise FormatError("rounds listed after the game has ended")
        if state.round > state.rounds_total:
            raise FormatError("rounds listed past rounds_total")
        state, out = play_round(state, subs or {})
        rounds_out.append(out)
        if state.over:
            result = results(state, out["round"])
    return state, {"format": "crimecity-result/1", "draft": draft_out, "rounds": rounds_out, "result": result}


def replay(doc: dict[str, Any]) -> dict[str, Any]:
    return replay_state(doc)[1]


def legal(doc: dict[str, Any], player: str) -> dict[str, Any]:
    state, _out = replay_state(doc)
    if state.over:
        raise FormatError("legal asked after the game has ended")
    if player not in state.players:
        raise FormatError("unknown player")
    return legal_for_state(state, player)
