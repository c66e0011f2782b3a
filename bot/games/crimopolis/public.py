"""The public view of a Crimopolis state, computed once per state object (bot/games/views.py)."""

from __future__ import annotations

from rules.crimopolis.game import GAME

from ..views import PublicViews

public_view = PublicViews(GAME)
