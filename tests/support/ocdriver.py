"""Driving Organized Crime through the bot as members would: a rules action (picked by the tests, e.g.
with `rules.organizedcrime.policy`) played as the matching `/organizedcrime` command, or as clicks on
the member's panel. The rules' view is read only to choose what to play, never to check what was seen.
"""

from __future__ import annotations

import json
from random import Random
from typing import Any

from bot.games.organizedcrime.names import Names
from bot.games.organizedcrime.notation import describe, write
from bot.games.organizedcrime.panel import BUTTONS
from rules.contract import NoChance
from rules.organizedcrime.engine import Engine
from rules.organizedcrime.game import GAME
from rules.organizedcrime.policy import random_action
from tests.support.octable import oc, seats, state_of
from tests.support.table import Table

COMPLETED = 0  # autocomplete checks made (all tests of the session)
BUTTON_OF = {json.dumps(a, sort_keys=True): part for part, (_l, a, _s) in BUTTONS.items()}


async def names_of(t: Table, state: Any) -> Names:
    """The names the bot shows (display names are unique at the test table)."""
    game = await t.bot.db.fetchone("SELECT id FROM games ORDER BY id DESC LIMIT 1")
    found = await t.bot.db.fetchall("SELECT seat, display_name FROM seats WHERE game_id = ?", (game["id"],))
    shown = {r["seat"]: r["display_name"] for r in found}
    return Names(GAME.view(state, None), lambda s: shown.get(s, s))


