"""FakeDiscord: the aiohttp server, its lifecycle, and the test-facing API."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import web

from . import payloads, perms
from .faults import Faults, RateLimitHit
from .gateway import Gateway
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    DEFERRED_UPDATE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Actor,
    InteractionDesk,
    InteractionError,
    PendingInteraction,
    Resolver,
    check_component_use,
    command_data,
    component_data,
    find_command,
    interaction_payload,
    member_of,
    modal_components,
    user_of,
)
from .messages import MessageFactory
from .rest import RequestRecord, RestApi
from .state import (
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeUser,
    ModalPrompt,
    SeenMessage,
    SentComponents,
    UploadRecord,
    World,
)

log = logging.getLogger("fakediscord")
T = TypeVar("T")

POLL = 0.005  # seconds between checks while waiting


class FakeTimeout(AssertionError):
    """Something the test waited for did not happen in time."""


class FakeDiscord:
    """A fake Discord on 127.0.0.1. Use as `async with FakeDiscord() as fd:`; only one may run at a time."""

    def __init__(
        self, *, token: str = "fake-bot-token", bot_name: str = "FakeBot", bot_permissions: int = perms.BOT_DEFAULT
    ) -> None:
        self.token = token
        self.bot_permissions = bot_permissions
        self.world = World(bot_name)
        self.gateway = Gateway(self.world, token)
        self.world.emit = self.gateway.dispatch
        self.factory = MessageFactory(self.world, lambda: f"{self.base_url}/cdn")
        self.desk = InteractionDesk(self.world, self.factory)
        self.gateway.on_interaction_sent = self.desk.sent
        self.faults = Faults()
        self.api = RestApi(self.world, self.gateway, self.factory, self.desk, self.faults, token)
        self.base_url = ""
        self._runner: web.AppRunner | None = None
        self._saved: tuple[str, yarl.URL] | None = None
        self._clients: list[tuple[discord.Client, asyncio.Task[None] | None]] = []
        self._local_command_ids: dict[tuple[str, int | None], int] = {}

    # --- lifecycle --------------------------------------------------------------

    async def __aenter__(self) -> FakeDiscord:
        app = web.Application()
        app.router.add_route("*", "/api/v10/{tail:.*}", self.api.handle)
        app.router.add_get("/ws", self.gateway.handle)
        app.router.add_get("/cdn/attachments/{aid}/{filename}", self.factory.serve)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}"
        self.gateway.url = f"ws://127.0.0.1:{port}/ws"
        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = f"{self.base_url}/api/v10"
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway.url)
        return self

    async def __aexit__(self, *exc: object) -> None:
        for client, task in self._clients:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close(), 3)
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
        if self._saved is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
        if self.api.unknown:
            log.warning("fakediscord: bot hit unknown routes: %s", [f"{r.method} {r.path}" for r in self.api.unknown])

    # --- world setup --------------------------------------------------------------

    @property
    def bot(self) -> FakeUser:
        return self.world.bot

    @property
    def app_id(self) -> int:
        return self.world.bot.id

    def add_guild(self, name: str, *, bot_permissions: int | None = None, shard: int | None = None) -> FakeGuild:
        """A guild the bot is in (with its own role carrying `bot_permissions`). `shard=k` picks an id that
        Discord routes to shard k of `fd.shard_count` ((guild_id >> 22) % shard_count == k)."""
        if shard is not None and not 0 <= shard < self.shard_count:
            raise ValueError(f"shard {shard} is not in range({self.shard_count}); set fd.shard_count first")
        permissions = self.bot_permissions if bot_permissions is None else bot_permissions
        guild = self.world.add_guild(name, permissions, shard=shard)
        self.gateway.dispatch("GUILD_CREATE", payloads.guild(guild))  # to the sessions holding it, if any
        return guild

    @property
    def shard_count(self) -> int:
        """The `shards` GET /gateway/bot recommends (an AutoShardedClient without shard_count uses it)."""
        return self.world.shard_count

    @shard_count.setter
    def shard_count(self, value: int) -> None:
        self.world.shard_count = int(value)

    def shard_of(self, guild: FakeGuild | None) -> int:
        """The shard Discord sends `guild`'s events to (0 for DMs)."""
        from .gateway import shard_for

        return shard_for(guild.id if guild else None, self.shard_count)

    def add_user(self, name: str) -> FakeUser:
        """A user in no guild (e.g. someone who only DMs the bot)."""
        return self.world.add_user(name)

    # --- the bot client -----------------------------------------------------------

    def attach(self, client: discord.Client, *, fast: bool = True) -> None:
        """Know `client` (for wait_ready and command schemas). fast=True removes discord.py's built-in waits:
        the 2 s wait after the last GUILD_CREATE before on_ready, and the 5 s sleep before a re-IDENTIFY."""
        if fast:
            client._connection.guild_ready_timeout = 0.02

            async def no_wait(shard_id: int | None, initial: bool = False) -> None:
                return None

            client._hooks["before_identify"] = no_wait
        if all(c is not client for c, _ in self._clients):
            self._clients.append((client, None))

    def detach(self, client: discord.Client) -> None:
        """Forget `client` (e.g. after closing it to simulate a crash/restart); the fake won't close it on exit."""
        self._clients = [(c, t) for c, t in self._clients if c is not client]

    def start(self, client: discord.Client, *, fast: bool = True) -> asyncio.Task[None]:
        """attach() then run `client.start(fd.token)` in a task; closed when the fake exits."""
        self.attach(client, fast=fast)
        task = asyncio.create_task(client.start(self.token), name=f"fakediscord-client-{len(self._clients)}")
        self._clients = [(c, task if c is client else t) for c, t in self._clients]
        return task

    def _check_clients(self) -> None:
        for _, task in self._clients:
            if task is not None and task.done() and not task.cancelled() and task.exception():
                raise task.exception()  # type: ignore[misc]

    async def wait_ready(self, timeout: float = 5.0) -> None:
        """Bot identified and got its guilds; attached clients fired on_ready; REST traffic (e.g. a sync) settled."""
        await self.wait_for(self.gateway.is_ready, timeout, "the bot never identified on the gateway")
        for client, _ in self._clients:
            if not client.is_closed():
                await self.wait_for(client.is_ready, timeout, "the client never became ready")
        await self.settle(timeout=timeout)

    async def settle(self, quiet: float = 0.05, timeout: float = 5.0) -> None:
        """Wait until no REST request is in flight and none happened for `quiet` seconds."""

        def calm() -> bool:
            return self.api.in_flight == 0 and time.monotonic() - self.api.last_activity >= quiet

        await asyncio.sleep(quiet)
        await self.wait_for(calm, timeout, "the bot kept making REST calls")

    async def wait_for(self, predicate: Callable[[], T], timeout: float = 5.0, message: str | None = None) -> T:
        """Poll `predicate` until truthy and return its value; FakeTimeout otherwise."""
        deadline = time.monotonic() + timeout
        while True:
            self._check_clients()
            value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                raise FakeTimeout(f"{message or 'condition not met'} within {timeout}s\n{self.diagnostics()}")
            await asyncio.sleep(POLL)

    def diagnostics(self, last: int = 8) -> str:
        lines = [f"  {r.method} {r.path} -> {r.status}" for r in self.api.requests[-last:]]
        text = "recent REST calls:\n" + ("\n".join(lines) or "  (none)")
        if self.api.unknown:
            text += "\nunknown routes: " + ", ".join(f"{r.method} {r.path}" for r in self.api.unknown)
        if self.api.errors:
            text += "\nfake handler errors:\n" + "\n".join(self.api.errors)
        return text

    # --- members acting -----------------------------------------------------------

    def dm_channel(self, user: Actor) -> FakeChannel:
        return self.world.dm_channel(user_of(user))

    def _send(self, p: PendingInteraction, actor: Actor, data: dict[str, Any], message: SeenMessage | None) -> None:
        if p.channel.is_dm:
            self.world.dm_contacts.add(p.user.id)
        msg_payload = self.factory.payload(message) if message else None
        payload = interaction_payload(self.world, p.id, p.token, p.kind, actor, p.channel, data, msg_payload)
        self.gateway.dispatch("INTERACTION_CREATE", payload)

    async def _answer(self, p: PendingInteraction, what: str, timeout: float) -> SeenMessage:
        outcome = await self.wait_for(p.outcome, timeout, f"the bot did not answer {what}")
        if p.response_type == DEFERRED_UPDATE and not p.followups:
            await self.settle(timeout=timeout)  # give the bot time to edit the message it deferred on
            outcome = p.outcome() or outcome
        return outcome

    def _command(self, name: str, guild: FakeGuild | None) -> tuple[dict[str, Any] | None, int, int | None]:
        """Synced command, else the attached client's tree, else None (option types inferred from values)."""
        cmd, scope = find_command(self.world, name, guild.id if guild else None)
        if cmd is not None:
            return cmd, int(cmd["id"]), scope
        for client, _ in self._clients:
            tree = getattr(client, "tree", None)
            for scope_id in ([guild.id] if guild else []) + [None]:
                found = tree and tree.get_command(name, guild=discord.Object(scope_id) if scope_id else None)
                if isinstance(found, discord.app_commands.Command | discord.app_commands.Group):
                    return found.to_dict(tree), self._local_id(name, scope_id), scope_id
        return None, self._local_id(name, None), None

    def _local_id(self, name: str, scope: int | None) -> int:
        return self._local_command_ids.setdefault((name, scope), self.world.ids.next())

    def _command_interaction(
        self, kind: int, actor: Actor, channel: FakeChannel, command: str, values: dict[str, Any], focused: str | None
    ) -> PendingInteraction:
        path = command.strip().lstrip("/").split()
        cmd, cmd_id, scope = self._command(path[0], channel.guild)
        self._check_visible(cmd, actor, channel, command)
        self._check_can_act(actor, channel)
        p = self.desk.open(kind, user_of(actor), channel, None, name=" ".join(path))
        data = command_data(
            cmd, cmd_id, path, values, Resolver(self.factory, channel, actor), focused=focused, guild_scope=scope
        )
        self._send(p, actor, data, None)
        return p

    def _check_can_act(self, actor: Actor, channel: FakeChannel) -> None:
        """Discord only sends interactions from members who can see the channel (or the DM's recipient)."""
        if channel.deleted:
            raise InteractionError(f"channel {channel.name} was deleted")
        if channel.guild is not None and not channel.guild.bot_present:
            raise InteractionError(f"the bot was removed from {channel.guild.name}")
        user = user_of(actor)
        if channel.is_dm:
            if channel.recipient is not None and channel.recipient.id != user.id:
                raise InteractionError(f"{user.name} cannot see {channel.recipient.name}'s DM with the bot")
            return
        member = member_of(actor, channel)
        if not member.permissions(channel) & perms.VIEW_CHANNEL:
            raise InteractionError(f"{user.name} cannot see #{channel.name}")

    def _check_visible(self, cmd: dict[str, Any] | None, actor: Actor, channel: FakeChannel, name: str) -> None:
        """Discord hides commands a member may not use; fail loudly instead of sending them."""
        if cmd is None:
            return
        if channel.guild is None:
            contexts = cmd.get("contexts")
            if cmd.get("dm_permission") is False or (contexts is not None and 1 not in contexts):
                raise InteractionError(f"/{name} is not available in DMs")
            return
        needed = cmd.get("default_member_permissions")
        if needed is not None:
            have = member_of(actor, channel).permissions(channel)
            if int(needed) & have != int(needed) and not have & perms.ADMINISTRATOR:
                raise InteractionError(f"/{name} is hidden from {user_of(actor).name} (needs permissions {needed})")

    async def slash(
        self,
        actor: Actor,
        channel: FakeChannel,
        command: str,
        *,
        options: dict[str, Any] | None = None,
        timeout: float = 5.0,
        **values: Any,
    ) -> SeenMessage:
        """Run `/command sub [group sub]` as `actor` in `channel`; returns the reply they see.
        Deferred replies are awaited until the followup / edit arrives. If the bot opened a modal,
        the returned message is empty and `.modal` is set (see submit_modal)."""
        values = {**(options or {}), **values}
        p = self._command_interaction(APPLICATION_COMMAND, actor, channel, command, values, None)
        return await self._answer(p, f"/{command}", timeout)

    async def autocomplete(
        self,
        actor: Actor,
        channel: FakeChannel,
        command: str,
        *,
        focused: str,
        options: dict[str, Any] | None = None,
        timeout: float = 5.0,
        **values: Any,
    ) -> list[dict[str, Any]]:
        """Choices ({"name", "value"}) the bot offers while `actor` types into option `focused`."""
        values = {**(options or {}), **values}
        values.setdefault(focused, "")
        p = self._command_interaction(AUTOCOMPLETE, actor, channel, command, values, focused)
        await self.wait_for(lambda: p.response_type == AUTOCOMPLETE_RESULT, timeout, f"no autocomplete for /{command}")
        return list(p.choices or [])

    async def click(
        self,
        actor: Actor,
        message: SeenMessage,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        timeout: float = 5.0,
    ) -> SeenMessage:
        """Press a button (by custom_id or label). Returns the reply, or the (updated) message for updates."""
        component = message.component(custom_id, label=label)
        return await self._component(actor, message, component, None, timeout)

    async def select(
        self, actor: Actor, message: SeenMessage, custom_id: str, values: Iterable[Any], *, timeout: float = 5.0
    ) -> SeenMessage:
        """Choose `values` in a select menu (strings, or members/roles/channels for those select types)."""
        return await self._component(actor, message, message.component(custom_id), values, timeout)

    async def _component(
        self,
        actor: Actor,
        message: SeenMessage,
        component: dict[str, Any],
        values: Iterable[Any] | None,
        timeout: float,
    ) -> SeenMessage:
        if message.deleted:
            raise InteractionError(f"message {message.id} was deleted")
        channel = self.world.channels.get(message.channel_id) or self.world.deleted_channels[message.channel_id]
        if message.author.id != self.bot.id:
            raise InteractionError(f"message {message.id} was not sent by the bot: its components are not the bot's")
        if component.get("disabled"):
            raise InteractionError(f"component {component.get('custom_id')} is disabled")
        if message.ephemeral and message.viewer is not None and message.viewer.id != user_of(actor).id:
            raise InteractionError(f"{user_of(actor).name} cannot see ephemeral message {message.id}")
        self._check_can_act(actor, channel)
        vals = check_component_use(component, values)
        p = self.desk.open(MESSAGE_COMPONENT, user_of(actor), channel, message, name=component["custom_id"])
        self._send(p, actor, component_data(component, vals, Resolver(self.factory, channel, actor)), message)
        return await self._answer(p, f"component {component.get('custom_id')}", timeout)

    async def submit_modal(
        self, actor: Actor, modal: ModalPrompt | None, values: dict[str, Any] | None = None, *, timeout: float = 5.0
    ) -> SeenMessage:
        """Fill and submit a modal the bot opened (values by input custom_id)."""
        if modal is None:
            raise InteractionError("the bot did not open a modal")
        if user_of(actor).id != modal.user.id:
            raise InteractionError(
                f"the modal {modal.custom_id!r} was shown to {modal.user.name}, not {user_of(actor).name}"
            )
        values = dict(values or {})
        unknown = set(values) - set(modal.input_ids())
        if unknown:
            raise InteractionError(
                f"modal {modal.custom_id} has no inputs {sorted(unknown)}; it has {modal.input_ids()}"
            )
        self._check_can_act(actor, modal.channel)
        resolver = Resolver(self.factory, modal.channel, actor)
        data: dict[str, Any] = {
            "custom_id": modal.custom_id,
            "components": modal_components(modal.components, values, resolver),
        }
        if resolver.data:
            data["resolved"] = resolver.data
        p = self.desk.open(MODAL_SUBMIT, user_of(actor), modal.channel, modal.message, name=modal.custom_id)
        self._send(p, actor, data, modal.message)
        return await self._answer(p, f"modal {modal.custom_id}", timeout)

    async def say(self, actor: Actor, channel: FakeChannel, content: str) -> SeenMessage:
        """`actor` posts a plain message (MESSAGE_CREATE reaches the bot if its intents allow)."""
        self._check_can_act(actor, channel)
        user = user_of(actor)
        if channel.is_dm:
            self.world.dm_contacts.add(user.id)
        elif not member_of(actor, channel).permissions(channel) & perms.SEND_MESSAGES:
            raise InteractionError(f"{user.name} may not post in #{channel.name}")
        msg = SeenMessage(
            self.world.ids.next(),
            channel.id,
            user,
            guild_id=channel.guild.id if channel.guild else None,
            content=content,
        )
        self.world.store(msg)
        data = self.factory.payload(msg)
        if channel.guild is not None:
            member = payloads.member(member_of(actor, channel))
            member.pop("user")
            data["member"] = member
        self.gateway.dispatch("MESSAGE_CREATE", data)
        return msg

    # --- what members see -----------------------------------------------------------

    def dms(self, user: Actor) -> list[SeenMessage]:
        """Messages the bot sent `user` in their DM channel, oldest first."""
        chan = self.world.dm_channels.get(user_of(user).id)
        if chan is None:
            return []
        return [m for m in self.world.channel_log.get(chan.id, []) if not m.deleted and m.author.id == self.bot.id]

    def channel_messages(self, channel: FakeChannel, *, include_deleted: bool = False) -> list[SeenMessage]:
        """Public messages in a channel (anyone's, never ephemerals), oldest first."""
        return [m for m in self.world.channel_log.get(channel.id, []) if include_deleted or not m.deleted]

    def ephemerals(self, user: Actor) -> list[SeenMessage]:
        """Every ephemeral reply `user` was shown, oldest first."""
        return [m for m in self.world.ephemeral_log.get(user_of(user).id, []) if not m.deleted]

    def message(self, message_id: int) -> SeenMessage:
        return self.world.messages[message_id]

    def commands(self, guild: FakeGuild | None = None) -> list[dict[str, Any]]:
        """Application commands the bot synced (globally, or to `guild`)."""
        return self.world.commands.get(guild.id if guild else None, [])

    def bot_messages(self, *, include_ephemeral: bool = True, include_deleted: bool = False) -> list[SeenMessage]:
        """Every message the bot sent anywhere (channels, DMs, ephemeral replies), oldest first."""
        return [
            m
            for m in self.world.messages.values()
            if m.author.id == self.bot.id
            and (include_deleted or not m.deleted)
            and (include_ephemeral or not m.ephemeral)
            and not m.loading
        ]

    def messages_with_components(self, *, include_deleted: bool = False) -> list[SeenMessage]:
        """The bot's messages (channels, DMs, ephemerals) that currently carry components."""
        return [m for m in self.bot_messages(include_deleted=include_deleted) if m.components]

    @property
    def sent_components(self) -> list[SentComponents]:
        """Every component tree the bot ever sent (message creates and edits, interaction replies, modals)."""
        return self.world.sent_components

    def component_strings(self) -> list[str]:
        """Every custom id, label, value, placeholder, description, option text, text display content, url
        and modal title the bot ever sent, including ones edited away since: for a secret scan."""
        return [text for sent in self.world.sent_components for text in sent.strings()]

    def allowed_mentions(self) -> list[tuple[SeenMessage, dict[str, Any] | None]]:
        """(message, allowed_mentions as last sent) for every message the bot sent."""
        return [(m, m.allowed_mentions) for m in self.bot_messages(include_deleted=True)]

    @property
    def uploads(self) -> list[UploadRecord]:
        """Every file the bot uploaded, with its description (alt text), oldest first."""
        return self.world.uploads

    @property
    def interactions(self) -> list[PendingInteraction]:
        """Every interaction sent to the bot, oldest first: `.kind_name`, `.name`, `.user`, `.response_type`,
        `.ephemeral`, `.latency` (s from delivery to the callback), `.followups`, `.refused` (callbacks the
        fake turned down: late, twice, invalid)."""
        return self.desk.log

    @property
    def interaction_deadline(self) -> float | None:
        """Seconds the bot has for the initial callback (3, as Discord); later ones get 404 10062. None: no limit."""
        return self.desk.deadline

    @interaction_deadline.setter
    def interaction_deadline(self, value: float | None) -> None:
        self.desk.deadline = value

    @property
    def rate_limit_hits(self) -> list[RateLimitHit]:
        """Every 429 answered by `rate_limit` / `limit_bucket` / `global_rate_limit` (not `fail_next`)."""
        return self.api.ratelimits.hits

    @property
    def dropped_embeds(self) -> list[int]:
        """Ids of messages whose embeds Discord dropped because the bot lacked Embed Links."""
        return self.api.dropped_embeds

    @property
    def requests(self) -> list[RequestRecord]:
        return self.api.requests

    @property
    def unknown_requests(self) -> list[RequestRecord]:
        return self.api.unknown

    @property
    def errors(self) -> list[str]:
        return self.api.errors

    # --- faults -------------------------------------------------------------------

    def close_dms(self, user: Actor) -> None:
        """Further DMs to `user` fail with 403 / code 50007 (discord.Forbidden in the bot)."""
        self.world.closed_dms.add(user_of(user).id)

    def open_dms(self, user: Actor) -> None:
        self.world.closed_dms.discard(user_of(user).id)

    def fail_next(
        self,
        route_pattern: str,
        status: int = 429,
        *,
        retry_after: float = 0.05,
        times: int = 1,
        method: str | None = None,
        code: int = 0,
        message: str | None = None,
        is_global: bool = False,
        after: bool = False,
        disconnect: bool = False,
    ) -> None:
        """Make the next `times` requests whose path matches the regex `route_pattern` fail with `status`.
        429s carry real rate-limit headers/body so discord.py sleeps `retry_after` and retries;
        500/502/504 are retried by discord.py after 1 s, 2 s, ...; other codes raise in the bot.
        after=True: the request is carried out first (e.g. the message is created) and only the answer
        fails, as when Discord commits a message and the response is lost.
        disconnect=True: no HTTP answer at all, the connection is closed (the bot gets
        aiohttp.ServerDisconnectedError; `status` is ignored); with after=True the request took effect."""
        self.faults.add(
            route_pattern,
            status=status,
            retry_after=retry_after,
            times=times,
            method=method,
            code=code,
            message=message,
            is_global=is_global,
            after=after,
            disconnect=disconnect,
        )

    def lose_answer(self, route_pattern: str, *, method: str | None = None, times: int = 1) -> None:
        """The request succeeds on Discord's side but the bot never hears back (the connection drops)."""
        self.fail_next(route_pattern, method=method, times=times, after=True, disconnect=True)

    def rate_limit(self, route_pattern: str, seconds: float, *, method: str | None = None, scope: str = "user") -> None:
        """Every request whose path matches the regex gets 429 for `seconds`, with the route's own bucket in
        `X-RateLimit-Bucket`, Remaining 0, Reset-After / Retry-After = the time left and `X-RateLimit-Scope`
        (user or shared). discord.py waits on that one bucket + major parameter: other channels carry on."""
        self.api.ratelimits.block(route_pattern, seconds, method=method, scope=scope)

    def rate_limit_channel(self, channel: FakeChannel, seconds: float, *, method: str | None = "POST") -> None:
        """The channel's messages route (POST by default) is rate limited for `seconds`; other channels are not."""
        self.rate_limit(rf"^/channels/{channel.id}/messages$", seconds, method=method)

    def limit_bucket(self, method: str, route: str, limit: int, per: float) -> None:
        """Enforce Discord-style buckets on a route template, e.g. ("POST", "/channels/{channel_id}/messages",
        5, 5.0): each major parameter (channel) gets `limit` requests per `per` seconds; headers count down
        for real, and the request past the limit gets 429 (discord.py pre-emptively waits when Remaining is 0)."""
        template = re.escape(f"{method.upper()} {route}")
        self.api.ratelimits.limit(f"^{template}$", limit, per)

    def global_rate_limit(self, seconds: float) -> None:
        """Every bot request (not interaction callbacks, as on Discord) gets a global 429 for `seconds`."""
        self.api.ratelimits.block_global(seconds)

    # --- hostile guild changes (also on FakeGuild) -------------------------------------

    def kick(self, member: FakeMember) -> None:
        member.guild.kick(member)

    def ban(self, member: FakeMember, *, reason: str | None = None) -> None:
        member.guild.ban(member, reason=reason)

    def delete_channel(self, channel: FakeChannel) -> None:
        assert channel.guild is not None, "DM channels cannot be deleted"
        channel.guild.delete_channel(channel)

    def remove_bot(self, guild: FakeGuild) -> None:
        """The bot is kicked from `guild` (GUILD_DELETE; its channels answer 403 50001 Missing Access)."""
        guild.remove_bot()

    async def drop_gateway(self, resume: bool = True, timeout: float = 5.0, *, shard: int | None = None) -> None:
        """Kill the gateway sessions (all, or one shard's) and wait until the bot is back: resume=True closes
        the socket (the bot RESUMEs and gets missed events replayed); resume=False invalidates the session
        (the bot re-IDENTIFYs)."""
        targets = len(self.gateway._targets(shard))
        before = self.gateway.resumes if resume else self.gateway.identifies
        await self.gateway.drop(resume=resume, shard=shard)

        def back() -> bool:
            count = self.gateway.resumes if resume else self.gateway.identifies
            return count >= before + targets and self.gateway.caught_up() and self.gateway.is_ready()

        await self.wait_for(back, timeout, "the bot did not reconnect")

    async def request_reconnect(self, timeout: float = 5.0, *, shard: int | None = None) -> None:
        """Send op 7 RECONNECT and wait for the bot to resume."""
        targets = len(self.gateway._targets(shard))
        before = self.gateway.resumes
        await self.gateway.request_reconnect(shard=shard)
        await self.wait_for(lambda: self.gateway.resumes >= before + targets, timeout, "the bot did not resume")
