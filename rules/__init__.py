"""The rules of every game of the project: pure and deterministic (no I/O, no clock, no global random).

`rules.contract` is the game contract, `rules.registry` the table of games, and each game is a
package of its own (`rules.crimecity`, ...). `python -m rules replay|legal|simulate` serves them all.
"""

from .contract import (
    HOST_END,
    PUBLIC,
    Action,
    Chance,
    Clock,
    Event,
    FormatError,
    Game,
    GameInfo,
    LogEntry,
    Outcome,
    ParseError,
    Pending,
    Record,
    RecordedChance,
    Refusal,
    Refused,
    SeededChance,
    Setting,
)

__all__ = [
    "HOST_END", "PUBLIC", "Action", "Chance", "Clock", "Event", "FormatError", "Game", "GameInfo", "LogEntry",
    "Outcome", "ParseError", "Pending", "Record", "RecordedChance", "Refusal", "Refused", "SeededChance", "Setting",
]
