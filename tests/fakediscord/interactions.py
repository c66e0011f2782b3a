"""Building INTERACTION_CREATE payloads and handling the bot's callback / webhook responses."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from . import components as comps
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
    InteractionError,
    ModalPrompt,
    SeenMessage,
    SentComponents,
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


KIND_NAMES = {
    APPLICATION_COMMAND: "command",
    MESSAGE_COMPONENT: "component",
    AUTOCOMPLETE: "autocomplete",
    MODAL_SUBMIT: "modal",
}
RESPONSE_DEADLINE = 3.0  # seconds Discord waits for the initial callback
TOKEN_LIFETIME = 15 * 60.0  # seconds the interaction token works for followups and edits
# Callback types each interaction type may answer with.
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
}


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
    name: str = ""  # command path, component custom_id or modal custom_id
    created: float = field(default_factory=time.monotonic)
    sent_at: float | None = None  # when the INTERACTION_CREATE reached the bot's socket
    answered_at: float | None = None  # when the callback was accepted
    refused: list[tuple[int, str]] = field(default_factory=list)  # (status, why) of callbacks the fake refused

    @property
    def kind_name(self) -> str:
        return KIND_NAMES.get(self.kind, str(self.kind))

    @property
    def answered(self) -> bool:
        return self.response_type is not None

    @property
    def latency(self) -> float | None:
        """Seconds from delivery to the accepted callback (None while unanswered)."""
        if self.answered_at is None:
            return None
        return self.answered_at - (self.sent_at if self.sent_at is not None else self.created)

    @property
    def ephemeral(self) -> bool:
        """The response (reply, deferred reply, or first followup after a deferred update) is ephemeral."""
        if self.original is not None and self.response_type in (CHANNEL_MESSAGE, DEFERRED_MESSAGE):
            if self.original.deleted and self.response_type == DEFERRED_MESSAGE and self.followups:
                return self.followups[0].ephemeral  # the deferral was deleted: the followup is the answer
            return self.original.ephemeral
        return bool(self.followups and self.followups[0].ephemeral)

    def __repr__(self) -> str:
        lat = f"{self.latency:.3f}s" if self.latency is not None else "unanswered"
        return f"<Interaction {self.kind_name} {self.name!r} by {self.user.name}: type {self.response_type}, {lat}>"

    def outcome(self) -> SeenMessage | None:
        """What the user now sees, or None while the bot has not (fully) answered."""
        rt = self.response_type
        if rt is None:
            return None
        if rt == DEFERRED_MESSAGE and self.original is not None and self.original.deleted:
            return self.followups[0] if self.followups else None  # deleted while thinking: the followup answers
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
    if isinstance(actor, FakeMember) and actor.guild is guild and guild.members.get(actor.id) is actor:
        return actor
    user = actor.user if isinstance(actor, FakeMember) else actor
    member = guild.members.get(user.id)
    if member is None:
        banned = " (banned)" if user.id in guild.bans else ""
        raise InteractionError(f"{user.name} is not a member of {guild.name}{banned}")
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
            "authorizing_integration_owners": {"0": "0"},  # Discord: "0" for the bot's DM
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

    def __init__(self, factory: MessageFactory, channel: FakeChannel, actor: Actor | None = None) -> None:
        self.factory = factory
        self.channel = channel
        self.actor = actor
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
            chan = render.channel(value) | {"permissions": str(self._actor_permissions(value))}
            self.data.setdefault("channels", {})[str(value.id)] = chan
            return str(value.id)
        if isinstance(value, Attachment):
            payload = self.factory.upload(value.filename, value.data)
            self.data.setdefault("attachments", {})[payload["id"]] = payload
            return payload["id"]
        return str(value)

    def _actor_permissions(self, channel: FakeChannel) -> int:
        """The invoking member's permissions in a resolved channel, as Discord sends them."""
        guild = channel.guild
        if guild is None or self.actor is None:
            return perms.DM_DEFAULT
        member = guild.members.get(user_of(self.actor).id)
        return guild.permissions_for(member, channel) if member else 0


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


def _values_error(component: JSON, values: list[Any]) -> str | None:
    """Why Discord's client would not let a member pick `values` in this select, or None."""
    kind = component["type"]
    lo, hi = component.get("min_values", 1), component.get("max_values", 1)
    if not lo <= len(values) <= hi:
        return f"select {component.get('custom_id')} takes {lo} to {hi} values, got {len(values)}"
    if kind == comps.STRING_SELECT:
        offered = [o["value"] for o in component.get("options", [])]
        if unknown := [v for v in values if str(v) not in offered]:
            return f"select {component.get('custom_id')} has no options {unknown}; it offers {offered}"
        return None
    types = {
        comps.USER_SELECT: (FakeMember, FakeUser),
        comps.ROLE_SELECT: (FakeRole,),
        comps.MENTIONABLE_SELECT: (FakeMember, FakeUser, FakeRole),
        comps.CHANNEL_SELECT: (FakeChannel,),
    }[kind]
    if wrong := [v for v in values if not isinstance(v, types)]:
        return f"select {component.get('custom_id')} (type {kind}) cannot take {wrong}"
    allowed_types = component.get("channel_types")
    if kind == comps.CHANNEL_SELECT and allowed_types:
        if wrong := [v for v in values if v.type not in allowed_types]:
            return f"select {component.get('custom_id')} only offers channel types {allowed_types}"
    return None


