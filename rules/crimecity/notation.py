"""The action notation of commands.md ("Writing an action"), both ways.

>>> a = parse_action("friend Governor the Policeman bank", lambda s: None)
>>> format_action(a)
'friend governor policeman bank'
>>> format_action(parse_action("Move Vertical the store clerk", lambda s: None))
'move vertical store_clerk'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import TypedDict, TypeVar

from .actions import ABILITY, CONVERSE, FRIEND, HORIZONTAL, MOVE, VERTICAL, Action
from .errors import ParseError
from .ids import CHARACTERS, LOCATIONS, ROLES, Character, Location, Role
from .state import GameState

PlayerLookup = Callable[[str], "str | None"]

_CHAR_NAMES: dict[tuple[str, ...], Character] = {}
for _c in CHARACTERS:
    _CHAR_NAMES[tuple(_c.value.split("_"))] = _c
_CHAR_NAMES[("governors", "daughter")] = Character.GOVERNORS_DAUGHTER
_CHAR_NAMES[("daughter",)] = Character.GOVERNORS_DAUGHTER
_CHAR_NAMES[("guard",)] = Character.ARMED_GUARD
_CHAR_NAMES[("clerk",)] = Character.STORE_CLERK
for _short, _name in {"pol": "policeman", "sec": "secretary", "ban": "banker", "arm": "armed_guard",
                   "clk": "store_clerk", "det": "detective", "gov": "governor", "dau": "governors_daughter"}.items():
    _CHAR_NAMES[(_short,)] = Character(_name)
_LOC_NAMES = {tuple(loc.value.split("_")): loc for loc in LOCATIONS}
_LOC_NAMES.update({("th",): Location.TOWN_HALL, ("mn",): Location.MANSION, ("ms",): Location.MAIN_STREET,
                   ("bk",): Location.BANK})
_ROLE_NAMES = {tuple(r.value.split("_")): r for r in Role}
_DIRECTIONS = {"horizontal": HORIZONTAL, "horizontally": HORIZONTAL, "h": HORIZONTAL,
               "vertical": VERTICAL, "vertically": VERTICAL, "v": VERTICAL}


def _words(text: str) -> list[str]:
    text = text.lower().replace("’", "'").replace("'", "").replace("_", " ").replace("-", " ")
    return [w for w in text.split() if w]


T = TypeVar("T")
E = TypeVar("E", bound=StrEnum)


def _take(words: list[str], i: int, table: Mapping[tuple[str, ...], T]) -> tuple[T, int] | None:
    """Longest name from `table` at words[i:], skipping a leading 'the'."""
    if i < len(words) and words[i] == "the":
        i += 1
    for n in (3, 2, 1):
        key = tuple(words[i : i + n])
        if len(key) == n and key in table:
            return table[key], i + n
    return None


def _name_list(table: Mapping[tuple[str, ...], StrEnum]) -> str:
    return ", ".join(sorted({v.value for v in table.values()}))


def _parse_name(text: str, table: Mapping[tuple[str, ...], E], what: str) -> E:
    words = _words(text)
    got = _take(words, 0, table)
    if got is None or got[1] != len(words):
        raise ParseError(f"Unknown {what} {text.strip()!r}; use one of: {_name_list(table)}.")
    return got[0]


def parse_character(text: str) -> Character:
    return _parse_name(text, _CHAR_NAMES, "character")


def parse_location(text: str) -> Location:
    return _parse_name(text, _LOC_NAMES, "location")


def parse_role(text: str) -> Role:
    return _parse_name(text, _ROLE_NAMES, "role")


class _Params(TypedDict, total=False):
    """The parameter fields of an ability action, as `Action` keywords."""

    player: str
    target: Character
    destination: Location


def _params(words: list[str], i: int, raw: str, lookup: PlayerLookup) -> _Params:
    """Ability parameters: nothing, CHARACTER, CHARACTER LOCATION, or player PLAYER."""
    if i == len(words):
        return {}
    if words[i] == "player":
        # The rest of the raw text is a display name or mention; keep its original spelling.
        m = re.search(r"\bplayer\b\s*(.*)$", raw, flags=re.IGNORECASE | re.DOTALL)
        name = (m.group(1) if m else "").strip()
        if not name:
            raise ParseError("Name the player after 'player', by display name or mention.")
        player = lookup(name)
        if player is None:
            raise ParseError(f"No player named {name!r} in this game.")
        return {"player": player}
    got = _take(words, i, _CHAR_NAMES)
    if got is None:
        raise ParseError(f"Expected a character after the ability, got {' '.join(words[i:])!r}.")
    target, i = got
    if i == len(words):
        return {"target": target}
    loc = _take(words, i, _LOC_NAMES)
    if loc is None or loc[1] != len(words):
        raise ParseError(f"Expected a location after {target.value}, got {' '.join(words[i:])!r}.")
    return {"target": target, "destination": loc[0]}


def parse_action(text: str, lookup_player: PlayerLookup) -> Action:
    """Read one action in the notation; raises ParseError with a message for people."""
    words = _words(text)
    if not words:
        raise ParseError("Write an action, e.g. 'move vertical secretary' or 'converse store_clerk'.")
    verb = words[0]
    if verb == "move":
        if len(words) < 2 or words[1] not in _DIRECTIONS:
            raise ParseError("Write 'move horizontal CHARACTER' or 'move vertical CHARACTER'.")
        got = _take(words, 2, _CHAR_NAMES)
        if got is None or got[1] != len(words):
            raise ParseError(f"Unknown character in {text.strip()!r}; use one of: {_name_list(_CHAR_NAMES)}.")
        return Action(MOVE, direction=_DIRECTIONS[words[1]], character=got[0])
    if verb in ("converse", "talk"):
        got = _take(words, 1, _CHAR_NAMES)
        if got is None or got[1] != len(words):
            raise ParseError("Write 'converse CHARACTER', e.g. 'converse store_clerk'.")
        return Action(CONVERSE, character=got[0])
    if verb == "ability":
        return Action(ABILITY, **_params(words, 1, text, lookup_player))
    if verb == "friend":
        got = _take(words, 1, _CHAR_NAMES)
        if got is None:
            raise ParseError("Write 'friend FRIEND' and the ability's parameters, e.g. 'friend banker'.")
        return Action(FRIEND, friend=got[0], **_params(words, got[1], text, lookup_player))
    raise ParseError(f"Unknown action {verb!r}: start with move, converse, ability or friend.")


def format_action(action: Action, name_of: Callable[[str], str] = str) -> str:
    """The notation of an action; `name_of` turns a player id into the name people type."""
    if action.kind == MOVE:
        assert action.character is not None, "a move names its character"
        return f"move {action.direction} {action.character.value}"
    if action.kind == CONVERSE:
        assert action.character is not None, "a conversation names its character"
        return f"converse {action.character.value}"
    if action.kind == ABILITY:
        parts = ["ability"]
    else:
        assert action.friend is not None, "a friendship action names its friend"
        parts = ["friend", action.friend.value]
    if action.player is not None:
        parts += ["player", name_of(action.player)]
    if action.target is not None:
        parts.append(action.target.value)
    if action.destination is not None:
        parts.append(action.destination.value)
    return " ".join(parts)


_VERBS = {
    Character.POLICEMAN: "Detain {t}",
    Character.ARMED_GUARD: "Move {t} diagonally",
    Character.STORE_CLERK: "Converse with {t} from afar",
    Character.DETECTIVE: "Investigate {t}'s hidden role",
    Character.GOVERNOR: "Send {t} to {d}",
    Character.BANKER: "Move diagonally",
    Character.GOVERNORS_DAUGHTER: "Summon the Governor here",
}


def describe_action(
    state: GameState, player: str, action: Action, name_of: Callable[[str], str] = str
) -> str:
    """A friendly label, e.g. 'Move The Secretary vertically: Town Hall to Main Street'."""
    pos = state.positions
    if action.kind == MOVE:
        c = action.character
        assert c is not None, "a move names its character"
        from .ids import H_BIT, V_BIT, toggle

        dest = toggle(pos[c], H_BIT if action.direction == HORIZONTAL else V_BIT)
        return f"Move {c.title} {action.direction}ly: {pos[c].title} to {dest.title}"
    if action.kind == CONVERSE:
        assert action.character is not None, "a conversation names its character"
        return f"Converse with {action.character.title}"
    owner = state.own(player) if action.kind == ABILITY else action.friend
    assert owner is not None, "a friendship action names its friend"
    if owner is Character.SECRETARY:
        if action.player is not None:
            text = f"Find out which character {name_of(action.player)} controls"
        else:
            assert action.target is not None, "the Secretary's ability names a player or a target"
            text = f"Find out who controls {action.target.title}"
    elif owner is Character.GOVERNORS_DAUGHTER and not state.governor_alive:
        text = "Summon the Store Clerk here"
    else:
        text = _VERBS[owner].format(
            t=action.target.title if action.target else "",
            d=action.destination.title if action.destination else "",
        )
    return text if action.kind == ABILITY else f"{text} (friend: {owner.title})"


def parse_guess(text: str) -> dict[Character, Role]:
    """`character=role` pairs separated by commas, semicolons or new lines.

    >>> g = parse_guess("banker=mob_boss, the store clerk = none")
    >>> g[Character.STORE_CLERK].value
    'none'
    """
    out: dict[Character, Role] = {}
    for chunk in re.split(r"[,;\n]+", text):
        if not chunk.strip():
            continue
        if "=" not in chunk and ":" not in chunk:
            raise ParseError(f"Write each entry as character=role, got {chunk.strip()!r}.")
        left, _, right = chunk.replace(":", "=").partition("=")
        c = parse_character(left)
        if c in out:
            raise ParseError(f"{c.value} is named twice in the guess.")
        out[c] = parse_role(right)
    return out


def format_guess(guess: dict[Character, Role]) -> str:
    return ", ".join(f"{c.value}={guess[c].value}" for c in CHARACTERS if c in guess)


__all__ = ["parse_action", "format_action", "describe_action", "parse_character", "parse_location",
           "parse_role", "parse_guess", "format_guess", "ROLES"]
