"""Permission bits and Discord's overwrite algorithm."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

CREATE_INSTANT_INVITE = 1 << 0
KICK_MEMBERS = 1 << 1
BAN_MEMBERS = 1 << 2
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
SEND_TTS_MESSAGES = 1 << 12
CHANGE_NICKNAME = 1 << 26
MANAGE_NICKNAMES = 1 << 27
MANAGE_ROLES = 1 << 28
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
PIN_MESSAGES = 1 << 51

ALL = (1 << 53) - 1


def names(bits: int) -> list[str]:
    """The names of the bits set, e.g. names(VIEW_CHANNEL | SEND_MESSAGES) == ["VIEW_CHANNEL", "SEND_MESSAGES"]."""
    table = {v: k for k, v in globals().items() if k.isupper() and isinstance(v, int) and v and v & (v - 1) == 0}
    return [table[1 << i] for i in range(bits.bit_length()) if bits >> i & 1 and (1 << i) in table]


EVERYONE_DEFAULT = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)

BOT_DEFAULT = EVERYONE_DEFAULT | MANAGE_MESSAGES | MANAGE_CHANNELS | MANAGE_ROLES | MANAGE_THREADS | MENTION_EVERYONE

# What a bot may do in a DM (Discord sends a fixed set for DM interactions).
DM_DEFAULT = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY | ADD_REACTIONS


def apply_overwrites(
    base: int, overwrites: Iterable[dict[str, Any]], everyone_id: int, role_ids: set[int], member_id: int
) -> int:
    """@everyone overwrite, then all role overwrites together, then the member's own overwrite."""
    by_id = {int(o["id"]): o for o in overwrites}
    result = base
    if everyone := by_id.get(everyone_id):
        result = (result & ~int(everyone["deny"])) | int(everyone["allow"])
    allow = deny = 0
    for role_id in role_ids:
        if ow := by_id.get(role_id):
            allow |= int(ow["allow"])
            deny |= int(ow["deny"])
    result = (result & ~deny) | allow
    if own := by_id.get(member_id):
        result = (result & ~int(own["deny"])) | int(own["allow"])
    if not result & VIEW_CHANNEL:
        return 0
    return result
