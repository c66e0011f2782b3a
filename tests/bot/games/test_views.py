"""A game's public view, computed once per state object (bot/games/views.py)."""

from __future__ import annotations

from typing import Any

from bot.games.views import PublicViews


class Counting:
    """A stand-in for a Game: counts the views it is asked for."""

    def __init__(self) -> None:
        self.views = 0

    def view(self, state: Any, seat: str | None) -> dict[str, Any]:
        self.views += 1
        return {"turn": state["turn"]}


def test_a_state_object_is_viewed_once_and_an_equal_one_again() -> None:
    game = Counting()
    views = PublicViews(game)  # type: ignore[arg-type]
    state = {"turn": 1}
    assert views(state) == {"turn": 1}
    assert views(state) is views(state)
    assert game.views == 1
    views({"turn": 1})  # equal, but another object: the host hands one object to all its readers
    assert game.views == 2


def test_each_of_500_games_moved_in_turn_finds_its_latest_state_viewed() -> None:
    game = Counting()
    views = PublicViews(game)  # type: ignore[arg-type]
    latest = {g: {"turn": 0} for g in range(500)}
    for g in latest:
        views(latest[g])
    before = game.views
    for _ in range(3):
        for g in latest:  # a move: the state it starts from, then its step's new state
            views(latest[g])
            latest[g] = {"turn": latest[g]["turn"] + 1}
            views(latest[g])
    assert game.views - before == 3 * 500  # only the new states: none read again was forgotten


def test_it_keeps_a_bounded_number() -> None:
    game = Counting()
    views = PublicViews(game)  # type: ignore[arg-type]
    states = [{"turn": i} for i in range(PublicViews.KEPT + 10)]
    for state in states:
        views(state)
    assert len(views._seen) == PublicViews.KEPT
    views(states[0])  # the oldest went first
    assert game.views == len(states) + 1

