"""Outbox → Discord. Rows were committed with the state change that caused them; here they are sent,
then marked delivered. A crash between sending and marking resends the row, and the nonce
(derived from the row id, with enforce_nonce) lets Discord drop the duplicate.

- Each target (a channel, a seat's DMs, a user's DMs) has its own worker, so a slow or rate-limited
  target delays only itself; a target's rows go out in order, and a row that failed holds back the
  rows after it (a "game over" never overtakes the final board).
- A DM that cannot be delivered (DMs closed: 403 / 50007) goes to the player's inbox, and the channel
  gets a note without any secret; it never blocks anything else.
- A seat's DM goes to every member holding the seat when it is sent (two for a shared seat, first
  member first), each with a nonce of its own (Discord's nonces are per author, not per channel); a
  member refusing DMs gets the inbox and the note, the other still gets the DM. A member already sent a
  row is skipped when the row is retried (in memory; after a crash, the nonce drops the resend).
- A keyed post (`Post.edit_key`) edits the message its key went out as (recorded in `posted` with the
  row's delivery, in one transaction), or sends it the first time or when the edit is refused.
- A post the channel refuses: without Attach Files the text goes without its picture; without Send
  Messages (or access) the post waits and is tried again now and then, and the game's host is told
  once by DM; in a deleted channel it is dropped and the host is told. What could not be posted stays
  readable through the game's board and history commands.

On a database shared by several processes, a target's rows are sent by the one process that holds
the database's lock on that target (`db.try_lock`), re-read under it (another process may have sent
them since): a target's rows still go out once and in order. A process that finds a target locked
leaves it to its holder; if the holder dies, its connection closes, the lock goes with it, and the
next poll (`SHARED_POLL`) takes the target over. New rows wake every process through NOTIFY.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

import discord

from ..aio import wait_event
from ..sending import InlineSender, Outgoing, Picture, Sender
from ..storage import Storage
from ..storage import games as games_repo
from ..storage import outbox as outbox_repo
from ..storage.models import OutboxRow
from ..storage.sql import row as fetch_row
from ..storage.sql import run
from . import buttons
from .marks import Mark, Marks
from .mentions import mentions
from .pictures import Painter

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 12
BATCH = 500  # outbox rows read at a time
PARALLEL = 16  # targets (channels, seats' DMs) sent to at the same time
CANNOT_DM = 50007
MISSING_PERMISSIONS, MISSING_ACCESS, UNKNOWN_CHANNEL = 50013, 50001, 10003
BLOCKED_RETRY = 600.0  # seconds between tries of a channel that refuses the bot
SHARED_POLL = 2.0  # seconds: the longest a shared database's sender sleeps (a NOTIFY or a kick wakes it first)
SHARED_PARALLEL = 8  # each target being sent holds a database connection for its lock
Renderer = Callable[[str, dict[str, Any]], bytes | None]  # (game kind, public view) -> PNG
Key = tuple[Any, ...]
Holders = dict[tuple[int, str], tuple[int, ...]]  # (game, seat) -> its members, first member first
SEATED = ("user_id", "partner_id")
Keyed = tuple[str, int, str]  # a keyed post's key, its message, what it shows now
MAX_CONTENT = 2000


def no_pictures(kind: str, view: dict[str, Any]) -> bytes | None:
    return None


MERGED_MAX = 1500  # characters of appends sent as one edit (the message's own text may make it 2,000)


def _appends_to(row: OutboxRow, key: Any) -> bool:
    return row.target == "channel" and bool(row.payload.get("append")) and row.payload.get("edit_key") == key


def appended_run(rows: list[OutboxRow], i: int) -> list[OutboxRow]:
    """The row at `i` and the appends to the same keyed post right behind it (a turn's quick steps queued
    while the first was waiting: one edit for all of them), up to MERGED_MAX characters."""
    first = rows[i]
    key = first.payload.get("edit_key")
    if key is None or not _appends_to(first, key):
        return [first]
    run, size = [first], len(first.payload.get("content") or "")
    for row in rows[i + 1 :]:
        size += len(row.payload.get("content") or "") + 1
        if not _appends_to(row, key) or row.channel_id != first.channel_id or size > MERGED_MAX:
            break
        run.append(row)
    return run


def merged(run: list[OutboxRow]) -> OutboxRow:
    """A run of appends as one row: the first's id (its nonce), every text, the last one's buttons."""
    payload = {**run[-1].payload, "content": "\n".join(r.payload.get("content") or "" for r in run)}
    if run[0].payload.get("heading"):
        payload["heading"] = run[0].payload["heading"]
    return run[0].with_payload(payload)


class DMRefused(Exception):
    """Members of a seat whose DMs refused a row (the others got it)."""

    def __init__(self, code: int, members: list[int]) -> None:
        super().__init__(code)
        self.code = code
        self.members = members


def base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


def target_of(row: OutboxRow) -> Key:
    if row.target == "dm":
        return ("dm", row.game_id, row.seat)
    if row.target == "user":
        return ("user", row.payload.get("user_id"))
    return ("channel", row.channel_id)  # posts and edits of one channel keep their order


class Delivery:
    def __init__(
        self,
        db: Storage,
        client: discord.Client,
        *,
        renderer: Renderer = no_pictures,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.db = db
        self.client = client
        self.renderer = renderer
        # Makes the calls to Discord: here, or in a process of its own (bot/sender.py).
        self.sender: Sender = InlineSender(client)
        # Draws `renderer`'s pictures in worker processes; None: on a thread of this process.
        self.painter: Painter | None = None
        self.clock = clock
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._instance = ""
        self._dm_channels: dict[int, int] = {}
        self._workers: dict[Key, asyncio.Task[None]] = {}
        # The last row each target's worker settled: a flush whose read began before that row was marked
        # (its worker finished while the read was under way) must not send it again.
        self._settled: dict[Key, int] = {}
        self._shared = bool(getattr(db, "shared", False))
        self._gate = asyncio.Semaphore(SHARED_PARALLEL if self._shared else PARALLEL)
        # Whether this process may post to a guild's channels (bot/shards.py); None: to every guild.
        self.posts_to: Callable[[int], bool] | None = None
        self.posts_sql: tuple[str, list[Any]] | None = None  # the same as a condition on the game's row `g`
        self._guild_of: dict[int, int] = {}  # game id -> its guild (never changes)
        self._sent_to: dict[int, set[int]] = {}  # a seat DM's row id -> the members it reached so far
        # Delivery marks written in groups (bot/host/marks.py); None on a shared database: one at a time.
        self.marks: Marks | None = None if self._shared else Marks(db, self._lost, self._written)
        self._blocked_keys: dict[str, bool] = {}  # "blocked:…" meta keys as this process last knew them

    @property
    def sending(self) -> bool:
        return any(not w.done() for w in self._workers.values()) or (self.marks is not None and self.marks.pending)

    async def start(self) -> None:
        # A per-database prefix keeps nonces of two databases apart in one channel.
        # Every process on one database uses the same one: a row resent by another process keeps its nonce.
        self._instance = await self.db.meta_default("instance", secrets.token_hex(4))
        await self.sender.start()
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._loop(), name="outbox-delivery")

    def kick(self) -> None:
        self._wake.set()

    async def stop(self) -> None:
        tasks = [t for t in (self._task, *self._workers.values()) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._task = None
        self._workers.clear()
        if self.marks is not None:
            await self.marks.stop()
        await self.sender.stop()

    def _lost(self, mark: Mark) -> None:
        """A mark that could not be written: its rows are due again (sent again, which is harmless)."""
        self._settled.pop(mark.target, None)
        self.kick()

    def _written(self, mark: Mark) -> None:
        """A mark on disk: the database says its rows are sent, so the target's settled row is not needed any
        more (unless its worker has settled later rows meanwhile)."""
        if self._settled.get(mark.target, 0) <= max(mark.ids):
            self._settled.pop(mark.target, None)

    def nonce(self, row_id: int, user_id: int | None = None) -> str:
        """A row's nonce; with `user_id`, a shared seat's second member's (the row id and user in base 36,
        apart by a "-": a nonce of another row or member never equals it, and it fits Discord's 25 characters)."""
        if user_id is None:
            return f"ob{self._instance}{row_id}"[:25]
        return f"ob{self._instance}{base36(row_id)}-{base36(user_id % 36**5)}"[:25]

    async def _loop(self) -> None:
        while True:
            timeout = 60.0
            try:
                timeout = await self.flush() if self.client.is_ready() else 0.5
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("outbox delivery hiccup; retrying")
                timeout = 2.0
            self._wake.clear()
            await wait_event(self._wake, timeout)

    async def flush(self) -> float:
        """Start a worker for every target with rows due and none running; returns seconds until the next
        retry is due. A target's rows after one not yet due wait for it."""
        now = self.clock()
        async with self.db.reader() as conn:
            rows = await outbox_repo.undelivered(conn, limit=BATCH, posts=self.posts_sql)
        by_target: dict[Key, list[OutboxRow]] = {}
        waiting: list[float] = []
        for row in rows:
            by_target.setdefault(target_of(row), []).append(row)
        self._settled = {k: v for k, v in self._settled.items() if k in by_target}
        for key, queue in by_target.items():
            if key[0] == "channel" and not await self._reaches(queue[0]):
                continue  # the process holding the guild's shard posts it
            due = []
            for row in queue:
                if row.id <= self._settled.get(key, 0):
                    continue  # settled meanwhile (a target's rows go in id order)
                if row.next_try_at > now:
                    waiting.append(row.next_try_at)
                    break  # the rows after it keep their place behind it
                due.append(row)
            worker = self._workers.get(key)
            if due and (worker is None or worker.done()):
                self._workers[key] = asyncio.create_task(self._drain(key, due), name=f"outbox-{key[0]}")
        if len(rows) >= BATCH:
            return 0.5
        longest = SHARED_POLL if self._shared else 60.0
        return longest if not waiting else max(0.05, min(longest, min(waiting) - now))

    async def _reaches(self, row: OutboxRow) -> bool:
        if self.posts_to is None:
            return True
        guild_id = self._guild_of.get(row.game_id)
        if guild_id is None:
            game = await self.db.fetchone("SELECT guild_id FROM games WHERE id = ?", (row.game_id,))
            if game is None or game["guild_id"] is None:
                return True  # no guild to route by: whoever sees it sends it
            guild_id = self._guild_of[row.game_id] = int(game["guild_id"])
        return self.posts_to(guild_id)

    async def _drain(self, key: Key, rows: list[OutboxRow]) -> None:
        mine = True
        try:
            async with self._gate, self.db.try_lock(f"outbox:{key!r}") as mine:
                if not mine:
                    return  # another process is sending this target's rows
                rows = await self._still_due(rows)  # whole (the flush reads heads), and as they are now
                holders = await self._holders(rows)
                i = 0
                while i < len(rows):
                    group = appended_run(rows, i)
                    row = group[0] if len(group) == 1 else merged(group)
                    if not await self._deliver(row, holders, group[1:]):
                        break  # it failed: what follows waits for it
                    self._settled[key] = group[-1].id
                    i += len(group)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("outbox worker for %s failed", key[0])
        finally:
            if mine:
                self.kick()  # what was queued meanwhile, or behind a retry

    async def _still_due(self, rows: list[OutboxRow]) -> list[OutboxRow]:
        """Under the target's lock: those of `rows` no process has sent yet, as they are now, in order."""
        async with self.db.reader() as conn:
            found = await outbox_repo.by_ids(conn, [r.id for r in rows])
        now, due = self.clock(), []
        for fresh in found:
            if fresh.next_try_at > now:
                break  # it waits for its retry, and what follows waits for it
            due.append(fresh)
        return due

    async def _holders(self, rows: list[OutboxRow]) -> Holders:
        games = {r.game_id for r in rows if r.target == "dm"}
        if not games:
            return {}
        async with self.db.reader() as conn:
            return await games_repo.seat_holders(conn, games)

    async def _deliver(
        self, row: OutboxRow, holders: Holders, also: list[OutboxRow] | None = None
    ) -> bool:
        """True when the row is done with (sent, or settled otherwise); False when it waits for a retry.
        `also`: the rows merged into it (a run of appends to one keyed post), settled with it."""
        keyed: Keyed | None = None
        try:
            if row.target == "channel":
                keyed = await self._send_channel(row)
            elif row.target == "edit":
                await self._edit(row)
            elif row.target == "user":
                await self._send_user(row)
            else:
                await self._send_dm(row, holders)
        except DMRefused as exc:
            await self._to_inbox(row, holders, f"DM refused ({exc.code})", exc.members)
            return True
        except discord.Forbidden as exc:
            if row.target in ("dm", "user"):
                if row.target == "dm":
                    await self._to_inbox(row, holders, f"DM refused ({exc.code})")
                else:
                    await self._done(row, f"DM refused ({exc.code})")
                return True
            await self._blocked(row, f"forbidden in channel ({exc.code})", exc.code)
            return False
        except discord.NotFound as exc:
            log.warning("outbox %s: target gone (%s); dropped", row.id, exc.code)
            await self._done(row, f"not found ({exc.code})", also=also)
            if row.target in ("channel", "edit") and exc.code == UNKNOWN_CHANNEL:
                await self._tell_host(row, "the channel was deleted")
            return True
        except (TimeoutError, discord.HTTPException, OSError) as exc:
            if row.target == "dm" and row.attempts + 1 >= MAX_ATTEMPTS:
                await self._to_inbox(row, holders, f"DM failed: {exc}")
                return True
            return await self._failed(row, repr(exc))
        await self._done(row, None, keyed, also)
        if row.target == "channel":
            await self._unblocked(row)
        return True

    # ---- sending ---------------------------------------------------------------------------------------

    def _allowed(self, users: list[int] | None = None, roles: list[int] | None = None) -> dict[str, Any] | None:
        """Discord's allowed_mentions for a post: the client's (none), plus the users and roles it names."""
        base = self.client.allowed_mentions
        wanted = None
        if users or roles:
            wanted = discord.AllowedMentions(
                everyone=False,
                roles=[discord.Object(r) for r in roles or []] or False,
                users=[discord.Object(u) for u in users or []] or False,
            )
        chosen = base.merge(wanted) if base is not None and wanted is not None else wanted or base
        return None if chosen is None else dict(chosen.to_dict())

    async def _send_channel(self, row: OutboxRow) -> Keyed | None:
        payload = row.payload
        out = Outgoing(
            row.channel_id or 0,
            mentions(self.client, payload.get("content") or "") or None,
            self._allowed(payload.get("mention"), payload.get("mention_roles")),
            buttons.view(payload["buttons"], row.game_id).to_components() if payload.get("buttons") else None,
            self.nonce(row.id),
        )
        if payload.get("edit_key") is not None:
            return await self._send_keyed(row, out)
        picture = payload.get("picture")
        png = None
        if picture is not None:
            png = await self.picture(picture["kind"], picture["view"])
        if png and picture is not None:
            try:
                attached = Picture(png, "board.png", picture.get("alt") or None)
                await self.sender.send(dataclasses.replace(out, picture=attached))
                log.info("outbox %s: posted to channel %s (game %s)", row.id, row.channel_id, row.game_id)
                return None
            except discord.Forbidden as exc:
                if exc.code != MISSING_PERMISSIONS:
                    raise
                # Without Attach Files the text still goes: the board is in words too.
                log.warning("outbox %s: no permission to attach the picture; posting the text", row.id)
                if not out.content:
                    out = dataclasses.replace(out, content=picture.get("alt") or "(board)")
        await self.sender.send(out)
        log.info("outbox %s: posted to channel %s (game %s)", row.id, row.channel_id, row.game_id)
        return None

    async def _send_keyed(self, row: OutboxRow, out: Outgoing) -> Keyed:
        """A keyed post: edit the key's message, or send it (the first time, or when the edit is refused:
        the message was deleted, or cannot be edited). Returns what to record with the row's delivery, in
        the same transaction: sent twice after a crash, the nonce gives back the same message; edited twice,
        it shows the same text."""
        payload = row.payload
        key, text = str(payload["edit_key"]), payload.get("content") or ""
        found = None if self.marks is None else self.marks.posted(row.game_id, row.channel_id or 0, key)
        if found is None:
            async with self.db.reader() as conn:
                found = await outbox_repo.posted(conn, row.game_id, row.channel_id or 0, key)
        heading = payload.get("heading") or ""
        content = f"{heading}\n{text}" if heading else text
        if found is not None and payload.get("append") and found[1]:
            joined = f"{found[1]}\n{text}"
            if len(mentions(self.client, joined)) <= MAX_CONTENT:
                content = joined
            else:
                found = None  # full: a new message goes on with the log
        components = out.components if out.components is not None else []
        out = dataclasses.replace(out, content=mentions(self.client, content) or None, components=components)
        # As discord.py edits: no nonce, the client's allowed mentions.
        edit = dataclasses.replace(out, nonce=None, allowed_mentions=self._allowed())
        if found is not None:
            try:
                await self.sender.edit(dataclasses.replace(edit, message_id=found[0]))
                log.info("outbox %s: edited a keyed post in channel %s (game %s)", row.id, row.channel_id, row.game_id)
                return key, found[0], content
            except (discord.NotFound, discord.Forbidden) as exc:
                log.warning("outbox %s: the keyed post cannot be edited (%s); posting it anew", row.id, exc.code)
        sent = await self.sender.send(out)
        if (sent.content or None) != out.content:
            # The nonce gave back the message an earlier try sent (before a crash), with fewer rows merged
            # into it than now: bring it up to date.
            await self.sender.edit(dataclasses.replace(edit, message_id=sent.id))
        log.info("outbox %s: posted a keyed post to channel %s (game %s)", row.id, row.channel_id, row.game_id)
        return key, sent.id, content

    async def _edit(self, row: OutboxRow) -> None:
        payload = row.payload
        await self.sender.edit(
            Outgoing(
                row.channel_id or 0,
                mentions(self.client, payload.get("content") or ""),
                self._allowed(),
                buttons.view(payload.get("buttons") or [], row.game_id).to_components(),
                message_id=int(payload["message_id"]),
            )
        )
        log.info("outbox %s: edited a message in channel %s (game %s)", row.id, row.channel_id, row.game_id)

    async def picture(self, kind: str, view: dict[str, Any]) -> bytes | None:
        """A board picture: drawn by the painter's worker processes, else (none, or they failed) on a thread."""
        if self.painter is not None:
            try:
                return await self.painter.draw(kind, view)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("board picture workers failed; drawing it in this process", exc_info=True)
        return await asyncio.to_thread(self._draw, kind, view)

    def _draw(self, kind: str, view: dict[str, Any]) -> bytes | None:
        try:
            return self.renderer(kind, view)
        except Exception:
            log.warning("board picture unavailable", exc_info=True)
            return None

    async def _dm(self, user_id: int, row: OutboxRow, nonce: str | None = None) -> None:
        channel_id = self._dm_channels.get(user_id)
        if channel_id is None:
            channel_id = self._dm_channels[user_id] = await self.sender.open_dm(user_id)
        components = None
        if row.payload.get("answers"):
            components = buttons.answers_view(
                row.payload["answers"], int(row.payload.get("step") or 0), row.payload.get("buttons") or [], row.game_id
            ).to_components()
        elif row.payload.get("buttons"):
            components = buttons.view(row.payload["buttons"], row.game_id).to_components()
        content = mentions(self.client, row.payload.get("content") or "") or None
        await self.sender.send(Outgoing(channel_id, content, self._allowed(), components, nonce or self.nonce(row.id)))

    async def _send_dm(self, row: OutboxRow, holders: Holders) -> None:
        members = await self._members_of(row, holders)
        if not members:
            await self._done(row, "seat has no player")
            return
        sent = self._sent_to.setdefault(row.id, set())
        refused: list[int] = []
        code = CANNOT_DM
        for i, user_id in enumerate(members):
            if user_id in sent:
                continue  # a retry of the row: this member has it
            try:
                await self._dm(user_id, row, self.nonce(row.id, user_id if i else None))
            except discord.Forbidden as exc:
                refused.append(user_id)
                code = exc.code
                continue
            sent.add(user_id)
        self._sent_to.pop(row.id, None)
        if refused:
            raise DMRefused(code, refused)
        # No seat at INFO: which seat gets a DM when can depend on what it holds (docs/reliability.md).
        log.info("outbox %s: DM sent (game %s)", row.id, row.game_id)
        log.debug("outbox %s: DM to seat %s (%s members)", row.id, row.seat, len(members))

    async def _send_user(self, row: OutboxRow) -> None:
        await self._dm(int(row.payload["user_id"]), row)
        log.info("outbox %s: DM sent to a host (game %s)", row.id, row.game_id)

    async def _members_of(self, row: OutboxRow, holders: Holders) -> tuple[int, ...]:
        """The seat's members now, so a DM follows the seat after a replacement (none: nobody to DM); a row
        for one `member` goes to that member only, while they hold the seat."""
        key = (row.game_id, row.seat or "")
        if key in holders:
            members = holders[key]
        else:
            async with self.db.reader() as conn:
                found = await fetch_row(
                    conn, "SELECT user_id, partner_id FROM seats WHERE game_id = ? AND seat = ?", key
                )
            members = () if found is None else tuple(int(found[c]) for c in SEATED if found[c] is not None)
        only = row.payload.get("member")
        return members if only is None else tuple(u for u in members if u == int(only))

    # ---- settling ----------------------------------------------------------------------------------------

    async def _to_inbox(
        self, row: OutboxRow, holders: Holders, why: str, refused: list[int] | None = None
    ) -> None:
        """The row into the seat's inbox; the channel's note mentions the members it did not reach."""
        reached = self._sent_to.pop(row.id, set())
        if refused is None:  # it failed for good: every member it did not reach
            refused = [u for u in await self._members_of(row, holders) if u not in reached]
        members = refused
        game = await self.db.fetchone("SELECT channel_id, kind FROM games WHERE id = ?", (row.game_id,))
        now = self.clock()
        async with self.db.transaction() as conn:
            # One note until the player reads their inbox, not one per undelivered DM.
            unread = [i for i in await outbox_repo.inbox(conn, row.game_id, row.seat or "") if not i[2]]
            await outbox_repo.add_inbox(conn, row.game_id, row.seat or "", row.payload.get("content") or "", now)
            await outbox_repo.mark_delivered(conn, row.id, now, why)
            if game is not None and members and not unread:
                who = " ".join(f"<@{u}>" for u in members)
                note = (
                    f"{who}, I could not send you a direct message. "
                    f"Read it with /{game['kind']} status (only you can see the answer)."
                )
                payload = {"content": note, "mention": members}
                await outbox_repo.queue_channel(conn, row.game_id, game["channel_id"], payload, now)
        log.info("outbox %s: DM undeliverable, kept in the inbox (game %s)", row.id, row.game_id)
        self.kick()

    async def _done(
        self, row: OutboxRow, note: str | None, keyed: Keyed | None = None, also: list[OutboxRow] | None = None
    ) -> None:
        self._sent_to.pop(row.id, None)
        if self.marks is not None:
            posted = None if keyed is None else (row.game_id, row.channel_id or 0, *keyed)
            ids = (row.id, *(r.id for r in also or ()))
            self.marks.add(Mark(target_of(row), ids, self.clock(), note, posted))
            return
        if keyed is None and not also:  # one statement: no transaction's three round trips on the writer
            await outbox_repo.mark_delivered_alone(self.db, row.id, self.clock(), note)
            return
        async with self.db.transaction() as conn:
            if keyed is not None:
                key, message_id, content = keyed
                await outbox_repo.record_posted(conn, row.game_id, row.channel_id or 0, key, message_id, content)
            for settled in (row, *(also or ())):
                await outbox_repo.mark_delivered(conn, settled.id, self.clock(), note)

    async def _failed(self, row: OutboxRow, error: str) -> bool:
        if row.attempts + 1 >= MAX_ATTEMPTS * 4:
            log.warning("outbox %s: giving up after %s attempts: %s", row.id, row.attempts + 1, error)
            await self._done(row, f"gave up: {error}")
            return True
        delay = min(600.0, 2.0 ** min(row.attempts + 1, 10))
        log.warning("outbox %s: send failed (%s); retry in %.0fs", row.id, error, delay)
        async with self.db.transaction() as conn:
            await outbox_repo.mark_failed(conn, row.id, error, self.clock() + delay)
        return False

    async def _blocked(self, row: OutboxRow, error: str, code: int) -> None:
        """The channel refuses the bot: try again now and then (never give up: a host may fix it), and tell
        the game's host once."""
        log.warning("outbox %s: the channel refuses the bot (%s); retry in %.0fs", row.id, error, BLOCKED_RETRY)
        async with self.db.transaction() as conn:
            await outbox_repo.mark_failed(conn, row.id, error, self.clock() + BLOCKED_RETRY)
        what = "access to the channel" if code == MISSING_ACCESS else "the permission to post there"
        await self._tell_host(row, f"I lack {what} (View Channels, Send Messages)")

    async def _tell_host(self, row: OutboxRow, why: str) -> None:
        """One DM to the game's host about a channel that stopped working, until it works again."""
        key = f"blocked:{row.game_id}:{row.channel_id}"
        if await self.db.get_meta(key):
            self._blocked_keys[key] = True
            return
        game = await self.db.fetchone("SELECT host_id, kind, channel_id FROM games WHERE id = ?", (row.game_id,))
        if game is None:
            return
        text = (
            f"I cannot post in <#{game['channel_id']}> for your game #{row.game_id}: {why}. "
            f"Nothing is lost: the game goes on, /{game['kind']} board and /{game['kind']} history show what I could "
            "not post, and I post it there once the channel works again."
        )
        async with self.db.transaction() as conn:
            await run(
                conn,
                "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, str(self.clock())),
            )
            payload = {"content": text, "user_id": int(game["host_id"])}
            await outbox_repo.queue_user(conn, row.game_id, payload, self.clock())
        self._blocked_keys[key] = True
        self.kick()

    async def _unblocked(self, row: OutboxRow) -> None:
        key = f"blocked:{row.game_id}:{row.channel_id}"
        if not self._shared and self._blocked_keys.get(key) is False:
            return  # known clear: no read for each post (only this process writes it)
        if await self.db.get_meta(key):
            async with self.db.transaction() as conn:
                await run(conn, "DELETE FROM meta WHERE key = ?", (key,))
        self._blocked_keys[key] = False
