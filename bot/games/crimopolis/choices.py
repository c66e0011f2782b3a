"""The caller's legal choices, as autocomplete and panels offer them (commands.md "Writing an action").

Every list starts from `rules.crimopolis.legal.legal_actions` (the rules decide what is legal); here it is only
named, ordered (decision answers, job, takeover, occupy, move, recruit, fortune, invest, abort, redraw, end, then
the rules' order), filtered by what was typed and by the options already given, and cut to Discord's 25.
Legal lists are kept per (game, version, seat): the state only changes with a new version, so autocomplete
answers from memory while the decision is open.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.crimopolis.engine import effective, move_cost
from rules.crimopolis.legal import legal_actions

from . import names as nm
from .names import Names, hours
from .notation import format_action, sources_text
from .pack import PACK
from .public import public_view

MAX = 25
NAME_MAX = VALUE_MAX = 100
ORDER = ("answer", "job", "takeover", "occupy", "move", "recruit", "fortune", "invest", "abort", "redraw", "end")
TURN_KINDS = ("move", "recruit", "occupy", "takeover", "job", "abort", "invest", "fortune", "redraw", "end")
KIND_TITLES = {
    "move": "Move",
    "recruit": "Recruit",
    "occupy": "Occupy",
    "takeover": "Take over",
    "job": "Job",
    "abort": "Abort a job",
    "invest": "Invest",
    "fortune": "Play a fortune",
    "redraw": "Redraw jobs",
    "end": "End the turn",
}


@dataclass(frozen=True, slots=True)
class Choice:
    action: dict[str, Any]
    value: str  # the notation
    name: str  # what people read, with the cost

    @property
    def kind(self) -> str:
        return str(self.action["kind"])


class LegalCache:
    """Legal actions by (game id, state version, seat); a few hundred entries at most. An entry keeps the state
    it was computed from and counts only for that very object (two databases in one process reuse game ids)."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._items: OrderedDict[tuple[int, int, str], tuple[Any, list[dict[str, Any]]]] = OrderedDict()

    def clear(self) -> None:
        self._items.clear()

    def get(self, game_id: int, version: int, seat: str, state: Any) -> list[dict[str, Any]]:
        key = (game_id, version, seat)
        found = self._items.get(key)
        if found is not None and found[0] is state:
            self._items.move_to_end(key)
            return found[1]
        actions = legal_actions(PACK.game.content, state, seat)
        self._items[key] = (state, actions)
        if len(self._items) > self.size:
            self._items.popitem(last=False)
        return actions


LEGAL = LegalCache()


