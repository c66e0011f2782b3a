"""The public view of an Organized Crime state, computed once per state object (bot/games/views.py)."""

from __future__ import annotations

from rules.organizedcrime.game import GAME

from ..views import PublicViews

public_view = PublicViews(GAME)
