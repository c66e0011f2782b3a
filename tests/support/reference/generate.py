"""Random but realistic Crime City replay documents, and a field-by-field comparison of two outputs.

Used by tests/test_rules_differential.py and bench/differential.py. Legal-ish submissions are built from the
reference implementation's own legality (tests/reference/crimecity_ref.py); a share of them is deliberately
broken so that every refusal code is exercised.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from random import Random
from typing import Any

from tests.support.reference import crimecity_ref as R

NAME_POOL = ["andy", "grunkle", "cara", "dev", "eve", "Zed", "alice", "bob", "mallory", "x", "Ünal", "the host"]

# ----------------------------------------------------------------------------------------------------------
# Set-up


def random_seats(rng: Random) -> dict[str, str]:
    """character -> role for the 5 roles, respecting R10."""
    while True:
        chars = rng.sample(R.CHARACTERS, 5)
        roles = rng.sample(R.ROLES, 5)
        if all(R.FORBIDDEN_ROLE[c] != r for c, r in zip(chars, roles, strict=True)):
            return dict(zip(chars, roles, strict=True))


def random_draft(rng: Random, players: list[str], balances: dict[str, int]) -> dict[str, Any]:
    draft: dict[str, Any] = {}
    for p in players:
        if rng.random() < 0.1:
            continue  # missed the draft (Q30)
        bal = balances.get(p, 0)
        bid = rng.choice([0, 0, 1, bal, rng.randint(0, bal), rng.randint(0, bal)])
        bid = min(bid, bal)
        n_roles = rng.choice([0, 1, 2, 3, 5, 5, 5])
        n_chars = rng.choice([0, 1, 3, 5, 8, 8, 8])
        draft[p] = {
            "bid": bid,
            "roles": rng.sample(R.ROLES, n_roles),
            "characters": rng.sample(R.CHARACTERS, n_chars),
        }
    return draft


def random_positions(rng: Random, alive: list[str], seat_of: dict[str, str]) -> dict[str, str]:
    """Random or goal-friendly positions for the living characters."""
    style = rng.random()
    pos = {c: rng.choice(R.LOCATIONS) for c in alive}
    if style < 0.2 and R.GOV in alive:  # Hitman alone with the Governor
        hit = next((c for c, r in seat_of.items() if r == R.HIT), None)
        if hit is not None and hit in alive:
            loc = rng.choice(R.LOCATIONS)
            others = [x for x in R.LOCATIONS if x != loc]
            pos = {c: rng.choice(others) for c in alive}
            pos[hit] = loc
            pos[R.GOV] = loc
    elif style < 0.4:  # a crowd in Main Street (pickpockets)
        for c in alive:
            if rng.random() < 0.6:
                pos[c] = R.MS
    elif style < 0.5:  # everyone in one place
        loc = rng.choice(R.LOCATIONS)
        pos = dict.fromkeys(alive, loc)
    return pos


def random_start(rng: Random, players: list[str], seats: dict[str, tuple[str, str]], rounds_total: int) -> dict:
    """A mid-game ``start`` block that is consistent with the seats."""
    rnd = rng.randint(1, rounds_total)
    start: dict[str, Any] = {"round": rnd}
    seat_of = dict(seats.values())  # character -> role
    hit_player = next(p for p, (_c, r) in seats.items() if r == R.HIT)
    gov_alive = True
    completed: dict[str, int] = {}
    if rnd > 1 and rng.random() < 0.35:
        # finale: two or three players already done, the rest close to their goals
        for p in rng.sample(players, rng.choice([2, 3, 3])):
            completed[p] = rng.randint(1, rnd - 1)
        if hit_player in completed:
            gov_alive = False
    elif rnd > 1:
        if rng.random() < 0.3:
            gov_alive = False
            completed[hit_player] = rng.randint(1, rnd - 1)
        for p in rng.sample(players, rng.choice([0, 0, 1, 2])):
            if p == hit_player and gov_alive:
                continue
            if len(completed) < 3:
                completed[p] = rng.randint(1, rnd - 1)
    alive = [c for c in R.CHARACTERS if gov_alive or c != R.GOV]
    if rng.random() < 0.85:
        start["positions"] = random_positions(rng, alive, seat_of)
    if not gov_alive or rng.random() < 0.5:
        start["governor_alive"] = gov_alive
    if rng.random() < 0.8:
        fr: dict[str, int] = {}
        for _ in range(rng.randint(0, 8)):
            a, b = rng.sample(R.CHARACTERS, 2)
            fr[R.pair_key(a, b)] = rng.choice([1, 1, 2, 2, 2, 3, 5])
        start["friendship"] = fr
    if rnd > 1 and rng.random() < 0.7:
        cds: dict[str, list[str]] = {}
        for p in players:
            own = seats[p][0]
            pool = [f"move:{c}" for c in R.CHARACTERS] + [f"converse:{c}" for c in R.CHARACTERS if c != own]
            pool += [f"ability:{own}"] + [f"friend:{c}" for c in R.CHARACTERS if c != own]
            cds[p] = sorted(rng.sample(pool, rng.choice([0, 1, 2, 2])))
        start["cooldowns"] = cds
    if rnd > 1 and rng.random() < 0.7:
        prog: dict[str, Any] = {}
        for p in players:
            own, role = seats[p]
            entry = {"stolen": [], "bank_turns": 0, "fraud_stage": 0}
            if role == R.PP and (own in alive):
                others = [c for c in R.CHARACTERS if c != own]
                entry["stolen"] = sorted(rng.sample(others, rng.randint(0, 5)))
            if role == R.BR and p not in completed:
                entry["bank_turns"] = rng.choice([0, 1, 1, 2])
            if role == R.FR and p not in completed and rng.random() < 0.6:
                entry["fraud_stage"] = rng.randint(1, rnd - 1)
            prog[p] = entry
        start["progress"] = prog
    if completed:
        start["completed"] = completed
    return start


# ----------------------------------------------------------------------------------------------------------
# Submissions


def _n_candidates_any(st: R.State, p: str) -> list[dict[str, Any]]:
    return R.move_candidates() + R.non_move_candidates(st, p)


def random_guess(rng: Random, st: R.State, mode: str) -> dict[str, str]:
    truth = {c: st.role_of_character(c) for c in R.CHARACTERS}
    if mode == "truth":
        return truth
    if mode == "swap":
        g = dict(truth)
        a, b = rng.sample([c for c in R.CHARACTERS if g[c] != R.NONE], 2)
        g[a], g[b] = g[b], g[a]
        return g
    values = R.ROLES + [R.NONE] * 3
    rng.shuffle(values)
    return dict(zip(R.CHARACTERS, values, strict=True))


def malformed_action(rng: Random, st: R.State, p: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
    own = st.own(p)
    kind = rng.choice(["extra", "missing", "sec_both", "sec_neither", "friend_missing"])
    if kind == "sec_both":
        base = {"target": rng.choice(R.CHARACTERS), "player": rng.choice(st.players)}
        if own == R.SEC or rng.random() < 0.5:
            return {"kind": "ability", **base} if own == R.SEC else {"kind": "friend", "friend": R.SEC, **base}
        return {"kind": "friend", "friend": R.SEC, **base}
    if kind == "sec_neither":
        return {"kind": "ability"} if own == R.SEC else {"kind": "friend", "friend": R.SEC}
    if kind == "friend_missing":
        return {"kind": "friend", "target": rng.choice(R.CHARACTERS)}
    a = copy.deepcopy(rng.choice(legal))
    if kind == "extra":
        extra = rng.choice(["target", "destination", "player", "character", "direction"])
        if extra in a:
            a["note"] = "x"
        elif extra == "target" or extra == "character":
            a[extra] = rng.choice(R.CHARACTERS)
        elif extra == "destination":
            a[extra] = rng.choice(R.LOCATIONS)
        elif extra == "player":
            a[extra] = rng.choice(st.players)
        else:
            a[extra] = rng.choice(["horizontal", "vertical"])
        return a
    removable = [k for k in a if k != "kind"]
    if not removable:
        a["target"] = rng.choice(R.CHARACTERS)
        return a
    del a[rng.choice(removable)]
    return a


ILLEGAL_KINDS = [
    "empty",
    "three",
    "two_moves",
    "single_non_move",
    "single_move",
    "random_candidate",
    "random_candidate",
    "cooldown",
    "duplicate",
    "malformed",
    "dead_gov",
    "friend_outside",
    "converse_far",
    "bad_guess",
    "unaffordable",
    "bad_buy",
]


def legal_submission(rng: Random, st: R.State, p: str, lg: dict[str, Any]) -> dict[str, Any]:
    moves = [a for a in lg["actions"] if a["kind"] == "move"]
    nons = [a for a in lg["actions"] if a["kind"] != "move"]
    if lg["single_move_only"]:
        return {"actions": [rng.choice(moves)]}
    if rng.random() < 0.5:
        n1 = rng.choice(nons)
        k1 = R.action_key(st, p, n1)
        rest = [a for a in nons if R.action_key(st, p, a) != k1]
        if rest:
            acts = [n1, rng.choice(rest)]
            rng.shuffle(acts)
            return {"actions": acts}
    acts = [rng.choice(moves), rng.choice(nons)]
    rng.shuffle(acts)
    return {"actions": acts}


def biased_submission(rng: Random, st: R.State, p: str, lg: dict[str, Any]) -> dict[str, Any] | None:
    """A legal submission that pushes a goal forward: it tries candidate pairs and keeps one that helps."""
    own, role = st.seats[p]
    if not st.alive(own) or lg["single_move_only"]:
        return None
    moves = [a for a in lg["actions"] if a["kind"] == "move"]
    nons = [a for a in lg["actions"] if a["kind"] != "move"]
    targets = {R.BR: R.BK, R.PP: R.MS, R.FR: R.TH}
    if role == R.HIT and st.gov_alive:
        sends = [a for a in nons if a.get("destination") and a.get("target") in (own, R.GOV)]
        if sends:
            return {"actions": [rng.choice(sends), rng.choice(moves)]}
        summons = [a for a in nons if R.ability_owner(st, p, a) == R.DAU]
        if summons:
            return {"actions": [rng.choice(summons), rng.choice(moves)]}
        return None
    want = targets.get(role)
    if want is None:
        return None
    here = st.positions[own]
    if here == want:
        non = rng.choice(nons)
        if role == R.PP:
            pos = [a for a in nons if a["kind"] == "converse"]
            non = rng.choice(pos) if pos else non
        rest = [a for a in nons if R.action_key(st, p, a) != R.action_key(st, p, non)]
        if rest:
            return {"actions": [non, rng.choice(rest)]}
        return None
    r0, c0 = R.COORD[here]
    r1, c1 = R.COORD[want]
    good = [
        a
        for a in moves
        if a["character"] == own
        and ((a["direction"] == "vertical" and r0 != r1 and c0 == c1) or (a["direction"] == "horizontal" and c0 != c1))
    ]
    if not good:
        return None
    return {"actions": [rng.choice(good), rng.choice(nons)]}


def illegal_submission(rng: Random, st: R.State, p: str, lg: dict[str, Any], kind: str) -> dict[str, Any]:
    own = st.own(p)
    moves = [a for a in lg["actions"] if a["kind"] == "move"]
    nons = [a for a in lg["actions"] if a["kind"] != "move"]
    anyc = _n_candidates_any(st, p)
    base = legal_submission(rng, st, p, lg)
    acts = base["actions"]
    if kind == "empty":
        return {"actions": []}
    if kind == "three":
        extra = [rng.choice(anyc) for _ in range(3 - len(acts) + rng.randint(0, 1))]
        return {"actions": acts + extra}
    if kind == "two_moves":
        a, b = rng.sample(R.move_candidates(), 2)
        return {"actions": [a, b]}
    if kind == "single_non_move":
        return {"actions": [rng.choice(nons or anyc[16:])]}
    if kind == "single_move":
        return {"actions": [rng.choice(moves)]}
    if kind == "cooldown":
        on_cd = [a for a in anyc if R.action_key(st, p, a) in st.cooldowns[p]]
        if on_cd:
            acts[rng.randrange(len(acts))] = rng.choice(on_cd)
        return {"actions": acts}
    if kind == "duplicate":
        a = rng.choice(acts)
        same = [b for b in anyc if R.action_key(st, p, b) == R.action_key(st, p, a)]
        return {"actions": [a, rng.choice(same)]}
    if kind == "malformed":
        acts[rng.randrange(len(acts))] = malformed_action(rng, st, p, lg["actions"])
        return {"actions": acts}
    if kind == "dead_gov":
        choices = [
            {"kind": "move", "direction": rng.choice(["horizontal", "vertical"]), "character": R.GOV},
            {"kind": "converse", "character": R.GOV},
            {"kind": "friend", "friend": R.GOV, "target": own, "destination": rng.choice(R.LOCATIONS)},
            {"kind": "friend", "friend": R.ARM, "target": R.GOV},
            {"kind": "friend", "friend": R.POL, "target": R.GOV},
            {"kind": "friend", "friend": R.CLK, "target": R.GOV},
        ]
        if own in (R.ARM, R.POL, R.CLK):
            choices.append({"kind": "ability", "target": R.GOV})
        acts[rng.randrange(len(acts))] = rng.choice(choices)
        return {"actions": acts}
    if kind == "friend_outside":
        fr = [a for a in anyc if a["kind"] == "friend"]
        acts[rng.randrange(len(acts))] = rng.choice(fr)
        return {"actions": acts}
    if kind == "converse_far":
        acts[rng.randrange(len(acts))] = {"kind": "converse", "character": rng.choice(R.CHARACTERS)}
        return {"actions": acts}
    if kind == "bad_guess":
        if st.role(p) == R.MB:
            g = random_guess(rng, st, "truth")
            if rng.random() < 0.5:
                del g[rng.choice(R.CHARACTERS)]
            else:
                g[rng.choice(R.CHARACTERS)] = rng.choice(R.ROLES + [R.NONE])
            base["guess"] = g
        else:
            base["guess"] = random_guess(rng, st, rng.choice(["truth", "random"]))
        return base
    if kind == "unaffordable":
        n = st.garnets[p] // 3 + 1
        alive = sorted(st.positions)
        base["buy"] = [rng.sample(alive, 2) for _ in range(n)]
        return base
    if kind == "bad_buy":
        alive = sorted(st.positions)
        c = rng.choice(R.CHARACTERS)
        pair = rng.choice([[c, c], [R.GOV, rng.choice(alive)], rng.sample(alive, 2)])
        base["buy"] = [rng.sample(alive, 2) for _ in range(rng.randint(0, 1))] + [pair]
        return base
    # random_candidate
    acts[rng.randrange(len(acts))] = rng.choice(anyc)
    return {"actions": acts}


def random_submission(rng: Random, st: R.State, p: str, illegal_rate: float) -> dict[str, Any] | None:
    lg = R.legal_for_state(st, p)
    if rng.random() < illegal_rate:
        sub = illegal_submission(rng, st, p, lg, rng.choice(ILLEGAL_KINDS))
    else:
        sub = None
        if rng.random() < 0.45:
            sub = biased_submission(rng, st, p, lg)
        if sub is None:
            sub = legal_submission(rng, st, p, lg)
        if rng.random() < 0.12:
            alive = sorted(st.positions)
            n = rng.randint(1, 3) if rng.random() < 0.2 else rng.randint(0, min(3, st.garnets[p] // 3))
            sub["buy"] = [rng.sample(alive, 2) for _ in range(n)]
    if st.role(p) == R.MB and "guess" not in sub and rng.random() < 0.4:
        sub["guess"] = random_guess(rng, st, rng.choice(["truth", "truth", "swap", "random"]))
    # optional fields: missing, null or present
    if "buy" not in sub and rng.random() < 0.3:
        sub["buy"] = [] if rng.random() < 0.5 else None
    if "guess" not in sub and rng.random() < 0.3:
        sub["guess"] = None
    return sub


# ----------------------------------------------------------------------------------------------------------
# Whole case


def random_case(seed: int) -> tuple[dict[str, Any], str | None]:
    """A replay document and, when its game is not over, a player to ask ``legal`` about."""
    rng = Random(seed)
    players = rng.sample(NAME_POOL, 5)
    balances = {p: rng.choice([0, 0, 3, 5, 9, 10, 20, 30, 100]) for p in players}
    doc: dict[str, Any] = {"format": "crimecity-replay/1", "players": players}
    if rng.random() < 0.3:
        doc["rounds_total"] = rng.randint(1, 6)
    rounds_total = doc.get("rounds_total", 6)
    if rng.random() < 0.9:
        doc["garnets"] = {p: b for p, b in balances.items() if b or rng.random() < 0.5}
    else:
        balances = dict.fromkeys(players, 0)
    if rng.random() < 0.55:
        placements = list(players)
        rng.shuffle(placements)
        doc["placements"] = placements
        doc["draft"] = random_draft(rng, players, balances)
    else:
        by_char = random_seats(rng)
        chars = list(by_char)
        rng.shuffle(chars)
        doc["seats"] = {p: {"character": c, "role": by_char[c]} for p, c in zip(players, chars, strict=True)}
    if rng.random() < 0.3:
        st0, _ = R.initial_state(doc)
        doc["start"] = random_start(rng, players, st0.seats, rounds_total)
    doc["rounds"] = []
    st, _ = R.initial_state(doc)
    illegal_rate = rng.choice([0.0, 0.1, 0.2, 0.35])
    while not st.over and st.round <= st.rounds_total:
        if rng.random() < 0.08:
            break
        subs: dict[str, Any] = {}
        for p in players:
            x = rng.random()
            if x < 0.04:
                continue
            if x < 0.06:
                subs[p] = None
                continue
            subs[p] = random_submission(rng, st, p, illegal_rate)
        doc["rounds"].append(subs)
        st, _out = R.play_round(st, subs)
    ask = rng.choice(players) if not st.over and st.round <= st.rounds_total else None
    return doc, ask


# ----------------------------------------------------------------------------------------------------------
# Comparison

ROUND_FIELDS = ["round", "rejected", "board", "dead", "friendship", "private", "completed", "garnets", "cooldowns"]
RESULT_FIELDS = ["ended_after_round", "completion_order", "awards", "final_garnets", "tol", "ec", "ec_pending"]
DRAFT_FIELDS = ["priority", "seats", "unassigned", "garnets"]


def _norm_rejected(rej: Any) -> Any:
    if not isinstance(rej, dict):
        return rej
    return {p: (v.get("code") if isinstance(v, dict) else v) for p, v in rej.items()}


def compare_replay(engine: dict[str, Any], ref: dict[str, Any]) -> list[str]:
    """Differences between two ``replay`` outputs, as 'path: engine=... ref=...' strings."""
    diffs: list[str] = []

    def d(path: str, a: Any, b: Any) -> None:
        if a != b:
            diffs.append(f"{path}: engine={json.dumps(a, sort_keys=True)} ref={json.dumps(b, sort_keys=True)}")

    ed, rd = engine.get("draft"), ref.get("draft")
    if ed is None or rd is None:
        d("draft", ed, rd)
    else:
        for f in DRAFT_FIELDS:
            d(f"draft.{f}", ed.get(f), rd.get(f))
    er, rr = engine.get("rounds") or [], ref.get("rounds") or []
    d("len(rounds)", len(er), len(rr))
    for i, (a, b) in enumerate(zip(er, rr, strict=False)):
        for f in ROUND_FIELDS:
            if f == "rejected":
                d(f"rounds[{i}].rejected", _norm_rejected(a.get(f)), _norm_rejected(b.get(f)))
            else:
                d(f"rounds[{i}].{f}", a.get(f), b.get(f))
    eres, rres = engine.get("result"), ref.get("result")
    if eres is None or rres is None:
        d("result", eres, rres)
    else:
        for f in RESULT_FIELDS:
            d(f"result.{f}", eres.get(f), rres.get(f))
    return diffs


def compare_legal(engine: dict[str, Any], ref: dict[str, Any]) -> list[str]:
    diffs = []
    for f in ["round", "player", "single_move_only"]:
        if engine.get(f) != ref.get(f):
            diffs.append(f"legal.{f}: engine={engine.get(f)!r} ref={ref.get(f)!r}")
    ea = [json.dumps(a, sort_keys=True) for a in engine.get("actions", [])]
    ra = [json.dumps(a, sort_keys=True) for a in ref.get("actions", [])]
    if ea != ra:
        only_e = sorted(set(ea) - set(ra))
        only_r = sorted(set(ra) - set(ea))
        diffs.append(
            f"legal.actions: only engine={only_e[:6]} only ref={only_r[:6]} order_differs={set(ea) == set(ra)}"
        )
    return diffs


def check_case(seed: int, run_replay: Any, legal_for: Any) -> list[str]:
    """Run one generated case through both implementations; return the differences."""
    doc, ask = random_case(seed)
    ref = R.replay(copy.deepcopy(doc))
    try:
        eng = run_replay(copy.deepcopy(doc))
    except Exception as exc:  # any engine failure is a mismatch
        return [f"engine raised {type(exc).__name__}: {exc}"]
    diffs = compare_replay(eng, ref)
    if ask is not None:
        ref_l = R.legal(copy.deepcopy(doc), ask)
        try:
            eng_l = legal_for(copy.deepcopy(doc), ask)
        except Exception as exc:
            return diffs + [f"engine legal_for raised {type(exc).__name__}: {exc}"]
        diffs += compare_legal(eng_l, ref_l)
    return diffs


def coverage(seeds: range) -> Counter:
    """What the generated cases exercise (refusal codes, completions by role, endings), per the reference."""
    c: Counter = Counter()
    for seed in seeds:
        doc, ask = random_case(seed)
        out = R.replay(doc)
        c["draft" if doc.get("draft") is not None else "seats"] += 1
        if "start" in doc:
            c["start"] += 1
        for rnd in out["rounds"]:
            for v in rnd["rejected"].values():
                c["code:" + v["code"]] += 1
            for entries in rnd["private"].values():
                for e in entries:
                    if e["kind"] == "goal_complete":
                        c["complete:" + e["role"]] += 1
            if rnd["dead"]:
                c["gov_dead_rounds"] += 1
        res = out["result"]
        if res is None:
            c["unfinished"] += 1
        else:
            c[f"ended_after_{res['ended_after_round']}"] += 1
            c[f"completers_{sum(len(g) for g in res['completion_order'])}"] += 1
            c["ec_decided" if res["ec"] else "ec_pending"] += 1
            if res["tol"]:
                c["tol"] += 1
        if ask:
            c["legal_asked"] += 1
    return c
