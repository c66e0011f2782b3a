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
    # States, the first viewed out first: a state is viewed first when it becomes a game's latest, and read
    # again by the game's next move, however many games moved between (at 500 games, 64 made half the reads
    # misses). Not the least recently read: that keeps the state a move starts from, never read again, and
    # drops the latest of games yet to move. A view is 8 KiB (Organized Crime) to 23 KiB (Crimopolis); its
    # state is mostly the one the host keeps anyway.
    KEPT = 512

    def __init__(self, game: Game) -> None:
        self.game = game
        self._seen: dict[int, tuple[Any, dict[str, Any]]] = {}  # id(state) -> (the state, kept alive; view)

    def use(self, game: Game) -> None:
        """Views of `game` from now on (the same game on other content): none of the old ones is kept."""
        self.game = game
        self._seen.clear()

    def __call__(self, state: Any) -> dict[str, Any]:
        found = self._seen.get(id(state))
        if found is not None and found[0] is state:
            return found[1]
        view = dict(self.game.view(state, None))
        if len(self._seen) >= self.KEPT:
            del self._seen[next(iter(self._seen))]
        self._seen[id(state)] = (state, view)
        return view
