"""Errors the bot answers with a clear ephemeral message (the tree's one error handler)."""

from __future__ import annotations


class UserError(Exception):
    """Something the user asked for that the bot refuses; the message is shown to them as is.

    Never put a secret of another player in the message: it may be shown where others see it.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotAllowed(UserError):
    """The caller lacks the role or permission the command needs."""


class NoGame(UserError):
    """No game fits the caller and place the command was used in."""
