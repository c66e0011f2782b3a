"""The Discord client: wires storage, the host, every game's commands, the timer dispatcher and the outbox."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from . import content
from .collector import Collector
from .config import Settings
from .games import picture, presentations, use_games
from .games.league_cog import LeagueCog, leagues
from .health import HealthServer, Readiness
from .host import Host
from .host.buttons import AnswerButton, HostButton
from .host.delivery import Delivery
from .host.pictures import Painter
from .host.presenting import ModalHandler
from .host.scheduler import Scheduler
from .ratelimits import sweep_now_and_then
from .sender import ProcessSender
from .shards import UNSHARDED, ShardPlan
from .startup import log_ready, log_shard_ready
from .storage import database_for
from .tree import Tree

log = logging.getLogger(__name__)


SWITCH_INTERVAL = 0.001  # seconds; CPython's default is 0.005


def intents() -> discord.Intents:
    """Only the guilds intent: commands arrive as interactions, and we never read messages."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class GameBot(commands.Bot):
    def __init__(self, database: str | Path, settings: Settings | None = None, shards: ShardPlan = UNSHARDED) -> None:
        gateway: dict[str, Any] = {"shard_count": shards.count, "shard_ids": list(shards.ids)} if shards.sharded else {}
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            tree_cls=Tree,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            **gateway,
        )
        sweep_now_and_then(self.http)
        self.shard_plan = shards
        self.settings = settings or Settings()
        # a SQLite path, or a postgresql:// URL shared with other processes
        self.db = database_for(database, self.settings.db_sync)
        self.presentations = presentations()
        # Process-wide, as the presentations are: the last bot built in a process chooses for all of them.
        games = content.load(self.settings.content, self.presentations) if self.settings.content else {}
        content.apply(games, self.presentations)
        self.content_ids = {kind: str(game.content_id) for kind, game in games.items()}
        self.host = Host(
            self.db, self.presentations, host_role=self.settings.host_role, computer_delay=self.settings.computer_delay
        )
        self.delivery = Delivery(self.db, self, renderer=self._picture)
        if self.settings.picture_processes > 0:
            # The workers get the games as loaded here (not the folder, which may have changed since).
            self.delivery.painter = Painter(
                picture, self.settings.picture_processes, prepare=use_games, content=tuple(sorted(games.items()))
            )
        if self.settings.sender_process > 0:
            self.delivery.sender = ProcessSender(self)
        self.host.draw = self.delivery.picture
        self.scheduler = Scheduler(self.db, self.host.due)
        self.host.finder.membership = self._is_member
        self.host.outbox_changed = self.delivery.kick
        self.host.timers_changed = self.scheduler.wake
        if shards.sharded:
            # Another process posts to the guilds of the shards this one does not hold.
            self.delivery.posts_to = shards.holds_guild
            self.delivery.posts_sql = shards.sql_holds_guild("g.guild_id")
        self.readiness = Readiness(self, shards)
        self._health: HealthServer | None = None
        self.db.on_notify(self._notified)  # another process queued messages or timers
        self._warming: asyncio.Task[None] | None = None
        self.collector = Collector()
        # Modal submissions by custom-id prefix (Presentation.modals), and the tasks answering them.
        self.modal_handlers: dict[str, ModalHandler] = {
            prefix: handler for p in self.presentations.values() for prefix, handler in p.modals().items()
        }
        self._modal_tasks: set[asyncio.Task[None]] = set()
        # Application command ids by top-level name, and every command's path (for clickable mentions).
        self.command_ids: dict[str, int] = {}
        self.command_paths: set[str] = set()

    def _notified(self) -> None:
        self.delivery.kick()
        self.scheduler.wake()

    async def _is_member(self, guild_id: int, user_id: int) -> bool:
        """Whether the user is a member of the server now (asked of Discord: the bot keeps no member list).
        By REST, without the guild's cache: in a sharded bot another process may hold the server."""
        try:
            await self.http.get_member(guild_id, user_id)
        except (discord.NotFound, discord.Forbidden):  # not a member, or the bot is no longer in the server
            return False
        except discord.HTTPException:
            log.warning("could not check a member of server %s; refusing host rights meanwhile", guild_id)
            return False
        return True

    def _picture(self, kind: str, view: dict[str, Any]) -> bytes | None:
        presentation = self.presentations.get(kind)
        return None if presentation is None else presentation.picture(view)

    async def setup_hook(self) -> None:
        # SQLite runs on aiosqlite's threads, which need the GIL back to hand each result to the loop.
        # With the loop busy, each handoff waited up to the default 5 ms switch interval; at 1 ms the
        # saturated closed loop's act p99 fell from ~22 to ~18 ms (docs/performance.md, fix 12).
        sys.setswitchinterval(SWITCH_INTERVAL)
        address = self.settings.health_address()
        if address is not None:  # first, so a supervisor sees the process while it migrates
            self._health = HealthServer(self.readiness, lambda: self.db.fetchone("SELECT 1"))
            await self._health.start(*address)
        await self.db.open()
        await content.check_stored(self.db, self.presentations)
        for kind, name in self.content_ids.items():
            log.info("%s plays the content %r (CRIMECITY_CONTENT)", kind, name)
        if self.settings.db_sync != "full":
            log.info("storage: a commit waits for the system to hold it, not for the disk (CRIMECITY_DB_SYNC=%s)",
                     self.settings.db_sync)
        if self.delivery.painter is not None:
            self.delivery.painter.warm()  # the workers import the games while the bot connects
        for presentation in self.presentations.values():
            await self.add_cog(presentation.cog(self.host))
            # Components are dispatched by their custom id, so they keep working after a restart.
            self.add_dynamic_items(*presentation.dynamic_items())
        self.add_dynamic_items(HostButton, AnswerButton)
        league_games = leagues(self.presentations)
        if league_games:  # `/season ...`, for every game whose season is a league
            await self.add_cog(LeagueCog(self.host, league_games))
        self.command_paths = {c.qualified_name for c in self.tree.walk_commands()}
        await self.sync_commands()
        await self.delivery.start()
        self.scheduler.start()
        self._warming = asyncio.create_task(self._warm(), name="warm-contexts")

    async def _warm(self) -> None:
        try:
            warmed = await self.host.play.warm()
            log.debug("read the context of %d running games", warmed)
        except Exception:  # only saves each game's first move one read
            log.warning("could not read the games' contexts at start-up", exc_info=True)

    async def close(self) -> None:
        # Our loops first, then the gateway (no new commands), then the database, which waits for
        # a transaction in progress (a command already being answered) to commit.
        if self._warming is not None:
            self._warming.cancel()
        await self.scheduler.stop()
        await self.delivery.stop()
        await self.collector.stop()
        await super().close()
        await self.db.close()
        if self._health is not None:
            await self._health.stop()

    async def on_shard_ready(self, shard_id: int) -> None:
        self.readiness.up(shard_id)
        log_shard_ready(self, shard_id, self.readiness.guilds_of(shard_id))

    async def on_shard_resumed(self, shard_id: int) -> None:
        self.readiness.up(shard_id)

    async def on_shard_disconnect(self, shard_id: int) -> None:
        self.readiness.down(shard_id)

    async def on_resumed(self) -> None:
        if not self.shard_plan.sharded:
            self.readiness.up(0)

    async def on_disconnect(self) -> None:
        if not self.shard_plan.sharded:
            self.readiness.down(0)

    async def on_ready(self) -> None:
        if not self.shard_plan.sharded:
            self.readiness.up(0)
        log_ready(self, self.db.path)
        # What start-up loaded (modules, the guild caches) is frozen, and collections run between
        # interactions from now on (bot/collector.py).
        self.collector.start()

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        # Not an on_interaction listener: discord.py would start a task for it at every interaction.
        if event_name == "interaction":
            self.collector.touch()
            if args and getattr(args[0], "type", None) is discord.InteractionType.modal_submit:
                self._modal(args[0])
        super().dispatch(event_name, *args, **kwargs)

    def _modal(self, interaction: discord.Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        handler = next((h for prefix, h in self.modal_handlers.items() if custom_id.startswith(prefix)), None)
        if handler is not None:
            task = asyncio.create_task(self._run_modal(handler, interaction), name=f"modal {custom_id}")
            self._modal_tasks.add(task)
            task.add_done_callback(self._modal_tasks.discard)

    async def _run_modal(self, handler: ModalHandler, interaction: discord.Interaction) -> None:
        try:
            await handler(interaction)
        except Exception:
            log.exception("modal submission %s failed", interaction.id)

    def command_payload(self) -> list[dict[str, Any]]:
        return [c.to_dict(self.tree) for c in self.tree._get_all_commands()]

    async def sync_commands(self) -> bool:
        """Sync only when the command definitions changed since the last sync to this scope."""
        scope = self.settings.command_sync
        if scope == "off":
            return False
        if not self.shard_plan.syncs_commands:
            # One process syncs (the one holding shard 0); the others read the ids it stored.
            known = await self.db.get_meta(f"command_ids:{scope}")
            self.command_ids = {k: int(v) for k, v in json.loads(known or "{}").items()}
            return False
        # Processes starting together on one database take turns: the first syncs, the others find its hash.
        async with self.db.lock("command-sync"):
            return await self._sync_commands(scope)

    async def _sync_commands(self, scope: str) -> bool:
        try:
            guild_id = self.settings.sync_guild_id()
            digest = hashlib.sha256(json.dumps(self.command_payload(), sort_keys=True).encode()).hexdigest()
            key = f"command_hash:{scope}"
            if await self.db.get_meta(key) == digest:
                known = await self.db.get_meta(f"command_ids:{scope}")
                self.command_ids = {k: int(v) for k, v in json.loads(known or "{}").items()}
                return False
            if guild_id is not None:
                guild = discord.Object(guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
            else:
                synced = await self.tree.sync()
            self.command_ids = {c.name: c.id for c in synced}
            await self.db.set_meta(f"command_ids:{scope}", json.dumps(self.command_ids, sort_keys=True))
            await self.db.set_meta(key, digest)
            log.info("application commands synced (%s)", scope)
            return True
        except Exception:
            # A failed sync must not keep the bot from running the games it already has.
            log.exception("command sync failed (%s)", scope)
            return False

    async def wait_idle(self, timeout: float = 10.0) -> None:
        """Until no timer is due or running and the outbox is empty (tests use this)."""
        deadline = time.monotonic() + timeout
        while True:
            # A timer that runs and ends between the reads below and the last look at `busy` may have added
            # the next decision's timers after `due` was read: idle only when none started meanwhile either.
            fired, running = self.scheduler.fired, self.scheduler.busy or self.delivery.sending
            due = await self.scheduler.due_count()
            pending = await self.host.pending_outbox()
            quiet = not running and self.scheduler.fired == fired
            if quiet and not due and not pending and not self.scheduler.busy and not self.delivery.sending:
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"not idle: {due} timers due, {pending} messages pending")
            self.delivery.kick()
            await asyncio.sleep(0.02)


class ShardedGameBot(GameBot, commands.AutoShardedBot):
    """The bot as one of several processes, each holding some of its shards (`bot.create_bot(shard_count=)`)."""
