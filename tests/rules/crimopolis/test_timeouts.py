"""Timeouts (R38, R109, E4) and the deadline clocks the host runs (commands.md "Deadlines and timeouts")."""

from __future__ import annotations

from random import Random

from rules.contract import Action, Clock, RecordedChance, SeededChance
from rules.crimopolis.game import GAME

from .replaying import act, events, final, golden, refused, replay, strip, with_steps


def test_timeout_at_the_turn_ends_it_and_forfeits_the_hours() -> None:
    out = replay(with_steps(golden("s01_city_a"), [act("ben", "timeout"), act("ann", "timeout")]))
    assert refused(out) == ["not_your_turn", None]
    assert [strip(e) for e in out["steps"][1]["events"]] == [
        {"kind": "timeout", "player": "ann", "decision": "turn"},
        {"kind": "turn_end", "player": "ann", "hours_left": 7, "carry": 0, "timeout": True},
        {"kind": "turn_start", "player": "ben", "number": 10, "hours": 7},
    ]


def test_timeout_at_keep_keeps_the_first_card_and_ends_the_turn() -> None:
    doc = with_steps(golden("s16_abort"), [act("ann", "timeout")], keep=1)
    out = replay(doc)
    evs = out["steps"][1]["events"]
    assert [e["kind"] for e in evs] == ["timeout", "keep", "kept", "turn_end", "turn_start"]
    assert evs[2]["card"] == "J09" and evs[2]["returned"] == ["J10"]
    assert final(out)["turn"]["player"] == "ben"


def test_timeout_at_target_waits_for_the_other_players_reaction_then_ends_the_turn() -> None:
    doc = golden("s12b_stool_pigeon_destiny")
    out = replay(with_steps(doc, [act("ann", "timeout")], keep=1))
    evs = [strip(e) for e in out["steps"][1]["events"]]
    assert evs == [
        {"kind": "timeout", "player": "ann", "decision": "target"},
        {"kind": "target_chosen", "player": "ann", "card": "N36", "target": "ben"},  # first after the active player
    ]
    state = out["steps"][1]["state"]
    assert state["pending"] == {"kind": "react", "player": "ben", "card": "N36"}
    assert state["turn"]["timed_out"] is True
    out = replay(with_steps(doc, [act("ann", "timeout"), act("ben", "react", card=None)], keep=1))
    evs = [e["kind"] for e in out["steps"][2]["events"]]
    assert evs == [
        "reaction",
        "destiny_placed",
        "job_done",
        "prestige",
        "draw",
        "drew",
        "turn_end",
        "turn_start",
        "destiny_executed",
        "hours",
    ]
    end = events(out["steps"][2], "turn_end")[0]
    assert end["timeout"] is True and end["carry"] == 0
    # the reaction window can time out as well: no reaction, and the timed-out turn still ends
    out = replay(with_steps(doc, [act("ann", "timeout"), act("ben", "timeout")], keep=1))
    kinds = [e["kind"] for e in out["steps"][2]["events"]]
    assert kinds[:3] == ["timeout", "reaction", "destiny_placed"] and kinds[-4:-2] == ["turn_end", "turn_start"]


def test_timeout_at_the_active_players_own_reaction_answers_only_the_window() -> None:
    doc = golden("s10_job_takeover")
    out = replay(with_steps(doc, [act("ann", "timeout")], keep=2))
    evs = [e["kind"] for e in out["steps"][2]["events"]]
    assert evs == ["timeout", "reaction", "job_prestige", "job_done", "prestige", "draw", "drew"]
    state = out["steps"][2]["state"]
    assert state["pending"] == {"kind": "turn", "player": "ann"} and state["turn"]["timed_out"] is False


def test_setup_timeouts_take_the_defaults() -> None:
    doc = golden("we01_setup")
    out = replay(with_steps(doc, [act("yara", "timeout"), act("yara", "timeout"), act("gus", "timeout")], keep=0))
    first = out["steps"][0]["events"]
    # R109: the earliest revealed tile (T09) on the first cell around the Headquarters in side order (N: 0,-1)
    assert strip(first[1]) == {
        "kind": "tile_placed",
        "player": "yara",
        "tile": "T09",
        "cell": "0,-1",
        "block_side": None,
        "reason": "setup",
    }
    assert [e["kind"] for e in first] == ["timeout", "tile_placed", "reveal"]
    hq = events(out["steps"][2], "tile_placed")[0]
    # the first legal cell in cell order (by y, then x): the city is 0,-1 / 0,0 / 1,0 ...
    assert hq["tile"] == "hq_green" and hq["cell"] == "0,-2"
    assert out["steps"][2]["state"]["turn"] is None and out["steps"][2]["state"]["phase"] == "setup"


def test_explore_default_never_places_a_safe_house() -> None:
    doc = golden("s04b_out_of_tiles")
    out = replay(with_steps(doc, [act("ann", "timeout")], keep=1))
    evs = [strip(e) for e in out["steps"][1]["events"]]
    assert evs[:2] == [
        {"kind": "timeout", "player": "ann", "decision": "explore"},
        {"kind": "explore_failed", "player": "ann", "street": "h:1,7"},
    ]
    assert final(out)["players"]["ben"]["safe_house"] is None


def test_clocks_turn_outermost_reaction_last() -> None:
    settings = {"turn_hours": 2, "reaction_minutes": 5, "first_player": "p1"}
    out = GAME.setup(("p1", "p2", "p3"), settings, SeededChance("clocks"))
    state = out.state
    seen: list[tuple[str, tuple[Clock, ...]]] = []
    kinds: set[str] = set()
    rng = Random(3)
    for _ in range(400):
        pending = GAME.pending(state)
        if pending is None:
            break
        seen.append((pending.decision, pending.clocks))
        assert pending.awaited and not pending.together
        if pending.decision in ("setup_hq", "setup_tile"):
            assert len(pending.clocks) == 1 and pending.clocks[0].id.startswith("setup:")
            assert pending.clocks[0].seconds == 7200
        else:
            # commands.md: the turn's clock stops for a window of another player, not for its own player's
            own = pending.decision == "react" and pending.awaited[0] == state.active
            assert pending.clocks[0] == Clock(f"turn:{state.number}", 7200, beneath=own)
            if pending.decision == "react":
                assert len(pending.clocks) == 2 and pending.clocks[1].seconds == 300
                kinds.add("own window" if own else "another's window")
            else:
                assert len(pending.clocks) == 1
        seat = pending.awaited[0]
        move = GAME.random_move(state, seat, rng)
        assert move is not None
        state = GAME.step(state, [Action(seat, move)], RecordedChance([])).state
    assert any(kind == "react" for kind, _ in seen) or len(seen) >= 400
    assert kinds == {"own window", "another's window"}, kinds
    setup_ids = [clocks[0].id for kind, clocks in seen if kind.startswith("setup")]
    assert len(set(setup_ids)) == len(setup_ids)  # a new clock per setup decision


def test_timeout_actions_name_the_decider() -> None:
    out = GAME.setup(("a", "b"), {"first_player": "b"}, SeededChance("t"))
    assert out.state.players == ("b", "a")
    assert GAME.timeout_actions(out.state) == [Action("b", {"kind": "timeout"})]
