"""A game brought in from a replay file (the `import` setting): it continues from the file's last round
to the same end as replaying the whole file, and exports as that file with the new rounds appended."""

from __future__ import annotations

import copy
from random import Random
from typing import Any

import pytest

from rules.contract import Action, Record, SeededChance
from rules.crimecity.game import GAME, OVER
from rules.crimecity.handover import handover, players_of, rename_doc
from rules.crimecity.replay import run_replay
from rules.crimecity.replay_format import FormatError
from tests.support.playthrough import play_random

SEATS = ("p1", "p2", "p3", "p4", "p5")


def full_game(seed: int) -> dict[str, Any]:
    """A whole random game as a replay file (players named `name-p1`...), ended by its rounds."""
    while True:
        play = play_random(GAME, Random(seed), settings={"garnets": 12}, timeout_rate=0.0, skip_rate=0.1)
        doc = GAME.export(play.record())
        if run_replay(doc)["result"] is not None and doc.get("draft") is not None:
            return doc
        seed += 1000


def continue_in_bot(doc_cut: dict[str, Any], rounds: list[dict[str, Any]]) -> tuple[Any, Record]:
    """Set up from `doc_cut`, then play `rounds` (file rounds, by file name) through the contract."""
    names = players_of(doc_cut)
    to_seat = dict(zip(names, SEATS, strict=True))
    settings = {"import": doc_cut}
    out = GAME.setup(SEATS, settings, SeededChance("x"))
    state, log = out.state, []
    from rules.contract import LogEntry

    for raw in rounds:
        renamed = rename_doc({"rounds": [raw]}, to_seat)["rounds"][0]
        actions = [Action(seat, {"kind": "round", **sub}) for seat, sub in renamed.items() if sub is not None]
        state = GAME.step(state, actions, SeededChance("x")).state
        log.append(LogEntry(tuple(actions), ()))
    names_of = {s: n for n, s in to_seat.items()}
    return state, Record(GAME.info.id, SEATS, names_of, GAME.info.settings_from(settings), (), tuple(log))


@pytest.mark.parametrize("seed", range(12))
def test_an_imported_file_continues_to_the_same_end_as_replaying_it(seed: int) -> None:
    doc = full_game(seed)
    want = run_replay(doc)
    total = len(doc["rounds"])
    for k in range(total):  # every cut that leaves a round to play
        cut = {**copy.deepcopy(doc), "rounds": doc["rounds"][:k]}
        state, record = continue_in_bot(cut, doc["rounds"][k:])
        results = GAME.results(state)
        if results is None:  # the EC is left to the players: the rounds' part must still agree
            assert state.phase != OVER
            results = dict(state.results or {})
        to_name = dict(zip(SEATS, doc["players"], strict=True))
        for key in ("awards", "final_garnets"):
            assert {to_name[s]: v for s, v in results[key].items()} == want["result"][key], (seed, k, key)
        assert [[to_name[s] for s in g] for g in results["completion_order"]] == want["result"]["completion_order"]
        # the export is the cut file with the bot's rounds after its own, and replays to the same end
        exported = GAME.export(record)
        assert exported["rounds"] == doc["rounds"], (seed, k)
        assert run_replay(exported)["result"] == want["result"]


def test_the_imported_state_holds_what_each_seat_learned_and_the_balances() -> None:
    doc = full_game(3)
    cut = {**doc, "rounds": doc["rounds"][:2]}
    h = handover(cut, SEATS)
    replayed = run_replay(cut)
    first = doc["players"][0]
    learned = [e for r in replayed["rounds"] for e in r["private"].get(first, [])]
    assert [{k: v for k, v in e.items() if k != "round"} for e in h.learned["p1"]] == [
        rename_doc({"rounds": [{"x": {"actions": [e]}}]}, dict(zip(doc["players"], SEATS, strict=True)))["rounds"][0][
            "x"
        ]["actions"][0]
        for e in learned
    ]
    assert h.state.round == 3 and h.rounds_played == 2
    assert h.garnets == dict(zip(SEATS, (doc["garnets"][p] for p in doc["players"]), strict=True))
    out = GAME.setup(SEATS, {"import": cut}, SeededChance("x"))
    seat_events = [e for e in out.events if e.kind == "seat"]
    assert [e.audience for e in seat_events] == [(s,) for s in SEATS]
    assert [e for e in out.events if e.is_public][0].kind == "imported"
    assert all("role" not in str(e.data) for e in out.events if e.is_public)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(players=d["players"][:4]), "players"),
        (lambda d: d["rounds"][0].update({"nobody": None}), "rounds[0]"),
        (lambda d: d.update(draft=None), "draft"),
        (lambda d: d["garnets"].update({d["players"][0]: -1}), "garnets"),
    ],
)
def test_a_malformed_import_is_refused_with_the_field_named(change: Any, field: str) -> None:
    doc = copy.deepcopy(full_game(1))
    doc["rounds"] = doc["rounds"][:1]
    change(doc)
    with pytest.raises(ValueError, match=rf"import: {field.replace('[', '.').replace(']', '.')}"):
        GAME.setup(SEATS, {"import": doc}, SeededChance("x"))


def test_a_finished_file_is_refused() -> None:
    doc = full_game(2)
    with pytest.raises(FormatError, match="over"):
        players_of(doc)
    with pytest.raises(ValueError, match="import: rounds: the game in this file is over"):
        GAME.setup(SEATS, {"import": doc}, SeededChance("x"))
