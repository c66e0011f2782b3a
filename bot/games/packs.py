"""The game a presentation plays: its packaged content, or the operator's own (CRIMECITY_CONTENT).

A presentation reads its game through its `PACK` (never a module constant of `rules`), so the bot can
play a group's replacement content (docs/operations.md, "A group's own content"). The choice is made
once, when a bot is built, for the whole process.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

G = TypeVar("G")


class Pack(Generic[G]):
    def __init__(self, house: G) -> None:
        self.house = house
        self.game = house
        self._changed: list[Callable[[], object]] = []

    def on_change(self, forget: Callable[[], object]) -> None:
        """Call `forget` (e.g. a cache's `cache_clear`) whenever the game changes."""
        self._changed.append(forget)

    def use(self, game: G | None) -> None:
        """Play `game` (the same game on other content), or the packaged content with None."""
        chosen = self.house if game is None else game
        if chosen is self.game:
            return
        self.game = chosen
        for forget in self._changed:
            forget()
