"""Creating/editing/deleting messages from JSON or multipart bodies, and the fake CDN for attachments."""

from __future__ import annotations

import json
import mimetypes
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from . import components as comps
from . import payloads as render
from .state import (
    EPHEMERAL_FLAG,
    Attachment,
    FakeChannel,
    FakeUser,
    SeenMessage,
    SentComponents,
    UploadRecord,
    World,
    iso_now,
)


@dataclass
class Upload:
    """One `files[n]` part of a multipart body."""

    index: int
    filename: str
    data: bytes
    content_type: str


async def read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """JSON body, or multipart with a `payload_json` part plus `files[n]` parts."""
    if request.content_type.startswith("multipart/"):
        payload: Any = None
        uploads: list[Upload] = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            name = getattr(part, "name", None) or ""
            if name == "payload_json":
                payload = json.loads(await part.text())  # type: ignore[union-attr]
            elif name.startswith("files[") or getattr(part, "filename", None):
                data = await part.read()  # type: ignore[union-attr]
                index = int(name[6:-1]) if name.startswith("files[") else len(uploads)
                ctype = part.headers.get("Content-Type", "application/octet-stream")
                uploads.append(Upload(index, part.filename or f"file{index}", bytes(data), ctype))  # type: ignore[union-attr]
        return payload, uploads
    raw = await request.read()
    return (json.loads(raw) if raw else None), []


