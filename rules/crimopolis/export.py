"""A host's record as a `crimopolis-replay/1` file (`/crimopolis admin export`): players by their names,
start player first, the chance lists of the setup's shuffles, every action in order (timeouts and the
host's end included). It is checked by replaying it before it is returned."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..contract import HOST_END, JSON, Record, RecordedChance, replay_record
from .replay import play_steps
from .replay_format import FORMAT, parse_replay

if TYPE_CHECKING:
    from .game import Crimopolis


def unique_names(seats: tuple[str, ...], names: dict[str, str]) -> dict[str, str]:
    """seat -> a distinct, non-empty name for the file (a clash gets ` (2)`, ` (3)` ...)."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for seat in seats:
        base = names.get(seat) or seat
        name, n = base, 1
        while name in used:
            n += 1
            name = f"{base} ({n})"
        used.add(name)
        out[seat] = name
    return out


def _renamed(move: dict[str, Any], name: dict[str, str]) -> dict[str, Any]:
    out = dict(move)
    if out.get("kind") == "target" and out.get("player") in name:
        out["player"] = name[out["player"]]
    if out.get("kind") == "fortune" and out.get("target") in name:
        out["target"] = name[out["target"]]
    return out


def export_record(game: Crimopolis, record: Record) -> dict[str, JSON]:
    from .game import draw_setup, options_of

    c = game.content
    given = game.info.settings_from(record.settings)
    players, orders = draw_setup(c, record.seats, given, RecordedChance(record.setup_chance))
    opts = options_of(given)
    steps: list[dict[str, Any]] = []
    for entry in record.log:
        for action in entry.actions:
            if action.by is None:
                assert dict(action.move) == dict(HOST_END), action
                steps.append({"host": "end"})
            else:
                steps.append({"player": action.by, "action": dict(action.move)})
    doc: dict[str, Any] = {
        "format": FORMAT,
        "content": c.id,
        "players": list(players),
        "options": opts.replay_json(),
        "chance": {k: list(v) for k, v in orders.items()},
        "steps": steps,
    }
    _check(game, record, doc)
    name = unique_names(players, dict(record.names))
    doc["players"] = [name[p] for p in players]
    doc["steps"] = [
        s if "host" in s else {"player": name[s["player"]], "action": _renamed(s["action"], name)} for s in steps
    ]
    return doc


def _check(game: Crimopolis, record: Record, doc: dict[str, Any]) -> None:
    """The file (still with seat ids) replays to the state the host's record reaches."""
    c = game.content
    run, _, _ = play_steps(c, parse_replay(c, doc), with_output=False)
    want = replay_record(game, record).state.encode()
    got = run.s.encode()
    want.pop("options")
    got.pop("options")
    if got != want:
        raise AssertionError("the export does not replay to the host's state")


def start_block(c: Any, s: Any, turn_events: list[Any]) -> dict[str, Any]:
    """replay.md's `start` for the turn that `turn_events` began (its `turn_start`, the destinies executed):
    the state before that turn's start processing, with every order written out, so that a game can move
    on from here (a game played by hand into the bot, or the rest of a long one)."""
    start = next(e for e in turn_events if e.kind == "turn_start")
    executed = [e.data["card"] for e in turn_events if e.kind == "destiny_executed"]
    player = start.data["player"]
    geo = s.geo
    decks: dict[str, list[str]] = {k: list(v) for k, v in s.decks.items()}
    for card in reversed(executed):  # they went to the bottom as they were executed (E2)
        deck = decks[c.deck_of(card)]
        assert deck and deck[-1] == card
        deck.pop()
    players = {}
    for p in s.players:
        me = s.pl[p]
        lying = (executed + list(me.destinies)) if p == player else list(me.destinies)
        players[p] = {
            "prestige": me.prestige,
            "bodies": me.bodies,
            "jobs": list(me.jobs),
            "fortunes": list(me.fortunes),
            "destinies": lying,
        }
    return {
        "turn": {"player": player, "hours": start.data["hours"], "number": start.data["number"]},
        "city": [
            {"cell": cell, "tile": t, **({"block_side": b} if b is not None else {})}
            for cell, (t, b) in geo.tiles.items()
        ],
        "gangsters": {loc: {p: n} for loc, (p, n) in s.gangsters.items()},
        "players": players,
        "revealed": list(s.revealed),
        "stack": list(s.stack),
        "decks": decks,
        "final": None if s.final is None else dict(s.final),
    }
