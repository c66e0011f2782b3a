"""Typed errors with stable codes (replay.md): 'cannot parse' is apart from 'not allowed'."""

from __future__ import annotations

from .. import contract

CODES = (
    "malformed",
    "shape",
    "duplicate",
    "cooldown",
    "not_here",
    "not_networked",
    "unavailable",
    "bad_target",
    "garnets",
    "guess",
)


class RuleError(contract.RulesError):
    """A submission (or draft entry) the rules refuse. `code` is one of CODES."""


class ParseError(contract.ParseError):
    """Text or a file that cannot be read as the notation or format at all."""
