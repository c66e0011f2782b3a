"""Who is calling, and from where: the only Discord facts the game flow needs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import discord


@dataclass(frozen=True, slots=True)
class Caller:
    user_id: int
    user_name: str
    display_name: str
    guild_id: int | None = None  # None in a DM with the bot
    channel_id: int | None = None
    manage_guild: bool = False
    role_ids: frozenset[int] = field(default_factory=frozenset)
    role_names: frozenset[str] = field(default_factory=frozenset)
    # When the member issued the command (Discord's clock, from the interaction's snowflake id):
    # a command issued before the open phase began was meant for the phase before (see games.py).
    issued_at: float | None = None
    # What the bot may do in the channel the command came from (None when Discord did not say).
    bot_permissions: int | None = None
    # Whether the member may post in that channel themselves (None outside a server).
    can_post: bool | None = None
    # Whether the member can see a channel of that server (None: not known, e.g. outside a server).
    can_see: Callable[[int], bool] | None = field(default=None, compare=False, repr=False)

    @property
    def in_guild(self) -> bool:
        return self.guild_id is not None

    def has_role(self, wanted: str | None) -> bool:
        """`wanted` is a role id or a role name (case-insensitive)."""
        if not wanted:
            return False
        if wanted.isdigit() and int(wanted) in self.role_ids:
            return True
        return wanted.casefold() in {n.casefold() for n in self.role_names}

    @staticmethod
    def from_interaction(interaction: discord.Interaction) -> Caller:
        user = interaction.user
        roles = getattr(user, "roles", None) or []
        return Caller(
            user_id=user.id,
            user_name=user.name,
            display_name=user.display_name,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            manage_guild=bool(interaction.guild_id and interaction.permissions.manage_guild),
            role_ids=frozenset(r.id for r in roles),
            role_names=frozenset(r.name for r in roles),
            issued_at=interaction.created_at.timestamp(),
            bot_permissions=interaction.app_permissions.value if interaction.guild_id else None,
            can_post=interaction.permissions.send_messages if interaction.guild_id else None,
            can_see=_can_see(interaction),
        )


def _can_see(interaction: discord.Interaction) -> Callable[[int], bool] | None:
    guild, member = interaction.guild, interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return None

    def can_see(channel_id: int) -> bool:
        channel = guild.get_channel(channel_id)
        return channel is not None and channel.permissions_for(member).view_channel

    return can_see


@dataclass(frozen=True, slots=True)
class Member:
    """A member named in a command option (user type), e.g. the new holder of a seat."""

    user_id: int
    user_name: str
    display_name: str

    @staticmethod
    def from_user(user: discord.abc.User) -> Member:
        return Member(user.id, user.name, user.display_name)

    @staticmethod
    def to_seat(user: discord.abc.User, *, in_guild: bool = False) -> Member:
        """A member who is to hold a seat: a bot account cannot (it cannot use the commands), nor, given in a
        server (`in_guild`), a user who is not its member (Discord resolves one as a `User`, not a `Member`):
        they could not read the game's channel."""
        from .errors import UserError

        if user.bot:
            raise UserError(f"{user.display_name} is a bot account: only a member can hold a seat.")
        if in_guild and not isinstance(user, discord.Member):
            raise UserError(f"{user.display_name} is not a member of this server: only a member can hold a seat.")
        return Member.from_user(user)
