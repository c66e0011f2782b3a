"""What a seat knows is read from its view and the events it received, and nothing else."""

from __future__ import annotations

import pytest

from rules.contract import Event
from rules.crimecity.ids import Character, Role
from rules.crimecity.players.knowledge import NotARoundView, ec_choice, read

C = Character


def view(**extra: object) -> dict:
    board = {"town_hall": ["policeman", "secretary"], "mansion": ["governor", "governors_daughter"],
             "main_street": ["detective", "store_clerk"], "bank": ["armed_guard", "banker"]}
    v = {"phase": "round", "round": 3, "rounds_total": 6, "board": board, "dead": [],
         "friendship": {"banker+governor": 2}, "over": False, "player": "p1", "players": ["p1", "p2", "p3", "p4", "p5"],
         "seat": {"character": "banker", "role": "mob_boss", "goal": "", "alive": True},
         "cooldowns": ["move:banker"], "garnets": 7, "progress": {"stolen": ["governor"], "bank_turns": 1,
                                                                   "fraud_stage": 0}, "completed": None}
    v.update(extra)
    return v


def test_the_view_gives_the_board_and_the_seat() -> None:
    k = read(view(), [])
    assert k.own is C.BANKER and k.role is Role.MOB_BOSS and k.round == 3 and k.garnets == 7
    assert k.positions[C.GOVERNOR].value == "mansion" and list(k.positions) == list(Character)
    assert k.cooldowns == {"move:banker"} and k.friendship == {"banker+governor": 2}
    assert k.progress.bank_turns == 1 and k.progress.stolen == {C.GOVERNOR}
    assert k.others == ("p2", "p3", "p4", "p5")


def test_private_results_become_facts_with_their_round() -> None:
    seen = [
        Event.to("p1", "investigation", {"kind": "investigation", "character": "detective", "role": "hitman",
                                         "round": 1}),
        Event.to("p1", "identification", {"kind": "identification", "player": None, "character": "policeman",
                                          "round": 2}),
        Event.to("p2", "investigation", {"kind": "investigation", "character": "banker", "role": "mob_boss",
                                         "round": 2}),
    ]
    k = read(view(), seen)
    assert [(f.character, f.role, f.round) for f in k.roles] == [(C.DETECTIVE, Role.HITMAN, 1)]
    assert [(f.character, f.player) for f in k.controls] == [(C.POLICEMAN, None)]
    assert k.known_before(2).controls == () and k.known_before(3).controls == k.controls


def test_the_governors_death_names_the_lone_characters_as_suspects() -> None:
    board = {"town_hall": ["policeman"], "mansion": ["governors_daughter", "secretary"], "main_street": ["detective"],
             "bank": ["armed_guard", "banker", "store_clerk"]}
    seen = [Event.public("board", {"round": 4, "view": {"board": board, "dead": ["governor"]}})]
    k = read(view(dead=["governor"]), seen)
    assert k.hitman is not None and k.hitman.round == 4 and k.hitman.suspects == {C.POLICEMAN, C.DETECTIVE}
    assert not k.governor_alive


def test_the_draft_is_not_a_round_view() -> None:
    with pytest.raises(NotARoundView):
        read({"phase": "draft", "rounds_total": 6, "player": "p1", "garnets": 3}, [])


def test_the_last_ec_decision_sent_to_the_seat() -> None:
    seen = [Event.to(["p1", "p2"], "ec_decide", {"candidates": ["p3", "p4"], "unanimous": True})]
    assert ec_choice(seen, "p1") == (["p3", "p4"], True)
    assert ec_choice(seen, "p5") is None