def check_component_use(component: JSON, values: Iterable[Any] | None) -> list[Any]:
    """The values to send, or InteractionError when Discord's client would not send this interaction."""
    kind = component.get("type")
    if kind == comps.BUTTON:
        if component.get("style") in (comps.LINK_STYLE, comps.PREMIUM_STYLE):
            raise InteractionError(f"button {component.get('label')!r} is a link/premium button: no interaction")
        return []
    if kind not in comps.SELECTS:
        raise InteractionError(f"component type {kind} cannot be used (only buttons and selects)")
    vals = list(values or [])
    if why := _values_error(component, vals):
        raise InteractionError(why)
    return vals


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


def _check_modal_value(comp: JSON, value: Any) -> None:
    kind, cid = comp["type"], comp["custom_id"]
    required = comp.get("required", True)
    if kind == comps.TEXT_INPUT:
        text = "" if value is None else str(value)
        if required and not text:
            raise InteractionError(f"modal input {cid!r} is required")
        lo, hi = comp.get("min_length", 0) or 0, comp.get("max_length", 4000) or 4000
        if text and not lo <= len(text) <= hi:
            raise InteractionError(f"modal input {cid!r} takes {lo} to {hi} characters, got {len(text)}")
    elif kind in comps.SELECTS:
        vals = list(value) if isinstance(value, list | tuple) else ([] if value is None else [value])
        if not vals and not required:
            return
        if why := _values_error(comp, vals):
            raise InteractionError(why)
    elif kind == comps.RADIO_GROUP:
        offered = [o["value"] for o in comp.get("options", [])]
        if value is None and required:
            raise InteractionError(f"radio group {cid!r} is required")
        if value is not None and str(value) not in offered:
            raise InteractionError(f"radio group {cid!r} has no option {value!r}; it offers {offered}")
    elif kind == comps.CHECKBOX_GROUP:
        offered = [o["value"] for o in comp.get("options", [])]
        vals = list(value or [])
        if unknown := [v for v in vals if str(v) not in offered]:
            raise InteractionError(f"checkbox group {cid!r} has no options {unknown}; it offers {offered}")
    elif kind == comps.FILE_UPLOAD:
        vals = list(value) if isinstance(value, list | tuple) else ([] if value is None else [value])
        if required and not vals:
            raise InteractionError(f"file upload {cid!r} is required")
        if any(not isinstance(v, Attachment) for v in vals):
            raise InteractionError(f"file upload {cid!r} takes fakediscord.Attachment values")


