"""A host's record of a Crime City game as a `crimecity-replay/1` file that replays to what was announced.

Host changes before the draft resolves are the file's `garnets` and `placements`. A balance the host
set during the rounds has no field of its own (and folding it into the starting balances would change
the balances announced before it), so then the file starts from the state just after the last such
change (`seats` plus a `start` block) and lists the rounds from there; the generic move log keeps the
rest. A game brought in from a file (`import`) exports as that file with the bot's rounds appended. Either way
the export is checked by replaying it before it is returned.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..contract import JSON, Move, Record, RecordedChance
from .actions import Submission
from .handover import players_of, rename_doc
from .replay import export_replay, run_replay, start_block
from .state import GameState

if TYPE_CHECKING:
    from .game import CrimeCity, Match

COMPARED = ("board", "dead", "friendship", "completed", "garnets", "cooldowns")


def export_record(game: CrimeCity, record: Record) -> dict[str, JSON]:
    from .game import DRAFT, ROUND, parse_draft_move, parse_round_move

    state: Match = game.setup(record.seats, record.settings, RecordedChance(record.setup_chance)).state
    draft_moves: dict[str, Any] | None = None
    draft_garnets: dict[str, int] = dict(state.garnets)
    placements = list(state.placements)
    rounds: list[dict[str, Submission | None]] = []  # per round: seat -> Submission | None
    expected: list[dict[str, Any]] = []  # per round: what the bot announced
    cut: tuple[int, GameState] | None = None  # (rounds before the last intervention, the state after it)
    for entry in record.log:
        before = state
        state = game.step(state, entry.actions, RecordedChance(entry.chance)).state
        players = [a for a in entry.actions if a.by is not None]
        if before.phase == DRAFT and state.phase != DRAFT and before.game is None and state.game is not None:
            draft_garnets, placements = dict(before.garnets), list(before.placements)
            accepted = set((state.draft or {}).get("submitted") or ())
            draft_moves = {a.by: parse_draft_move(a.move) for a in players if a.by is not None and a.by in accepted}
        elif before.phase == ROUND and before.game is not None and (players or not entry.actions):
            by_seat = {a.by: a.move for a in players}
            subs: dict[str, Submission | None] = {}
            for seat in record.seats:
                move = by_seat.get(seat)
                subs[seat] = None if move is None else _readable(parse_round_move, move, record.seats)
            rounds.append(subs)
            assert state.game is not None
            expected.append(_announced(state.game))
        elif before.game is not None:
            for action in entry.actions:
                if action.move.get("host") == "garnets":
                    assert state.game is not None
                    cut = (len(rounds), state.game)
    names = dict(record.names)
    imported = record.settings.get("import") or None
    if imported and cut is None:  # the file it came from, with the bot's rounds after its own
        base = rename_doc(imported, dict(zip(players_of(imported), record.seats, strict=True)))
        tail = export_replay(list(record.seats), rounds_total=state.rounds_total, garnets={}, rounds=rounds)
        doc = rename_doc({**base, "rounds": list(base.get("rounds") or []) + tail["rounds"]}, names)
        if not _replays_to(doc, expected, names, skip=len(base.get("rounds") or [])):
            raise AssertionError("the export does not replay to the announced rounds")
        return doc
    if draft_moves is None and not imported:  # the draft never resolved: the file can only hold who was going to play
        return export_replay(
            list(record.seats),
            rounds_total=state.rounds_total,
            garnets=state.garnets,
            rounds=[],
            placements=list(state.placements),
            draft={},
            name_of=names,
        )
    if cut is None:
        assert draft_moves is not None
        doc = export_replay(
            list(record.seats),
            rounds_total=state.rounds_total,
            garnets=draft_garnets,
            rounds=rounds,
            placements=placements,
            draft=draft_moves,
            name_of=names,
        )
        if not _replays_to(doc, expected, names):
            raise AssertionError("the export does not replay to the announced rounds")
        return doc
    done, at = cut
    doc = export_replay(
        list(record.seats),
        rounds_total=state.rounds_total,
        garnets=at.garnets,
        rounds=rounds[done:],
        seats=at.seats,
        name_of=names,
    )
    doc["start"] = _renamed_start(start_block(at), names)
    if not _replays_to(doc, expected[done:], names):
        raise AssertionError("the export does not replay to the announced rounds")
    return doc


def _readable(
    parse: Callable[[Move, tuple[str, ...]], Submission], move: Move, seats: tuple[str, ...]
) -> Submission | None:
    try:
        return parse(move, seats)
    except Exception:  # refused at resolution: the file carries it and replay refuses it again
        return None


def _announced(game: GameState) -> dict[str, Any]:
    board: dict[str, list[str]] = {}
    for c, loc in game.positions.items():
        board.setdefault(loc.value, []).append(c.value)
    return {
        "board": {k: sorted(v) for k, v in board.items()},
        "dead": [] if game.governor_alive else ["governor"],
        "friendship": {k: v for k, v in sorted(game.friendship.items()) if v > 0},
        "completed": dict(game.completed),
        "garnets": dict(game.garnets),
        "cooldowns": {p: sorted(game.cooldowns.get(p, ())) for p in game.players},
    }


def _replays_to(
    doc: dict[str, Any], expected: list[dict[str, Any]], names: Mapping[str, str], *, skip: int = 0
) -> bool:
    """Whether the file replays to what the bot announced (its first `skip` rounds came from elsewhere)."""
    try:
        out = run_replay(doc)
    except Exception:
        return False
    if len(out["rounds"]) != skip + len(expected):
        return False
    for got, want in zip(out["rounds"][skip:], expected, strict=True):
        got_board = {k: v for k, v in got["board"].items() if v}
        if got_board != want["board"] or got["dead"] != want["dead"] or got["friendship"] != want["friendship"]:
            return False
        for key in ("completed", "garnets", "cooldowns"):
            if got[key] != {names.get(p, p): v for p, v in want[key].items()}:
                return False
    return True


def _renamed_start(start: dict[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    out = dict(start)
    for key in ("cooldowns", "progress", "completed"):
        out[key] = {names.get(p, p): v for p, v in start[key].items()}
    return out