class MessageFactory:
    """Turns request bodies into SeenMessages, stores them and emits gateway events."""

    def __init__(self, world: World, cdn_base: Callable[[], str]) -> None:
        self.world = world
        self.cdn_base = cdn_base
        self.cdn: dict[int, tuple[str, bytes, str]] = {}  # attachment id -> (filename, data, content type)

    def payload(self, msg: SeenMessage) -> dict[str, Any]:
        return render.message(msg, self.world.users, self.world.bot.id)

    def upload(self, filename: str, data: bytes, content_type: str = "application/octet-stream", **extra: Any) -> dict:
        """Put bytes on the fake CDN and return a Discord attachment object."""
        aid = self.world.ids.next()
        self.cdn[aid] = (filename, data, content_type)
        url = f"{self.cdn_base()}/attachments/{aid}/{filename}"
        return {
            "id": str(aid),
            "filename": filename,
            "size": len(data),
            "url": url,
            "proxy_url": url,
            "content_type": content_type,
            **extra,
        }

    def create(
        self,
        channel: FakeChannel,
        author: FakeUser,
        body: dict[str, Any] | None,
        uploads: list[Upload],
        *,
        viewer: FakeUser | None = None,
        interaction_id: int | None = None,
        extra_flags: int = 0,
    ) -> SeenMessage:
        """Build (but do not store) a message."""
        msg = SeenMessage(
            id=self.world.ids.next(),
            channel_id=channel.id,
            author=author,
            guild_id=channel.guild.id if channel.guild else None,
            viewer=viewer,
            interaction_id=interaction_id,
        )
        self.apply(msg, body or {}, uploads, creating=True)
        msg.flags |= extra_flags
        return msg

    def publish(self, msg: SeenMessage) -> SeenMessage:
        """Store, and tell the bot over the gateway unless it is ephemeral."""
        self.world.store(msg)
        if not msg.ephemeral:
            self.world.emit("MESSAGE_CREATE", self.payload(msg))
        return msg

    def edit(self, msg: SeenMessage, body: dict[str, Any] | None, uploads: list[Upload]) -> SeenMessage:
        msg.history.append(msg.snapshot())
        self.apply(msg, body or {}, uploads, creating=False)
        msg.edited_at = iso_now()
        if not msg.ephemeral:
            self.world.emit("MESSAGE_UPDATE", self.payload(msg))
        return msg

    def delete(self, msg: SeenMessage) -> None:
        msg.deleted = True
        if not msg.ephemeral:
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id:
                data["guild_id"] = str(msg.guild_id)
            self.world.emit("MESSAGE_DELETE", data)

    def check(self, body: dict[str, Any] | None, uploads: list[Upload], msg: SeenMessage | None = None) -> Any:
        """The 400 body Discord would answer for creating (msg None) or editing `msg` with `body`, or None."""
        body = body or {}
        flags = int(body.get("flags") or 0)
        if msg is not None:  # the V2 flag cannot be removed once set
            flags |= msg.flags & comps.COMPONENTS_V2_FLAG
        names = {u.filename for u in uploads}
        names |= {m["filename"] for m in body.get("attachments") or [] if isinstance(m, dict) and m.get("filename")}
        if msg is not None:
            names |= {a.filename for a in msg.attachments}
        return comps.check_message(
            body, flags=flags, attachments=names, creating=msg is None, has_uploads=bool(uploads)
        )

    def apply(self, msg: SeenMessage, body: dict[str, Any], uploads: list[Upload], *, creating: bool) -> None:
        if "content" in body:
            msg.content = body["content"] or ""
        if "embeds" in body:
            msg.embeds = list(body["embeds"] or [])
        elif body.get("embed"):
            msg.embeds = [body["embed"]]
        if body.get("flags") is not None:
            flags = int(body["flags"])
            if creating:
                msg.flags = flags
            else:  # ephemerality is fixed at creation, and the V2 flag cannot be removed
                keep = msg.flags & (EPHEMERAL_FLAG | comps.COMPONENTS_V2_FLAG)
                msg.flags = (flags & ~EPHEMERAL_FLAG) | keep
        if "allowed_mentions" in body:
            msg.allowed_mentions = body["allowed_mentions"]
        if creating:
            msg.tts = bool(body.get("tts", False))
            msg.message_reference = body.get("message_reference")
        if "attachments" in body or uploads:
            self._apply_attachments(msg, body.get("attachments"), uploads)
        if "components" in body:
            by_name = {p["filename"]: p for p in msg.attachment_payloads}
            msg.components = comps.normalize(list(body["components"] or []), by_name)
            if msg.author.id == self.world.bot.id and msg.components:
                self.world.sent_components.append(SentComponents("message", msg.id, msg.channel_id, msg.components))

    def _apply_attachments(self, msg: SeenMessage, listed: list[dict[str, Any]] | None, uploads: list[Upload]) -> None:
        """`attachments` lists existing ids to keep plus metadata for new uploads (id = upload index)."""
        existing = {p["id"]: (p, a) for p, a in zip(msg.attachment_payloads, msg.attachments, strict=True)}
        by_index = {u.index: u for u in uploads}
        kept: list[tuple[dict[str, Any], Attachment]] = []
        if listed is None:  # no list: keep everything, append uploads
            kept = list(existing.values())
            listed = [{"id": u.index} for u in uploads]
        for meta in listed:
            key = str(meta.get("id"))
            if key in existing:
                kept.append(existing[key])
                continue
            upload = by_index.get(int(meta["id"])) if str(meta.get("id", "")).isdigit() else None
            if upload is None:
                continue
            filename = meta.get("filename") or upload.filename
            extra = {"description": meta["description"]} if meta.get("description") else {}
            ctype = upload.content_type
            if ctype == "application/octet-stream":  # Discord infers the type (discord.py sends octet-stream)
                ctype = mimetypes.guess_type(filename)[0] or ctype
            payload = self.upload(filename, upload.data, ctype, **extra)
            kept.append((payload, Attachment(filename, upload.data)))
            if msg.author.id == self.world.bot.id:
                self.world.uploads.append(
                    UploadRecord(
                        msg.id,
                        msg.channel_id,
                        filename,
                        meta.get("description"),
                        ctype,
                        len(upload.data),
                        upload.data,
                    )
                )
        msg.attachment_payloads = [p for p, _ in kept]
        msg.attachments = [a for _, a in kept]

    async def serve(self, request: web.Request) -> web.Response:
        """GET /cdn/attachments/{id}/{filename}"""
        entry = self.cdn.get(int(request.match_info["aid"]))
        if entry is None:
            return web.Response(status=404)
        _, data, ctype = entry
        return web.Response(body=data, headers={"Content-Type": ctype})
