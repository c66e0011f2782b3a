"""What the cards do, against an independent reading of the spec (independent_effects.py): over seeded random
games biased towards jobs, fortunes, investing, aborting and redrawing, after every step that moves cards the
engine's hands, decks, destinies, supplies, prestige, body counts, gangsters, hours and next decision equal
the spec's; at the end, each player's hidden-fortune score is the endgame sum of the fortunes held (R103c)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from random import Random
from typing import Any

import pytest

from rules.contract import Action, SeededChance
from rules.crimopolis.game import GAME
from rules.crimopolis.legal import legal_actions
from tests.rules.crimopolis.independent_effects import Model, diff, event_diff, view_diff
from tests.rules.crimopolis.independent_legality import FORTUNE

CARD_STEPS = ("job", "fortune", "invest", "abort", "keep", "redraw", "target", "react")
VARIANTS: list[dict[str, Any]] = [{}, {"variant": "lucky_speed"}, {"gangsters": 5}, {"variant": "deeper_strategy"}]


def _choose(rng: Random, state: Any, seat: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
    kinds = {a["kind"] for a in legal}
    if "react" in kinds:  # defend half the time when an Alibi is held
        cards = [a for a in legal if a["card"] is not None]
        return rng.choice(cards) if cards and rng.random() < 0.5 else {"kind": "react", "card": None}
    r = rng.random()
    for kind, p in (("job", 0.6), ("fortune", 0.35), ("redraw", 0.5), ("invest", 0.25), ("abort", 0.05)):
        opts = [a for a in legal if a["kind"] == kind]
        if opts and r < p:
            if kind == "job":  # prefer jobs played with fortunes
                with_f = [a for a in opts if a.get("fortunes")]
                opts = with_f if with_f and rng.random() < 0.6 else opts
            return dict(rng.choice(opts))
    move = GAME.random_move(state, seat, rng)
    if move is None or move.get("kind") == "timeout":  # defaults are the legality cross-check's business
        return dict(rng.choice(legal))
    return dict(move)


def checked_step(model: Model, state: Any, seat: str, a: dict[str, Any], chance: Any, bad: list[Any]) -> Any:
    """Steps `a` and compares the engine's state after it with the model's; returns the new state."""
    pre = GAME.encode_state(state)
    view = GAME.view(state, None)
    pend = pre["pending"] or {}
    mine: dict[str, Any] | None = None
    if a["kind"] in CARD_STEPS:
        mine = model.predict(pre, view, seat, a)
    elif a["kind"] == "timeout" and seat == pre["active"] and pend.get("kind") in ("keep", "target", "react"):
        mine = model.predict_timeout(pre, view, seat)
    elif a["kind"] == "timeout" and pend.get("kind") == "react":  # another's window: no reaction (R109)
        model.count("timeout:react")
        mine = model.predict(pre, view, seat, {"kind": "react", "card": None})
    elif a["kind"] in ("end", "timeout") and pend.get("kind") == "turn" and seat == pre["active"]:
        mine = dict(copy.deepcopy(pre), expect=("turn", pre["active"]))
        model.ending = True
    else:
        model.ctx, model.ending = None, False  # not followed (setup, moves, a timeout at another's window)
    out = GAME.step(state, [Action(seat, a)], chance)
    state = out.state
    post = GAME.encode_state(state)
    events = [(e.kind, e.data) for e in out.events]
    sent = [x for k, x in events if k == "sent_home"]
    if sent:  # E1, R97.10: the sections of the job's block in ascending string order, one event each
        model.count("sent_home_events")
        if [x["from"] for x in sent] != sorted({x["from"] for x in sent}):
            bad.append(("E1 sent_home order", seat, [x["from"] for x in sent], events))
    if mine is None:
        return state
    d: list[str] = []
    starts = [i for i, (k, _) in enumerate(events) if k == "turn_start"]
    ended = any(k == "game_end" for k, _ in events)
    done = mine["expect"][0] == "turn" and model.ctx is None  # no decision of the turn is left
    if model.ending and done:
        if not (starts or ended):
            d.append("R38: the turn did not end after the timeout")
        model.ending = False
    elif starts or ended:
        d.append("the turn ended although a decision of it was left")
    if starts:
        i = starts[0]
        new = events[i][1]["player"]
        mine = model.turn_start(dict(mine, active=new), new, events[i][1]["hours"])
        mine["expect"] = ("turn", new)
        got = [(x["amount"], x["hours"]) for k, x in events[i:] if k == "hours"]
        if got != mine["hours_events"]:
            d.append(f"hours events: spec {mine['hours_events']} engine {got}")
    paused = model.ctx["job"] if model.ctx is not None and model.ctx["what"] == "job" else None
    d += diff(mine, post, paused) + view_diff(mine, GAME.view(state, None), paused is not None)
    d += event_diff(pre, mine, events)
    if d:
        bad.append((a, seat, d, events))
    return state


def play(seed: int, steps: int = 900) -> tuple[list[Any], dict[str, int]]:
    rng = Random(seed)
    seats = tuple(f"p{i}" for i in range(1, 2 + seed % 4 + 1))
    chance = SeededChance(f"xfx-{seed}")
    state = GAME.setup(seats, VARIANTS[seed % 4], chance).state
    model = Model()
    bad: list[Any] = []
    for _ in range(steps):
        pend = GAME.pending(state)
        if pend is None:
            break
        seat = pend.awaited[0]
        legal = legal_actions(GAME.content, state, seat)
        kind = GAME.view(state, None)["pending"]["kind"]
        active = GAME.view(state, None)["turn"]["player"] if kind != "setup_hq" and kind != "setup_tile" else None
        r = rng.random()
        if (seat == active and (r < 0.02 or (kind in ("keep", "target") and r < 0.25))) or (
            kind == "react" and r < 0.25
        ):
            a: dict[str, Any] = {"kind": "timeout"}
        else:
            a = _choose(rng, state, seat, legal)
        state = checked_step(model, state, seat, a, chance, bad)
        if bad:  # the model no longer follows the engine's state: stop this game
            return bad, model.counts
    res = GAME.results(state)
    if GAME.pending(state) is None and res is not None:
        final = GAME.encode_state(state)
        for p in seats:
            model.count("scored")
            want = sum(FORTUNE[c]["endgame"] for c in final["pl"][p]["fortunes"])
            if want:
                model.count("scored:fortunes")
            got = res["scores"][p]["fortunes"]
            if got != want:
                bad.append(("R103c", p, want, got))
    return bad, model.counts


SEEDS = range(40)


@pytest.fixture(scope="module")
def runs() -> tuple[list[Any], dict[str, int]]:
    bad: list[Any] = []
    total: dict[str, int] = {}
    for seed in SEEDS:
        b, counts = play(seed)
        bad += [(seed, *x) for x in b]
        for k, v in counts.items():
            total[k] = total.get(k, 0) + v
    return bad, total


def test_card_effects_match_an_independent_reading_of_the_spec(runs: tuple[list[Any], dict[str, int]]) -> None:
    bad, _ = runs
    assert bad == [], bad[:3]


def test_every_effect_kind_was_checked(runs: tuple[list[Any], dict[str, int]]) -> None:
    # so that the comparison cannot pass by checking nothing: every design of the house pack, every effect
    # kind, both answers of a reaction window, destinies executed, and the final fortune scores
    _, c = runs
    for key in (
        "job",
        "job:takeover",
        "invest",
        "abort",
        "keep",
        "redraw",
        "target",
        "react:none",
        "react:defend",
        "destiny_placed",
        "destiny:sabotage",
        "destiny:stool_pigeon",
        "recruit:hq",
        "send_home:hq",
        "scored:fortunes",
        "destinies:two_or_more",
        "sent_home_events",
    ):
        assert c.get(key, 0) >= 3, (key, c.get(key, 0))
    for d in (
        "quiet_night",
        "front_page",
        "sloppy_work",
        "big_haul",
        "police_raid",
        "heat",
        "fresh_faces",
        "stool_pigeon",
        "word_on_the_street",
    ):
        assert c.get("newsflash:" + d, 0) >= 3, d
    for d in ("strong_coffee", "cousin", "inside_man", "extra_muscle", "headline", "bombing", "drive_by", "sabotage"):
        assert c.get("fortune:" + d, 0) >= 3, d
    for k in (
        "none",
        "prestige",
        "job_prestige",
        "hours",
        "recruit",
        "draw_fortunes",
        "raid",
        "send_home",
        "bomb",
        "hit",
    ):
        assert c.get("effect:" + k, 0) >= 3, k


def test_card_effects_match_in_the_spec_scenarios() -> None:
    # the spec's scenarios reach what random play seldom does: Fresh Faces into a Safe House (S-19), Heat
    # with a full Headquarters (S-20), two destinies (S-13), the last tombstone (S-14)
    from rules.crimopolis.replay_format import begin, parse_replay

    folder = Path("/work/shared/spec/crimopolis/examples")
    if not folder.is_dir():
        folder = Path(__file__).resolve().parent / "golden"
    model = Model()
    bad: list[Any] = []
    chance = SeededChance("xfx-examples")
    files = sorted(folder.glob("*.replay.json"))
    for path in files:
        doc = json.loads(path.read_text())
        state = begin(GAME.content, parse_replay(GAME.content, doc)).s
        model.ctx = None
        for step in doc["steps"]:
            if "player" not in step or GAME.check(state, step["player"], step["action"]) is not None:
                continue
            state = checked_step(model, state, step["player"], dict(step["action"]), chance, bad)
            if bad:
                bad = [(path.name, *b) for b in bad]
                break
        if bad:
            break
    assert bad == [], bad[:3]
    c = model.counts
    assert len(files) >= 30
    for key in ("recruit:sh", "send_home:supply", "destiny:stool_pigeon", "effect:bomb", "react:defend"):
        assert c.get(key, 0) >= 1, (key, c)


def test_card_effects_when_the_decks_run_dry() -> None:
    # R79, E8, E22, R74: every fortune and all jobs but one in hands. Word on the Street draws nothing; the
    # job card discarded at step 4 is the one drawn back at step 5; an abort that draws one card keeps it
    jobs = [f"J{i:02d}" for i in range(1, 49)]
    fortunes = [f"F{i:02d}" for i in range(1, 49)]
    doc = {
        "format": "crimopolis-replay/1",
        "content": "house-1",
        "players": ["ann", "ben"],
        "start": {
            "turn": {"player": "ann", "hours": 7, "number": 5},
            "city": [
                {"cell": "0,0", "tile": "hq_yellow"},
                {"cell": "1,0", "tile": "T05"},
                {"cell": "-1,0", "tile": "hq_green"},
            ],
            "gangsters": {"v:1,0": {"ann": 1}},
            "players": {
                "ann": {"jobs": [j for j in jobs if j != "J02"], "fortunes": fortunes},
                "ben": {"jobs": ["J02"]},
            },
            "decks": {"newsflashes": ["N40"]},
        },
        "steps": [],
    }
    from rules.crimopolis.replay_format import begin, parse_replay

    state = begin(GAME.content, parse_replay(GAME.content, doc)).s
    model = Model()
    bad: list[Any] = []
    chance = SeededChance("xfx-dry")
    for a in (
        {"kind": "job", "card": "J05", "block": "1,0", "from": {"v:1,0": 1}, "fortunes": []},
        {"kind": "abort", "card": "J01"},
    ):
        assert GAME.check(state, "ann", a) is None, a
        state = checked_step(model, state, "ann", dict(a), chance, bad)
    assert bad == [], bad[:3]
    assert model.counts.get("draw_fortunes:deck_short") == 1 and model.counts.get("abort:drew_1") == 1
    assert GAME.view(state, "ann")["private"]["ann"]["jobs"].count("J05") == 1
