"""The panel and the decision prompts as plain data (no Discord types): what each row offers, built from the
caller's legal actions (`choices.LEGAL`) and what they picked so far (kept in the host's panel row).

- The **turn panel** (commands.md "The panel"): row 1 the kinds legal now, rows 2-4 the chosen kind's
  parameters in order, row 5 Submit / Refresh / Cancel. A select lists at most 25 options: with more it lists
  24 and **More…**, which shows the next 24.
- A **decision prompt** (setup, explore, keep, target, react, destiny): one button per legal answer when there
  are at most 20, otherwise one select and Submit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import names as nm
from .choices import KIND_TITLES, TURN_KINDS, Choice, choices, describe
from .names import Names
from .notation import format_action, sources_text

PAGE = 24  # options per page when a select needs More…
MORE = "__more__"
MAX_BUTTONS = 20
PARAMS = ("to", "block", "street", "target")
LABEL_MAX = 80
OPTION_MAX = 100


@dataclass(frozen=True, slots=True)
class Option:
    label: str
    value: str
    default: bool = False
    description: str = ""


@dataclass(frozen=True, slots=True)
class Select:
    part: str
    placeholder: str
    options: list[Option]
    min_values: int = 1
    max_values: int = 1


@dataclass(frozen=True, slots=True)
class Button:
    part: str
    label: str
    style: str = "secondary"  # primary, secondary, success, danger
    disabled: bool = False


Row = list[Select] | list[Button]


@dataclass(frozen=True, slots=True)
class Screen:
    game_id: int
    nonce: str
    text: str
    rows: list[Row] = field(default_factory=list)

    def strings(self) -> list[str]:
        out = [self.text]
        for row in self.rows:
            for item in row:
                if isinstance(item, Select):
                    out += [item.placeholder, *(o.label for o in item.options), *(o.value for o in item.options)]
                else:
                    out.append(item.label)
        return out


def paged(options: Sequence[Option], page: int) -> tuple[list[Option], int]:
    """At most 25 options: 24 of them and More… when there are more (the page wraps around)."""
    if len(options) <= 25:
        return list(options), 0
    pages = -(-len(options) // PAGE)
    page %= pages
    shown = list(options[page * PAGE : (page + 1) * PAGE])
    return shown + [Option("More…", MORE, description=f"page {page + 1} of {pages}: show the next {PAGE}")], page


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---- the turn panel ----------------------------------------------------------------------------------


def turn_params(kind: str, actions: Sequence[dict[str, Any]], picks: list[Any], n: Names, seat: str) -> list[Select]:
    """The parameter selects of `kind`, each offering what fits the picks before it."""
    acts = [a for a in actions if a["kind"] == kind]

    def opts(values: list[tuple[str, str]], chosen: Any) -> list[Option]:
        seen: dict[str, str] = {}
        for label, value in values:
            seen.setdefault(value, label)
        return [Option(clip(label, OPTION_MAX), value, default=value == chosen) for value, label in seen.items()]

    p = (picks + [None, None, None])[:3]
    out: list[Select] = []
    if kind == "move":
        out.append(Select("p1", "From", opts([(n.place(a["from"], me=seat), a["from"]) for a in acts], p[0])))
        if p[0] is not None:
            tos = [a for a in acts if a["from"] == p[0]]
            out.append(Select("p2", "To", opts([(n.place(a["to"], me=seat), a["to"]) for a in tos], p[1])))
            if p[1] is not None:
                counts = [a for a in tos if a["to"] == p[1]]
                out.append(Select("p3", "How many", opts([(str(a["count"]), str(a["count"])) for a in counts], p[2])))
    elif kind == "recruit":
        where = {"hq": "your Headquarters", "safe_house": "your Safe House"}
        out.append(Select("p1", "Where", opts([(where[a["to"]], a["to"]) for a in acts], p[0])))
    elif kind in ("occupy", "takeover"):
        out.append(Select("p1", "Block", opts([(n.block(a["block"]), a["block"]) for a in acts], p[0])))
        if p[0] is not None:
            src = [sources_text(a["from"]) for a in acts if a["block"] == p[0]]
            out.append(Select("p2", "From the streets", opts([(s, s) for s in src], p[1])))
    elif kind == "job":
        pairs = [(f"{nm.card(a['card'])} at {n.block(a['block'])}", f"{a['card']} {a['block']}") for a in acts]
        out.append(Select("p1", "Job and block", opts(pairs, p[0])))
        if p[0] is not None:
            card, _, block = str(p[0]).partition(" ")
            fits = [a for a in acts if a["card"] == card and a["block"] == block]
            src = [sources_text(a["from"]) for a in fits]
            out.append(Select("p2", "From the streets", opts([(s, s) for s in src], p[1])))
            if p[1] is not None:
                fortunes = sorted({f for a in fits if sources_text(a["from"]) == p[1] for f in a["fortunes"]})
                if fortunes:
                    chosen = set(p[2] or [])
                    options = [Option(clip(nm.card(f), OPTION_MAX), f, default=f in chosen) for f in fortunes]
                    out.append(Select("p3", "Job fortunes (none is fine)", options, 0, len(options)))
    elif kind == "abort":
        out.append(Select("p1", "Which job", opts([(nm.card(a["card"]), a["card"]) for a in acts], p[0])))
    elif kind == "fortune":
        out.append(Select("p1", "Which fortune", opts([(nm.card(a["card"]), a["card"]) for a in acts], p[0])))
        if p[0] is not None:
            params = []
            for a in acts:
                if a["card"] != p[0]:
                    continue
                for key in ("to", "block", "street", "target"):
                    if key in a:
                        label = {
                            "to": {"hq": "your Headquarters", "safe_house": "your Safe House"}.get(a[key], a[key]),
                            "block": n.block(a[key], me=seat) if key == "block" else "",
                            "street": a[key],
                            "target": n.name(a[key]) if key == "target" else "",
                        }[key]
                        params.append((label, a[key]))
            if params:
                out.append(Select("p2", "On what / whom", opts(params, p[1])))
    return out


def turn_action(kind: str, picks: list[Any], actions: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The action the picks make (None until they are complete); the rules check it on Submit."""
    p = (picks + [None, None, None])[:3]
    acts = [a for a in actions if a["kind"] == kind]
    if kind in ("invest", "redraw", "end"):
        return {"kind": kind} if acts else None
    if kind == "move" and None not in p:
        return {"kind": "move", "from": p[0], "to": p[1], "count": int(p[2])}
    if kind == "recruit" and p[0] is not None:
        return {"kind": "recruit", "to": p[0]}
    if kind in ("occupy", "takeover") and p[0] is not None and p[1] is not None:
        found = next((a for a in acts if a["block"] == p[0] and sources_text(a["from"]) == p[1]), None)
        return None if found is None else dict(found)
    if kind == "job" and p[0] is not None and p[1] is not None:
        card, _, block = str(p[0]).partition(" ")
        fortunes = sorted(p[2] or [])
        for a in acts:
            if a["card"] == card and a["block"] == block and sources_text(a["from"]) == p[1]:
                return {**a, "fortunes": fortunes}
        return None
    if kind == "abort" and p[0] is not None:
        return {"kind": "abort", "card": p[0]}
    if kind == "fortune" and p[0] is not None:
        for a in acts:
            param = next((a[k] for k in PARAMS if k in a), None)
            if a["card"] == p[0] and (param is None or param == p[1]):
                return dict(a)
    return None


