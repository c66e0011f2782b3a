"""The belief over hidden seats: every valid assignment, filtered by what a seat knows."""

from __future__ import annotations

from collections import Counter
from random import Random

from rules.crimecity.ids import CHARACTERS, FORBIDDEN, ROLES, Character, Location, Role
from rules.crimecity.players.belief import ASSIGNMENTS, consistent, role_of, seat_others
from rules.crimecity.players.knowledge import ControlFact, HitmanFact, Knowledge, RoleFact
from rules.crimecity.state import START, Progress

C, R = Character, Role


def knowing(own: Character = C.BANKER, role: Role = R.MOB_BOSS, **facts: object) -> Knowledge:
    return Knowledge("p1", ("p1", "p2", "p3", "p4", "p5"), own, role, 3, 6, dict(START), True, {}, frozenset(), 0,
                     Progress(), None, **facts)  # type: ignore[arg-type]


def test_every_assignment_is_valid_and_all_are_there() -> None:
    assert len(ASSIGNMENTS) == len(set(ASSIGNMENTS)) == 2564
    for a in ASSIGNMENTS:
        counts = Counter(a)
        assert all(counts[r] == 1 for r in ROLES) and counts[R.NONE] == 3
        assert all(r not in FORBIDDEN[c] for c, r in zip(CHARACTERS, a, strict=True))


def test_own_seat_investigations_and_identifications_narrow_the_belief() -> None:
    base = consistent(knowing())
    assert len(base) == 384 and all(role_of(a, C.BANKER) is R.MOB_BOSS for a in base)
    seen = consistent(knowing(roles=(RoleFact(1, C.STORE_CLERK, R.NONE),)))
    assert 0 < len(seen) < len(base) and all(role_of(a, C.STORE_CLERK) is R.NONE for a in seen)
    hit = consistent(knowing(roles=(RoleFact(1, C.DETECTIVE, R.HITMAN),)))
    assert all(role_of(a, C.DETECTIVE) is R.HITMAN for a in hit)
    played = consistent(knowing(controls=(ControlFact(2, C.GOVERNOR, "p3"),)))
    assert all(role_of(a, C.GOVERNOR) is not R.NONE for a in played)
    free = consistent(knowing(controls=(ControlFact(2, C.GOVERNOR, None),)))
    assert all(role_of(a, C.GOVERNOR) is R.NONE for a in free)
    assert len(played) + len(free) == len(base)


def test_the_governors_death_points_at_the_lone_characters() -> None:
    k = knowing(hitman=HitmanFact(2, frozenset({C.POLICEMAN, C.DETECTIVE})))
    assert {role_of(a, C.POLICEMAN) is R.HITMAN or role_of(a, C.DETECTIVE) is R.HITMAN for a in consistent(k)} == {True}


def test_contradictory_facts_fall_back_to_the_seat_itself() -> None:
    k = knowing(roles=(RoleFact(1, C.STORE_CLERK, R.HITMAN), RoleFact(1, C.DETECTIVE, R.HITMAN)))
    assert consistent(k) == consistent(knowing())


def test_seating_keeps_identified_players_and_fills_the_rest() -> None:
    k = knowing(controls=(ControlFact(1, C.GOVERNOR, "p4"),))
    rng = Random(3)
    for _ in range(20):
        a = consistent(k)[rng.randrange(len(consistent(k)))]
        seats = seat_others(k, a, rng)
        assert list(seats) == list(k.players)
        assert seats["p1"].character is C.BANKER and seats["p4"].character is C.GOVERNOR
        assert len({s.character for s in seats.values()}) == 5
        assert all(s.role is role_of(a, s.character) and s.role is not R.NONE for s in seats.values())


def test_a_board_location_is_only_data_here() -> None:
    assert knowing().positions[C.BANKER] is Location.BANK
