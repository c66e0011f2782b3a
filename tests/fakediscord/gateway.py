"""Fake gateway: HELLO/IDENTIFY/RESUME/heartbeats and sequenced dispatches over plain text frames.

discord.py asks for `compress=zlib-stream` but only decompresses BINARY frames; TEXT frames are
parsed as plain JSON, so we ignore the query string and always send text.
"""

from __future__ import annotations

import asyncio
import json
import uuid
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
GUILD_MESSAGES_INTENT = 1 << 9
DM_MESSAGES_INTENT = 1 << 12
MESSAGE_CONTENT_INTENT = 1 << 15

CLOSE_AUTH_FAILED = 4004


@dataclass(eq=False)
class _Connection:
    ws: web.WebSocketResponse
    sent_seq: int | None = None  # None until IDENTIFY/RESUME succeeded
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, frame: dict[str, Any]) -> None:
        async with self.lock:
            if not self.ws.closed:
                await self.ws.send_str(json.dumps(frame))


class Gateway:
    """One bot session. The backlog of dispatches is kept so a RESUME can replay missed events."""

    heartbeat_interval_ms = 41250

    def __init__(self, world: World, token: str) -> None:
        self.world = world
        self.token = token
        self.url = ""  # ws:// URL, set by the server once the port is known
        self.session_id: str | None = None
        self.seq = 0
        self.backlog: list[dict[str, Any]] = []
        self.ready_seq = 0  # seq of the last GUILD_CREATE of the current session
        self.intents = 0
        self.identifies = 0
        self.resumes = 0
        self.connections = 0
        self.received: list[dict[str, Any]] = []  # client ops other than heartbeats
        self.close_codes: list[int | None] = []  # per ended socket: the code the bot closed it with (None: it died)
        self.conn: _Connection | None = None

    # --- state the server polls -------------------------------------------------

    @property
    def delivered_seq(self) -> int:
        if self.conn is None or self.conn.sent_seq is None:
            return 0
        return self.conn.sent_seq

    def is_ready(self) -> bool:
        """Identified (or resumed) and everything up to the guilds has been sent."""
        return self.session_id is not None and self.delivered_seq >= self.ready_seq > 0

    # --- dispatching ------------------------------------------------------------

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Queue a DISPATCH (op 0) with the next `s`; replayed on RESUME if the socket is down."""
        if self.session_id is None or not self._wanted(event, data):
            return
        self.seq += 1
        self.backlog.append({"op": DISPATCH, "t": event, "s": self.seq, "d": self._filter(event, data)})
        if self.conn:
            self.conn.wake.set()

    def _wanted(self, event: str, data: dict[str, Any]) -> bool:
        if event.startswith("GUILD_MEMBER_") and event != "GUILD_MEMBERS_CHUNK":
            return bool(self.intents & GUILD_MEMBERS_INTENT)
        if event.startswith("MESSAGE_"):
            bit = GUILD_MESSAGES_INTENT if "guild_id" in data else DM_MESSAGES_INTENT
            return bool(self.intents & bit)
        return True

    def _filter(self, event: str, data: dict[str, Any]) -> dict[str, Any]:
        """Without MESSAGE_CONTENT, other people's messages arrive with empty content (unless they mention us)."""
        if event not in ("MESSAGE_CREATE", "MESSAGE_UPDATE") or self.intents & MESSAGE_CONTENT_INTENT:
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
            while conn.sent_seq is not None and conn.sent_seq < len(self.backlog) and not conn.ws.closed:
                frame = self.backlog[conn.sent_seq]
                await conn.send(frame)
                conn.sent_seq = frame["s"]

    # --- the websocket ----------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        if self.conn is not None:  # only one live socket per bot
            await self.conn.ws.close(code=4000)
        conn = self.conn = _Connection(ws)
        self.connections += 1
        pump = asyncio.create_task(self._pump(conn))
        try:
            await conn.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
            code: int | None = None
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
            if self.conn is conn:
                self.conn = None
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
            self._send_member_chunk(d)

    async def _identify(self, conn: _Connection, d: dict[str, Any]) -> None:
        if d.get("token") != self.token:
            await conn.ws.close(code=CLOSE_AUTH_FAILED, message=b"Authentication failed.")
            return
        self.identifies += 1
        self.intents = int(d.get("intents", 0))
        self.session_id = uuid.uuid4().hex
        self.seq, self.backlog = 0, []
        conn.sent_seq = 0
        bot = self.world.bot
        self.dispatch(
            "READY",
            {
                "v": 10,
                "user": render.user(bot),
                "guilds": [{"id": str(g.id), "unavailable": True} for g in self.world.guilds],
                "session_id": self.session_id,
                "resume_gateway_url": self.url,
                "application": {"id": str(bot.id), "flags": 0},
                "private_channels": [],
                "relationships": [],
            },
        )
        for guild in self.world.guilds:
            self.dispatch("GUILD_CREATE", render.guild(guild))
        self.ready_seq = self.seq

    async def _resume(self, conn: _Connection, d: dict[str, Any]) -> None:
        seq = d.get("seq") or 0
        if d.get("token") != self.token or d.get("session_id") != self.session_id or seq > self.seq:
            await conn.send({"op": INVALID_SESSION, "d": False})
            return
        self.resumes += 1
        conn.sent_seq = seq  # the pump replays everything after it
        self.dispatch("RESUMED", {})
        conn.wake.set()

    def _send_member_chunk(self, d: dict[str, Any]) -> None:
        guild = self.world.guild(int(d["guild_id"]))
        if guild is None:
            return
        wanted = {int(u) for u in d.get("user_ids") or []}
        query = (d.get("query") or "").lower()
        members = [
            render.member(m)
            for m in guild.members.values()
            if (not wanted or m.id in wanted) and m.name.lower().startswith(query)
        ]
        chunk = {"guild_id": str(guild.id), "members": members, "chunk_index": 0, "chunk_count": 1, "not_found": []}
        if d.get("nonce"):
            chunk["nonce"] = d["nonce"]
        self.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    # --- fault injection --------------------------------------------------------

    async def drop(self, *, resume: bool) -> None:
        """resume=True: close the socket (code 4000) so the client RESUMEs.
        resume=False: send INVALID_SESSION(false) so the client must IDENTIFY again."""
        conn = self.conn
        if conn is None:
            return
        if resume:
            await conn.ws.close(code=4000, message=b"fake drop")
        else:
            self.session_id = None
            await conn.send({"op": INVALID_SESSION, "d": False})

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the client closes and resumes on its own."""
        if self.conn:
            await self.conn.send({"op": RECONNECT, "d": None})

    async def close(self) -> None:
        if self.conn is not None:
            await self.conn.ws.close(code=1001)
