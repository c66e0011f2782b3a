"""`python -m rules replay|legal` for `crimopolis-replay/1` files (replay.md "Output")."""

from __future__ import annotations

from typing import Any

from .checks import check
from .content import Content
from .engine import Event, Run
from .legal import legal_actions
from .replay_format import RESULT_FORMAT, ReplayFormatError, ReplayInput, begin, parse_replay
from .scoring import result
from .state import OVER
from .views import full_state


def event_json(e: Event) -> dict[str, Any]:
    audience, kind, data = e
    return {"kind": kind, "audience": "all" if audience is None else audience, **data}


def play_steps(c: Content, inp: ReplayInput, with_output: bool = True) -> tuple[Run, dict[str, Any], list[Any]]:
    run = begin(c, inp)
    initial = {"events": [event_json(e) for e in run.ev], "state": full_state(c, run.s)} if with_output else {}
    steps: list[Any] = []
    for step in inp.steps:
        s = run.s
        refused = None
        run.ev = []
        if step.player is None:
            if s.phase == OVER:
                refused = {"code": "game_over", "message": "The game has ended."}
            else:
                run.finish("host")
        else:
            assert step.action is not None
            no = check(c, s, step.player, step.action)
            if no is not None:
                refused = {"code": no[0], "message": no[1]}
            else:
                run.answer(step.player, step.action)
        if not with_output:
            continue
        out: dict[str, Any] = {"index": step.index}
        if step.player is None:
            out["host"] = "end"
        else:
            out["player"] = step.player
            out["action"] = step.given["action"]
        out["refused"] = refused
        out["events"] = [] if refused else [event_json(e) for e in run.ev]
        out["state"] = full_state(c, run.s)
        steps.append(out)
    return run, initial, steps


def run_replay(c: Content, doc: Any) -> dict[str, Any]:
    inp = parse_replay(c, doc)
    run, initial, steps = play_steps(c, inp)
    return {
        "format": RESULT_FORMAT,
        "content": c.id,
        "players": list(inp.players),
        "options": inp.options.replay_json(),
        "initial": initial,
        "steps": steps,
        "result": result(c, run.s),
    }


def legal_for(c: Content, doc: Any, player: Any) -> dict[str, Any]:
    inp = parse_replay(c, doc)
    if not isinstance(player, str) or player not in inp.players:
        raise ReplayFormatError(f"--player: {player!r} is not one of the file's players ({', '.join(inp.players)})")
    run, _, _ = play_steps(c, inp, with_output=False)
    s = run.s
    mine = s.pending is not None and s.pending["player"] == player
    return {
        "player": player,
        "decision": s.pending["kind"] if mine and s.pending is not None else None,
        "actions": legal_actions(c, s, player),
    }
