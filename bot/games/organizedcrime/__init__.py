"""Organized Crime in the bot: `/organizedcrime`, its texts, its board picture, its panel and rules pages."""

from .presentation import PRESENTATION

__all__ = ["PRESENTATION"]
