"""A fake Discord (REST + gateway on 127.0.0.1) that the real discord.py client connects to.

See README.md in this package for the test API.
"""

from . import perms
from .interactions import InteractionError, PendingInteraction
from .rest import RequestRecord
from .server import FakeDiscord, FakeTimeout
from .state import (
    Attachment,
    ComponentNotFound,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    ModalPrompt,
    SeenMessage,
)

__all__ = [
    "Attachment",
    "ComponentNotFound",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeRole",
    "FakeTimeout",
    "FakeUser",
    "InteractionError",
    "ModalPrompt",
    "PendingInteraction",
    "RequestRecord",
    "SeenMessage",
    "perms",
]
