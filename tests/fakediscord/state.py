"""In-memory world of the fake Discord: users, guilds, channels, roles, members, messages."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple

from . import payloads as render
from . import perms
from .components import COMPONENTS_V2_FLAG, SELECTS, walk
from .components import strings as component_strings

DISCORD_EPOCH_MS = 1420070400000

# Channel types (subset of the Discord enum).
TEXT, DM, VOICE, CATEGORY = 0, 1, 2, 4

EPHEMERAL_FLAG = 64
LOADING_FLAG = 128


class InteractionError(AssertionError):
    """A test asked for an interaction that Discord would not send (unknown option, missing member...)."""


class ComponentNotFound(InteractionError, KeyError):
    """The component is not on the message (Discord's client cannot click it; a forged one is refused)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class Snowflakes:
    """Strictly increasing, time-based snowflake ids (so created_at looks sane)."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(candidate, self._last + 1)
        return self._last

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next id whose guild would live on `shard_id` ((id >> 22) % shard_count), a few ms ahead at most."""
        candidate = self.next()
        while (candidate >> 22) % shard_count != shard_id:
            candidate = ((candidate >> 22) + 1) << 22
        self._last = candidate
        return candidate


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(eq=False)
class FakeUser:
    id: int
    name: str
    bot: bool = False
    global_name: str | None = None

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class FakeRole:
    id: int
    name: str
    permissions: int = 0
    position: int = 0
    color: int = 0
    hoist: bool = False
    mentionable: bool = False
    managed: bool = False
    bot_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"


@dataclass(eq=False)
class FakeChannel:
    id: int
    name: str
    type: int = TEXT
    guild: FakeGuild | None = None
    recipient: FakeUser | None = None  # DM channels only
    topic: str | None = None
    position: int = 0
    parent_id: int | None = None
    overwrites: list[dict[str, Any]] = field(default_factory=list)
    deleted: bool = False

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    def set_overwrite(self, target_id: int, target_type: int, allow: int = 0, deny: int = 0) -> None:
        """Add/replace a permission overwrite (target_type 0 = role, 1 = member)."""
        self.overwrites = [o for o in self.overwrites if int(o["id"]) != target_id]
        self.overwrites.append({"id": str(target_id), "type": target_type, "allow": str(allow), "deny": str(deny)})


@dataclass(eq=False)
class FakeMember:
    guild: FakeGuild
    user: FakeUser
    roles: list[FakeRole] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def mention(self) -> str:
        return self.user.mention

    def permissions(self, channel: FakeChannel | None = None) -> int:
        return self.guild.permissions_for(self, channel)


class Attachment(NamedTuple):
    filename: str
    data: bytes


@dataclass(eq=False)
class ModalPrompt:
    """A modal the bot opened for a user (interaction callback type 9)."""

    custom_id: str
    title: str
    components: list[dict[str, Any]]
    user: FakeUser
    channel: FakeChannel
    message: SeenMessage | None = None  # the component message it was opened from, if any

    def input_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]


