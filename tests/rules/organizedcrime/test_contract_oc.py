"""Organized Crime on the contract: settings, clocks (nesting as commands.md says), host moves, setup options."""

from __future__ import annotations

from random import Random

from rules.contract import HOST_END, Action, Clock, NoChance, RecordedChance, SeededChance
from rules.organizedcrime.game import GAME, TIMEOUT, deadlines

SEATS = ("a", "b", "c")


def _start(**settings: object) -> object:
    return GAME.setup(SEATS, {"bases": {"a": 0, "b": 1, "c": 2}, "first": "a", **settings}, SeededChance("x")).state


def test_setup_with_bases_and_first_begins_the_first_turn() -> None:
    out = GAME.setup(SEATS, {"bases": {"a": 0, "b": 1, "c": 2}, "first": "b"}, SeededChance("x"))
    kinds = [e.kind for e in out.events]
    assert kinds == ["shuffled"] * 4 + ["turn_began"]
    pending = GAME.pending(out.state)
    assert pending is not None and pending.decision == "turn" and pending.awaited == ("b",)
    assert pending.clocks == (Clock("turn:1", 600),)


def test_setup_without_bases_rolls_and_asks_for_a_base() -> None:
    out = GAME.setup(SEATS, {}, SeededChance("y"))
    kinds = [e.kind for e in out.events]
    assert kinds[:4] == ["shuffled"] * 4 and "base_order" in kinds
    pending = GAME.pending(out.state)
    assert pending is not None and pending.decision == "choose_base"
    assert pending.clocks[0].id.startswith("base:") and pending.clocks[0].seconds == 180


def test_async_pace_and_overrides() -> None:
    assert deadlines({"pace": "async"})["turn"] == 86400
    d = deadlines({"pace": "live", "vote_minutes": 5, "window_seconds": 30})
    assert d["vote"] == 300 and d["vote_sealed"] == 300 and d["window"] == 30


def _act(state: object, seat: str | None, move: dict[str, object], chance: object = None) -> object:
    assert GAME.check(state, seat, move) is None, GAME.check(state, seat, move)
    return GAME.step(state, [Action(seat, move)], chance or NoChance()).state


def test_the_turn_clock_is_outer_and_paused_during_an_acquisition_meeting() -> None:
    st = _start(turn_minutes=20, bargain_minutes=4)
    st["pl"]["a"]["cities"] = ["boston"]
    st["pl"]["a"]["pieces"]["a:1"] = "o05"
    st["pl"]["a"]["hitmen_bought"] = 1
    st = _act(st, "a", {"act": "declare", "piece": "a:1", "dir": "right"})
    st = _act(st, "a", {"act": "roll"}, RecordedChance([{"dice": [1, 1], "sides": 6}]))
    st = _act(st, "a", {"act": "move", "piece": "a:1", "share": 2})
    assert GAME.pending(st).clocks == (Clock("turn:1", 1200),)
    st = _act(st, "a", {"act": "step", "to": "o06"})
    st = _act(st, "a", {"act": "step", "to": "o07"})
    st = _act(st, "a", {"act": "meeting", "piece": "a:1", "target": "gambling"})
    pending = GAME.pending(st)
    assert pending.decision == "bargain" and pending.awaited == ("a",) and pending.optional == ("b", "c")
    assert pending.clocks == (Clock("turn:1", 1200), Clock("meeting:1:bargain", 240))
    st = _act(st, "a", {"act": "call_vote"})
    assert GAME.pending(st).clocks == (Clock("turn:1", 1200), Clock("meeting:1:vote:b", 120))
    st = GAME.step(st, [Action(None, dict(TIMEOUT))], NoChance()).state
    assert GAME.pending(st).clocks[-1] == Clock("meeting:1:vote:c", 120)


