"""Each registered game's presentation: `bot/games/<id>/` for every game of `rules/registry.py`.

A presentation package exposes `PRESENTATION` (bot.host.Presentation). The host finds them here by
the registry's ids and imports nothing of any game itself.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from rules import registry

from ..host.presenting import Presentation


@cache
def presentations() -> dict[str, Presentation]:
    """Every registered game that has a presentation, by its rules id."""
    found: dict[str, Presentation] = {}
    for game in registry.games():
        try:
            module = importlib.import_module(f"{__name__}.{game.info.id}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{game.info.id}":
                raise
            continue  # rules without a presentation yet: playable by `python -m rules`, not in the bot
        found[game.info.id] = module.PRESENTATION
    return found


def picture(kind: str, view: dict[str, Any]) -> bytes | None:
    """A game's board picture from its public view; what the picture worker processes run (bot/host/pictures.py)."""
    presentation = presentations().get(kind)
    return None if presentation is None else presentation.picture(view)


def use_games(games: tuple[tuple[str, Any], ...]) -> None:
    """In a picture worker: draw the games as the bot loaded them (bot/content.py), by id; the others on their
    packaged content."""
    from ..content import apply

    apply(dict(games), presentations())


async def adopt_legacy(conn: Any) -> None:
    """Migration 3: each presentation that knows the schema of versions 1-2 turns its rows into the
    generic tables (within the migration's transaction)."""
    for presentation in presentations().values():
        adopt = getattr(presentation, "adopt_legacy", None)
        if adopt is not None:
            await adopt(conn)
