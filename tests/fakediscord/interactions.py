"""Building INTERACTION_CREATE payloads and handling the bot's callback / webhook responses."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from . import payloads as render
from . import perms
from .messages import MessageFactory, Upload
from .state import (
    EPHEMERAL_FLAG,
    LOADING_FLAG,
    Attachment,
    FakeChannel,
    FakeMember,
    FakeRole,
    FakeUser,
    ModalPrompt,
    SeenMessage,
    World,
)

# Interaction types.
APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
# Callback (response) types.
CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL = 4, 5, 6, 7, 8, 9
# Application command option types.
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = (
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
)  # fmt: skip
# Select menu component types whose values are snowflakes.
SNOWFLAKE_SELECTS = {5: USER, 6: ROLE, 7: MENTIONABLE, 8: CHANNEL}

Actor = FakeMember | FakeUser
JSON = dict[str, Any]


class InteractionError(AssertionError):
    """A test asked for an interaction that Discord would not send (unknown option, missing member...)."""


@dataclass(eq=False)
class PendingInteraction:
    id: int
    token: str
    kind: int
    user: FakeUser
    channel: FakeChannel
    source: SeenMessage | None = None  # message whose component was used
    response_type: int | None = None
    original: SeenMessage | None = None
    followups: list[SeenMessage] = field(default_factory=list)
    choices: list[JSON] | None = None
    modal: ModalPrompt | None = None

    def outcome(self) -> SeenMessage | None:
        """What the user now sees, or None while the bot has not (fully) answered."""
        rt = self.response_type
        if rt is None:
            return None
        if rt in (CHANNEL_MESSAGE, DEFERRED_MESSAGE):
            return None if self.original is None or self.original.loading else self.original
        if rt in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            return self.followups[0] if self.followups else self.source or self._placeholder()
        if rt == MODAL:
            placeholder = self._placeholder()
            placeholder.modal = self.modal
            return placeholder
        return self._placeholder()

    def _placeholder(self) -> SeenMessage:
        return SeenMessage(id=0, channel_id=self.channel.id, author=self.user)


# --- payload building -------------------------------------------------------------


def member_of(actor: Actor, channel: FakeChannel) -> FakeMember:
    guild = channel.guild
    assert guild is not None
    if isinstance(actor, FakeMember) and actor.guild is guild:
        return actor
    user = actor.user if isinstance(actor, FakeMember) else actor
    member = guild.members.get(user.id)
    if member is None:
        raise InteractionError(f"{user.name} is not a member of {guild.name}")
    return member


def user_of(actor: Actor) -> FakeUser:
    return actor.user if isinstance(actor, FakeMember) else actor


def _actor_fields(world: World, actor: Actor, channel: FakeChannel) -> JSON:
    guild = channel.guild
    if guild is None:
        user = user_of(actor)
        return {
            "user": render.user(user),
            "app_permissions": str(perms.DM_DEFAULT),
            "context": 1,
            "authorizing_integration_owners": {"0": str(user.id)},
        }
    member = member_of(actor, channel)
    return {
        "guild_id": str(guild.id),
        "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
        "guild_locale": "en-US",
        "member": render.member(member, permissions=guild.permissions_for(member, channel)),
        "app_permissions": str(guild.permissions_for(guild.bot_member, channel)),
        "context": 0,
        "authorizing_integration_owners": {"0": str(guild.id)},
    }


def interaction_payload(
    world: World, iid: int, token: str, kind: int, actor: Actor, channel: FakeChannel, data: JSON, message: JSON | None
) -> JSON:
    payload: JSON = {
        "id": str(iid),
        "application_id": str(world.bot.id),
        "type": kind,
        "data": data,
        "token": token,
        "version": 1,
        "channel_id": str(channel.id),
        "channel": render.channel(channel),
        "locale": "en-US",
        "entitlements": [],
        "entitlement_sku_ids": [],
        "attachment_size_limit": 10 * 1024 * 1024,
        **_actor_fields(world, actor, channel),
    }
    if message is not None:
        payload["message"] = message
    return payload


def find_command(world: World, name: str, guild_id: int | None) -> tuple[JSON | None, int | None]:
    """A synced command by name: the guild's own first, then global. Returns (command, guild scope)."""
    if guild_id is not None:
        for cmd in world.commands.get(guild_id, []):
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd, guild_id
    for cmd in world.commands.get(None, []):
        if cmd["name"] == name and cmd.get("type", 1) == 1:
            return cmd, None
    return None, None


def _infer_type(value: Any) -> int:
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, int):
        return INTEGER
    if isinstance(value, float):
        return NUMBER
    if isinstance(value, FakeMember | FakeUser):
        return USER
    if isinstance(value, FakeChannel):
        return CHANNEL
    if isinstance(value, FakeRole):
        return ROLE
    if isinstance(value, Attachment):
        return ATTACHMENT
    return STRING


