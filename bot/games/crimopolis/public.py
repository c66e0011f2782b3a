"""The public view of a Crimopolis state, computed once per state object (bot/games/views.py)."""

from __future__ import annotations

from ..views import PublicViews
from .pack import PACK

public_view = PublicViews(PACK.game)
PACK.on_change(lambda: public_view.use(PACK.game))
