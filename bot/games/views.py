"""A game's public view, computed once per state object that a command or a step reads it through.

A move's answer reads it several times (the caller's names, the step's texts, the receipt); the host hands
the same decoded state object to all of them, and a state is never changed once decoded or stepped (the
rules return new states), so the view of an object already seen is the same view. Callers must not change
what they are given.
"""

from __future__ import annotations

from typing import Any

from rules.contract import Game


class PublicViews:
    KEPT = 64  # states: a move's and its step's, for many games at once (a view is a few KB)

    def __init__(self, game: Game) -> None:
        self.game = game
        self._seen: dict[int, tuple[Any, dict[str, Any]]] = {}  # id(state) -> (the state, kept alive; view)

    def __call__(self, state: Any) -> dict[str, Any]:
        found = self._seen.get(id(state))
        if found is not None and found[0] is state:
            return found[1]
        view = dict(self.game.view(state, None))
        if len(self._seen) >= self.KEPT:
            del self._seen[next(iter(self._seen))]
        self._seen[id(state)] = (state, view)
        return view
