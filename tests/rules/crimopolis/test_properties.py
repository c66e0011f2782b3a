"""Properties over random legal games (the contract's host loop): games end, invariants hold at every
step, nothing secret shows, and a game stopped anywhere continues to the same end."""

from __future__ import annotations

import json
import re
from random import Random
from typing import Any

import pytest

from rules.contract import HOST_END, Action, RecordedChance, replay_record
from rules.crimopolis.game import GAME
from rules.crimopolis.state import OVER, State
from tests.support.playthrough import Playthrough, canonical, play_random

C = GAME.content
ALL_CARDS = sorted(C.decks["jobs"] + C.decks["newsflashes"] + C.decks["fortunes"])
CARD_RE = re.compile(r"\b[JNF]\d\d\b")
SETTINGS = [
    {},
    {"variant": "lucky_speed"},
    {"variant": "deeper_strategy", "target_prestige": 25},
    {"big_business": True, "influence_on_the_streets": True, "timeout_time": "pass"},
    {"gangsters": 5, "clock_tiles_first": True, "first_player": "p2"},
]


def game(seed: int, **kw: Any) -> Playthrough:
    rng = Random(seed)
    players = 2 + seed % 4
    return play_random(GAME, rng, players=players, settings=SETTINGS[seed % len(SETTINGS)], **kw)


def invariants(s: State) -> None:
    g = s.opts.gangsters
    in_city = dict.fromkeys(s.players, 0)
    for loc, (p, n) in s.gangsters.items():
        assert n >= 1
        in_city[p] += n
        if loc[0] in "hv":
            assert loc in s.geo.streets and n <= 3, (loc, n)
        else:
            b = s.geo.blocks[loc]
            if b.kind != "city":
                assert s.owner_of_color(b.color) == p and n <= 3
    for p in s.players:
        assert s.pl[p].supply + in_city[p] == g, p
        assert s.pl[p].supply >= 0
    placed = [t for t, _ in s.geo.tiles.values() if C.tiles[t].kind == "city"]
    assert sorted(placed + s.revealed + s.stack) == list(C.city_tiles)
    assert len(s.revealed) <= 2
    cards = [c for d in s.decks.values() for c in d]
    for p in s.players:
        me = s.pl[p]
        cards += me.jobs + me.fortunes + me.destinies + me.drawn
    if s.job is not None:
        cards.append(s.job["card"])
    if s.res is not None:
        cards.append(s.res["card"])
    assert sorted(cards) == ALL_CARDS
    assert 40 - s.bodies_total() >= 0


@pytest.mark.parametrize("seed", range(10))
def test_random_games_end_with_invariants_at_every_step(seed: int) -> None:
    rng = Random(seed)
    play = game(seed)
    assert play.state.phase == OVER and GAME.results(play.state) is not None
    replayed = replay_record(GAME, play.record())
    assert canonical(GAME.encode_state(replayed.state)) == canonical(GAME.encode_state(play.state))
    # walk the log again and check every state, and that prestige and body counts never fall
    state = GAME.setup(play.seats, play.settings, RecordedChance(play.setup_chance)).state
    invariants(state)
    before = {p: (0, 0) for p in state.players}
    for entry in play.log:
        frozen = canonical(GAME.encode_state(state))
        state = GAME.step(state, entry.actions, RecordedChance(entry.chance)).state
        invariants(state)
        now = {p: (state.pl[p].prestige, state.pl[p].bodies) for p in state.players}
        assert all(now[p][0] >= before[p][0] and now[p][1] >= before[p][1] for p in now)
        before = now
        if rng.random() < 0.05:
            assert canonical(GAME.encode_state(GAME.decode_state(json.loads(frozen)))) == frozen


@pytest.mark.parametrize("seed", range(6))
def test_step_never_changes_the_state_it_was_given(seed: int) -> None:
    play = game(seed, max_steps=150)
    state = GAME.setup(play.seats, play.settings, RecordedChance(play.setup_chance)).state
    for entry in play.log:
        frozen = canonical(GAME.encode_state(state))
        new = GAME.step(state, entry.actions, RecordedChance(entry.chance)).state
        assert canonical(GAME.encode_state(state)) == frozen
        state = new


def _public_cards(view: dict[str, Any]) -> set[str]:
    return set(CARD_RE.findall(canonical(view)))


@pytest.mark.parametrize("seed", range(8))
def test_views_show_no_card_they_should_not(seed: int) -> None:
    play = game(seed, max_steps=600)
    state = GAME.setup(play.seats, play.settings, RecordedChance(play.setup_chance)).state
    for entry in play.log:
        state = GAME.step(state, entry.actions, RecordedChance(entry.chance)).state
        if state.phase == OVER:
            break
        shown = {c for p in state.players for c in state.pl[p].destinies}
        if state.pending is not None and "card" in state.pending:
            shown.add(state.pending["card"])
        assert _public_cards(GAME.view(state, None)) <= shown
        for seat in state.players:
            me = state.pl[seat]
            keep = state.pending is not None and state.pending["kind"] == "keep" and state.pending["player"] == seat
            own = set(me.jobs) | set(me.fortunes) | (set(me.drawn) if keep else set())
            view = GAME.view(state, seat)
            assert _public_cards(view) <= shown | own
            assert set(view.get("private", {})) == {seat}


PUBLIC_CARD_FIELDS = {
    "job": ("card", "fortunes"),
    "fortune_played": ("card",),
    "newsflash": ("card",),
    "target_chosen": ("card",),
    "reaction": ("card", "against"),
    "cancelled": ("card",),
    "destiny_placed": ("card",),
    "destiny_executed": ("card",),
    "job_prestige": ("card",),
    "job_done": ("card",),
    "redraw": ("cards",),
}