def command_for(action: dict[str, Any], names: Names, members: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The slash command (and options) that plays `action`."""
    a = action
    act = a["act"]
    piece = names.piece
    if act == "base":
        return "base", {"home": str(a["base"])}
    if act == "buy_hitmen":
        return "buy hitmen", {"count": a["count"]}
    if act == "buy_power":
        return "buy power", {}
    if act in ("buy_official", "cash"):
        return ("buy official" if act == "buy_official" else "cash"), {"card": a["card"]}
    if act == "declare":
        opts: dict[str, Any] = {"piece": piece(a["piece"]), "direction": a["dir"]}
        if a.get("attack"):
            opts["attack"] = members[a["attack"]]
        return "declare", opts
    if act == "move":
        return "move", {"piece": piece(a["piece"]), "share": a["share"]}
    if act in ("step", "rub", "hit", "stop"):
        return "path", {"item": write(a, names)}
    if act == "acquire":
        return "acquire", {"piece": piece(a["piece"])}
    if act == "meeting":
        return "meeting call", {"piece": piece(a["piece"]), "target": a["target"]}
    if act == "give":
        what = {"card": a["card"]} if "card" in a else {"money": a["money"]}
        return "meeting give", {"player": members[a["to"]], **what}
    if act == "call_vote":
        return "meeting callvote", {}
    if act in ("place", "adjourn"):
        return f"meeting {act}", {}
    if act == "vote":
        return "vote", {"side": a["side"], **({"votes": a["votes"]} if "votes" in a else {})}
    if act == "remove":
        return "remove", {"pieces": " ".join(piece(p) for p in a["pieces"])}
    if act in ("penalty", "no_penalty"):
        return "penalty", {"call": act == "penalty"}
    return act.replace("_", " "), {}


async def by_command(t: Table, seat: str, action: dict[str, Any], state: Any, *, dm: bool = False) -> Any:
    members = await seats(t)
    command, options = command_for(action, await names_of(t, state), members)
    return await oc(t, members[seat], command, dm=dm, **options)


def _select(message: Any, part: str) -> dict[str, Any] | None:
    return next((c for c in message.all_components() if c.get("custom_id", "").endswith(f":{part}")), None)


async def _choose(t: Table, who: Any, panel: Any, part: str, wanted: str) -> Any:
    """Select the option labelled `wanted` in the panel's `part` select, paging as needed."""
    for _ in range(40):
        select = _select(panel, part)
        if select is not None:
            for option in select["options"]:
                if option["label"] == wanted[:100]:
                    return await t.fd.select(who, panel, select["custom_id"], [option["value"]])
        nxt = _select(panel, "next")
        if nxt is None or nxt.get("disabled"):
            break
        panel = await t.fd.click(who, panel, nxt["custom_id"])
    raise AssertionError(f"{wanted!r} is not offered in the panel: {panel.text()}")


async def by_panel(t: Table, seat: str, action: dict[str, Any], state: Any, *, panel: Any = None) -> Any:
    """Play `action` with clicks on the seat's panel (a fresh one unless given); returns the panel after."""
    members = await seats(t)
    who = members[seat]
    names = await names_of(t, state)
    if panel is None:
        panel = await oc(t, who, "panel")
    part = BUTTON_OF.get(json.dumps(action, sort_keys=True))
    if part is not None:
        button = _select(panel, part)
        assert button is not None, (part, panel.text())
        return await t.fd.click(who, panel, button["custom_id"])
    public = GAME.view(state, None)
    if action["act"] == "declare":
        boss = " (Boss)" if action["piece"].endswith(":0") else ""
        pl = public["players"][seat]
        from bot.games.organizedcrime.names import space

        where = space(pl["pieces"][action["piece"]])
        panel = await _choose(t, who, panel, "main", f"Declare {names.piece(action['piece'])}{boss} on {where}…")
        return await _choose(t, who, panel, "second", describe(action, names))
    label = describe(action, names) if action["act"] == "buy_hitmen" else describe(action, names, public, ids=False)
    return await _choose(t, who, panel, "main", label)


def pick(state: Any, seat: str, rng: Random) -> dict[str, Any] | None:
    return random_action(Engine(GAME.content, state, NoChance()), seat, rng)


async def awaited(t: Table) -> tuple[Any, str | None]:
    state = await state_of(t)
    pending = GAME.pending(state)
    return state, (pending.awaited[0] if pending is not None and pending.awaited else None)


SOCIAL = {  # weights that make meetings happen: acquire, ask the Commission, vote, place
    "acquire": 50, "meeting": 40, "place": 50, "call_vote": 30, "adjourn": 10, "income": 20, "move": 30,
    "step": 3, "rub": 2, "hit": 1, "stop": 3, "roll": 20, "declare": 10, "pass": 4, "buy_hitmen": 1,
    "buy_official": 5, "cash": 5, "vote": 1, "base": 1, "remove": 1, "penalty": 2, "no_penalty": 1, "give": 0.2,
}


def pick_social(state: Any, seat: str, rng: Random) -> dict[str, Any] | None:
    """Legal play that seeks acquisitions and meetings (attacks rarely), for the meeting paths."""
    from rules.organizedcrime.legal import legal_actions

    acts = legal_actions(Engine(GAME.content, state, NoChance()), seat)
    if not acts:
        return None
    groups: dict[str, list[dict[str, Any]]] = {}
    for a in acts:
        if a["act"] == "declare" and a.get("attack") and rng.random() < 0.95:
            continue
        groups.setdefault(a["act"], []).append(a)
    names = sorted(groups)
    chosen = rng.choices(names, [SOCIAL.get(n, 1.0) for n in names])[0]
    return rng.choice(groups[chosen])


async def play_out(
    t: Table,
    rng: Random,
    *,
    panel_share: float = 0.4,
    watch: Any = None,
    limit: int = 2000,
    picker: Any = pick,
    until: Any = None,
    autocomplete: float = 0.0,
) -> tuple[int, int]:
    """Play legal moves for whoever is awaited until the game ends (or `until(state)` holds): each by
    panel clicks with probability `panel_share`, else by its slash command. Returns (commands, clicks)."""
    commands = clicks = 0
    global COMPLETED
    side = Random(99)  # for the autocomplete checks: the game's own draws stay as they were
    for _ in range(limit):
        state, seat = await awaited(t)
        if seat is None or (until is not None and until(state)):
            break
        action = picker(state, seat, rng)
        assert action is not None, (seat, GAME.pending(state))
        if autocomplete and side.random() < autocomplete:
            COMPLETED += await check_autocomplete(t, seat, action, state, watch)
        reply = None
        if rng.random() < panel_share:
            try:
                reply = await by_panel(t, seat, action, state)
                clicks += 1
            except AssertionError:
                reply = None  # not offered in the panel (e.g. an odd money gift): play it by command
        if reply is None:
            reply = await by_command(t, seat, action, state)
            commands += 1
        text = reply.text()
        assert not any(w in text for w in ("not allowed", "Could not read", "Sorry")), (action, text)
        assert reply.ephemeral, "a move's answer is for the mover alone"
        if watch is not None:
            await watch.scan(await state_of(t))
    return commands, clicks


def focus_of(action: dict[str, Any], names: Names) -> tuple[str, str, dict[str, Any], str] | None:
    """(command, focused option, the other options typed before it, the value the action needs there)."""
    a = action
    act = a["act"]
    if act == "base":
        return "base", "home", {}, str(a["base"])
    if act in ("cash", "buy_official"):
        return ("cash" if act == "cash" else "buy official"), "card", {}, a["card"]
    if act == "declare":
        return "declare", "piece", {}, names.piece(a["piece"])
    if act == "move":
        return "move", "share", {"piece": names.piece(a["piece"])}, str(a["share"])
    if act in ("step", "rub", "hit", "stop"):
        return "path", "item", {}, write(a, names)
    if act == "acquire":
        return "acquire", "piece", {}, names.piece(a["piece"])
    if act == "meeting":
        return "meeting call", "target", {"piece": names.piece(a["piece"])}, a["target"]
    if act == "give" and "card" in a:
        return "meeting give", "card", {}, a["card"]
    if act == "vote" and a["side"] != "abstain":
        return "vote", "votes", {"side": a["side"]}, str(a["votes"])
    if act == "remove":
        return "remove", "pieces", {}, " ".join(names.piece(p) for p in a["pieces"])
    return None


async def check_autocomplete(t: Table, seat: str, action: dict[str, Any], state: Any, watch: Any = None) -> bool:
    """The option's autocomplete offers the value the (legal) action needs, and the other players are
    offered nothing for the awaited player's decision. Returns whether the action had such an option."""
    names = await names_of(t, state)
    found = focus_of(action, names)
    if found is None:
        return False
    command, focused, typed, value = found
    members = await seats(t)
    fd = t.fd
    choices = await fd.autocomplete(members[seat], t.chan, f"organizedcrime {command}", focused=focused,
                                    **typed, **{focused: value if len(value) < 4 else value[:4]})
    if watch is not None:
        watch.scan_choices(state, seat, choices)
    assert len(choices) <= 25 and all(len(c["name"]) <= 100 and len(str(c["value"])) <= 100 for c in choices)
    if len(choices) < 25:
        assert value in [str(c["value"]) for c in choices], (command, focused, value, choices)
    return True