class ChoiceCache:
    """Named and ordered choices by (game, version, seat, the seats' shown names): autocomplete answers from
    memory while a decision is open (commands.md: computed when the decision opened)."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._items: OrderedDict[tuple[Any, ...], tuple[Any, list[Choice]]] = OrderedDict()

    def clear(self) -> None:
        self._items.clear()

    def get(self, game_id: int, version: int, seat: str, state: Any, roster: Any) -> list[Choice]:
        names = tuple(roster.name_of(s) for s in roster.seats)
        key = (game_id, version, seat, names)
        found = self._items.get(key)
        if found is not None and found[0] is state:
            self._items.move_to_end(key)
            return found[1]
        from .names import Names

        actions = LEGAL.get(game_id, version, seat, state)
        made = choices(actions, state, seat, Names(roster.name_of, public_view(state)), roster.name_of)
        self._items[key] = (state, made)
        if len(self._items) > self.size:
            self._items.popitem(last=False)
        return made


CHOICES = ChoiceCache()
for _cache in (LEGAL, CHOICES):  # computed from the content
    PACK.on_change(_cache.clear)


def rank(action: Mapping[str, Any]) -> int:
    kind = str(action["kind"])
    return ORDER.index(kind) if kind in ORDER else 0  # every other kind answers a decision


def ordered(actions: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """By kind (commands.md's order), then in the rules' `legal` order (a stable sort keeps it)."""
    return sorted(actions, key=rank)


def describe(a: Mapping[str, Any], state: Any, seat: str, n: Names) -> str:
    """The friendly name of a legal action, with its cost (at most 100 characters)."""
    c = PACK.game.content
    kind = a["kind"]
    me = seat
    if kind == "move":
        cost = move_cost(state, seat, a["to"])
        text = f"Move {a['count']} from {n.place(a['from'], me=me)} to {n.place(a['to'], me=me)} — {hours(cost)}"
    elif kind == "recruit":
        where = "your Headquarters" if a["to"] == "hq" else "your Safe House"
        text = f"Recruit into {where} — 2 hours"
    elif kind == "occupy":
        text = f"Occupy {n.block(a['block'])} from {sources_text(a['from'])} — 3 hours"
    elif kind == "takeover":
        text = f"Take over {n.block(a['block'])} from {sources_text(a['from'])} — 3 h, +1 prestige"
    elif kind == "job":
        g, h, p = effective(c, a["card"], a["fortunes"])
        del g
        with_ = f" with {', '.join(nm.card_title(f) for f in a['fortunes'])}" if a["fortunes"] else ""
        text = (
            f"Job {nm.card(a['card'])} at {n.block(a['block'])} from {sources_text(a['from'])}{with_} — "
            f"{h} h, {p} prestige"
        )
    elif kind == "abort":
        text = f"Abort {nm.card(a['card'])} (draw 2, keep 1) — 3 hours"
    elif kind == "invest":
        text = "Invest: draw a fortune — 2 hours"
    elif kind == "redraw":
        text = "Redraw your two jobs of one location — 0 hours"
    elif kind == "end":
        text = "End the turn (the hours left pass on)"
    elif kind == "fortune":
        param = ""
        if "to" in a:
            param = " → your " + ("Headquarters" if a["to"] == "hq" else "Safe House")
        elif "block" in a:
            param = f" on {n.block(a['block'], me=me)}"
        elif "street" in a:
            param = f" on {a['street']}"
        elif "target" in a:
            param = f" against {n.name(a['target'])}"
        text = f"Play {nm.card(a['card'])}{param} — 0 hours"
    elif kind == "place_hq":
        text = f"Place your Headquarters on {a['cell']}"
    elif kind == "setup_tile":
        side = f", block side {a['block_side']}" if a.get("block_side") else ""
        text = f"Place {nm.tile(a['tile'])} on {a['cell']}{side}"
    elif kind == "explore":
        if a["tile"] is None:
            text = "Place nothing (no revealed tile fits)"
        else:
            side = f", block side {a['block_side']}" if a.get("block_side") else ""
            text = f"Place {nm.tile(a['tile'])}{side}"
    elif kind == "keep":
        text = f"Keep {nm.job_detail(a['card'])}"
    elif kind == "target":
        text = f"Aim it at {n.who(a['player'])}"
    elif kind == "react":
        text = "No reaction" if a["card"] is None else f"React with {nm.card(a['card'])}"
    elif kind == "destiny":
        text = f"Execute the destiny {nm.card(a['card'])}"
    else:
        text = str(kind)
    return text if len(text) <= NAME_MAX else text[: NAME_MAX - 1] + "…"


def choices(
    actions: Sequence[dict[str, Any]], state: Any, seat: str, n: Names, name: Callable[[str], str]
) -> list[Choice]:
    """Every action as a choice, in commands.md's order (values longer than Discord allows are left out)."""
    out = []
    for a in ordered(actions):
        value = format_action(a, name)
        if len(value) <= VALUE_MAX:
            out.append(Choice(a, value, describe(a, state, seat, n)))
    return out


def typed(current: str, choice: Choice) -> bool:
    """Every word typed appears in the value or the name (any case, `_` as a space)."""
    hay = f"{choice.value} {choice.name}".casefold().replace("_", " ")
    return all(word in hay for word in current.casefold().replace("_", " ").split())


def pick(found: Iterable[Choice], current: str, limit: int = MAX) -> list[Choice]:
    out = []
    for choice in found:
        if typed(current, choice):
            out.append(choice)
            if len(out) >= limit:
                break
    return out


def distinct(values: Iterable[tuple[str, str]], current: str, limit: int = MAX) -> list[tuple[str, str]]:
    """(name, value) pairs without repeats, filtered by what was typed."""
    seen: set[str] = set()
    out = []
    want = current.casefold().replace("_", " ").split()
    for name, value in values:
        if value in seen:
            continue
        seen.add(value)
        hay = f"{value} {name}".casefold().replace("_", " ")
        if all(w in hay for w in want):
            out.append((name[:NAME_MAX], value[:VALUE_MAX]))
            if len(out) >= limit:
                break
    return out
