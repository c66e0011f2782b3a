"""The REST API (/api/v10/...): a tiny router, request log, auth, fault injection and route handlers."""

from __future__ import annotations

import logging
import re
import time
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from . import payloads as render
from . import perms
from .faults import Faults, RateLimits, bucket_hash, json_response
from .gateway import Gateway
from .interactions import InteractionDesk
from .messages import MessageFactory, Upload, read_body
from .state import TEXT, FakeChannel, FakeGuild, FakeMember, SeenMessage, World

log = logging.getLogger("fakediscord")

JSON = dict[str, Any]
Result = tuple[int, Any]  # (status, JSON body or None for 204)


@dataclass
class RequestRecord:
    """One REST call the bot made. `json` is the JSON body or multipart `payload_json`."""

    method: str
    path: str
    json: Any
    query: dict[str, str]
    files: list[str] = field(default_factory=list)
    status: int = 0
    route: str | None = None  # matched template, None for unknown routes
    bucket: str = ""  # the X-RateLimit-Bucket answered (one per route)
    major: str = ""  # the major parameter (channel id, guild id or webhook id+token) that keys the limit
    at: float = field(default_factory=time.monotonic)
    disconnected: bool = False  # the fake closed the connection instead of answering


@dataclass
class Call:
    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    uploads: list[Upload]

    def int(self, name: str) -> int:
        return int(self.params[name])


Handler = Callable[[Call], Result | Awaitable[Result]]

# Discord error codes used below.
UNKNOWN_CHANNEL, UNKNOWN_GUILD, UNKNOWN_MEMBER, UNKNOWN_MESSAGE, UNKNOWN_USER, UNKNOWN_ROLE = (
    10003, 10004, 10007, 10008, 10013, 10011,
)  # fmt: skip
MISSING_ACCESS, CANNOT_DM, MISSING_PERMISSIONS, EMPTY_MESSAGE, NOT_AUTHOR = 50001, 50007, 50013, 50006, 50005
INVALID_FORM_BODY = 50035
UNKNOWN_BAN = 10026
NONCE_MAX = 25  # characters
NONCE_WINDOW = 300.0  # seconds an enforced nonce is remembered ("the past few minutes")


def err(status: int, code: int, message: str) -> Result:
    return status, {"code": code, "message": message}


def major_parameter(params: dict[str, str]) -> str:
    """What Discord keys a bucket by besides the route: the channel, else the guild, else the webhook + token."""
    if "channel_id" in params:
        return params["channel_id"]
    if "guild_id" in params:
        return params["guild_id"]
    if "token" in params:
        return f"{params.get('app_id') or params.get('interaction_id')}+{params['token']}"
    return ""


