"""Pictures the bot attaches to its public posts (pure Pillow, no Discord)."""

from __future__ import annotations

from typing import Any

__all__ = ["render_board"]


def __getattr__(name: str) -> Any:
    # Lazy, so that `python -m bot.render.board_image` does not import the module twice.
    if name == "render_board":
        from .board_image import render_board

        return render_board
    raise AttributeError(name)
