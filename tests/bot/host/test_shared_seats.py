"""Shared seats (a game's team mode) in the roster: either member finds the seat, a seat is named by both
members (each name unique among every member of the game), and the first member stays the seat's holder."""

from __future__ import annotations

from bot.host import HostOptions, Roster, SeatRow


def seat(seat: str, n: int, user: tuple[int, str, str], partner: tuple[int, str, str] | None = None) -> SeatRow:
    p = partner or (None, None, None)
    return SeatRow(seat, n, user[0], user[1], user[2], None, p[0], p[1], p[2])


def test_either_member_finds_the_seat_and_a_seat_is_named_by_both() -> None:
    roster = Roster([
        seat("p1", 1, (1, "ann", "Ann"), (2, "ben", "Ben")),
        seat("p2", 2, (3, "cat", "Cat")),
    ])  # fmt: skip
    assert [roster.seat_of(u) for u in (1, 2, 3, 4)] == ["p1", "p1", "p2", None]
    assert roster.members_of("p1") == (1, 2) and roster.members_of("p2") == (3,) and roster.user_of("p1") == 1
    assert roster.name_of("p1") == "Ann & Ben" and roster.name_of("p2") == "Cat"
    assert roster.user_name_of("p1") == "ann", "the record names the seat by its first member"
    assert [roster.lookup(x) for x in ("<@2>", "2", "Ben", "ben", "Ann & Ben", "cat")] == ["p1"] * 5 + ["p2"]
    assert len(roster) == 2, "a roster counts seats, not members"


def test_names_are_unique_among_every_member() -> None:
    roster = Roster([
        seat("p1", 1, (1, "ann", "Sam"), (2, "ben", "Sam")),
        seat("p2", 2, (3, "cat", "Sam")),
        seat("p3", 3, (4, "dan", "Dee"), (5, "dan", "Dee")),
    ])  # fmt: skip
    assert roster.name_of("p1") == "Sam (ann) & Sam (ben)" and roster.name_of("p2") == "Sam (cat)"
    assert roster.name_of("p3") == "Dee (dan) #1 & Dee (dan) #2"
    assert len({roster.name_of(s) for s in roster.seats}) == 3


def test_shared_seats_are_a_host_option_kept_with_the_game() -> None:
    assert HostOptions.from_json(HostOptions(shared_seats=True).to_json()).shared_seats
    assert "shared_seats" not in HostOptions().to_json() and not HostOptions.from_json({}).shared_seats
