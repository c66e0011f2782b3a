"""Crime City in the bot: `/crimecity`, its texts, its board picture and its rules pages."""

from .presentation import PRESENTATION

__all__ = ["PRESENTATION"]