class Resolver:
    """Collects `resolved` data for snowflake-valued options / select values."""

    def __init__(self, factory: MessageFactory, channel: FakeChannel) -> None:
        self.factory = factory
        self.channel = channel
        self.data: JSON = {}

    def add(self, value: Any) -> str:
        """Register `value` in resolved and return the id string Discord would put in the option."""
        guild = self.channel.guild
        if isinstance(value, FakeMember | FakeUser):
            user = user_of(value)
            self.data.setdefault("users", {})[str(user.id)] = render.user(user)
            member = guild.members.get(user.id) if guild else None
            if member is not None:
                mp = render.member(member, permissions=guild.permissions_for(member, self.channel))  # type: ignore[union-attr]
                mp.pop("user")
                self.data.setdefault("members", {})[str(user.id)] = mp
            return str(user.id)
        if isinstance(value, FakeRole):
            self.data.setdefault("roles", {})[str(value.id)] = render.role(value)
            return str(value.id)
        if isinstance(value, FakeChannel):
            chan = render.channel(value) | {"permissions": str(perms.ALL)}
            self.data.setdefault("channels", {})[str(value.id)] = chan
            return str(value.id)
        if isinstance(value, Attachment):
            payload = self.factory.upload(value.filename, value.data)
            self.data.setdefault("attachments", {})[payload["id"]] = payload
            return payload["id"]
        return str(value)


def _encode(kind: int, value: Any, resolver: Resolver, raw: bool) -> Any:
    if raw:  # autocomplete: the focused option holds what the user has typed so far
        return value if isinstance(value, str | int | float) else resolver.add(value)
    if kind in (USER, CHANNEL, ROLE, MENTIONABLE, ATTACHMENT):
        return resolver.add(value)
    if kind == INTEGER:
        return int(value)
    if kind == NUMBER:
        return float(value)
    if kind == BOOLEAN:
        return bool(value)
    return str(value)


def command_data(
    command: JSON | None,
    command_id: int,
    path: list[str],
    values: dict[str, Any],
    resolver: Resolver,
    *,
    focused: str | None = None,
    guild_scope: int | None = None,
) -> JSON:
    """`data` of an APPLICATION_COMMAND/AUTOCOMPLETE interaction for e.g. path ["crimecity", "admin", "resolve"]."""
    data: JSON = {"id": str(command_id), "name": path[0], "type": 1, "options": []}
    if guild_scope is not None:
        data["guild_id"] = str(guild_scope)
    container: list[JSON] = data["options"]
    schema: list[JSON] | None = command.get("options", []) if command else None
    for depth, name in enumerate(path[1:], start=2):
        sub = _option(schema, name, path)
        kind = sub["type"] if sub else (SUB_COMMAND if depth == len(path) else SUB_COMMAND_GROUP)
        node: JSON = {"name": name, "type": kind, "options": []}
        container.append(node)
        container = node["options"]
        schema = sub.get("options", []) if sub else None
    if schema is not None and any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in schema):
        names = [o["name"] for o in schema]
        raise InteractionError(f"/{' '.join(path)} is a group; pick a subcommand: {names}")
    for name, value in values.items():
        opt = _option(schema, name, path)
        kind = opt["type"] if opt else _infer_type(value)
        entry: JSON = {"name": name, "type": kind, "value": _encode(kind, value, resolver, raw=name == focused)}
        if name == focused:
            entry["focused"] = True
        container.append(entry)
    if schema is not None and focused is None:
        missing = [o["name"] for o in schema if o.get("required") and o["name"] not in values]
        if missing:
            raise InteractionError(f"/{' '.join(path)} is missing required options {missing}")
    if resolver.data:
        data["resolved"] = resolver.data
    return data


def _option(schema: list[JSON] | None, name: str, path: list[str]) -> JSON | None:
    if schema is None:
        return None
    for opt in schema:
        if opt["name"] == name:
            return opt
    raise InteractionError(f"/{' '.join(path)} has no option {name!r}; it has {[o['name'] for o in schema]}")


def component_data(component: JSON, values: Iterable[Any] | None, resolver: Resolver) -> JSON:
    data: JSON = {"custom_id": component["custom_id"], "component_type": component["type"]}
    if component["type"] != 2:
        vals = list(values or [])
        if component["type"] in SNOWFLAKE_SELECTS:
            data["values"] = [resolver.add(v) for v in vals]
            data["resolved"] = resolver.data
        else:
            data["values"] = [str(v) for v in vals]
    return data


def modal_components(components: list[JSON], values: dict[str, Any], resolver: Resolver) -> list[JSON]:
    """Echo the modal's layout back with the user's input in every field that has a custom_id."""
    out: list[JSON] = []
    for comp in components:
        kind = comp.get("type")
        if kind == 1:
            out.append({"type": 1, "components": modal_components(comp.get("components", []), values, resolver)})
        elif kind == 18:
            inner = modal_components([comp["component"]], values, resolver)[0]
            out.append({"type": 18, "id": comp.get("id"), "component": inner})
        elif "custom_id" in comp:
            value = values.get(comp["custom_id"], comp.get("value", ""))
            if kind == 4:
                out.append({"type": 4, "id": comp.get("id"), "custom_id": comp["custom_id"], "value": str(value)})
            else:
                vals = value if isinstance(value, list | tuple) else [value]
                encoded = [resolver.add(v) if kind in SNOWFLAKE_SELECTS else str(v) for v in vals]
                out.append({"type": kind, "id": comp.get("id"), "custom_id": comp["custom_id"], "values": encoded})
        else:
            out.append({"type": kind, "id": comp.get("id")})
    return out


