"""Every game of the project, in one static table (as python-chess lists its variants).

Adding a game is one line here plus its package (docs/architecture.md, "Adding a game").

>>> [g.info.id for g in games()]
['crimecity', 'organizedcrime', 'crimopolis']
>>> by_format("organizedcrime-replay/1").info.title
'Organized Crime'
>>> by_format("crimecity-replay/1").info.title
'Crime City'
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .contract import Game
from .crimecity.game import GAME as CRIMECITY
from .crimopolis.game import GAME as CRIMOPOLIS
from .organizedcrime.game import GAME as ORGANIZEDCRIME

GAMES: Mapping[str, Game] = MappingProxyType({g.info.id: g for g in (CRIMECITY, ORGANIZEDCRIME, CRIMOPOLIS)})
DEFAULT = "crimecity"  # a replay file without `format` is a Crime City file (replay.md lets it out)


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return str(self.args[0])


def games() -> list[Game]:
    return list(GAMES.values())


def get(game_id: str) -> Game:
    try:
        return GAMES[game_id]
    except KeyError:
        known = ", ".join(GAMES)
        raise UnknownGame(f"unknown game {game_id!r} (known: {known})") from None


def by_format(fmt: object) -> Game:
    """The game whose replay files carry this `format`; None means the default game."""
    if fmt is None:
        return GAMES[DEFAULT]
    for game in GAMES.values():
        if game.info.replay_format == fmt:
            return game
    known = ", ".join(g.info.replay_format for g in GAMES.values())
    raise UnknownGame(f"format: unknown replay format {fmt!r} (known: {known})")
