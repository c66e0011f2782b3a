"""The draft (R6-R12, Q29, Q30) and the action notation (commands.md)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.crimecity import Action, ParseError, resolve_draft
from rules.crimecity.draft import DraftSubmission
from rules.crimecity.ids import CHARACTERS, FORBIDDEN, ROLES, Character, Location, Role
from rules.crimecity.notation import format_action, parse_action, parse_guess

P = ["a", "b", "c", "d", "e"]


def test_priority_by_bid_then_placement_and_bids_are_paid() -> None:
    subs = {"c": DraftSubmission(5), "e": DraftSubmission(5), "a": DraftSubmission(0)}
    res = resolve_draft(P, subs, ["e", "d", "c", "b", "a"], dict.fromkeys(P, 10))
    assert res.priority == ("e", "c", "d", "b", "a")
    assert res.garnets == {"a": 10, "b": 10, "c": 5, "d": 10, "e": 5}


def test_roles_before_characters_where_they_conflict() -> None:
    # a wants the Bank Robber and the Policeman: the role wins, the Policeman cannot rob (R10).
    subs = {"a": DraftSubmission(3, (Role.BANK_ROBBER,), (Character.POLICEMAN, Character.BANKER,
                                                        Character.STORE_CLERK))}
    res = resolve_draft(P, subs, P, dict.fromkeys(P, 3))
    assert res.seats["a"].role is Role.BANK_ROBBER and res.seats["a"].character is Character.STORE_CLERK
    assert res.unassigned == tuple(c for c in CHARACTERS if c not in {s.character for s in res.seats.values()})


def test_missing_submission_uses_the_book_order_q30() -> None:
    res = resolve_draft(P, {}, P, {})
    assert [res.seats[p].role for p in P] == list(ROLES)
    assert res.seats["a"].character is Character.SECRETARY  # the Policeman cannot be the Bank Robber


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.permutations(ROLES), st.permutations(CHARACTERS)),
                min_size=5, max_size=5), st.permutations(P))
def test_allocation_never_gets_stuck_and_respects_r10(prefs, placements) -> None:
    subs = {p: DraftSubmission(b, tuple(r), tuple(c)) for p, (b, r, c) in zip(P, prefs, strict=True)}
    res = resolve_draft(P, subs, placements, dict.fromkeys(P, 5))
    assert len({s.character for s in res.seats.values()}) == 5
    assert len({s.role for s in res.seats.values()}) == 5
    assert all(s.role not in FORBIDDEN[s.character] for s in res.seats.values())


@pytest.mark.parametrize(("text", "expected"), [
    ("move vertical secretary", Action.move("vertical", Character.SECRETARY)),
    ("Move Horizontal The Store Clerk", Action.move("horizontal", Character.STORE_CLERK)),
    ("converse governor's daughter", Action.converse(Character.GOVERNORS_DAUGHTER)),
    ("ability", Action.ability()),
    ("ability store_clerk", Action.ability(target=Character.STORE_CLERK)),
    ("ability policeman bank", Action.ability(target=Character.POLICEMAN, destination=Location.BANK)),
    ("ability player Big Al", Action.ability(player="p-al")),
    ("friend governor policeman bank", Action.use_friend(Character.GOVERNOR, Character.POLICEMAN, Location.BANK)),
    ("friend the banker", Action.use_friend(Character.BANKER)),
])
def test_parse_notation(text: str, expected: Action) -> None:
    assert parse_action(text, lambda s: "p-al" if s == "Big Al" else None) == expected


@pytest.mark.parametrize("text", ["", "move up banker", "move vertical wizard", "converse", "dance",
                                  "ability player Nobody", "ability banker nowhere", "friend"])
def test_unparsable_text_says_why(text: str) -> None:
    with pytest.raises(ParseError) as e:
        parse_action(text, lambda s: None)
    assert str(e.value)


@given(st.sampled_from(CHARACTERS), st.sampled_from(CHARACTERS), st.sampled_from(list(Location)))
def test_format_then_parse_round_trips(a: Character, b: Character, loc: Location) -> None:
    for action in (Action.move("vertical", a), Action.converse(a), Action.ability(target=a),
                   Action.use_friend(a, b, loc), Action.ability(player="p1")):
        assert parse_action(format_action(action), lambda s: s) == action


def test_guess_parsing() -> None:
    g = parse_guess("policeman=none, secretary=hitman; banker = Mob Boss")
    assert g[Character.BANKER] is Role.MOB_BOSS and len(g) == 3
    with pytest.raises(ParseError):
        parse_guess("banker=king")
    with pytest.raises(ParseError):
        parse_guess("banker")