def walk_components(components: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Yield every component, flattening action rows, labels, containers and sections."""
    return walk(components)


@dataclass(eq=False)
class SeenMessage:
    """A message as members see it. Mutated in place on edits; `deleted` set on delete."""

    id: int
    channel_id: int
    author: FakeUser
    guild_id: int | None = None
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    attachment_payloads: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    tts: bool = False
    allowed_mentions: dict[str, Any] | None = None
    message_reference: dict[str, Any] | None = None
    interaction_id: int | None = None
    viewer: FakeUser | None = None  # who sees an ephemeral message
    pinned: bool = False
    deleted: bool = False
    edited_at: str | None = None
    timestamp: str = field(default_factory=iso_now)
    reactions: list[tuple[str, int]] = field(default_factory=list)  # (emoji, user id)
    history: list[dict[str, Any]] = field(default_factory=list)  # previous versions (content/embeds/components)
    modal: ModalPrompt | None = None  # set on the placeholder returned when the bot answered with a modal
    nonce: str | None = None  # as sent by the author (echoed in the payload, used by enforce_nonce)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL_FLAG)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING_FLAG)

    @property
    def mentions(self) -> list[int]:
        """User ids mentioned in the content (`<@id>` / `<@!id>`)."""
        return [int(m) for m in re.findall(r"<@!?(\d+)>", self.content)]

    def text(self) -> str:
        """Content plus embed titles/descriptions/fields/footers/authors, newline-joined."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("author", {}).get("name", ""), embed.get("title", ""), embed.get("description", "")]
            for f in embed.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
            parts.append(embed.get("footer", {}).get("text", ""))
        for comp in walk_components(self.components):
            if comp.get("type") == 10:  # components v2 text display
                parts.append(comp.get("content", ""))
        return "\n".join(p for p in parts if p)

    @property
    def components_v2(self) -> bool:
        """Sent with the IS_COMPONENTS_V2 flag (1 << 15): a layout, no content or embeds."""
        return bool(self.flags & COMPONENTS_V2_FLAG)

    def all_components(self) -> list[dict[str, Any]]:
        """Every component anywhere in the tree (rows, containers, sections and their accessories)."""
        return list(walk_components(self.components))

    def find_components(
        self, type: int | None = None, *, custom_id: str | None = None, label: str | None = None
    ) -> list[dict[str, Any]]:
        """Components anywhere in the tree matching all the given filters."""
        return [
            c
            for c in self.all_components()
            if (type is None or c.get("type") == type)
            and (custom_id is None or c.get("custom_id") == custom_id)
            and (label is None or c.get("label") == label)
        ]

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.all_components() if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        """Select menus of every kind (string, user, role, mentionable, channel)."""
        return [c for c in self.all_components() if c.get("type") in SELECTS]

    def text_displays(self) -> list[str]:
        """Contents of the V2 text displays, in tree order."""
        return [c.get("content", "") for c in self.all_components() if c.get("type") == 10]

    def media_urls(self) -> list[str]:
        """URLs of thumbnails, gallery items and files (attachment:// resolved to the fake CDN)."""
        urls: list[str] = []
        for c in self.all_components():
            if c.get("type") == 11:
                urls.append(c["media"]["url"])
            elif c.get("type") == 13:
                urls.append(c["file"]["url"])
            elif c.get("type") == 12:
                urls += [item["media"]["url"] for item in c.get("items", [])]
        return urls

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.all_components() if "custom_id" in c]

    def component(self, custom_id: str | None = None, *, label: str | None = None) -> dict[str, Any]:
        """Find a component by custom_id or (button) label; ComponentNotFound (a KeyError) if absent."""
        for comp in self.all_components():
            if custom_id is not None and comp.get("custom_id") == custom_id:
                return comp
            if label is not None and comp.get("label") == label:
                return comp
        raise ComponentNotFound(
            f"no component custom_id={custom_id!r} label={label!r} on message {self.id}: {self.custom_ids()}"
        )

    def attachment_info(self) -> list[dict[str, Any]]:
        """Per attachment: filename, description (alt text, None if unset), content_type, size."""
        return [
            {
                "filename": p["filename"],
                "description": p.get("description"),
                "content_type": p.get("content_type"),
                "size": p.get("size"),
            }
            for p in self.attachment_payloads
        ]

    def snapshot(self) -> dict[str, Any]:
        return {"content": self.content, "embeds": self.embeds, "components": self.components}


@dataclass(eq=False)
class SentComponents:
    """One component tree the bot sent: on a message (create, edit, interaction reply) or in a modal."""

    kind: str  # "message" or "modal"
    message_id: int | None
    channel_id: int
    components: list[dict[str, Any]]
    title: str | None = None  # modal title
    at: float = field(default_factory=time.monotonic)

    def strings(self) -> list[str]:
        found = [text for _, text in component_strings(self.components)]
        return ([self.title] if self.title else []) + found


@dataclass(eq=False)
class UploadRecord:
    """One file the bot uploaded, with its alt text (`description`)."""

    message_id: int
    channel_id: int
    filename: str
    description: str | None
    content_type: str
    size: int
    data: bytes = b""


