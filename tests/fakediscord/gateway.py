"""Fake gateway: HELLO/IDENTIFY/RESUME/heartbeats and sequenced dispatches over plain text frames.

Several sessions may be open at once (several clients, or an AutoShardedClient's shards): each IDENTIFY
starts a session with its own `shard: [id, count]` (none = [0, 1]), sequence and backlog. A dispatch goes to
every session whose shard holds the event's guild, `(guild_id >> 22) % count`, as Discord routes them;
events without a guild (DMs, DM interactions) go to shard 0.

discord.py asks for `compress=zlib-stream` but only decompresses BINARY frames; TEXT frames are
parsed as plain JSON, so we ignore the query string and always send text.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from . import payloads as render
from .state import World

# Gateway opcodes.
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE, RESUME, RECONNECT = 0, 1, 2, 3, 4, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11

# Intent bits used for filtering.
GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MODERATION_INTENT = 1 << 2
GUILD_MESSAGES_INTENT = 1 << 9
DM_MESSAGES_INTENT = 1 << 12
MESSAGE_CONTENT_INTENT = 1 << 15

CLOSE_AUTH_FAILED, CLOSE_INVALID_SHARD = 4004, 4010
# The bot closing with these codes ends its session (it cannot be resumed), as on Discord.
FINAL_CLOSE_CODES = (1000, 1001)

GUILD_KEYED = ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE")  # events whose `id` is the guild id


def shard_for(guild_id: int | None, shard_count: int) -> int:
    """Discord's routing: (guild_id >> 22) % num_shards; DMs and guild-less events go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def event_guild(event: str, data: dict[str, Any]) -> int | None:
    raw = data.get("id") if event in GUILD_KEYED else data.get("guild_id")
    return int(raw) if raw else None


@dataclass(eq=False)
class _Connection:
    ws: web.WebSocketResponse
    session: Session | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, frame: dict[str, Any]) -> None:
        async with self.lock:
            if not self.ws.closed:
                await self.ws.send_str(json.dumps(frame))


@dataclass(eq=False)
class Session:
    """One identified session: a whole bot, or one shard of it."""

    id: str
    shard_id: int
    shard_count: int
    intents: int
    sharded: bool  # the IDENTIFY carried `shard`
    seq: int = 0
    backlog: list[dict[str, Any]] = field(default_factory=list)
    ready_seq: int = 0  # seq of the last GUILD_CREATE sent at IDENTIFY
    sent_seq: int = 0  # how far the socket got
    conn: _Connection | None = None
    started: float = field(default_factory=time.monotonic)

    @property
    def shard(self) -> tuple[int, int]:
        return (self.shard_id, self.shard_count)

    def holds(self, guild_id: int | None) -> bool:
        return shard_for(guild_id, self.shard_count) == self.shard_id

    def is_ready(self) -> bool:
        return self.sent_seq >= self.ready_seq > 0

    def caught_up(self) -> bool:
        return self.sent_seq >= self.seq


