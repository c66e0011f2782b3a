"""The game this process plays (bot/games/packs.py): the packaged house content unless the operator names another."""

from __future__ import annotations

from rules.crimopolis.game import GAME

from ..packs import Pack

PACK = Pack(GAME)
