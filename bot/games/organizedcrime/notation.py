"""The action notation of commands.md ("Writing an action"), both ways, and friendlier descriptions.

`write` gives the notation (`step o04`, `declare green:1 left attack yellow`), `read` parses it back into
the rules' action (replay.md without `by`), and `describe` is the display name of a choice ("Step to o04
Mistake — count 2 of 6"). Legality is never decided here: the rules check every action.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.contract import ParseError

from . import names as n
from .names import Names

Action = dict[str, Any]
WORDS = {"callvote": "call_vote", "nopenalty": "no_penalty", "no_penalty": "no_penalty", "call_vote": "call_vote"}
BARE = ("buy_power", "income", "roll", "stop", "pass", "call_vote", "place", "adjourn", "penalty", "no_penalty")


def write(a: Action, names: Names) -> str:
    act = a["act"]
    if act == "base":
        return f"base {a['base']}"
    if act == "buy_hitmen":
        return f"buy hitmen {a['count']}"
    if act == "buy_power":
        return "buy power"
    if act == "buy_official":
        return f"buy official {a['card']}"
    if act == "cash":
        return f"cash {a['card']}"
    if act == "declare":
        text = f"declare {names.piece(a['piece'])} {a['dir']}"
        return text + (f" attack {names.tag(a['attack'])}" if a.get("attack") else "")
    if act == "move":
        return f"move {names.piece(a['piece'])} {a['share']}"
    if act == "step":
        return f"step {a['to']}"
    if act == "rub":
        return f"rub {names.piece(a['target'])}"
    if act == "hit":
        return f"hit {a['card']} " + " ".join(names.piece(t) for t in a["targets"])
    if act == "acquire":
        return f"acquire {names.piece(a['piece'])}"
    if act == "meeting":
        return f"meeting {names.piece(a['piece'])} {a['target']}"
    if act == "give":
        what = a["card"] if "card" in a else str(a["money"])
        return f"give {names.tag(a['to'])} {what}"
    if act == "vote":
        return "vote abstain" if a["side"] == "abstain" else f"vote {a['side']} {a['votes']}"
    if act == "remove":
        return "remove " + " ".join(names.piece(p) for p in a["pieces"])
    return {"call_vote": "callvote", "no_penalty": "nopenalty"}.get(act, str(act))


def read(text: str, names: Names, me: str, lookup: Callable[[str], str | None] | None = None) -> Action:
    """The action a notation text stands for (any case, words separated by spaces)."""
    words = text.strip().split()
    if not words:
        raise ParseError("no action given")
    head = words[0].casefold()
    rest = words[1:]

    def piece(w: str) -> str:
        return names.parse_piece(w, me, lookup)

    def need(k: int) -> None:
        if len(rest) < k:
            raise ParseError(f"{head} needs {k} more word{'s' if k > 1 else ''}: {text.strip()!r}")

    def only(k: int) -> None:
        """Nothing may follow the `k` words read: a word left over is a mistake, not something to drop."""
        if len(rest) > k:
            raise ParseError(f"{' '.join(rest[k:])[:60]!r} is not part of a {head} ({text.strip()[:100]!r})")

    act = WORDS.get(head, head)
    if act in BARE and not rest:
        return {"act": act}
    if act == "buy":
        need(1)
        what = rest[0].casefold()
        if what == "power":
            only(1)
            return {"act": "buy_power"}
        need(2)
        if what in ("hitmen", "official"):
            only(2)
        if what == "hitmen":
            return {"act": "buy_hitmen", "count": _int(rest[1])}
        if what == "official":
            return {"act": "buy_official", "card": n.parse_card(rest[1])}
    if act == "base":
        need(1)
        only(1)
        return {"act": "base", "base": _int(rest[0])}
    if act == "cash":
        need(1)
        only(1)
        return {"act": "cash", "card": n.parse_card(rest[0])}
    if act == "declare":
        need(2)
        out: Action = {"act": "declare", "piece": piece(rest[0]), "dir": rest[1].casefold(), "attack": None}
        if len(rest) >= 4 and rest[2].casefold() == "attack":
            out["attack"] = names.seat_of(" ".join(rest[3:]), lookup)
        elif len(rest) > 2:
            raise ParseError("a declaration reads: declare PIECE right|left [attack PLAYER]")
        return out
    if act == "move":
        need(2)
        only(2)
        return {"act": "move", "piece": piece(rest[0]), "share": _int(rest[1])}
    if act == "step":
        need(1)
        return {"act": "step", "to": n.parse_space(" ".join(rest))}
    if act == "rub":
        need(1)
        only(1)
        return {"act": "rub", "target": piece(rest[0])}
    if act == "hit":
        need(2)
        return {"act": "hit", "card": n.parse_card(rest[0]), "targets": [piece(w) for w in rest[1:]]}
    if act == "acquire":
        need(1)
        only(1)
        return {"act": "acquire", "piece": piece(rest[0])}
    if act == "meeting":
        need(2)
        return {"act": "meeting", "piece": piece(rest[0]), "target": n.parse_target(" ".join(rest[1:]))}
    if act == "give":
        need(2)
        only(2)
        to = names.seat_of(rest[0], lookup)
        what = rest[1]
        if what.replace(",", "").lstrip("$").isdigit():
            return {"act": "give", "to": to, "money": _int(what)}
        return {"act": "give", "to": to, "card": n.parse_card(what)}
    if act == "vote":
        need(1)
        side = rest[0].casefold()
        if side == "abstain":
            only(1)
            return {"act": "vote", "side": "abstain"}
        need(2)
        only(2)
        return {"act": "vote", "side": side, "votes": _int(rest[1])}
    if act == "remove":
        need(1)
        return {"act": "remove", "pieces": [piece(w) for w in rest]}
    raise ParseError(f"{text.strip()!r} is not an action (see /organizedcrime rules topic:turn)")


def read_pieces(text: str, names: Names, me: str, lookup: Callable[[str], str | None] | None = None) -> list[str]:
    """`green:3 green:4` (commas allowed)."""
    words = text.replace(",", " ").split()
    if not words:
        raise ParseError("no pieces given")
    return [names.parse_piece(w, me, lookup) for w in words]


def _int(word: str) -> int:
    clean = word.replace(",", "").replace("_", "").lstrip("$")
    if not (clean.isascii() and clean.isdigit()) or len(clean) > 12:
        raise ParseError(f"{word!r} is not a whole number")
    return int(clean)


def describe(a: Action, names: Names, public: dict[str, Any] | None = None, *, ids: bool = True) -> str:
    """A choice's display name, in words (at most one line). `ids` False: cards by title only, for
    component labels, which must carry no card id (a hand is secret)."""
    act = a["act"]
    card = n.card if ids else n.card_title
    path = ((public or {}).get("turn_state") or {}).get("path") or {}
    if act == "base":
        base = n.content().bases[a["base"]]
        return f"{a['base']} — {base.colour}, doors at {'/'.join(base.entries)}"
    if act == "buy_hitmen":
        k = a["count"]
        return f"Buy {k} Hit-{'Man' if k == 1 else 'Men'} ({n.money(k * n.content().n('man_price'))})"
    if act == "buy_power":
        return f"Buy a Power card ({n.money(n.content().n('power_price'))})"
    if act == "buy_official":
        info = n.content().cards[a["card"]]
        cost = info.price + n.content().n("man_price")
        shown = f" with {n.card(a['card'])}" if ids else ""
        return f"Buy a {n.target(info.office)}{shown} ({n.money(cost)} with the Marker)"
    if act == "income":
        return "Collect your income"
    if act == "cash":
        return f"Cash {card(a['card'])} ({n.money(n.content().cards[a['card']].amount)})"
    if act == "declare":
        text = f"Declare {names.piece(a['piece'])}{' (Boss)' if n.number(a['piece']) == 0 else ''} {a['dir']}"
        return text + (f", attacking {names.player(a['attack'])}" if a.get("attack") else "")
    if act == "roll":
        return "Roll the dice"
    if act == "move":
        return f"Move {names.piece(a['piece'])} with {a['share']}"
    if act == "step":
        count = int(path.get("used", 0)) + 1
        return f"Step to {n.space(a['to'])} — count {count} of {path.get('share', '?')}"
    if act == "rub":
        count = int(path.get("used", 0)) + 1
        return f"Rub out {names.piece(a['target'])} — count {count} of {path.get('share', '?')}"
    if act == "hit":
        return f"Play {card(a['card'])} on {names.pieces(a['targets'])} (no count)"
    if act == "stop":
        return "Stop here"
    if act == "acquire":
        return f"Acquire the City {names.piece(a['piece'])} landed on (no vote)"
    if act == "meeting":
        return f"Call a meeting: {names.piece(a['piece'])} asks for {n.target(a['target'])}"
    if act == "pass":
        return "Pass the dice (end your turn)"
    if act == "give":
        what = card(a["card"]) if "card" in a else n.money(a["money"])
        return f"Give {what} to {names.player(a['to'])}"
    if act == "call_vote":
        return "Call the vote"
    if act == "vote":
        if a["side"] == "abstain":
            return "Abstain"
        return f"Vote {a['side']} with {a['votes']} vote{'' if a['votes'] == 1 else 's'}"
    if act == "place":
        return "Place the approved Marker"
    if act == "adjourn":
        return "Adjourn the meeting"
    if act == "remove":
        return f"Remove {names.pieces(a['pieces'])}"
    if act == "penalty":
        return "Call a penalty"
    if act == "no_penalty":
        return "Decline the penalty"
    return act
