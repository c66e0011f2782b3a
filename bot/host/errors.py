"""Errors the bot answers with a clear ephemeral message (the tree's one error handler).

Each has a stable `code`, as refusals of the rules do, so tests and logs can tell them apart.
"""

from __future__ import annotations


class UserError(Exception):
    """Something the user asked for that the bot refuses; the message is shown to them as is.

    Never put a secret of another player in the message: it may be shown where others see it.
    """

    code = "refused"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class NotAllowed(UserError):
    """The caller lacks the role, permission or seat the command needs."""

    code = "not_allowed"


class NoGame(UserError):
    """No game fits the caller and place the command was used in."""

    code = "no_game"


class Stale(UserError):
    """The command was meant for a decision that has been resolved meanwhile."""

    code = "stale"


class Refused(UserError):
    """The rules refused a move: `code` is the game's refusal code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, code)