class FakeGuild:
    """A guild. Use add_text_channel / add_role / add_member to populate it."""

    def __init__(self, world: World, guild_id: int, name: str) -> None:
        self._world = world
        self.id = guild_id
        self.name = name
        self.owner_id = world.ids.next()  # an absent owner unless add_member(owner=True)
        self.roles: list[FakeRole] = [FakeRole(guild_id, "@everyone", perms.EVERYONE_DEFAULT)]
        self.channels: list[FakeChannel] = []
        self.members: dict[int, FakeMember] = {}
        self.bans: dict[int, str | None] = {}  # user id -> reason
        self.bot_present = True  # False once the bot was kicked from the guild (remove_bot)

    def _emit(self, event: str, data: dict[str, Any]) -> None:
        if self.bot_present:  # a guild the bot was removed from sends it nothing
            self._world.emit(event, data)

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name!r} id={self.id}>"

    @property
    def everyone(self) -> FakeRole:
        return self.roles[0]

    def add_role(self, name: str, permissions: int = 0, **attrs: Any) -> FakeRole:
        role = FakeRole(self._world.ids.next(), name, permissions, position=len(self.roles), **attrs)
        self.roles.append(role)
        self._emit("GUILD_ROLE_CREATE", {"guild_id": str(self.id), "role": render.role(role)})
        return role

    def add_text_channel(
        self,
        name: str,
        *,
        topic: str | None = None,
        private: bool = False,
        visible_to: Iterable[FakeMember] = (),
        category: FakeChannel | None = None,
    ) -> FakeChannel:
        """A text channel; private=True hides it from @everyone except `visible_to` and the bot."""
        return self.add_channel(name, TEXT, topic=topic, private=private, visible_to=visible_to, category=category)

    def add_category(self, name: str) -> FakeChannel:
        return self.add_channel(name, CATEGORY)

    def add_channel(
        self,
        name: str,
        kind: int,
        *,
        topic: str | None = None,
        private: bool = False,
        visible_to: Iterable[FakeMember] = (),
        category: FakeChannel | None = None,
        overwrites: list[dict[str, Any]] | None = None,
    ) -> FakeChannel:
        chan = FakeChannel(
            self._world.ids.next(),
            name,
            kind,
            guild=self,
            topic=topic,
            position=len(self.channels),
            parent_id=category.id if category else None,
            overwrites=list(overwrites or []),
        )
        if private:
            chan.set_overwrite(self.id, 0, deny=perms.VIEW_CHANNEL)
            for member in [*visible_to, self.bot_member]:
                chan.set_overwrite(member.id, 1, allow=perms.VIEW_CHANNEL | perms.SEND_MESSAGES)
        self.channels.append(chan)
        self._world.channels[chan.id] = chan
        self._emit("CHANNEL_CREATE", render.channel(chan))
        return chan

    def add_member(
        self,
        user: str | FakeUser,
        *,
        manage_guild: bool = False,
        admin: bool = False,
        owner: bool = False,
        roles: Iterable[FakeRole] = (),
        nick: str | None = None,
        bot: bool = False,
    ) -> FakeMember:
        """Add a member (creating the user when given a name). manage_guild/admin grant a role with that perm."""
        fake_user = user if isinstance(user, FakeUser) else self._world.add_user(user, bot=bot)
        if fake_user.id in self.bans:
            raise InteractionError(f"{fake_user.name} is banned from {self.name}")
        member = FakeMember(self, fake_user, list(roles), nick)
        if manage_guild:
            member.roles.append(self._perm_role("Game Host", perms.MANAGE_GUILD))
        if admin:
            member.roles.append(self._perm_role("Admin", perms.ADMINISTRATOR))
        if owner:
            self.owner_id = fake_user.id
        self.members[fake_user.id] = member
        if fake_user.id != self._world.bot.id:
            payload = render.member(member) | {"guild_id": str(self.id)}
            self._emit("GUILD_MEMBER_ADD", payload)
        return member

    def remove_member(self, member: FakeMember) -> None:
        """The member leaves (or is kicked): GUILD_MEMBER_REMOVE; REST now answers 404 10007 Unknown Member."""
        if self.members.pop(member.id, None) is not None:
            self._emit("GUILD_MEMBER_REMOVE", {"guild_id": str(self.id), "user": render.user(member.user)})

    def kick(self, member: FakeMember) -> None:
        """Kicked by a moderator: the same events as leaving (GUILD_MEMBER_REMOVE); they may join again."""
        self.remove_member(member)

    def ban(self, member: FakeMember | FakeUser, *, reason: str | None = None) -> None:
        """Banned: GUILD_MEMBER_REMOVE (if a member) and GUILD_BAN_ADD; `add_member` refuses them afterwards."""
        user = member.user if isinstance(member, FakeMember) else member
        self.bans[user.id] = reason
        found = self.members.get(user.id)
        if found is not None:
            self.remove_member(found)
        self._emit("GUILD_BAN_ADD", {"guild_id": str(self.id), "user": render.user(user)})

    def unban(self, user: FakeMember | FakeUser) -> None:
        fake_user = user.user if isinstance(user, FakeMember) else user
        if self.bans.pop(fake_user.id, 0) != 0:
            self._emit("GUILD_BAN_REMOVE", {"guild_id": str(self.id), "user": render.user(fake_user)})

    def remove_bot(self) -> None:
        """The bot is kicked from the guild: GUILD_DELETE (no `unavailable`, so discord.py fires
        on_guild_remove); guild routes answer 404 10004, its channels 403 50001 Missing Access."""
        if not self.bot_present:
            return
        self._world.emit("GUILD_DELETE", {"id": str(self.id)})
        self.bot_present = False
        self.members.pop(self._world.bot.id, None)
        self._world.removed_guilds.append(self)
        self._world.guilds.remove(self)

    def is_member(self, user: FakeMember | FakeUser) -> bool:
        return self.members.get(user.id) is not None

    def delete_channel(self, channel: FakeChannel) -> None:
        """Deleted by a moderator: CHANNEL_DELETE on the gateway; REST on it answers 404 10003 Unknown Channel."""
        if channel in self.channels:
            self.channels.remove(channel)
        channel.deleted = True
        self._world.channels.pop(channel.id, None)
        self._world.deleted_channels[channel.id] = channel
        self._emit("CHANNEL_DELETE", render.channel(channel))

    def set_permissions(
        self, channel: FakeChannel, target: FakeMember | FakeRole | FakeUser, *, allow: int = 0, deny: int = 0
    ) -> None:
        """Set (replace) the channel's overwrite for a member or role (the guild's `everyone` role for
        @everyone, `bot_member` for the bot); CHANNEL_UPDATE tells the bot."""
        target_type = 0 if isinstance(target, FakeRole) else 1
        channel.set_overwrite(target.id, target_type, allow, deny)
        self._emit("CHANNEL_UPDATE", render.channel(channel))

    def clear_permissions(self, channel: FakeChannel, target: FakeMember | FakeRole | FakeUser) -> None:
        channel.overwrites = [o for o in channel.overwrites if int(o["id"]) != target.id]
        self._emit("CHANNEL_UPDATE", render.channel(channel))

    def set_role_permissions(self, role: FakeRole, permissions: int) -> None:
        """Change a role's guild-wide permissions; GUILD_ROLE_UPDATE tells the bot."""
        role.permissions = permissions
        self._emit("GUILD_ROLE_UPDATE", {"guild_id": str(self.id), "role": render.role(role)})

    @property
    def bot_role(self) -> FakeRole:
        """The bot's managed role (carries `bot_permissions`)."""
        return next(r for r in self.roles if r.bot_id == self._world.bot.id)

    def set_bot_permissions(self, permissions: int) -> None:
        """Replace the permissions of the bot's own role (guild-wide; overwrites still apply per channel)."""
        self.set_role_permissions(self.bot_role, permissions)

    def give_role(self, member: FakeMember, role: FakeRole) -> None:
        member.roles.append(role)
        self._emit("GUILD_MEMBER_UPDATE", render.member(member) | {"guild_id": str(self.id)})

    def _perm_role(self, name: str, permission: int) -> FakeRole:
        for role in self.roles:
            if role.name == name and role.permissions == permission:
                return role
        return self.add_role(name, permission)

    @property
    def bot_member(self) -> FakeMember:
        return self.members[self._world.bot.id]

    def member(self, name: str) -> FakeMember:
        for member in self.members.values():
            if member.name == name:
                return member
        raise KeyError(name)

    def channel(self, name: str) -> FakeChannel:
        for chan in self.channels:
            if chan.name == name:
                return chan
        raise KeyError(name)

    def role(self, role_id: int) -> FakeRole | None:
        return next((r for r in self.roles if r.id == role_id), None)

    def permissions_for(self, member: FakeMember, channel: FakeChannel | None = None) -> int:
        """Discord's permission algorithm: owner/admin → all; roles; then channel overwrites."""
        if member.id == self.owner_id:
            return perms.ALL
        base = self.everyone.permissions
        for role in member.roles:
            base |= role.permissions
        if base & perms.ADMINISTRATOR:
            return perms.ALL
        if channel is None:
            return base
        return perms.apply_overwrites(base, channel.overwrites, self.id, {r.id for r in member.roles}, member.id)


