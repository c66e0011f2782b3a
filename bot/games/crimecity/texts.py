"""Texts people read: the board, private results, seats, results and the reveal.

Everything here is pure string building from rules views and results; callers decide who may
see which text. Public texts take only public views (no seat), so they cannot leak a secret.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rules.crimecity import CHARACTERS, LOCATIONS, Character, Location, Role

MAX_CONTENT = 2000
_CHAR_ORDER = {c.value: i for i, c in enumerate(CHARACTERS)}  # the rule book's order
NameOf = Callable[[str | None], str]


def char_title(value: str) -> str:
    return Character(value).title


def role_title(value: str) -> str:
    return Role(value).title


def loc_title(value: str) -> str:
    return Location(value).title


def pair_title(key: str) -> str:
    a, b = key.split("+")
    return f"{char_title(a)} + {char_title(b)}"


def timestamp(epoch: float | None) -> str:
    """A Discord timestamp: shown in each reader's own time zone."""
    if epoch is None:
        return "none"
    return f"<t:{int(epoch)}:f> (<t:{int(epoch)}:R>)"


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def board_lines(view: dict[str, Any]) -> list[str]:
    """One line per location, then the friendship points under their heading, then the dead."""
    lines = []
    for loc in LOCATIONS:
        chars = sorted(view["board"].get(loc.value, []), key=_CHAR_ORDER.get)
        names = ", ".join(char_title(c) for c in chars) if chars else "nobody"
        lines.append(f"**{loc.title}**: {names}")
    lines.append("")
    lines.append("__Friendship points__")
    friendship = view.get("friendship") or {}
    if friendship:
        lines.extend(f"{pair_title(k)}: {v}" for k, v in sorted(friendship.items()))
    else:
        lines.append("none yet")
    dead = view.get("dead") or []
    if dead:
        lines.append("")
        lines.append("Dead: " + ", ".join(f"{char_title(c)} (removed from the board)" for c in dead))
    return lines


def board_text(
    view: dict[str, Any],
    *,
    heading: str,
    submitted: Iterable[str] | None = None,
    footer: str | None = None,
) -> str:
    lines = [heading, *board_lines(view)]
    if submitted is not None:
        names = list(submitted)
        lines.append("")
        lines.append("Submitted: " + (", ".join(names) if names else "nobody yet"))
    if footer:
        lines.append(footer)
    return clip("\n".join(lines))


def seat_text(character: str, role: str, goal: str, garnets: int | None = None) -> str:
    lines = [f"Your character: **{char_title(character)}**"]
    if role == Role.NONE.value:
        lines.append("Your hidden role: none")
    else:
        lines.append(f"Your hidden role: **{role_title(role)}**")
        if goal:
            lines.append(f"Your goal: {goal}")
    if garnets is not None:
        lines.append(f"Garnets: {garnets}")
    return "\n".join(lines)


def private_result_text(item: dict[str, Any], name_of: NameOf) -> str:
    """Q36 wording: investigations and identifications, and goal completions."""
    kind = item.get("kind")
    if kind == "investigation":
        if item["role"] == Role.NONE.value:
            return f"{char_title(item['character'])} has no hidden role."
        return f"{char_title(item['character'])}'s hidden role is {role_title(item['role'])}."
    if kind == "identification":
        if item.get("player") is None:
            return f"{char_title(item['character'])} is not controlled by any player."
        return f"{name_of(item['player'])} controls {char_title(item['character'])}."
    if kind == "goal_complete":
        return "Your goal is complete! Keep playing: nothing more is needed from you for your goal."
    return f"{kind}: {item}"


def results_text(
    results: dict[str, Any],
    name_of: NameOf,
    *,
    ec_seat: str | None,
    early: bool = False,
) -> str:
    """Completion order, ToL, EC and awards (R33), names only."""
    lines = [f"**Crime City — game over after Round {results['ended_after_round']}**"]
    if early:
        lines.append("The host ended the game early.")
    lines.append("")
    lines.append("__Completion order__")
    groups = results.get("completion_order") or []
    if groups:
        for i, group in enumerate(groups, 1):
            lines.append(f"{i}. " + ", ".join(name_of(p) for p in group))
    else:
        lines.append("Nobody completed their goal.")
    tol = results.get("tol") or []
    lines.append("")
    lines.append("ToL: " + (", ".join(name_of(p) for p in tol) if tol else "none"))
    pending = results.get("ec_pending")
    if ec_seat is not None:
        lines.append(f"EC: {name_of(ec_seat)}")
    elif pending:
        how = "unanimously " if pending.get("unanimous") else ""
        lines.append(
            "EC: to be chosen "
            + how
            + "by "
            + ", ".join(name_of(p) for p in pending["deciders"])
            + " among "
            + ", ".join(name_of(p) for p in pending["candidates"])
            + " (with /crimecity ec)"
        )
    lines.append("")
    lines.append("__Garnet awards__")
    awards = results.get("awards") or {}
    final = results.get("final_garnets") or {}
    for seat in sorted(awards, key=lambda s: (-awards[s], name_of(s).casefold())):
        lines.append(f"{name_of(seat)}: +{awards[seat]} (balance {final.get(seat, '?')})")
    return clip("\n".join(lines))


def reveal_text(seats: dict[str, dict[str, str]], order: Iterable[str], name_of: NameOf, unassigned: list[str]) -> str:
    """One line per player: player, character, role."""
    lines = ["__The reveal__"]
    for seat in order:
        s = seats[seat]
        role = "no hidden role" if s["role"] == Role.NONE.value else role_title(s["role"])
        lines.append(f"{name_of(seat)} — {char_title(s['character'])} — {role}")
    if unassigned:
        lines.append("Unassigned: " + ", ".join(char_title(c) for c in unassigned))
    return clip("\n".join(lines))


def cooldown_title(key: str) -> str:
    kind, _, name = key.partition(":")
    what = {"move": "move", "converse": "converse with", "ability": "your ability", "friend": "friend ability of"}
    if kind == "ability":
        return f"your ability ({char_title(name)})"
    return f"{what.get(kind, kind)} {char_title(name)}"


def board_alt(view: dict[str, Any]) -> str:
    """The board picture in words, for screen readers (the attachment's description, at most 1,024)."""
    parts = [f"Crime City board, round {view.get('round')}."]
    for loc in LOCATIONS:
        chars = sorted(view["board"].get(loc.value, []), key=_CHAR_ORDER.get)
        parts.append(f"{loc.title}: " + (", ".join(char_title(c) for c in chars) if chars else "nobody") + ".")
    friendship = view.get("friendship") or {}
    if friendship:
        parts.append(
            "Friendship points: " + ", ".join(f"{pair_title(k)} {v}" for k, v in sorted(friendship.items())) + "."
        )
    else:
        parts.append("No friendship points yet.")
    if view.get("dead"):
        parts.append("Dead: " + ", ".join(char_title(c) for c in view["dead"]) + ".")
    return clip(" ".join(parts), 1024)
