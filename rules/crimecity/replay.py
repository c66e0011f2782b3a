"""Replaying a game file (docs/crimecity/replay.md): `run_replay`, `legal_for`, `export_replay`."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from .actions import Submission
from .draft import DraftSubmission, resolve_draft
from .ids import CHARACTERS, LOCATIONS
from .legal import legal_actions, single_move_only, sorted_json
from .replay_format import FORMAT, FormatError, ReplayInput, apply_start, parse_replay, parse_round
from .resolve import RoundResult, resolve_round
from .results import final_results
from .state import GameState, Seat, new_game

RESULT_FORMAT = "crimecity-result/1"

__all__ = ["FormatError", "run_replay", "legal_for", "export_replay", "dumps", "load_state", "start_block"]


def dumps(doc: Any) -> str:
    """Deterministic JSON text: sorted keys, fixed layout."""
    return json.dumps(doc, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def _initial(doc: Any) -> tuple[ReplayInput, GameState, dict[str, Any] | None]:
    inp = parse_replay(doc)
    draft_out: dict[str, Any] | None = None
    if inp.draft is not None:
        res = resolve_draft(inp.players, inp.draft, inp.placements, inp.garnets)
        seats, garnets = res.seats, res.garnets
        draft_out = {
            "priority": list(res.priority),
            "seats": {p: {"character": s.character.value, "role": s.role.value} for p, s in seats.items()},
            "unassigned": [c.value for c in res.unassigned],
            "garnets": dict(garnets),
        }
    else:
        assert inp.seats is not None, "a replay file gives exactly one of 'draft' and 'seats'"
        seats, garnets = inp.seats, inp.garnets
    state = apply_start(new_game(inp.players, seats, garnets, inp.rounds_total), inp.start)
    return inp, state, draft_out


def _round_out(before: GameState, result: RoundResult) -> dict[str, Any]:
    st = result.state
    private: dict[str, list[dict[str, Any]]] = {}
    for ev in result.events:
        if ev.audience is not None:
            private.setdefault(ev.audience, []).append(ev.data)
    board: dict[str, list[str]] = {loc.value: [] for loc in LOCATIONS}
    for c in CHARACTERS:
        if c in st.positions:
            board[st.positions[c].value].append(c.value)
    for names in board.values():
        names.sort()
    return {
        "round": before.round,
        "rejected": {p: e.to_json() for p, e in sorted(result.rejected.items())},
        "board": board,
        "dead": [] if st.governor_alive else ["governor"],
        "friendship": {k: v for k, v in sorted(st.friendship.items()) if v > 0},
        "private": private,
        "completed": dict(st.completed),
        "garnets": {p: st.garnets[p] for p in st.players},
        "cooldowns": {p: sorted(st.cooldowns.get(p, ())) for p in st.players},
    }


def _play(doc: Any) -> tuple[GameState, dict[str, Any]]:
    inp, state, draft_out = _initial(doc)
    rounds = []
    for i, raw in enumerate(inp.rounds):
        if state.over:
            raise FormatError(f"rounds[{i}]: the game already ended after round {state.round}")
        result = resolve_round(state, parse_round(raw, i, inp.players))
        rounds.append(_round_out(state, result))
        state = result.state
    out = {
        "format": RESULT_FORMAT,
        "draft": draft_out,
        "rounds": rounds,
        "result": final_results(state).to_json() if state.over else None,
    }
    return state, out


def run_replay(doc: Any) -> dict[str, Any]:
    """The replay.md result document for a parsed JSON replay file."""
    return _play(doc)[1]


def load_state(doc: Any) -> GameState:
    """The state after the file's last round (for hosts moving a game into the bot)."""
    return _play(doc)[0]


def legal_for(doc: Any, player: str) -> dict[str, Any]:
    """replay.md `legal`: the player's legal actions in the round after the file's last round."""
    state, _ = _play(doc)
    if player not in state.players:
        raise FormatError(f"--player: unknown player {player!r}")
    if state.over:
        raise FormatError(f"rounds: the game ended after round {state.round}; there is no next round")
    return {
        "round": state.round,
        "player": player,
        "single_move_only": single_move_only(state, player),
        "actions": sorted_json(legal_actions(state, player)),
    }


def export_replay(
    players: list[str],
    *,
    rounds_total: int,
    garnets: Mapping[str, int],
    rounds: Sequence[Mapping[str, Submission | None]],
    placements: list[str] | None = None,
    draft: Mapping[str, DraftSubmission] | None = None,
    seats: Mapping[str, Seat] | None = None,
    name_of: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """A replay.md input document. `name_of` renames player ids (e.g. seat ids to user names)."""
    n = dict(name_of or {})

    def nm(p: str) -> str:
        return n.get(p, p)

    def sub_json(s: Submission) -> dict[str, Any]:
        d = s.to_json()
        for a in d["actions"]:
            if "player" in a:
                a["player"] = nm(a["player"])
        return d

    doc: dict[str, Any] = {
        "format": FORMAT,
        "players": [nm(p) for p in players],
        "rounds_total": rounds_total,
        "garnets": {nm(p): garnets.get(p, 0) for p in players},
        "rounds": [{nm(p): (None if s is None else sub_json(s)) for p, s in r.items()} for r in rounds],
    }
    if draft is not None:
        doc["placements"] = [nm(p) for p in (placements or players)]
        doc["draft"] = {
            nm(p): {"bid": s.bid, "roles": [r.value for r in s.roles], "characters": [c.value for c in s.characters]}
            for p, s in draft.items()
        }
    else:
        doc["seats"] = {nm(p): {"character": s.character.value, "role": s.role.value} for p, s in (seats or {}).items()}
    return doc


def start_block(state: GameState) -> dict[str, Any]:
    """The replay.md `start` block that continues a game from `state` (a mid-game hand-over)."""
    return {
        "round": state.round,
        "positions": {c.value: loc.value for c, loc in state.positions.items()},
        "friendship": dict(sorted(state.friendship.items())),
        "governor_alive": state.governor_alive,
        "cooldowns": {p: sorted(k) for p, k in state.cooldowns.items()},
        "progress": {p: pr.to_dict() for p, pr in state.progress.items()},
        "completed": dict(state.completed),
    }