def modal_components(components: list[JSON], values: dict[str, Any], resolver: Resolver) -> list[JSON]:
    """Echo the modal's layout back with the user's input in every field that has a custom_id
    (text inputs, selects, file uploads, radio groups, checkboxes; in action rows or labels)."""
    out: list[JSON] = []
    for comp in components:
        kind = comp.get("type")
        if kind == comps.ACTION_ROW:
            out.append(
                {
                    "type": 1,
                    "id": comp.get("id"),
                    "components": modal_components(comp.get("components", []), values, resolver),
                }
            )
        elif kind == comps.LABEL:
            inner = modal_components([comp["component"]], values, resolver)[0]
            out.append({"type": 18, "id": comp.get("id"), "component": inner})
        elif kind == comps.TEXT_DISPLAY:
            out.append({"type": 10, "id": comp.get("id"), "content": comp.get("content", "")})
        elif "custom_id" in comp:
            cid = comp["custom_id"]
            given = cid in values
            value = values.get(cid)
            head = {"type": kind, "id": comp.get("id"), "custom_id": cid}
            if kind == comps.TEXT_INPUT:
                value = value if given else comp.get("value", "")
                _check_modal_value(comp, value)
                out.append(head | {"value": "" if value is None else str(value)})
            elif kind == comps.CHECKBOX:
                out.append(head | {"value": bool(value if given else comp.get("default", False))})
            elif kind == comps.RADIO_GROUP:
                _check_modal_value(comp, value)
                out.append(head | {"value": None if value is None else str(value)})
            else:
                vals = list(value) if isinstance(value, list | tuple) else ([] if value is None else [value])
                _check_modal_value(comp, vals)
                snowflakes = kind in SNOWFLAKE_SELECTS or kind == comps.FILE_UPLOAD
                out.append(head | {"values": [resolver.add(v) if snowflakes else str(v) for v in vals]})
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
        self.log: list[PendingInteraction] = []  # every interaction sent, oldest first
        self.deadline = RESPONSE_DEADLINE  # None: no deadline
        self.token_lifetime = TOKEN_LIFETIME

    def open(
        self, kind: int, user: FakeUser, channel: FakeChannel, source: SeenMessage | None, name: str = ""
    ) -> PendingInteraction:
        p = PendingInteraction(self.world.ids.next(), f"itok-{uuid.uuid4().hex}", kind, user, channel, source)
        p.name = name
        self.pending[p.id] = p
        self.by_token[p.token] = p
        self.log.append(p)
        return p

    def sent(self, iid: int) -> None:
        """The gateway delivered INTERACTION_CREATE `iid` (the deadline runs from here)."""
        p = self.pending.get(iid)
        if p is not None and p.sent_at is None:
            p.sent_at = time.monotonic()

    def _reply(self, p: PendingInteraction, body: JSON, uploads: list[Upload]) -> SeenMessage:
        msg = self.factory.create(p.channel, self.world.bot, body, uploads, viewer=p.user, interaction_id=p.id)
        return self.factory.publish(msg)

    def _fill(self, msg: SeenMessage, body: JSON, uploads: list[Upload]) -> SeenMessage:
        """Replace a deferred 'thinking…' message with real content (keeps its ephemerality; takes the V2 flag)."""
        body = dict(body)
        flags = int(body.pop("flags", 0) or 0)
        msg.flags |= flags & comps.COMPONENTS_V2_FLAG
        self.factory.apply(msg, body, uploads, creating=False)
        msg.flags &= ~LOADING_FLAG
        return self.factory.publish(msg)

    def _refuse(self, p: PendingInteraction | None, status: int, body: JSON) -> tuple[int, JSON]:
        if p is not None:
            p.refused.append((status, body.get("message", "")))
        return status, body

    def _gone(self, p: PendingInteraction) -> JSON | None:
        """Followups and edits fail once the token expired or the channel was deleted."""
        if time.monotonic() - (p.sent_at or p.created) > self.token_lifetime:
            return {"code": 50027, "message": "Invalid Webhook Token"}
        if p.channel.deleted:
            return {"code": 10003, "message": "Unknown Channel"}
        return None

    def callback(self, iid: int, token: str, body: JSON, uploads: list[Upload]) -> tuple[int, JSON]:
        """POST /interactions/{id}/{token}/callback"""
        p = self.pending.get(iid)
        if p is None or p.token != token:
            return 404, {"code": 10062, "message": "Unknown interaction"}
        if p.response_type is not None:
            return self._refuse(p, 400, {"code": 40060, "message": "Interaction has already been acknowledged."})
        if self.deadline is not None and time.monotonic() - (p.sent_at or p.created) > self.deadline:
            return self._refuse(p, 404, {"code": 10062, "message": "Unknown interaction"})  # answered too late
        rtype, data = body.get("type"), body.get("data") or {}
        if rtype not in ALLOWED_CALLBACKS[p.kind] or (rtype in (DEFERRED_UPDATE, UPDATE_MESSAGE) and p.source is None):
            errors = comps.FormErrors()
            errors.add(
                ["type"], "INTERACTION_CALLBACK_TYPE_INVALID", f"Callback type {rtype} cannot answer this interaction"
            )
            return self._refuse(p, 400, errors.body())
        if rtype == CHANNEL_MESSAGE and (invalid := self.factory.check(data, uploads)):
            return self._refuse(p, 400, invalid)
        if (
            rtype == UPDATE_MESSAGE
            and p.source is not None
            and (invalid := self.factory.check(data, uploads, p.source))
        ):
            return self._refuse(p, 400, invalid)
        if rtype == MODAL and (invalid := comps.check_modal(data)):
            return self._refuse(p, 400, invalid)
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
            components = comps.normalize(data["components"], {})
            p.modal = ModalPrompt(data["custom_id"], data["title"], components, p.user, p.channel, p.source)
            self.world.sent_components.append(
                SentComponents("modal", None, p.channel.id, components, title=data["title"])
            )
        p.response_type = rtype
        p.answered_at = time.monotonic()
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
        if gone := self._gone(p):
            return self._refuse(p, 404 if gone["code"] == 10003 else 401, gone)
        # A deferral deleted while thinking is gone: a followup is then a message of its own (ephemeral or not).
        filling = (
            p.response_type == DEFERRED_MESSAGE
            and p.original is not None
            and p.original.loading
            and not p.original.deleted
        )
        if invalid := self.factory.check(body, uploads):
            return self._refuse(p, 400, invalid)
        if filling:
            assert p.original is not None
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
        p = self.by_token.get(token)
        if p is not None and (gone := self._gone(p)):
            return self._refuse(p, 404 if gone["code"] == 10003 else 401, gone)
        msg = self.message(token, message_id)
        if msg is None:
            return 404, {"code": 10008, "message": "Unknown Message"}
        if invalid := self.factory.check(body, uploads, None if msg.loading else msg):
            return self._refuse(p, 400, invalid)
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
