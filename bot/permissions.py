"""The permissions the bot needs in a game's channel, and its invite link.

The README's invite link is this module's `invite_url`; a test keeps the two equal.
"""

from __future__ import annotations

import discord

# Read the channel, post the board as text (embeds) and as a picture (attachments), and fetch the
# messages it posted earlier. Commands arrive as interactions, DMs need no permission.
NEEDED = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)
SCOPES = ("bot", "applications.commands")
# As Discord's own settings screens name them.
NAMES = {
    "view_channel": "View Channels",
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "read_message_history": "Read Message History",
}


def missing(permissions: int) -> list[str]:
    """The needed permissions `permissions` lacks, by their names in Discord (e.g. "Attach Files").

    >>> missing(NEEDED.value), missing(NEEDED.value & ~discord.Permissions(attach_files=True).value)
    ([], ['Attach Files'])
    """
    have = discord.Permissions(permissions)
    if have.administrator:
        return []
    return [label for name, label in NAMES.items() if getattr(NEEDED, name) and not getattr(have, name)]


def invite_url(application_id: int | str) -> str:
    """The OAuth2 link that adds the bot to a server with exactly `NEEDED` (and its slash commands)."""
    return discord.utils.oauth_url(application_id, permissions=NEEDED, scopes=SCOPES)
