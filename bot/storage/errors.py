"""Errors both storage backends raise the same way, so the host never names a driver's exception."""

from __future__ import annotations


class Conflict(Exception):
    """A write broke a uniqueness or foreign-key rule (a second active game in a channel, a second
    open season, ...): nothing of the statement was written."""


class Moved(Exception):
    """A compare-and-set write found its row changed (someone moved the game on meanwhile): the
    transaction it belongs to writes nothing."""
