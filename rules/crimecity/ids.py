"""Identifiers of Crime City: characters, roles, locations (replay.md spelling).

Locations are encoded as (row bit, column bit) so every move is an XOR (rulings Part 2).
"""

from __future__ import annotations

from enum import StrEnum


class Character(StrEnum):
    POLICEMAN = "policeman"
    SECRETARY = "secretary"
    BANKER = "banker"
    ARMED_GUARD = "armed_guard"
    STORE_CLERK = "store_clerk"
    DETECTIVE = "detective"
    GOVERNOR = "governor"
    GOVERNORS_DAUGHTER = "governors_daughter"

    @property  # shadows str.title on purpose: the bot reads `.title` of every id as its display name
    def title(self) -> str:  # type: ignore[override]  # a property, not str's method: see above
        return CHARACTER_TITLES[self]


class Role(StrEnum):
    BANK_ROBBER = "bank_robber"
    HITMAN = "hitman"
    PICKPOCKET = "pickpocket"
    FRAUD = "fraud"
    MOB_BOSS = "mob_boss"
    NONE = "none"

    @property  # shadows str.title, as Character.title does
    def title(self) -> str:  # type: ignore[override]  # a property, not str's method
        return ROLE_TITLES[self]


class Location(StrEnum):
    TOWN_HALL = "town_hall"
    MANSION = "mansion"
    MAIN_STREET = "main_street"
    BANK = "bank"

    @property  # shadows str.title, as Character.title does
    def title(self) -> str:  # type: ignore[override]  # a property, not str's method
        return LOCATION_TITLES[self]


# Rule-book order (Q30): also the order of `unassigned` in replay output.
CHARACTERS: tuple[Character, ...] = tuple(Character)
ROLES: tuple[Role, ...] = tuple(r for r in Role if r is not Role.NONE)
LOCATIONS: tuple[Location, ...] = tuple(Location)

CHARACTER_TITLES = {
    Character.POLICEMAN: "The Policeman",
    Character.SECRETARY: "The Secretary",
    Character.BANKER: "The Banker",
    Character.ARMED_GUARD: "The Armed Guard",
    Character.STORE_CLERK: "The Store Clerk",
    Character.DETECTIVE: "The Detective",
    Character.GOVERNOR: "The Governor",
    Character.GOVERNORS_DAUGHTER: "The Governor's Daughter",
}
ROLE_TITLES = {
    Role.BANK_ROBBER: "The Bank Robber",
    Role.HITMAN: "The Hitman",
    Role.PICKPOCKET: "The Pickpocket",
    Role.FRAUD: "The Fraud",
    Role.MOB_BOSS: "The Mob Boss",
    Role.NONE: "no hidden role",
}
LOCATION_TITLES = {
    Location.TOWN_HALL: "Town Hall",
    Location.MANSION: "Mansion",
    Location.MAIN_STREET: "Main Street",
    Location.BANK: "Bank",
}

ROLE_GOALS = {
    Role.BANK_ROBBER: "End two turns (not necessarily in a row) at the Bank while neither the Armed Guard "
    "nor the Policeman is there.",
    Role.HITMAN: "End a turn alone with the living Governor (no other character in that location). "
    "The Governor then dies.",
    Role.PICKPOCKET: "End turns beside other characters to steal from them; after stealing from 4 "
    "different characters, end a turn at Main Street.",
    Role.FRAUD: "End a turn at the Town Hall without the Secretary there; later, end a turn at the "
    "Town Hall with the Secretary there.",
    Role.MOB_BOSS: "Once per round, guess the hidden role of every character (/crimecity guess). "
    "A perfect guess completes your goal.",
    Role.NONE: "",
}

START: dict[Character, Location] = {
    Character.POLICEMAN: Location.TOWN_HALL,
    Character.SECRETARY: Location.TOWN_HALL,
    Character.BANKER: Location.BANK,
    Character.ARMED_GUARD: Location.BANK,
    Character.STORE_CLERK: Location.MAIN_STREET,
    Character.DETECTIVE: Location.MAIN_STREET,
    Character.GOVERNOR: Location.MANSION,
    Character.GOVERNORS_DAUGHTER: Location.MANSION,
}

# R10: roles a character cannot hold.
FORBIDDEN: dict[Character, frozenset[Role]] = {
    Character.POLICEMAN: frozenset({Role.BANK_ROBBER}),
    Character.SECRETARY: frozenset({Role.FRAUD}),
    Character.BANKER: frozenset({Role.BANK_ROBBER}),
    Character.ARMED_GUARD: frozenset({Role.BANK_ROBBER}),
    Character.STORE_CLERK: frozenset(),
    Character.DETECTIVE: frozenset({Role.MOB_BOSS}),
    Character.GOVERNOR: frozenset({Role.HITMAN}),
    Character.GOVERNORS_DAUGHTER: frozenset({Role.HITMAN}),
}

_BITS = {
    Location.TOWN_HALL: 0b00,
    Location.MANSION: 0b01,
    Location.MAIN_STREET: 0b10,
    Location.BANK: 0b11,
}
_FROM_BITS = {v: k for k, v in _BITS.items()}
H_BIT = 0b01  # horizontal move flips the column
V_BIT = 0b10  # vertical move flips the row


def toggle(loc: Location, mask: int) -> Location:
    """Apply a move mask (H_BIT, V_BIT or both) to a location.

    >>> toggle(Location.TOWN_HALL, V_BIT).value
    'main_street'
    >>> toggle(Location.BANK, H_BIT | V_BIT).value
    'town_hall'
    """
    return _FROM_BITS[_BITS[loc] ^ mask]


def pair_key(a: Character, b: Character) -> str:
    """Replay spelling of an unordered pair: ids in alphabetical order joined by '+'.

    >>> pair_key(Character.GOVERNOR, Character.BANKER)
    'banker+governor'
    """
    x, y = sorted((a.value, b.value))
    return f"{x}+{y}"