def turn_screen(
    game_id: int,
    nonce: str,
    actions: Sequence[dict[str, Any]],
    data: dict[str, Any],
    state: Any,
    seat: str,
    n: Names,
    head: str,
) -> Screen:
    kinds = [k for k in TURN_KINDS if any(a["kind"] == k for a in actions)]
    kind = data.get("kind") if data.get("kind") in kinds else None
    picks = list(data.get("picks") or [])
    pages = list(data.get("pages") or [0, 0, 0, 0])
    counts = {k: sum(1 for a in actions if a["kind"] == k) for k in kinds}
    kind_opts = [Option(f"{KIND_TITLES[k]} ({counts[k]})", k, default=k == kind) for k in kinds]
    rows: list[Row] = [[Select("kind", "What to do", kind_opts)]]
    lines = [head]
    action = None
    if kind is not None:
        for i, sel in enumerate(turn_params(kind, actions, picks, n, seat), 1):
            shown, _ = paged(sel.options, pages[i] if i < len(pages) else 0)
            rows.append([Select(sel.part, sel.placeholder, shown, sel.min_values, min(sel.max_values, len(shown)))])
        action = turn_action(kind, picks, actions)
    if action is not None:
        lines.append(f"Ready: **{describe(action, state, seat, n)}** — press Submit.")
    elif kind is None:
        lines.append("Choose what to do, then its details, then Submit.")
    else:
        lines.append(f"{KIND_TITLES[kind]}: choose the details below, then Submit.")
    rows.append(
        [
            Button("go", "Submit", "success", disabled=action is None),
            Button("refresh", "Refresh"),
            Button("cancel", "Cancel", "danger"),
        ]
    )
    return Screen(game_id, nonce, "\n".join(lines), rows)


# ---- decision prompts --------------------------------------------------------------------------------


def answer_choices(actions: Sequence[dict[str, Any]], state: Any, seat: str, n: Names, name: Any) -> list[Choice]:
    found = choices(actions, state, seat, n, name)
    # No reaction first (the rules' sort puts it last): the default, and the answer most often given.
    return sorted(found, key=lambda c: 0 if c.action.get("kind") == "react" and c.action.get("card") is None else 1)


def answer_screen(
    game_id: int, nonce: str, found: Sequence[Choice], data: dict[str, Any], head: str, *, buttons: bool = True
) -> Screen:
    rows: list[Row] = []
    lines = [head]
    if not found:
        lines.append("Nothing to answer here.")
        return Screen(game_id, nonce, "\n".join(lines), [[Button("refresh", "Refresh")]])
    if buttons and len(found) <= MAX_BUTTONS:
        row: list[Button] = []
        for i, choice in enumerate(found):
            style = "primary" if i == 0 else "secondary"
            row.append(Button(f"a{i}", clip(choice.name, LABEL_MAX), style))
            if len(row) == 5:
                rows.append(row)
                row = []
        if row:
            rows.append(row)
        rows.append([Button("refresh", "Refresh")])
        lines.append("Press the button of your answer.")
    else:
        chosen = data.get("pick")  # the notation of the answer picked (option values carry the notation)
        options = [Option(clip(c.name, OPTION_MAX), c.value, default=c.value == chosen) for c in found]
        shown, _ = paged(options, int(data.get("apage", 0)))
        rows.append([Select("pick", "Your answer", shown)])
        picked = next((c for c in found if c.value == chosen), None)
        rows.append([Button("go", "Submit", "success", disabled=picked is None), Button("refresh", "Refresh")])
        if picked is not None:
            lines.append(f"Ready: **{picked.name}** — press Submit.")
        else:
            lines.append("Choose your answer, then Submit.")
    return Screen(game_id, nonce, "\n".join(lines), rows)


def notation_of(found: Sequence[Choice]) -> list[str]:
    return [c.value for c in found]


def as_notation(a: dict[str, Any], name: Any) -> str:
    return format_action(a, name)