@pytest.mark.parametrize("seed", range(8))
def test_public_events_name_only_the_cards_they_show(seed: int) -> None:
    play = game(seed, max_steps=800)
    for event, _ in play.events:
        if not event.is_public:
            assert event.kind in ("drew", "aborted", "kept") and len(event.audience) == 1
            continue
        assert event.kind not in ("drew", "aborted", "kept")
        allowed: set[str] = set()
        for key in PUBLIC_CARD_FIELDS.get(event.kind, ()):
            value = event.data.get(key)
            allowed |= set(value) if isinstance(value, list) else {value} if value else set()
        assert set(CARD_RE.findall(canonical(event.data))) <= allowed, event


@pytest.mark.parametrize("seed", range(8))
def test_export_replays_to_the_same_game(seed: int) -> None:
    play = game(seed)
    record = play.record()
    doc = GAME.export(record)
    names = dict(record.names)
    assert doc["format"] == "crimopolis-replay/1" and doc["players"][0] == names[play.state.players[0]]
    out1 = GAME.replay(json.loads(json.dumps(doc)))
    out2 = GAME.replay(json.loads(json.dumps(doc)))
    assert json.dumps(out1, sort_keys=True) == json.dumps(out2, sort_keys=True)
    assert all(s["refused"] is None for s in out1["steps"])
    want = GAME.results(play.state)
    assert want is not None
    got = out1["result"]
    assert got["scores"] == {names[p]: v for p, v in want["scores"].items()}
    assert got["ranking"] == [sorted(names[p] for p in group) for group in want["ranking"]]
    # every public event the host announced is in the replay, in order, with the names of the file
    text = [canonical({"kind": e.kind, **e.data}) for e, _ in play.events]
    for seat, name in names.items():
        text = [t.replace(f'"{seat}"', f'"{name}"') for t in text]
    mine = [canonical({k: v for k, v in e.items() if k != "audience"}) for e in out1["initial"]["events"]]
    for s in out1["steps"]:
        mine += [canonical({k: v for k, v in e.items() if k != "audience"}) for e in s["events"]]
    assert mine == text


@pytest.mark.parametrize("seed", range(6))
def test_stop_anywhere_and_continue_gives_the_same_end(seed: int) -> None:
    play = game(seed)
    cut = Random(seed).randrange(1, len(play.log))
    state = GAME.setup(play.seats, play.settings, RecordedChance(play.setup_chance)).state
    for entry in play.log[:cut]:
        state = GAME.step(state, entry.actions, RecordedChance(entry.chance)).state
    state = GAME.decode_state(json.loads(json.dumps(GAME.encode_state(state))))
    for entry in play.log[cut:]:
        state = GAME.step(state, entry.actions, RecordedChance(entry.chance)).state
    assert canonical(GAME.encode_state(state)) == canonical(GAME.encode_state(play.state))


@pytest.mark.parametrize("seed", range(6))
def test_continue_from_a_start_block_at_a_turn_start(seed: int) -> None:
    from rules.crimopolis.export import start_block

    play = game(seed)
    state = GAME.setup(play.seats, play.settings, RecordedChance(play.setup_chance)).state
    boundaries = []
    for i, entry in enumerate(play.log):
        out = GAME.step(state, entry.actions, RecordedChance(entry.chance))
        starts = [e for e in out.events if e.kind == "turn_start"]
        if starts and out.state.phase != OVER:
            boundaries.append((i, out.state, list(out.events)))
        state = out.state
    i, at, evs = boundaries[Random(seed).randrange(len(boundaries))]
    doc = {
        "format": "crimopolis-replay/1",
        "players": list(at.players),
        "options": at.opts.replay_json(),
        "start": start_block(C, at, evs),
        "steps": [
            {"host": "end"} if a.by is None else {"player": a.by, "action": dict(a.move)}
            for entry in play.log[i + 1 :]
            for a in entry.actions
        ],
    }
    out = GAME.replay(json.loads(json.dumps(doc)))
    first = out["initial"]["state"]
    from rules.crimopolis.views import full_state

    assert first == full_state(C, at)
    assert all(s["refused"] is None for s in out["steps"])
    assert out["result"] == GAME.results(play.state)


def test_the_host_end_works_in_every_phase() -> None:
    for seed in range(20):
        play = play_random(GAME, Random(seed), players=3, max_steps=Random(seed).randrange(0, 60))
        if play.state.phase == OVER:
            continue
        out = GAME.step(play.state, [Action(None, dict(HOST_END))], RecordedChance([]))
        assert out.state.phase == OVER and [e.kind for e in out.events] == ["game_end"]
        assert GAME.results(out.state)["ended"] == "host"  # type: ignore[index]
        assert GAME.pending(out.state) is None
        assert GAME.check(out.state, None, dict(HOST_END)) is not None


@pytest.mark.parametrize("seed", range(3))
def test_random_move_does_not_depend_on_how_the_state_was_made(seed: int) -> None:
    play = game(seed, max_steps=300)
    state = GAME.setup(play.seats, play.settings, RecordedChance(play.setup_chance)).state
    for i, entry in enumerate(play.log):
        state = GAME.step(state, entry.actions, RecordedChance(entry.chance)).state
        if state.phase == OVER:
            break
        seat = state.pending["player"]  # type: ignore[index]
        decoded = GAME.decode_state(json.loads(json.dumps(GAME.encode_state(state))))
        assert GAME.random_move(state, seat, Random(i)) == GAME.random_move(decoded, seat, Random(i))
