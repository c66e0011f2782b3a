"""Crimopolis (rulings.md of spec/crimopolis): a city crawl for 2 to 5 gangs, on the game contract.

`GAME` is the game with the house content pack `house-1`; `make_game(content)` builds it for another
pack (`load_content` validates one: `content.md`).
"""

from .content import Content, ContentError, load_content
from .game import GAME, Crimopolis, make_game

__all__ = ["GAME", "Content", "ContentError", "Crimopolis", "load_content", "make_game"]