class RestApi:
    def __init__(
        self, world: World, gateway: Gateway, factory: MessageFactory, desk: InteractionDesk, faults: Faults, token: str
    ) -> None:
        self.world = world
        self.gateway = gateway
        self.factory = factory
        self.desk = desk
        self.faults = faults
        self.ratelimits = RateLimits()
        self.token = token
        self.dropped_embeds: list[int] = []  # ids of messages whose embeds were dropped (no Embed Links)
        self.requests: list[RequestRecord] = []
        self.unknown: list[RequestRecord] = []
        self.errors: list[str] = []  # tracebacks of handler crashes (returned to the bot as 400s)
        self.nonce_replays: list[int] = []  # ids of messages returned again for a repeated enforced nonce
        self.nonce_window = NONCE_WINDOW
        self.in_flight = 0
        self.last_activity = time.monotonic()
        self._routes: list[tuple[str, str, re.Pattern[str], Handler]] = []
        self._register()

    # --- plumbing ---------------------------------------------------------------

    def add(self, method: str, template: str, handler: Handler) -> None:
        regex = "^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template) + "$"
        self._routes.append((method, template, re.compile(regex), handler))

    def _match(self, method: str, path: str) -> tuple[str, Handler, dict[str, str]] | None:
        for route_method, template, regex, handler in self._routes:
            if route_method == method and (m := regex.match(path)):
                return template, handler, m.groupdict()
        return None

    async def handle(self, request: web.Request) -> web.Response:
        self.in_flight += 1
        try:
            return await self._handle(request)
        finally:
            self.in_flight -= 1
            self.last_activity = time.monotonic()

    async def _handle(self, request: web.Request) -> web.Response:
        method, path = request.method, "/" + request.match_info["tail"]
        body, uploads = await read_body(request)
        record = RequestRecord(method, path, body, dict(request.query), [u.filename for u in uploads])
        self.requests.append(record)
        matched = self._match(method, path)
        template = matched[0] if matched else path
        bucket = f"{method} {template}"
        major = major_parameter(matched[2]) if matched else ""
        record.route = matched[0] if matched else None
        record.bucket, record.major = bucket_hash(bucket), major
        headers = self.ratelimits.headers(bucket, major)

        needs_auth = not path.startswith(("/webhooks/", "/interactions/"))
        if needs_auth and request.headers.get("Authorization") != f"Bot {self.token}":
            record.status = 401
            return json_response(401, {"code": 0, "message": "401: Unauthorized"}, headers)
        fault = self.faults.take(method, path)
        if fault is not None and not fault.after:
            return self._fail(request, record, fault, bucket)
        if fault is None:
            limited = self.ratelimits.check(
                method, path, bucket, major, exempt_global=path.startswith("/interactions/")
            )
            if limited is not None:
                record.status = 429
                return limited
            headers = self.ratelimits.headers(bucket, major)
        if matched is None:
            record.status = 404
            self.unknown.append(record)
            log.warning("fakediscord: unknown route %s %s", method, path)
            return json_response(404, {"code": 0, "message": "404: Not Found"}, headers)

        call = Call(method, path, matched[2], dict(request.query), body, uploads)
        try:
            result = matched[1](call)
            status, payload = await result if isinstance(result, Awaitable) else result
        except Exception:  # a bug in the fake: tell the bot 400 (a 5xx would make it retry for ~25 s)
            self.errors.append(f"{method} {path}\n{traceback.format_exc()}")
            log.exception("fakediscord: handler crashed for %s %s", method, path)
            status, payload = err(400, 0, "fakediscord handler crashed; see fd.errors")
        if fault is not None:  # after=True: the request took effect, but the bot sees the failure
            return self._fail(request, record, fault, bucket)
        record.status = status
        return json_response(status, payload, headers)

    def _fail(self, request: web.Request, record: RequestRecord, fault: Any, bucket: str) -> web.Response:
        if fault.disconnect:  # no answer at all: the bot's HTTP client sees the server hang up
            record.status, record.disconnected = 0, True
            if request.transport is not None:
                request.transport.close()
            return web.Response(status=204)
        record.status = fault.status
        return fault.response(bucket)

    # --- lookups ----------------------------------------------------------------

    def _guild(self, call: Call) -> FakeGuild | None:
        return self.world.guild(call.int("guild_id"))

    def _channel(self, call: Call) -> FakeChannel | None:
        return self.world.channels.get(call.int("channel_id"))

    def _message(self, call: Call) -> SeenMessage | None:
        msg = self.world.messages.get(call.int("message_id"))
        if msg is None or msg.deleted or msg.channel_id != call.int("channel_id"):
            return None
        return msg

    def _bot_perms(self, chan: FakeChannel) -> int:
        if chan.is_dm or chan.guild is None:
            return perms.DM_DEFAULT
        if not chan.guild.bot_present:
            return 0
        return chan.guild.permissions_for(chan.guild.bot_member, chan)

    def _denied(self, chan: FakeChannel, *needed: int) -> Result | None:
        """Discord's answer when the bot may not act here: no View Channel → 403 50001 Missing Access,
        a missing permission among `needed` → 403 50013 Missing Permissions."""
        if chan.is_dm:
            return None
        if chan.guild is not None and not chan.guild.bot_present:  # the bot was removed from the guild
            return err(403, MISSING_ACCESS, "Missing Access")
        allowed = self._bot_perms(chan)
        if not allowed & perms.VIEW_CHANNEL:
            return err(403, MISSING_ACCESS, "Missing Access")
        for bit in needed:
            if not allowed & bit:
                return err(403, MISSING_PERMISSIONS, "Missing Permissions")
        return None

    def _guild_denied(self, guild: FakeGuild, *needed: int) -> Result | None:
        allowed = guild.permissions_for(guild.bot_member)
        if any(not allowed & bit for bit in needed):
            return err(403, MISSING_PERMISSIONS, "Missing Permissions")
        return None

    def _open(self, c: Call, *needed: int) -> tuple[FakeChannel | None, Result | None]:
        """The channel of the route, or the error: 404 10003 when it does not exist (or was deleted)."""
        chan = self._channel(c)
        if chan is None:
            return None, err(404, UNKNOWN_CHANNEL, "Unknown Channel")
        return chan, self._denied(chan, *needed)

    def _open_message(self, c: Call, *needed: int) -> tuple[SeenMessage | None, Result | None]:
        chan, denied = self._open(c, *needed)
        if denied:
            return None, denied
        msg = self._message(c)
        return (msg, None) if msg else (None, err(404, UNKNOWN_MESSAGE, "Unknown Message"))

    # --- routes -----------------------------------------------------------------

    def _register(self) -> None:
        a = self.add
        a("GET", "/users/@me", lambda c: (200, render.user(self.world.bot)))
        a("GET", "/users/{user_id}", self.get_user)
        a("POST", "/users/@me/channels", self.create_dm)
        a("GET", "/applications/@me", lambda c: (200, render.app_info(self.world.bot)))
        a("GET", "/oauth2/applications/@me", lambda c: (200, render.app_info(self.world.bot)))
        a("GET", "/gateway", lambda c: (200, {"url": self.gateway.url}))
        a("GET", "/gateway/bot", self.gateway_bot)
        for prefix in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            a("GET", prefix + "/commands", self.get_commands)
            a("PUT", prefix + "/commands", self.put_commands)
            a("POST", prefix + "/commands", self.post_command)
            a("GET", prefix + "/commands/{command_id}", self.get_command)
            a("PATCH", prefix + "/commands/{command_id}", self.patch_command)
            a("DELETE", prefix + "/commands/{command_id}", self.delete_command)
        a("GET", "/applications/{app_id}/guilds/{guild_id}/commands/permissions", lambda c: (200, []))
        a("GET", "/guilds/{guild_id}", self.get_guild)
        a("GET", "/guilds/{guild_id}/channels", self.get_guild_channels)
        a("POST", "/guilds/{guild_id}/channels", self.create_channel)
        a("GET", "/guilds/{guild_id}/roles", self.get_roles)
        a("POST", "/guilds/{guild_id}/roles", self.create_role)
        a("GET", "/guilds/{guild_id}/members", self.list_members)
        a("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member)
        a("PATCH", "/guilds/{guild_id}/members/{user_id}", self.edit_member)
        a("DELETE", "/guilds/{guild_id}/members/{user_id}", self.kick_member)
        a("GET", "/guilds/{guild_id}/bans", self.list_bans)
        a("GET", "/guilds/{guild_id}/bans/{user_id}", self.get_ban)
        a("PUT", "/guilds/{guild_id}/bans/{user_id}", self.put_ban)
        a("DELETE", "/guilds/{guild_id}/bans/{user_id}", self.delete_ban)
        a("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self.add_member_role)
        a("DELETE", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self.remove_member_role)
        a("GET", "/channels/{channel_id}", self.get_channel)
        a("PATCH", "/channels/{channel_id}", self.edit_channel)
        a("DELETE", "/channels/{channel_id}", self.delete_channel)
        a("PUT", "/channels/{channel_id}/permissions/{target_id}", self.put_overwrite)
        a("DELETE", "/channels/{channel_id}/permissions/{target_id}", self.delete_overwrite)
        a("POST", "/channels/{channel_id}/typing", self.typing)
        a("GET", "/channels/{channel_id}/messages", self.list_messages)
        a("POST", "/channels/{channel_id}/messages", self.create_message)
        a("POST", "/channels/{channel_id}/messages/bulk-delete", self.bulk_delete)
        a("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message)
        a("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message)
        a("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message)
        reactions = "/channels/{channel_id}/messages/{message_id}/reactions"
        a("PUT", reactions + "/{emoji}/@me", self.add_reaction)
        a("DELETE", reactions + "/{emoji}/{user_id}", self.remove_reaction)
        a("DELETE", reactions + "/{emoji}", self.clear_reaction)
        a("DELETE", reactions, self.clear_reaction)
        a("GET", reactions + "/{emoji}", self.reaction_users)
        for pins in ("/channels/{channel_id}/pins/{message_id}", "/channels/{channel_id}/messages/pins/{message_id}"):
            a("PUT", pins, self.pin)
            a("DELETE", pins, self.pin)
        a("POST", "/interactions/{interaction_id}/{token}/callback", self.interaction_callback)
        hook = "/webhooks/{app_id}/{token}"
        a("POST", hook, self.followup)
        a("GET", hook + "/messages/{message_id}", self.get_webhook_message)
        a("PATCH", hook + "/messages/{message_id}", self.edit_webhook_message)
        a("DELETE", hook + "/messages/{message_id}", self.delete_webhook_message)

    # users, gateway, application

    def get_user(self, c: Call) -> Result:
        user = self.world.users.get(c.int("user_id"))
        return (200, render.user(user)) if user else err(404, UNKNOWN_USER, "Unknown User")

    def create_dm(self, c: Call) -> Result:
        user = self.world.users.get(int(c.body["recipient_id"]))
        if user is None:
            return err(404, UNKNOWN_USER, "Unknown User")
        return 200, render.channel(self.world.dm_channel(user))

    def gateway_bot(self, c: Call) -> Result:
        limit = {"total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1}
        return 200, {"url": self.gateway.url, "shards": self.world.shard_count, "session_start_limit": limit}

    # application commands

    def _scope(self, c: Call) -> int | None:
        return c.int("guild_id") if "guild_id" in c.params else None

    def _store_command(self, scope: int | None, data: JSON, existing: list[JSON]) -> JSON:
        """Keep the id of a same-name/same-type command, like Discord's bulk overwrite."""
        kind = data.get("type", 1)
        old = next((x for x in existing if x["name"] == data["name"] and x.get("type", 1) == kind), None)
        cmd = {
            "description": "",
            "default_member_permissions": None,
            "nsfw": False,
            "options": [],
            **data,
            "type": kind,
            "id": old["id"] if old else str(self.world.ids.next()),
            "application_id": str(self.world.bot.id),
            "version": str(self.world.ids.next()),
        }
        if scope is not None:
            cmd["guild_id"] = str(scope)
        return cmd

    def get_commands(self, c: Call) -> Result:
        return 200, self.world.commands.get(self._scope(c), [])

    def put_commands(self, c: Call) -> Result:
        scope = self._scope(c)
        existing = self.world.commands.get(scope, [])
        self.world.commands[scope] = [self._store_command(scope, d, existing) for d in c.body or []]
        return 200, self.world.commands[scope]

    def post_command(self, c: Call) -> Result:
        scope = self._scope(c)
        existing = self.world.commands.setdefault(scope, [])
        cmd = self._store_command(scope, c.body, existing)
        existing[:] = [x for x in existing if x["id"] != cmd["id"]] + [cmd]
        return 201, cmd

    def _find_command(self, c: Call) -> JSON | None:
        return next((x for x in self.world.commands.get(self._scope(c), []) if x["id"] == c.params["command_id"]), None)

    def get_command(self, c: Call) -> Result:
        cmd = self._find_command(c)
        return (200, cmd) if cmd else err(404, 10063, "Unknown application command")

    def patch_command(self, c: Call) -> Result:
        cmd = self._find_command(c)
        if cmd is None:
            return err(404, 10063, "Unknown application command")
        cmd.update(c.body or {})
        return 200, cmd

    def delete_command(self, c: Call) -> Result:
        scope = self._scope(c)
        self.world.commands[scope] = [
            x for x in self.world.commands.get(scope, []) if x["id"] != c.params["command_id"]
        ]
        return 204, None

    # guilds

    def get_guild(self, c: Call) -> Result:
        guild = self._guild(c)
        if guild is None:
            return err(404, UNKNOWN_GUILD, "Unknown Guild")
        data = render.guild(guild, full=False)
        return 200, data | {"approximate_member_count": len(guild.members), "approximate_presence_count": 0}

    def get_guild_channels(self, c: Call) -> Result:
        guild = self._guild(c)
        return (
            (200, [render.channel(ch) for ch in guild.channels]) if guild else err(404, UNKNOWN_GUILD, "Unknown Guild")
        )

    def create_channel(self, c: Call) -> Result:
        guild = self._guild(c)
        if guild is None:
            return err(404, UNKNOWN_GUILD, "Unknown Guild")
        if denied := self._guild_denied(guild, perms.MANAGE_CHANNELS):
            return denied
        body = c.body or {}
        parent = self.world.channels.get(int(body["parent_id"])) if body.get("parent_id") else None
        overwrites = [
            {
                "id": str(o["id"]),
                "type": int(o.get("type", 0)),
                "allow": str(o.get("allow", 0)),
                "deny": str(o.get("deny", 0)),
            }
            for o in body.get("permission_overwrites") or []
        ]
        chan = guild.add_channel(
            body["name"], int(body.get("type", TEXT)), topic=body.get("topic"), category=parent, overwrites=overwrites
        )
        return 201, render.channel(chan)

    def get_roles(self, c: Call) -> Result:
        guild = self._guild(c)
        return (200, [render.role(r) for r in guild.roles]) if guild else err(404, UNKNOWN_GUILD, "Unknown Guild")

    def create_role(self, c: Call) -> Result:
        guild = self._guild(c)
        if guild is None:
            return err(404, UNKNOWN_GUILD, "Unknown Guild")
        if denied := self._guild_denied(guild, perms.MANAGE_ROLES):
            return denied
        body = c.body or {}
        role = guild.add_role(body.get("name", "new role"), int(body.get("permissions", 0)))
        return 200, render.role(role)

    def list_members(self, c: Call) -> Result:
        guild = self._guild(c)
        if guild is None:
            return err(404, UNKNOWN_GUILD, "Unknown Guild")
        after = int(c.query.get("after", 0))
        limit = int(c.query.get("limit", 1))
        members = sorted((m for m in guild.members.values() if m.id > after), key=lambda m: m.id)
        return 200, [render.member(m) for m in members[:limit]]

    def _member(self, c: Call) -> tuple[FakeGuild, FakeMember] | None:
        guild = self._guild(c)
        member = guild.members.get(c.int("user_id")) if guild else None
        return (guild, member) if guild and member else None

    def get_member(self, c: Call) -> Result:
        """404 10007 Unknown Member for anyone not (or no longer) in the guild: left, kicked or banned."""
        if self._guild(c) is None:
            return err(404, UNKNOWN_GUILD, "Unknown Guild")
        found = self._member(c)
        if found is None:
            return err(404, UNKNOWN_MEMBER, "Unknown Member")
        return 200, render.member(found[1])

    def edit_member(self, c: Call) -> Result:
        found = self._member(c)
        if found is None:
            return err(404, UNKNOWN_MEMBER, "Unknown Member")
        guild, member = found
        body = c.body or {}
        needed = ([perms.MANAGE_NICKNAMES] if "nick" in body else []) + (
            [perms.MANAGE_ROLES] if "roles" in body else []
        )
        if member.id != self.world.bot.id and (denied := self._guild_denied(guild, *needed)):
            return denied
        if "nick" in body:
            member.nick = body["nick"]
        if "roles" in body:
            member.roles = [r for r in (guild.role(int(rid)) for rid in body["roles"]) if r is not None]
        self.world.emit("GUILD_MEMBER_UPDATE", render.member(member) | {"guild_id": str(guild.id)})
        return 200, render.member(member)

    def kick_member(self, c: Call) -> Result:
        found = self._member(c)
        if found is None:
            return err(404, UNKNOWN_MEMBER, "Unknown Member")
        guild, member = found
        if denied := self._guild_denied(guild, perms.KICK_MEMBERS):
            return denied
        guild.kick(member)
        return 204, None

    def _ban_guild(self, c: Call) -> tuple[FakeGuild | None, Result | None]:
        guild = self._guild(c)
        if guild is None:
            return None, err(404, UNKNOWN_GUILD, "Unknown Guild")
        return guild, self._guild_denied(guild, perms.BAN_MEMBERS)

    def _ban_payload(self, guild: FakeGuild, user_id: int) -> JSON:
        return {"reason": guild.bans[user_id], "user": render.user(self.world.users[user_id])}

    def list_bans(self, c: Call) -> Result:
        guild, denied = self._ban_guild(c)
        if denied or guild is None:
            return denied  # type: ignore[return-value]
        return 200, [self._ban_payload(guild, uid) for uid in guild.bans]

    def get_ban(self, c: Call) -> Result:
        guild, denied = self._ban_guild(c)
        if denied or guild is None:
            return denied  # type: ignore[return-value]
        if c.int("user_id") not in guild.bans:
            return err(404, UNKNOWN_BAN, "Unknown Ban")
        return 200, self._ban_payload(guild, c.int("user_id"))

    def put_ban(self, c: Call) -> Result:
        guild, denied = self._ban_guild(c)
        if denied or guild is None:
            return denied  # type: ignore[return-value]
        user = self.world.users.get(c.int("user_id"))
        if user is None:
            return err(404, UNKNOWN_USER, "Unknown User")
        guild.ban(user, reason=(c.body or {}).get("reason"))
        return 204, None

    def delete_ban(self, c: Call) -> Result:
        guild, denied = self._ban_guild(c)
        if denied or guild is None:
            return denied  # type: ignore[return-value]
        user = self.world.users.get(c.int("user_id"))
        if user is None or user.id not in guild.bans:
            return err(404, UNKNOWN_BAN, "Unknown Ban")
        guild.unban(user)
        return 204, None

    def add_member_role(self, c: Call) -> Result:
        found = self._member(c)
        if found is None:
            return err(404, UNKNOWN_MEMBER, "Unknown Member")
        guild, member = found
        if denied := self._guild_denied(guild, perms.MANAGE_ROLES):
            return denied
        role = guild.role(c.int("role_id"))
        if role is None:
            return err(404, UNKNOWN_ROLE, "Unknown Role")
        if role not in member.roles:
            guild.give_role(member, role)
        return 204, None

    def remove_member_role(self, c: Call) -> Result:
        found = self._member(c)
        if found is None:
            return err(404, UNKNOWN_MEMBER, "Unknown Member")
        guild, member = found
        if denied := self._guild_denied(guild, perms.MANAGE_ROLES):
            return denied
        member.roles = [r for r in member.roles if r.id != c.int("role_id")]
        self.world.emit("GUILD_MEMBER_UPDATE", render.member(member) | {"guild_id": str(guild.id)})
        return 204, None

    # channels

    def get_channel(self, c: Call) -> Result:
        chan, denied = self._open(c)
        return denied or (200, render.channel(chan))  # type: ignore[arg-type]

    def edit_channel(self, c: Call) -> Result:
        chan, denied = self._open(c, perms.MANAGE_CHANNELS)
        if denied or chan is None:
            return denied  # type: ignore[return-value]
        body = c.body or {}
        chan.name = body.get("name", chan.name)
        chan.topic = body.get("topic", chan.topic)
        if "permission_overwrites" in body:
            chan.overwrites = []
            for o in body["permission_overwrites"]:
                chan.set_overwrite(int(o["id"]), int(o.get("type", 0)), int(o.get("allow", 0)), int(o.get("deny", 0)))
        self.world.emit("CHANNEL_UPDATE", render.channel(chan))
        return 200, render.channel(chan)

    def delete_channel(self, c: Call) -> Result:
        chan, denied = self._open(c, perms.MANAGE_CHANNELS)
        if denied or chan is None:
            return denied  # type: ignore[return-value]
        if chan.guild is not None:
            chan.guild.delete_channel(chan)
        return 200, render.channel(chan)

    def put_overwrite(self, c: Call) -> Result:
        chan, denied = self._open(c, perms.MANAGE_ROLES)
        if denied or chan is None:
            return denied  # type: ignore[return-value]
        body = c.body or {}
        chan.set_overwrite(
            c.int("target_id"), int(body.get("type", 0)), int(body.get("allow", 0)), int(body.get("deny", 0))
        )
        self.world.emit("CHANNEL_UPDATE", render.channel(chan))
        return 204, None

    def delete_overwrite(self, c: Call) -> Result:
        chan, denied = self._open(c, perms.MANAGE_ROLES)
        if denied or chan is None:
            return denied  # type: ignore[return-value]
        chan.overwrites = [o for o in chan.overwrites if int(o["id"]) != c.int("target_id")]
        self.world.emit("CHANNEL_UPDATE", render.channel(chan))
        return 204, None

    def typing(self, c: Call) -> Result:
        _, denied = self._open(c, perms.SEND_MESSAGES)
        return denied or (204, None)

    # messages

    def list_messages(self, c: Call) -> Result:
        chan, denied = self._open(c)
        if denied or chan is None:
            return denied  # type: ignore[return-value]
        if not self._bot_perms(chan) & perms.READ_MESSAGE_HISTORY:
            return 200, []  # Discord: without Read Message History no messages are returned
        msgs = [m for m in self.world.channel_log.get(chan.id, []) if not m.deleted]
        if "before" in c.query:
            msgs = [m for m in msgs if m.id < int(c.query["before"])]
        if "after" in c.query:
            msgs = [m for m in msgs if m.id > int(c.query["after"])]
        limit = int(c.query.get("limit", 50))
        newest_first = list(reversed(msgs))[:limit]
        if "after" in c.query:  # Discord returns the oldest `limit` after the id
            newest_first = list(reversed(msgs[:limit]))
        return 200, [self.factory.payload(m) for m in newest_first]

    def _dm_denied(self, chan: FakeChannel) -> Result | None:
        """A DM fails with 403 50007 when the user closed their DMs or shares no guild with the bot
        (unless they opened a DM with it themselves)."""
        assert chan.recipient is not None
        user = chan.recipient
        if user.id in self.world.closed_dms:
            return err(403, CANNOT_DM, "Cannot send messages to this user")
        if not self.world.shares_guild(user) and user.id not in self.world.dm_contacts:
            return err(403, CANNOT_DM, "Cannot send messages to this user")
        return None

    def _can_send(self, chan: FakeChannel, body: JSON, uploads: list[Upload]) -> Result | None:
        if chan.is_dm:
            return self._dm_denied(chan)
        needed = [perms.SEND_MESSAGES]
        if uploads:
            needed.append(perms.ATTACH_FILES)
        if body.get("message_reference"):
            needed.append(perms.READ_MESSAGE_HISTORY)
        return self._denied(chan, *needed)

    def _strip_embeds(self, chan: FakeChannel, body: JSON) -> tuple[JSON, bool]:
        """Without Embed Links Discord accepts the message and silently drops its embeds (an embed-only
        message then fails as empty, 50006)."""
        if (
            chan.is_dm
            or (chan.guild is not None and not chan.guild.bot_present)
            or self._bot_perms(chan) & perms.EMBED_LINKS
            or not (body.get("embeds") or body.get("embed"))
        ):
            return body, False
        return {k: v for k, v in body.items() if k not in ("embeds", "embed")} | {"embeds": []}, True

    def create_message(self, c: Call) -> Result:
        chan = self._channel(c)
        if chan is None:
            return err(404, UNKNOWN_CHANNEL, "Unknown Channel")
        body = c.body or {}
        if denied := self._can_send(chan, body, c.uploads):
            return denied
        body, dropped = self._strip_embeds(chan, body)
        if invalid := self.factory.check(body, c.uploads):
            return 400, invalid
        nonce = body.get("nonce")
        if nonce is not None:
            nonce = str(nonce)
            if len(nonce) > NONCE_MAX:
                return err(400, INVALID_FORM_BODY, f"Invalid Form Body: nonce must be {NONCE_MAX} or fewer in length")
            # Discord: with enforce_nonce, a message created by the same author with the same nonce in the
            # past few minutes is returned as it is, and no new message is created.
            key = (self.world.bot.id, nonce)
            seen = self.world.nonces.get(key)
            if body.get("enforce_nonce") and seen and time.monotonic() - seen[1] <= self.nonce_window:
                existing = self.world.messages.get(seen[0])
                if existing is not None:
                    self.nonce_replays.append(existing.id)
                    return 200, self.factory.payload(existing)
        msg = self.factory.create(chan, self.world.bot, body, c.uploads)
        msg.nonce = nonce
        if dropped:
            self.dropped_embeds.append(msg.id)
        if nonce is not None:
            self.world.nonces[(self.world.bot.id, nonce)] = (msg.id, time.monotonic())
        return 200, self.factory.payload(self.factory.publish(msg))

    def get_message(self, c: Call) -> Result:
        msg, denied = self._open_message(c, perms.READ_MESSAGE_HISTORY)
        return denied or (200, self.factory.payload(msg))  # type: ignore[arg-type]

    def edit_message(self, c: Call) -> Result:
        msg, denied = self._open_message(c)
        if denied or msg is None:
            return denied  # type: ignore[return-value]
        if msg.author.id != self.world.bot.id:
            return err(403, NOT_AUTHOR, "Cannot edit a message authored by another user")
        chan = self.world.channels[msg.channel_id]
        if c.uploads and (denied := self._denied(chan, perms.ATTACH_FILES)):
            return denied
        body, dropped = self._strip_embeds(chan, c.body or {})
        if invalid := self.factory.check(body, c.uploads, msg):
            return 400, invalid
        if dropped:
            self.dropped_embeds.append(msg.id)
        return 200, self.factory.payload(self.factory.edit(msg, body, c.uploads))

    def delete_message(self, c: Call) -> Result:
        msg, denied = self._open_message(c)
        if denied or msg is None:
            return denied  # type: ignore[return-value]
        if msg.author.id != self.world.bot.id:
            if denied := self._denied(self.world.channels[msg.channel_id], perms.MANAGE_MESSAGES):
                return denied
        self.factory.delete(msg)
        return 204, None

    def bulk_delete(self, c: Call) -> Result:
        _, denied = self._open(c, perms.MANAGE_MESSAGES)
        if denied:
            return denied
        for mid in (c.body or {}).get("messages", []):
            msg = self.world.messages.get(int(mid))
            if msg is not None and not msg.deleted:
                self.factory.delete(msg)
        return 204, None

    def add_reaction(self, c: Call) -> Result:
        msg, denied = self._open_message(c, perms.READ_MESSAGE_HISTORY)
        if denied or msg is None:
            return denied  # type: ignore[return-value]
        emoji = c.params["emoji"]
        is_new = all(e != emoji for e, _ in msg.reactions)
        if is_new and (denied := self._denied(self.world.channels[msg.channel_id], perms.ADD_REACTIONS)):
            return denied
        entry = (emoji, self.world.bot.id)
        if entry not in msg.reactions:
            msg.reactions.append(entry)
        return 204, None

    def remove_reaction(self, c: Call) -> Result:
        msg, denied = self._open_message(c)
        if denied or msg is None:
            return denied  # type: ignore[return-value]
        uid = self.world.bot.id if c.params["user_id"] == "@me" else c.int("user_id")
        if uid != self.world.bot.id and (
            denied := self._denied(self.world.channels[msg.channel_id], perms.MANAGE_MESSAGES)
        ):
            return denied
        msg.reactions = [r for r in msg.reactions if r != (c.params["emoji"], uid)]
        return 204, None

    def clear_reaction(self, c: Call) -> Result:
        msg, denied = self._open_message(c, perms.MANAGE_MESSAGES)
        if denied or msg is None:
            return denied  # type: ignore[return-value]
        emoji = c.params.get("emoji")
        msg.reactions = [r for r in msg.reactions if emoji is not None and r[0] != emoji]
        return 204, None

    def reaction_users(self, c: Call) -> Result:
        msg, denied = self._open_message(c, perms.READ_MESSAGE_HISTORY)
        if denied or msg is None:
            return denied  # type: ignore[return-value]
        users = [self.world.users[uid] for e, uid in msg.reactions if e == c.params["emoji"]]
        return 200, [render.user(u) for u in users]

    def pin(self, c: Call) -> Result:
        msg, denied = self._open_message(c)
        if denied or msg is None:
            return denied  # type: ignore[return-value]
        chan = self.world.channels[msg.channel_id]
        if not chan.is_dm and not self._bot_perms(chan) & (perms.MANAGE_MESSAGES | perms.PIN_MESSAGES):
            return err(403, MISSING_PERMISSIONS, "Missing Permissions")
        msg.pinned = c.method == "PUT"
        return 204, None

    # interactions and their webhooks

    def interaction_callback(self, c: Call) -> Result:
        return self.desk.callback(c.int("interaction_id"), c.params["token"], c.body or {}, c.uploads)

    def followup(self, c: Call) -> Result:
        status, payload = self.desk.followup(c.params["token"], c.body or {}, c.uploads)
        wait = c.query.get("wait", "false").lower() in ("1", "true")
        return (204, None) if status == 200 and not wait else (status, payload)

    def get_webhook_message(self, c: Call) -> Result:
        msg = self.desk.message(c.params["token"], c.params["message_id"])
        return (200, self.factory.payload(msg)) if msg else err(404, UNKNOWN_MESSAGE, "Unknown Message")

    def edit_webhook_message(self, c: Call) -> Result:
        return self.desk.edit(c.params["token"], c.params["message_id"], c.body or {}, c.uploads)

    def delete_webhook_message(self, c: Call) -> Result:
        return self.desk.delete(c.params["token"], c.params["message_id"])