class World:
    """Everything the fake knows. `emit` is wired to the gateway to push events to the bot."""

    def __init__(self, bot_name: str) -> None:
        self.ids = Snowflakes()
        self.emit: Callable[[str, dict[str, Any]], None] = lambda event, data: None
        self.users: dict[int, FakeUser] = {}
        self.guilds: list[FakeGuild] = []
        self.channels: dict[int, FakeChannel] = {}
        self.dm_channels: dict[int, FakeChannel] = {}  # user id -> DM channel
        self.closed_dms: set[int] = set()
        self.messages: dict[int, SeenMessage] = {}
        # enforce_nonce: (author id, nonce) -> (message id, monotonic time created)
        self.nonces: dict[tuple[int, str], tuple[int, float]] = {}
        self.channel_log: dict[int, list[SeenMessage]] = {}
        self.ephemeral_log: dict[int, list[SeenMessage]] = {}
        # app commands by scope: None = global, else guild id
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.deleted_channels: dict[int, FakeChannel] = {}
        self.removed_guilds: list[FakeGuild] = []  # guilds the bot was kicked from
        # users the bot may DM although they share no guild with it (they opened a DM with it)
        self.dm_contacts: set[int] = set()
        self.sent_components: list[SentComponents] = []  # every component tree the bot sent (messages, edits, modals)
        self.uploads: list[UploadRecord] = []  # every file the bot uploaded
        self.shard_count = 1  # what GET /gateway/bot recommends; add_guild(shard=...) picks ids for it
        self.bot = self.add_user(bot_name, bot=True)

    def add_user(self, name: str, *, bot: bool = False) -> FakeUser:
        user = FakeUser(self.ids.next(), name, bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, bot_permissions: int, *, shard: int | None = None) -> FakeGuild:
        gid = self.ids.next() if shard is None else self.ids.next_on_shard(shard, self.shard_count)
        guild = FakeGuild(self, gid, name)
        bot_role = FakeRole(
            self.ids.next(), self.bot.name, bot_permissions, position=1, managed=True, bot_id=self.bot.id
        )
        guild.roles.append(bot_role)
        guild.members[self.bot.id] = FakeMember(guild, self.bot, [bot_role])
        self.guilds.append(guild)
        return guild

    def shares_guild(self, user: FakeUser) -> bool:
        return any(g.members.get(user.id) is not None for g in self.guilds)

    def guild(self, guild_id: int) -> FakeGuild | None:
        return next((g for g in self.guilds if g.id == guild_id), None)

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        chan = self.dm_channels.get(user.id)
        if chan is None:
            chan = FakeChannel(self.ids.next(), user.name, DM, recipient=user)
            self.dm_channels[user.id] = chan
            self.channels[chan.id] = chan
        return chan

    def store(self, msg: SeenMessage) -> SeenMessage:
        """Record a new message: ephemerals go to the viewer's log, others to the channel log."""
        self.messages[msg.id] = msg
        if msg.ephemeral and msg.viewer is not None:
            self.ephemeral_log.setdefault(msg.viewer.id, []).append(msg)
        else:
            self.channel_log.setdefault(msg.channel_id, []).append(msg)
        return msg