def test_host_end_gives_a_result_with_reason_host() -> None:
    st = _start()
    assert GAME.check(st, None, HOST_END) is None
    out = GAME.step(st, [Action(None, dict(HOST_END))], NoChance())
    result = GAME.results(out.state)
    assert result is not None and result["reason"] == "host" and result["winners"] == ["a", "b", "c"]
    assert [e.kind for e in out.events] == ["game_over"] and GAME.pending(out.state) is None


def test_a_seat_cannot_time_out_and_the_host_cannot_play() -> None:
    st = _start()
    assert GAME.check(st, "a", {"act": "timeout"}).code == "not_yours"
    assert GAME.check(st, None, {"act": "roll"}).code == "not_yours"
    assert GAME.check(st, "a", {"by": "a", "act": "roll"}).code == "malformed"
    assert GAME.check(st, "a", {"act": "fly"}).code == "malformed"
    assert GAME.check(st, "b", {"act": "roll"}).code == "not_yours"


def test_random_moves_are_legal_through_a_whole_game() -> None:
    rng = Random(5)
    st = _start(round_cap=3)
    chance = SeededChance("z")
    for _ in range(3000):
        pending = GAME.pending(st)
        if pending is None:
            break
        seat = pending.awaited[0]
        move = GAME.random_move(st, seat, rng)
        action = Action(seat, move) if move is not None else Action(None, dict(TIMEOUT))
        if move is not None:
            assert GAME.check(st, seat, move) is None
        st = GAME.step(st, [action], chance).state
    assert GAME.results(st) is not None


def test_destinations_of_a_waiting_mover_for_the_move_to_option() -> None:
    from rules.organizedcrime.engine import Engine
    from rules.organizedcrime.legal import destinations_for

    st = _start()
    st["pl"]["a"]["pieces"]["a:1"] = "o00"
    st["pl"]["a"]["hitmen_bought"] = 1
    st = _act(st, "a", {"act": "declare", "piece": "a:1", "dir": "right"})
    st = _act(st, "a", {"act": "roll"}, RecordedChance([{"dice": [2, 1], "sides": 6}]))
    got = destinations_for(Engine(GAME.content, st, NoChance()), "a:1", 3)
    assert got == [{"to": "i00", "steps": ["o01", "o02", "i00"]}, {"to": "i15", "steps": ["o01", "o02", "i15"]},
                   {"to": "o03", "steps": ["o01", "o02", "o03"]}]
    # a share no move can have has no destinations, at once (the walk's search grows with the share)
    for share in (0, -1, 2, 4, 10**6):
        assert destinations_for(Engine(GAME.content, st, NoChance()), "a:1", share) == []
    assert destinations_for(Engine(GAME.content, st, NoChance()), "a:0", 3) == [], "the Boss is not a mover"


def test_the_bots_check_keeps_replay_mds_order() -> None:
    """replay.md: malformed, then not_in_game, then wrong_phase, then not_yours, then the act's own checks."""
    st = _start()

    def code(state: object, seat: str | None, move: dict[str, object]) -> str | None:
        refusal = GAME.check(state, seat, move)
        return None if refusal is None else refusal.code

    bad_dir = {"act": "declare", "piece": "a:0", "dir": "up"}
    assert code(st, "zed", bad_dir) == "malformed"
    assert code(st, "zed", {"act": "roll"}) == "not_in_game"
    assert code(st, "b", bad_dir) == "malformed"
    assert code(st, "b", {"act": "roll"}) == "not_yours"
    assert code(st, "a", {"act": "roll"}) == "not_declared"
    assert code(st, "a", {"act": "timeout"}) == "not_yours"
    over = GAME.step(st, [Action(None, dict(HOST_END))], NoChance()).state
    assert code(over, "a", bad_dir) == "malformed"
    assert code(over, "zed", {"act": "roll"}) == "not_in_game"
    assert code(over, "a", {"act": "roll"}) == "wrong_phase"
    assert code(over, None, dict(HOST_END)) == "wrong_phase"
