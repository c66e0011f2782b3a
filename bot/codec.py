"""Stored JSON (replay.md shapes) to rules value objects and back."""

from __future__ import annotations

from typing import Any

from rules.crimecity import Action, Character, DraftSubmission, GameState, Role, Submission

from .storage.models import DraftRow, GameRow, SubmissionRow

# game id -> (the stored state dict it was parsed from, the GameState); bounded, oldest first out.
_STATES: dict[int, tuple[dict[str, Any], GameState]] = {}
_STATES_MAX = 4096


def game_state(game: GameRow) -> GameState:
    """The game's GameState, parsed once per stored version (GameRow.from_row shares unchanged rows)."""
    assert game.state is not None
    cached = _STATES.get(game.id)
    if cached is not None and cached[0] is game.state:
        return cached[1]
    state = GameState.from_dict(game.state)
    if len(_STATES) >= _STATES_MAX:
        del _STATES[next(iter(_STATES))]
    _STATES[game.id] = (game.state, state)
    return state


def action_from_json(d: dict[str, Any]) -> Action:
    return Action.from_json(d)


def submission_from_row(row: SubmissionRow) -> Submission | None:
    """None when no actions were recorded: R44 treats that as no submission at all."""
    if row.actions is None:
        return None
    return Submission(
        actions=tuple(action_from_json(a) for a in row.actions),
        buys=tuple((Character(a), Character(b)) for a, b in row.buys),
        guess=None if row.guess is None else {Character(c): Role(r) for c, r in row.guess.items()},
    )


def draft_from_row(row: DraftRow) -> DraftSubmission:
    return DraftSubmission(
        bid=row.bid,
        roles=tuple(Role(r) for r in row.roles),
        characters=tuple(Character(c) for c in row.characters),
    )


def buys_to_json(buys: list[tuple[Character, Character]]) -> list[list[str]]:
    return [[a.value, b.value] for a, b in buys]


def guess_to_json(guess: dict[Character, Role]) -> dict[str, str]:
    return {c.value: r.value for c, r in guess.items()}


def submission_guess(guess: dict[str, str]) -> dict[Character, Role]:
    return {Character(c): Role(r) for c, r in guess.items()}