# --- the bot's side: callbacks and webhook routes ---------------------------------


class InteractionDesk:
    """Tracks interactions sent to the bot and applies its responses."""

    def __init__(self, world: World, factory: MessageFactory) -> None:
        self.world = world
        self.factory = factory
        self.pending: dict[int, PendingInteraction] = {}
        self.by_token: dict[str, PendingInteraction] = {}

    def open(self, kind: int, user: FakeUser, channel: FakeChannel, source: SeenMessage | None) -> PendingInteraction:
        p = PendingInteraction(self.world.ids.next(), f"itok-{uuid.uuid4().hex}", kind, user, channel, source)
        self.pending[p.id] = p
        self.by_token[p.token] = p
        return p

    def _reply(self, p: PendingInteraction, body: JSON, uploads: list[Upload]) -> SeenMessage:
        msg = self.factory.create(p.channel, self.world.bot, body, uploads, viewer=p.user, interaction_id=p.id)
        return self.factory.publish(msg)

    def _fill(self, msg: SeenMessage, body: JSON, uploads: list[Upload]) -> SeenMessage:
        """Replace a deferred 'thinking…' message with real content (keeps its ephemerality)."""
        body = dict(body)
        body.pop("flags", None)
        self.factory.apply(msg, body, uploads, creating=False)
        msg.flags &= ~LOADING_FLAG
        return self.factory.publish(msg)

    def callback(self, iid: int, token: str, body: JSON, uploads: list[Upload]) -> tuple[int, JSON]:
        """POST /interactions/{id}/{token}/callback"""
        p = self.pending.get(iid)
        if p is None or p.token != token:
            return 404, {"code": 10062, "message": "Unknown interaction"}
        if p.response_type is not None:
            return 400, {"code": 40060, "message": "Interaction has already been acknowledged."}
        rtype, data = body["type"], body.get("data") or {}
        message: SeenMessage | None = None
        if rtype == CHANNEL_MESSAGE:
            message = p.original = self._reply(p, data, uploads)
        elif rtype == DEFERRED_MESSAGE:
            flags = LOADING_FLAG | (int(data.get("flags", 0)) & EPHEMERAL_FLAG)
            message = p.original = self.factory.create(
                p.channel, self.world.bot, {"flags": flags}, [], viewer=p.user, interaction_id=p.id
            )
        elif rtype in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            message = p.original = p.source
            if rtype == UPDATE_MESSAGE and p.source is not None:
                self.factory.edit(p.source, data, uploads)
        elif rtype == AUTOCOMPLETE_RESULT:
            p.choices = list(data.get("choices", []))
        elif rtype == MODAL:
            p.modal = ModalPrompt(data["custom_id"], data["title"], data["components"], p.user, p.channel, p.source)
        p.response_type = rtype
        info: JSON = {
            "id": str(p.id),
            "type": p.kind,
            "response_message_loading": rtype == DEFERRED_MESSAGE,
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
        result: JSON = {"interaction": info, "resource": {"type": rtype}}
        if message is not None:
            info["response_message_id"] = str(message.id)
            result["resource"]["message"] = self.factory.payload(message)
        return 200, result

    def followup(self, token: str, body: JSON, uploads: list[Upload]) -> tuple[int, JSON | None]:
        """POST /webhooks/{app_id}/{token}: the first followup after a defer replaces the 'thinking' message."""
        p = self.by_token.get(token)
        if p is None or p.response_type is None:
            return 404, {"code": 10015, "message": "Unknown Webhook"}
        if p.response_type == DEFERRED_MESSAGE and p.original is not None and p.original.loading:
            msg = self._fill(p.original, body, uploads)
        else:
            msg = self._reply(p, body, uploads)
        p.followups.append(msg)
        return 200, self.factory.payload(msg)

    def message(self, token: str, message_id: str) -> SeenMessage | None:
        p = self.by_token.get(token)
        if p is None:
            return None
        if message_id == "@original":
            return p.original
        msg = self.world.messages.get(int(message_id)) if message_id.isdigit() else None
        return msg if msg is not None and not msg.deleted else None

    def edit(self, token: str, message_id: str, body: JSON, uploads: list[Upload]) -> tuple[int, JSON]:
        msg = self.message(token, message_id)
        if msg is None:
            return 404, {"code": 10008, "message": "Unknown Message"}
        if msg.loading:
            self._fill(msg, body, uploads)
        else:
            self.factory.edit(msg, body, uploads)
        return 200, self.factory.payload(msg)

    def delete(self, token: str, message_id: str) -> tuple[int, JSON | None]:
        msg = self.message(token, message_id)
        if msg is None:
            return 404, {"code": 10008, "message": "Unknown Message"}
        self.factory.delete(msg)
        return 204, None
