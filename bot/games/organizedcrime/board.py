"""The text board (commands.md "What people read") and the picture's alt text, from the public view only.

The heading names the turn, the round and the decision; then one line per player (colour, money, votes,
unused Men, cards held per deck, debts, holdings), one line per occupied space naming its pieces, the
decks (face-down count, last face-up card), and the meeting in progress.
"""

from __future__ import annotations

from typing import Any

from . import names as n
from .events import DECISIONS, ballot_words, issue_text, turn_heading
from .names import Names

MAX_ALT = 1000  # Discord allows 1,024 characters of attachment description


def heading(public: dict[str, Any], names: Names) -> str:
    phase = public.get("phase")
    if phase == "choose_base" or (not public.get("turn") and phase != "over"):
        return "Setting up — the Home Base choice"
    if phase == "over":
        return f"Turn {public['turn']} · Round {public['round']} — the game is over"
    head = turn_heading(public["turn"], public["round"], public.get("active"), names)
    what = DECISIONS.get(phase or "", "between turns")
    return f"{head} · now: {what}"


def turns(k: int) -> str:
    """'1 turn', '2 turns'."""
    return f"{k} turn{'' if k == 1 else 's'}"


def holdings(pl: dict[str, Any]) -> str:
    parts = [n.target(c) for c in pl.get("cities") or []]
    for group in ("business", "illegal", "officials"):
        parts += [f"{n.target(k)} ×{v}" if v > 1 else n.target(k) for k, v in (pl.get(group) or {}).items()]
    return ", ".join(parts) or "nothing"


def player_line(seat: str, pl: dict[str, Any], public: dict[str, Any], names: Names) -> str:
    who = names.full(seat)
    if not pl.get("alive", True):
        e = pl.get("eliminated") or {}
        return f"~~{who}~~ — out (turn {e.get('turn', '?')})"
    cards = pl.get("cards") or {}
    debts = [d for d in public.get("debts") or [] if d["debtor"] == seat]
    owed = ", ".join(f"{names.player(d['creditor'])} {n.money(d['amount'])}" for d in debts)
    owes = f"; owes {owed}" if debts else ""
    limits = pl.get("limits") or []
    limit = "; vote-limit " + ", ".join(f"{x['card']} ({turns(x['turns_left'])})" for x in limits) if limits else ""
    return (f"**{who}** — {n.money(pl['money'])} · {pl['votes']} vote{'s' if pl['votes'] != 1 else ''} · "
            f"{pl['men_left']} Men unused · cards {cards.get('power', 0)} Power, {cards.get('official', 0)} CO"
            f"{owes} · holds {holdings(pl)}{limit}")


def occupied(public: dict[str, Any]) -> dict[str, list[str]]:
    """Space -> pieces on it (canonical order: seat order, then number)."""
    found: dict[str, list[str]] = {}
    for pl in (public.get("players") or {}).values():
        for piece, space in sorted(pl.get("pieces", {}).items(), key=lambda kv: n.number(kv[0])):
            found.setdefault(space, []).append(piece)
    return dict(sorted(found.items()))


def space_lines(public: dict[str, Any], names: Names) -> list[str]:
    return [f"{sid} {n.space_name(sid)}: {names.pieces(pieces)}" for sid, pieces in occupied(public).items()]


def deck_line(public: dict[str, Any]) -> str:
    parts = []
    for deck, d in (public.get("decks") or {}).items():
        last = f" (last up: {n.card(d['discard'][-1])})" if d.get("discard") else ""
        parts.append(f"{n.deck_name(deck)} {d['facedown']}{last}")
    return "Decks (face down): " + " · ".join(parts)


def meeting_lines(public: dict[str, Any], names: Names) -> list[str]:
    mt = public.get("meeting")
    if not mt:
        window = public.get("window")
        if window:
            waiting = [o["player"] for o in window["offended"] if o["answer"] == "undecided"]
            return [f"Penalty window on {names.player(window['offender'])}: waiting for "
                    + (", ".join(names.player(s) for s in waiting) or "nobody")]
        return []
    lines = [f"Meeting {mt['id']} ({mt['phase'].replace('_', ' ')}): {issue_text(mt['caller'], mt['issue'], names)}"]
    if mt.get("order"):
        ent = mt.get("entitlements") or {}
        lines.append("Voting order: " + ", ".join(f"{names.player(s)} {ent.get(s, 0)}" for s in mt["order"]))
        if mt.get("ballots"):
            lines.append("Ballots: " + ", ".join(f"{names.player(b['player'])} {ballot_words(b['side'], b['votes'])}"
                                                  for b in mt["ballots"]))
        elif mt.get("voted"):
            lines.append("Voted (sealed): " + ", ".join(names.player(s) for s in mt["voted"]))
    if mt.get("result"):
        r = mt["result"]
        lines.append(f"Result: {'carried' if r['carried'] else 'failed'}, {r['for']} to {r['against']}")
    return lines


def turn_line(public: dict[str, Any], names: Names) -> str | None:
    """This turn so far: the dice, the movers (direction, attack, share, where they are in their move)."""
    ts = public.get("turn_state")
    if not ts or public.get("phase") in ("over", "choose_base"):
        return None
    parts = []
    if ts.get("dice"):
        parts.append("dice " + " + ".join(map(str, ts["dice"])))
    for m in ts.get("movers") or []:
        attack = f" attacking {names.player(m['attack'])}" if m.get("attack") else ""
        share = f" with {m['share']}" if m.get("share") else ""
        parts.append(f"{names.piece(m['piece'])} {m['dir']}{attack}{share} ({m['status']})")
    path = ts.get("path")
    if path:
        parts.append(f"moving: count {path['used']} of {path['share']}")
    return ("This turn: " + " · ".join(parts)) if parts else None


def board_text(public: dict[str, Any], names: Names, *, title: bool = True) -> str:
    lines = [f"**{heading(public, names)}**"] if title else []
    now = turn_line(public, names)
    if now:
        lines.append(now)
    for seat, pl in (public.get("players") or {}).items():
        lines.append(player_line(seat, pl, public, names))
    spaces = space_lines(public, names)
    if spaces:
        lines.append("")
        lines.extend(spaces)
    lines.append("")
    lines.append(deck_line(public))
    lines.extend(meeting_lines(public, names))
    return "\n".join(lines)


def alt_text(public: dict[str, Any], names: Names) -> str:
    """What the picture shows, in words: the turn, then each player's pieces and Cities."""
    parts = [f"Organized Crime board, {heading(public, names)}."]
    for seat, pl in (public.get("players") or {}).items():
        if not pl.get("alive", True):
            parts.append(f"{names.full(seat)}: out.")
            continue
        where: dict[str, list[int]] = {}
        for piece, space in pl.get("pieces", {}).items():
            where.setdefault(space, []).append(n.number(piece))
        pieces = "; ".join(f"{_group(nums)} on {sid}" for sid, nums in sorted(where.items()))
        cities = ", ".join(n.target(c) for c in pl.get("cities") or [])
        parts.append(f"{names.full(seat)}: {pieces or 'no piece'}" + (f"; owns {cities}" if cities else "") + ".")
    text = " ".join(parts)
    return text if len(text) <= MAX_ALT else text[: MAX_ALT - 1] + "…"


def _group(numbers: list[int]) -> str:
    """`Boss and 2 Hit-Men`, `a Hit-Man`, `Boss`."""
    men = len([x for x in numbers if x])
    parts = ["Boss"] if 0 in numbers else []
    if men:
        parts.append("a Hit-Man" if men == 1 else f"{men} Hit-Men")
    return " and ".join(parts)
