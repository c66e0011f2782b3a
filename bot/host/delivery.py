"""Outbox → Discord. Rows were committed with the state change that caused them; here they are sent,
then marked delivered. A crash between sending and marking resends the row, and the nonce
(derived from the row id, with enforce_nonce) lets Discord drop the duplicate.

A DM that cannot be delivered (DMs closed: 403 / 50007) goes to the player's inbox, and the
channel gets a note without any secret; it never blocks anything else.
"""

from __future__ import annotations

import asyncio
import io
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

import discord

from ..aio import wait_event
from ..storage import games as games_repo
from ..storage import outbox as outbox_repo
from ..storage.db import Database
from ..storage.models import OutboxRow
from ..storage.sql import row as fetch_row
from . import buttons
from .mentions import mentions

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 12
BATCH = 200  # outbox rows read at a time
PARALLEL = 16  # targets (channels, seats' DMs) sent to at the same time
CANNOT_DM = 50007
Renderer = Callable[[str, dict[str, Any]], bytes | None]  # (game kind, public view) -> PNG


def no_pictures(kind: str, view: dict[str, Any]) -> bytes | None:
    return None


class Delivery:
    def __init__(
        self,
        db: Database,
        client: discord.Client,
        *,
        renderer: Renderer = no_pictures,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.db = db
        self.client = client
        self.renderer = renderer
        self.clock = clock
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._instance = ""
        self._dm_channels: dict[int, int] = {}
        self._holders: dict[tuple[int, str], int | None] = {}  # (game, seat) -> user, read once per batch
        self.sending = False

    async def start(self) -> None:
        # A per-database prefix keeps nonces of two databases apart in one channel.
        instance = await self.db.get_meta("instance")
        if instance is None:
            instance = secrets.token_hex(4)
            await self.db.set_meta("instance", instance)
        self._instance = instance
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._loop(), name="outbox-delivery")

    def kick(self) -> None:
        self._wake.set()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    def nonce(self, row_id: int) -> str:
        return f"ob{self._instance}{row_id}"[:25]

    async def _loop(self) -> None:
        while True:
            timeout = 60.0
            try:
                if self.client.is_ready():
                    timeout = await self.flush()
                else:
                    timeout = 0.5
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("outbox delivery hiccup; retrying")
                timeout = 2.0
            self._wake.clear()
            await wait_event(self._wake, timeout)

    async def flush(self) -> float:
        """Send every due row; returns seconds until the next retry is due.

        Rows for different targets (a channel, a seat's DMs) go out concurrently, up to PARALLEL at a time,
        so one board picture being drawn does not hold up every other game's messages; rows for the same
        target keep their order."""
        while True:
            async with self.db.read() as conn:
                rows = await outbox_repo.pending(conn, self.clock(), limit=BATCH)
                # Who holds each DM'd seat, in the same snapshot: one query for the batch, not one per DM.
                self._holders = await games_repo.seat_holders(conn, {r.game_id for r in rows if r.target == "dm"})
            if not rows:
                break
            self.sending = True
            try:
                by_target: dict[tuple[Any, ...], list[OutboxRow]] = {}
                for row in rows:
                    key = ("dm", row.game_id, row.seat) if row.target == "dm" else ("channel", row.channel_id)
                    by_target.setdefault(key, []).append(row)
                gate = asyncio.Semaphore(PARALLEL)
                done = await asyncio.gather(
                    *(self._deliver_in_order(group, gate) for group in by_target.values()), return_exceptions=True
                )
                for outcome in done:  # all finished first: no send is left running behind a retry
                    if isinstance(outcome, BaseException):
                        raise outcome
            finally:
                self.sending = False
                self._holders = {}
        async with self.db.read() as conn:
            retry = await outbox_repo.next_retry_at(conn)
        return 60.0 if retry is None else max(0.05, min(60.0, retry - self.clock()))

    async def _deliver_in_order(self, rows: list[OutboxRow], gate: asyncio.Semaphore) -> None:
        async with gate:
            for row in rows:
                await self._deliver(row)

    async def _deliver(self, row: OutboxRow) -> None:
        try:
            if row.target == "channel":
                await self._send_channel(row)
            elif row.target == "edit":
                await self._edit(row)
            else:
                await self._send_dm(row)
        except discord.Forbidden as exc:
            if row.target == "dm":
                await self._to_inbox(row, f"DM refused ({exc.code})")
            else:
                await self._failed(row, f"forbidden in channel ({exc.code})")
        except discord.NotFound as exc:
            log.warning("outbox %s: target gone (%s); dropped", row.id, exc.code)
            await self._done(row, f"not found ({exc.code})")
        except (TimeoutError, discord.HTTPException, OSError) as exc:
            if row.target == "dm" and row.attempts + 1 >= MAX_ATTEMPTS:
                await self._to_inbox(row, f"DM failed: {exc}")
            else:
                await self._failed(row, repr(exc))
        else:
            await self._done(row, None)

    async def _send_channel(self, row: OutboxRow) -> None:
        payload = row.payload
        channel = self.client.get_partial_messageable(row.channel_id or 0)
        users = [discord.Object(uid) for uid in payload.get("mention") or []]
        roles = [discord.Object(rid) for rid in payload.get("mention_roles") or []]
        allowed = (
            discord.AllowedMentions(everyone=False, roles=roles or False, users=users or False)
            if users or roles
            else None
        )
        kwargs: dict[str, Any] = {
            "content": mentions(self.client, payload.get("content") or "") or None,
            "nonce": self.nonce(row.id),
        }
        if allowed is not None:
            kwargs["allowed_mentions"] = allowed
        picture = payload.get("picture")
        if picture is not None:
            png = await asyncio.to_thread(self._draw, picture["kind"], picture["view"])
            if png:
                kwargs["file"] = discord.File(
                    io.BytesIO(png), filename="board.png", description=picture.get("alt") or None
                )
        if payload.get("buttons"):
            kwargs["view"] = buttons.view(payload["buttons"], row.game_id)
        await channel.send(**kwargs)
        log.info("outbox %s: posted to channel %s (game %s)", row.id, row.channel_id, row.game_id)

    async def _edit(self, row: OutboxRow) -> None:
        payload = row.payload
        channel = self.client.get_partial_messageable(row.channel_id or 0)
        message = channel.get_partial_message(int(payload["message_id"]))
        await message.edit(
            content=mentions(self.client, payload.get("content") or ""),
            view=buttons.view(payload.get("buttons") or [], row.game_id),
        )
        log.info("outbox %s: edited a message in channel %s (game %s)", row.id, row.channel_id, row.game_id)

    def _draw(self, kind: str, view: dict[str, Any]) -> bytes | None:
        try:
            return self.renderer(kind, view)
        except Exception:
            log.warning("board picture unavailable", exc_info=True)
            return None

    async def _send_dm(self, row: OutboxRow) -> None:
        user_id = await self._user_of(row)
        if user_id is None:
            await self._done(row, "seat has no player")
            return
        channel_id = self._dm_channels.get(user_id)
        if channel_id is None:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            dm = await user.create_dm()
            channel_id = dm.id
            self._dm_channels[user_id] = channel_id
        channel = self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        kwargs = {
            "content": mentions(self.client, row.payload.get("content") or "") or None,
            "nonce": self.nonce(row.id),
        }
        if row.payload.get("buttons"):
            kwargs["view"] = buttons.view(row.payload["buttons"], row.game_id)
        await channel.send(**kwargs)
        # No seat at INFO: which seat gets a DM when can depend on what it holds (docs/reliability.md).
        log.info("outbox %s: DM sent (game %s)", row.id, row.game_id)
        log.debug("outbox %s: DM to seat %s", row.id, row.seat)

    async def _user_of(self, row: OutboxRow) -> int | None:
        """The seat's current holder, so a DM follows the seat after a replacement (None: nobody to DM)."""
        key = (row.game_id, row.seat or "")
        if key in self._holders:
            return self._holders[key]
        async with self.db.reader() as conn:
            found = await fetch_row(conn, "SELECT user_id FROM seats WHERE game_id = ? AND seat = ?", key)
        return None if found is None or found["user_id"] is None else int(found["user_id"])

    async def _to_inbox(self, row: OutboxRow, why: str) -> None:
        user_id = await self._user_of(row)
        game = await self.db.fetchone("SELECT channel_id, kind FROM games WHERE id = ?", (row.game_id,))
        now = self.clock()
        async with self.db.transaction() as conn:
            # One note until the player reads their inbox, not one per undelivered DM.
            unread = [i for i in await outbox_repo.inbox(conn, row.game_id, row.seat or "") if not i[2]]
            await outbox_repo.add_inbox(conn, row.game_id, row.seat or "", row.payload.get("content") or "", now)
            await outbox_repo.mark_delivered(conn, row.id, now, why)
            if game is not None and user_id is not None and not unread:
                note = (
                    f"<@{user_id}>, I could not send you a direct message. "
                    f"Read it with /{game['kind']} status (only you can see the answer)."
                )
                payload = {"content": note, "mention": [user_id]}
                await outbox_repo.queue_channel(conn, row.game_id, game["channel_id"], payload, now)
        log.info("outbox %s: DM undeliverable, kept in the inbox (game %s)", row.id, row.game_id)
        self.kick()

    async def _done(self, row: OutboxRow, note: str | None) -> None:
        async with self.db.transaction() as conn:
            await outbox_repo.mark_delivered(conn, row.id, self.clock(), note)

    async def _failed(self, row: OutboxRow, error: str) -> None:
        if row.attempts + 1 >= MAX_ATTEMPTS * 4:
            log.warning("outbox %s: giving up after %s attempts: %s", row.id, row.attempts + 1, error)
            await self._done(row, f"gave up: {error}")
            return
        delay = min(600.0, 2.0 ** min(row.attempts + 1, 10))
        log.warning("outbox %s: send failed (%s); retry in %.0fs", row.id, error, delay)
        async with self.db.transaction() as conn:
            await outbox_repo.mark_failed(conn, row.id, error, self.clock() + delay)
