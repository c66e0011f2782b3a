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
from .faults import Faults, json_response, rate_limit_headers
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
NONCE_MAX = 25  # characters
NONCE_WINDOW = 300.0  # seconds an enforced nonce is remembered ("the past few minutes")


def err(status: int, code: int, message: str) -> Result:
    return status, {"code": code, "message": message}


class RestApi:
    def __init__(
        self, world: World, gateway: Gateway, factory: MessageFactory, desk: InteractionDesk, faults: Faults, token: str
    ) -> None:
        self.world = world
        self.gateway = gateway
        self.factory = factory
        self.desk = desk
        self.faults = faults
        self.token = token
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
        headers = rate_limit_headers(bucket)
        record.route = matched[0] if matched else None

        needs_auth = not path.startswith(("/webhooks/", "/interactions/"))
        if needs_auth and request.headers.get("Authorization") != f"Bot {self.token}":
            record.status = 401
            return json_response(401, {"code": 0, "message": "401: Unauthorized"}, headers)
        fault = self.faults.take(method, path)
        if fault is not None and not fault.after:
            record.status = fault.status
            return fault.response(bucket)
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
            record.status = fault.status
            return fault.response(bucket)
        record.status = status
        return json_response(status, payload, headers)

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
        a("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self.add_member_role)
        a("DELETE", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self.remove_member_role)
        a("GET", "/channels/{channel_id}", self.get_channel)
        a("PATCH", "/channels/{channel_id}", self.edit_channel)
        a("DELETE", "/channels/{channel_id}", self.delete_channel)
        a("PUT", "/channels/{channel_id}/permissions/{target_id}", self.put_overwrite)
        a("DELETE", "/channels/{channel_id}/permissions/{target_id}", self.delete_overwrite)
        a("POST", "/channels/{channel_id}/typing", lambda c: (204, None))
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
        return 200, {"url": self.gateway.url, "shards": 1, "session_start_limit": limit}

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
        if "nick" in body:
            member.nick = body["nick"]
        if "roles" in body:
            member.roles = [r for r in (guild.role(int(rid)) for rid in body["roles"]) if r is not None]
        self.world.emit("GUILD_MEMBER_UPDATE", render.member(member) | {"guild_id": str(guild.id)})
        return 200, render.member(member)

    def add_member_role(self, c: Call) -> Result:
        found = self._member(c)
        if found is None:
            return err(404, UNKNOWN_MEMBER, "Unknown Member")
        guild, member = found
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
        member.roles = [r for r in member.roles if r.id != c.int("role_id")]
        self.world.emit("GUILD_MEMBER_UPDATE", render.member(member) | {"guild_id": str(guild.id)})
        return 204, None

    # channels

    def get_channel(self, c: Call) -> Result:
        chan = self._channel(c)
        return (200, render.channel(chan)) if chan else err(404, UNKNOWN_CHANNEL, "Unknown Channel")

    def edit_channel(self, c: Call) -> Result:
        chan = self._channel(c)
        if chan is None:
            return err(404, UNKNOWN_CHANNEL, "Unknown Channel")
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
        chan = self._channel(c)
        if chan is None:
            return err(404, UNKNOWN_CHANNEL, "Unknown Channel")
        if chan.guild is not None:
            chan.guild.channels.remove(chan)
        self.world.channels.pop(chan.id, None)
        self.world.emit("CHANNEL_DELETE", render.channel(chan))
        return 200, render.channel(chan)

    def put_overwrite(self, c: Call) -> Result:
        chan = self._channel(c)
        if chan is None:
            return err(404, UNKNOWN_CHANNEL, "Unknown Channel")
        body = c.body or {}
        chan.set_overwrite(
            c.int("target_id"), int(body.get("type", 0)), int(body.get("allow", 0)), int(body.get("deny", 0))
        )
        self.world.emit("CHANNEL_UPDATE", render.channel(chan))
        return 204, None

    def delete_overwrite(self, c: Call) -> Result:
        chan = self._channel(c)
        if chan is None:
            return err(404, UNKNOWN_CHANNEL, "Unknown Channel")
        chan.overwrites = [o for o in chan.overwrites if int(o["id"]) != c.int("target_id")]
        self.world.emit("CHANNEL_UPDATE", render.channel(chan))
        return 204, None

    # messages

    def list_messages(self, c: Call) -> Result:
        chan = self._channel(c)
        if chan is None:
            return err(404, UNKNOWN_CHANNEL, "Unknown Channel")
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

    def _can_send(self, chan: FakeChannel) -> Result | None:
        if chan.is_dm:
            assert chan.recipient is not None
            if chan.recipient.id in self.world.closed_dms:
                return err(403, CANNOT_DM, "Cannot send messages to this user")
            return None
        assert chan.guild is not None
        allowed = chan.guild.permissions_for(chan.guild.bot_member, chan)
        if not allowed & perms.VIEW_CHANNEL:
            return err(403, MISSING_ACCESS, "Missing Access")
        if not allowed & perms.SEND_MESSAGES:
            return err(403, MISSING_PERMISSIONS, "Missing Permissions")
        return None

    def create_message(self, c: Call) -> Result:
        chan = self._channel(c)
        if chan is None:
            return err(404, UNKNOWN_CHANNEL, "Unknown Channel")
        if denied := self._can_send(chan):
            return denied
        body = c.body or {}
        if not (
            body.get("content") or body.get("embeds") or c.uploads or body.get("components") or body.get("sticker_ids")
        ):
            return err(400, EMPTY_MESSAGE, "Cannot send an empty message")
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
        if nonce is not None:
            self.world.nonces[(self.world.bot.id, nonce)] = (msg.id, time.monotonic())
        return 200, self.factory.payload(self.factory.publish(msg))

    def get_message(self, c: Call) -> Result:
        msg = self._message(c)
        return (200, self.factory.payload(msg)) if msg else err(404, UNKNOWN_MESSAGE, "Unknown Message")

    def edit_message(self, c: Call) -> Result:
        msg = self._message(c)
        if msg is None:
            return err(404, UNKNOWN_MESSAGE, "Unknown Message")
        if msg.author.id != self.world.bot.id:
            return err(403, NOT_AUTHOR, "Cannot edit a message authored by another user")
        return 200, self.factory.payload(self.factory.edit(msg, c.body, c.uploads))

    def delete_message(self, c: Call) -> Result:
        msg = self._message(c)
        if msg is None:
            return err(404, UNKNOWN_MESSAGE, "Unknown Message")
        self.factory.delete(msg)
        return 204, None

    def bulk_delete(self, c: Call) -> Result:
        for mid in (c.body or {}).get("messages", []):
            msg = self.world.messages.get(int(mid))
            if msg is not None and not msg.deleted:
                self.factory.delete(msg)
        return 204, None

    def add_reaction(self, c: Call) -> Result:
        msg = self._message(c)
        if msg is None:
            return err(404, UNKNOWN_MESSAGE, "Unknown Message")
        entry = (c.params["emoji"], self.world.bot.id)
        if entry not in msg.reactions:
            msg.reactions.append(entry)
        return 204, None

    def remove_reaction(self, c: Call) -> Result:
        msg = self._message(c)
        if msg is None:
            return err(404, UNKNOWN_MESSAGE, "Unknown Message")
        uid = self.world.bot.id if c.params["user_id"] == "@me" else c.int("user_id")
        msg.reactions = [r for r in msg.reactions if r != (c.params["emoji"], uid)]
        return 204, None

    def clear_reaction(self, c: Call) -> Result:
        msg = self._message(c)
        if msg is None:
            return err(404, UNKNOWN_MESSAGE, "Unknown Message")
        emoji = c.params.get("emoji")
        msg.reactions = [r for r in msg.reactions if emoji is not None and r[0] != emoji]
        return 204, None

    def reaction_users(self, c: Call) -> Result:
        msg = self._message(c)
        if msg is None:
            return err(404, UNKNOWN_MESSAGE, "Unknown Message")
        users = [self.world.users[uid] for e, uid in msg.reactions if e == c.params["emoji"]]
        return 200, [render.user(u) for u in users]

    def pin(self, c: Call) -> Result:
        msg = self._message(c)
        if msg is None:
            return err(404, UNKNOWN_MESSAGE, "Unknown Message")
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