class Gateway:
    """Every session of the bot. The backlog of each is kept so a RESUME can replay missed events.

    The attributes the single-client tests use (`session_id`, `seq`, `delivered_seq`, `intents`, `backlog`)
    describe the most recently identified session."""

    heartbeat_interval_ms = 41250

    def __init__(self, world: World, token: str) -> None:
        self.world = world
        self.token = token
        self.url = ""  # ws:// URL, set by the server once the port is known
        self.sessions: dict[str, Session] = {}
        self.latest: Session | None = None
        self.identifies = 0
        self.resumes = 0
        self.connections = 0
        self.received: list[dict[str, Any]] = []  # client ops other than heartbeats
        self.close_codes: list[int | None] = []  # per ended socket: the code the bot closed it with (None: it died)
        self.identified_shards: list[tuple[int, int] | None] = []  # per IDENTIFY: its `shard`, None when absent
        self.conns: list[_Connection] = []
        # called with the interaction id when an INTERACTION_CREATE reaches a socket
        self.on_interaction_sent: Callable[[int], None] = lambda iid: None

    # --- compatibility: the latest session ----------------------------------------

    @property
    def session_id(self) -> str | None:
        return self.latest.id if self.latest and self.latest.id in self.sessions else None

    @property
    def seq(self) -> int:
        return self.latest.seq if self.latest else 0

    @property
    def backlog(self) -> list[dict[str, Any]]:
        return self.latest.backlog if self.latest else []

    @property
    def intents(self) -> int:
        return self.latest.intents if self.latest else 0

    @property
    def delivered_seq(self) -> int:
        s = self.latest
        return s.sent_seq if s is not None and s.conn is not None else 0

    def live_sessions(self) -> list[Session]:
        return [s for s in self.sessions.values() if s.conn is not None]

    def shard_sessions(self, shard_id: int) -> list[Session]:
        return [s for s in self.live_sessions() if s.shard_id == shard_id]

    def is_ready(self) -> bool:
        """Some session is open and every session with a live socket got everything up to its guilds."""
        live = self.live_sessions()
        return bool(live) and all(s.is_ready() for s in live)

    def caught_up(self) -> bool:
        return all(s.caught_up() for s in self.live_sessions())

    # --- dispatching ------------------------------------------------------------

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Queue a DISPATCH (op 0) on every session whose shard holds the event's guild."""
        guild_id = event_guild(event, data)
        for session in list(self.sessions.values()):
            if session.holds(guild_id):
                self._queue(session, event, data)

    def _queue(self, session: Session, event: str, data: dict[str, Any]) -> None:
        if not self._wanted(session, event, data):
            return
        session.seq += 1
        session.backlog.append({"op": DISPATCH, "t": event, "s": session.seq, "d": self._filter(session, event, data)})
        if session.conn:
            session.conn.wake.set()

    def _wanted(self, session: Session, event: str, data: dict[str, Any]) -> bool:
        if event.startswith("GUILD_MEMBER_") and event != "GUILD_MEMBERS_CHUNK":
            return bool(session.intents & GUILD_MEMBERS_INTENT)
        if event.startswith("GUILD_BAN_"):
            return bool(session.intents & GUILD_MODERATION_INTENT)
        if event.startswith("MESSAGE_"):
            bit = GUILD_MESSAGES_INTENT if "guild_id" in data else DM_MESSAGES_INTENT
            return bool(session.intents & bit)
        return True

    def _filter(self, session: Session, event: str, data: dict[str, Any]) -> dict[str, Any]:
        """Without MESSAGE_CONTENT, other people's messages arrive with empty content (unless they mention us)."""
        if event not in ("MESSAGE_CREATE", "MESSAGE_UPDATE") or session.intents & MESSAGE_CONTENT_INTENT:
            return data
        author = data.get("author", {}).get("id")
        mentioned = any(u["id"] == str(self.world.bot.id) for u in data.get("mentions", []))
        if author == str(self.world.bot.id) or mentioned or "guild_id" not in data:
            return data
        return data | {"content": "", "embeds": [], "attachments": [], "components": []}

    async def _pump(self, conn: _Connection) -> None:
        while True:
            await conn.wake.wait()
            conn.wake.clear()
            while (s := conn.session) is not None and s.conn is conn and s.sent_seq < s.seq and not conn.ws.closed:
                frame = s.backlog[s.sent_seq]
                await conn.send(frame)
                s.sent_seq = frame["s"]
                if frame["t"] == "INTERACTION_CREATE":
                    self.on_interaction_sent(int(frame["d"]["id"]))

    # --- the websocket ----------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = _Connection(ws)
        self.conns.append(conn)
        self.connections += 1
        pump = asyncio.create_task(self._pump(conn))
        code: int | None = None
        try:
            await conn.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
            while True:
                msg = await ws.receive()
                if msg.type is WSMsgType.TEXT:
                    await self._on_frame(conn, json.loads(msg.data))
                elif msg.type is WSMsgType.CLOSE:  # the bot closed: keep the code it sent
                    code = int(msg.data)
                    break
                elif msg.type in (WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
                    break
        finally:
            pump.cancel()
            self.close_codes.append(code)
            self.conns.remove(conn)
            session = conn.session
            if session is not None and session.conn is conn:
                session.conn = None
                if code in FINAL_CLOSE_CODES:  # a clean close ends the session
                    self.sessions.pop(session.id, None)
        return ws

    async def _on_frame(self, conn: _Connection, frame: dict[str, Any]) -> None:
        op, d = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            await conn.send({"op": HEARTBEAT_ACK})
            return
        self.received.append(frame)
        if op == IDENTIFY:
            await self._identify(conn, d)
        elif op == RESUME:
            await self._resume(conn, d)
        elif op == REQUEST_MEMBERS:
            self._send_member_chunk(conn, d)

    def _bind(self, conn: _Connection, session: Session) -> None:
        old = session.conn
        if old is not None and old is not conn:
            old.session = None
            asyncio.ensure_future(old.ws.close(code=4000))
        session.conn = conn
        conn.session = session

    async def _identify(self, conn: _Connection, d: dict[str, Any]) -> None:
        if d.get("token") != self.token:
            await conn.ws.close(code=CLOSE_AUTH_FAILED, message=b"Authentication failed.")
            return
        shard = d.get("shard")
        self.identified_shards.append(tuple(shard) if shard else None)  # type: ignore[arg-type]
        shard_id, shard_count = (int(shard[0]), int(shard[1])) if shard else (0, 1)
        if shard_count < 1 or not 0 <= shard_id < shard_count:
            await conn.ws.close(code=CLOSE_INVALID_SHARD, message=b"Invalid shard.")
            return
        self.identifies += 1
        if conn.session is not None:  # a re-IDENTIFY on the same socket replaces its session
            self.sessions.pop(conn.session.id, None)
        session = Session(uuid.uuid4().hex, shard_id, shard_count, int(d.get("intents", 0)), sharded=bool(shard))
        self.sessions[session.id] = session
        self.latest = session
        self._bind(conn, session)
        bot = self.world.bot
        guilds = [g for g in self.world.guilds if session.holds(g.id)]
        ready: dict[str, Any] = {
            "v": 10,
            "user": render.user(bot),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.url,
            "application": {"id": str(bot.id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if shard:
            ready["shard"] = [shard_id, shard_count]
        self._queue(session, "READY", ready)
        for guild in guilds:
            self._queue(session, "GUILD_CREATE", render.guild(guild))
        session.ready_seq = session.seq

    async def _resume(self, conn: _Connection, d: dict[str, Any]) -> None:
        seq = d.get("seq") or 0
        session = self.sessions.get(d.get("session_id") or "")
        if d.get("token") != self.token or session is None or seq > session.seq:
            await conn.send({"op": INVALID_SESSION, "d": False})
            return
        self.resumes += 1
        self._bind(conn, session)
        session.sent_seq = seq  # the pump replays everything after it
        self._queue(session, "RESUMED", {})
        conn.wake.set()

    def _send_member_chunk(self, conn: _Connection, d: dict[str, Any]) -> None:
        guild = self.world.guild(int(d["guild_id"]))
        if guild is None or conn.session is None:
            return
        wanted = {int(u) for u in d.get("user_ids") or []}
        query = (d.get("query") or "").lower()
        members = [
            render.member(m)
            for m in guild.members.values()
            if (not wanted or m.id in wanted)
            and (m.name.lower().startswith(query) or (m.nick or "").lower().startswith(query))
        ]
        chunk = {"guild_id": str(guild.id), "members": members, "chunk_index": 0, "chunk_count": 1, "not_found": []}
        if d.get("nonce"):
            chunk["nonce"] = d["nonce"]
        self._queue(conn.session, "GUILD_MEMBERS_CHUNK", chunk)

    # --- fault injection --------------------------------------------------------

    def _targets(self, shard: int | None) -> list[Session]:
        return self.live_sessions() if shard is None else self.shard_sessions(shard)

    async def drop(self, *, resume: bool, shard: int | None = None) -> None:
        """resume=True: close the socket (code 4000) so the client RESUMEs.
        resume=False: send INVALID_SESSION(false) so the client must IDENTIFY again.
        Every live session, or those of one shard."""
        for session in self._targets(shard):
            conn = session.conn
            assert conn is not None
            if resume:
                await conn.ws.close(code=4000, message=b"fake drop")
            else:
                self.sessions.pop(session.id, None)
                await conn.send({"op": INVALID_SESSION, "d": False})

    async def request_reconnect(self, shard: int | None = None) -> None:
        """Send op 7 RECONNECT: the client closes and resumes on its own."""
        for session in self._targets(shard):
            assert session.conn is not None
            await session.conn.send({"op": RECONNECT, "d": None})

    async def close(self) -> None:
        for conn in list(self.conns):
            await conn.ws.close(code=1001)
