"""Actions and submissions as small immutable value objects (rulings R34, R42).

An `Action` keeps exactly the fields the player gave; whether they fit the ability is
decided by validation (`malformed`), not here, so a refusal can name the rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .ids import Character, Location, Role

MOVE = "move"
CONVERSE = "converse"
ABILITY = "ability"
FRIEND = "friend"
KINDS = (MOVE, CONVERSE, ABILITY, FRIEND)
HORIZONTAL = "horizontal"
VERTICAL = "vertical"
DIRECTIONS = (HORIZONTAL, VERTICAL)

# Cooldown keys, precomputed: enum `.value` lookups dominate the hot path otherwise.
MOVE_KEY = {c: f"move:{c.value}" for c in Character}
CONVERSE_KEY = {c: f"converse:{c.value}" for c in Character}
ABILITY_KEY = {c: f"ability:{c.value}" for c in Character}
FRIEND_KEY = {c: f"friend:{c.value}" for c in Character}


@dataclass(frozen=True, slots=True)
class Action:
    """One of the two actions of a round.

    >>> Action.move(VERTICAL, Character.SECRETARY).key(Character.DETECTIVE)
    'move:secretary'
    >>> Action.ability(target=Character.STORE_CLERK).key(Character.DETECTIVE)
    'ability:detective'
    """

    kind: str
    direction: str | None = None
    character: Character | None = None
    friend: Character | None = None
    target: Character | None = None
    destination: Location | None = None
    player: str | None = None
    # Set by a parser that met a field name this kind never has (replay.md: `malformed`).
    extra: bool = False

    @staticmethod
    def move(direction: str, character: Character) -> Action:
        return Action(MOVE, direction=direction, character=character)

    @staticmethod
    def converse(character: Character) -> Action:
        return Action(CONVERSE, character=character)

    @staticmethod
    def ability(
        target: Character | None = None, destination: Location | None = None, player: str | None = None
    ) -> Action:
        return Action(ABILITY, target=target, destination=destination, player=player)

    @staticmethod
    def use_friend(
        friend: Character,
        target: Character | None = None,
        destination: Location | None = None,
        player: str | None = None,
    ) -> Action:
        return Action(FRIEND, friend=friend, target=target, destination=destination, player=player)

    @property
    def is_move(self) -> bool:
        return self.kind == MOVE

    def owner(self, own: Character) -> Character | None:
        """The character whose printed ability is used (None for move/converse)."""
        if self.kind == ABILITY:
            return own
        if self.kind == FRIEND:
            return self.friend
        return None

    def key(self, own: Character) -> str:
        """Cooldown key (R45, replay.md spelling)."""
        if self.kind == MOVE:
            assert self.character is not None, "a well-formed move names its character"
            return MOVE_KEY[self.character]
        if self.kind == CONVERSE:
            assert self.character is not None, "a well-formed conversation names its character"
            return CONVERSE_KEY[self.character]
        if self.kind == ABILITY:
            return ABILITY_KEY[own]
        assert self.friend is not None, "a well-formed friendship action names its friend"
        return FRIEND_KEY[self.friend]

    @staticmethod
    def from_json(d: dict[str, Any]) -> Action:
        """The inverse of `to_json` for trusted data (stored by us); files go through replay_format."""

        def char(key: str) -> Character | None:
            return None if d.get(key) is None else Character(d[key])

        return Action(
            d["kind"],
            direction=d.get("direction"),
            character=char("character"),
            friend=char("friend"),
            target=char("target"),
            destination=None if d.get("destination") is None else Location(d["destination"]),
            player=d.get("player"),
        )

    def to_json(self) -> dict[str, Any]:
        """The replay.md form of this action."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.direction is not None:
            out["direction"] = self.direction
        if self.character is not None:
            out["character"] = self.character.value
        if self.friend is not None:
            out["friend"] = self.friend.value
        if self.target is not None:
            out["target"] = self.target.value
        if self.destination is not None:
            out["destination"] = self.destination.value
        if self.player is not None:
            out["player"] = self.player
        return out


Pair = tuple[Character, Character]


@dataclass(frozen=True, slots=True)
class Submission:
    """A player's whole submission for a round: actions plus the extras (R42)."""

    actions: tuple[Action, ...] = ()
    buys: tuple[Pair, ...] = ()
    guess: dict[Character, Role] | None = field(default=None, hash=False, compare=True)

    @staticmethod
    def from_json(d: dict[str, Any]) -> Submission:
        """The inverse of `to_json` for trusted data."""
        guess = d.get("guess")
        return Submission(
            tuple(Action.from_json(a) for a in d.get("actions") or ()),
            tuple((Character(a), Character(b)) for a, b in d.get("buy") or ()),
            None if guess is None else {Character(c): Role(r) for c, r in guess.items()},
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "actions": [a.to_json() for a in self.actions],
            "buy": [[a.value, b.value] for a, b in self.buys],
            "guess": None if self.guess is None else {c.value: r.value for c, r in self.guess.items()},
        }
