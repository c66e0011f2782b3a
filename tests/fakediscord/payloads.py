"""Render fake objects as Discord API v10 JSON payloads."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser, SeenMessage

JSON = dict[str, Any]


def user(u: FakeUser) -> JSON:
    return {
        "id": str(u.id),
        "username": u.name,
        "global_name": u.global_name,
        "discriminator": "0",
        "avatar": None,
        "bot": u.bot,
        "public_flags": 0,
        "flags": 0,
        "mfa_enabled": False,
        "verified": True,
    }


def role(r: FakeRole) -> JSON:
    data: JSON = {
        "id": str(r.id),
        "name": r.name,
        "permissions": str(r.permissions),
        "position": r.position,
        "color": r.color,
        "colors": {"primary_color": r.color, "secondary_color": None, "tertiary_color": None},
        "hoist": r.hoist,
        "managed": r.managed,
        "mentionable": r.mentionable,
        "icon": None,
        "unicode_emoji": None,
        "flags": 0,
    }
    if r.bot_id is not None:
        data["tags"] = {"bot_id": str(r.bot_id)}
    return data


def member(m: FakeMember, *, permissions: int | None = None) -> JSON:
    data: JSON = {
        "user": user(m.user),
        "nick": m.nick,
        "avatar": None,
        "roles": [str(r.id) for r in m.roles if r.id != m.guild.id],
        "joined_at": m.joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
    }
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def channel(c: FakeChannel) -> JSON:
    if c.is_dm:
        assert c.recipient is not None
        return {"id": str(c.id), "type": c.type, "recipients": [user(c.recipient)], "last_message_id": None, "flags": 0}
    assert c.guild is not None
    return {
        "id": str(c.id),
        "type": c.type,
        "guild_id": str(c.guild.id),
        "name": c.name,
        "position": c.position,
        "permission_overwrites": c.overwrites,
        "topic": c.topic,
        "nsfw": False,
        "parent_id": str(c.parent_id) if c.parent_id else None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
    }


def guild(g: FakeGuild, *, full: bool = True) -> JSON:
    """GUILD_CREATE-style payload (full=True adds channels and members)."""
    data: JSON = {
        "id": str(g.id),
        "name": g.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(g.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [role(r) for r in g.roles],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "application_id": None,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
    }
    if full:
        data |= {
            "unavailable": False,
            "large": False,
            "member_count": len(g.members),
            "joined_at": g.bot_member.joined_at,
            "channels": [channel(c) for c in g.channels],
            "members": [member(m) for m in g.members.values()],
            "threads": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }
    return data


def reactions(msg: SeenMessage, me_id: int) -> list[JSON]:
    counts = Counter(emoji for emoji, _ in msg.reactions)
    return [
        {
            "emoji": {"id": None, "name": emoji},
            "count": n,
            "count_details": {"burst": 0, "normal": n},
            "me": any(e == emoji and uid == me_id for e, uid in msg.reactions),
            "me_burst": False,
            "burst_colors": [],
        }
        for emoji, n in counts.items()
    ]


def message(msg: SeenMessage, users: dict[int, FakeUser], me_id: int) -> JSON:
    data: JSON = {
        "id": str(msg.id),
        "channel_id": str(msg.channel_id),
        "author": user(msg.author),
        "content": msg.content,
        "timestamp": msg.timestamp,
        "edited_timestamp": msg.edited_at,
        "tts": msg.tts,
        "mention_everyone": False,
        "mentions": [user(users[uid]) for uid in msg.mentions if uid in users],
        "mention_roles": [],
        "attachments": msg.attachment_payloads,
        "embeds": msg.embeds,
        "components": msg.components,
        "pinned": msg.pinned,
        "type": 20 if msg.interaction_id else (19 if msg.message_reference else 0),
        "flags": msg.flags,
    }
    if msg.guild_id is not None:
        data["guild_id"] = str(msg.guild_id)
    if msg.nonce is not None:
        data["nonce"] = msg.nonce
    if msg.reactions:
        data["reactions"] = reactions(msg, me_id)
    if msg.message_reference:
        data["message_reference"] = msg.message_reference
    if msg.interaction_id is not None:
        data["webhook_id"] = str(me_id)
    return data


def app_info(bot: FakeUser) -> JSON:
    return {
        "id": str(bot.id),
        "name": bot.name,
        "icon": None,
        "description": "fake application",
        "rpc_origins": [],
        "bot_public": True,
        "bot_require_code_grant": False,
        "bot": user(bot),
        "owner": user(bot),
        "team": None,
        "summary": "",
        "verify_key": "0" * 64,
        "flags": 0,
        "interactions_endpoint_url": None,
        "tags": [],
    }
