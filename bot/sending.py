"""The outbox's three calls to Discord (post, edit, open a DM), on discord.py's HTTP client without its models.

Delivery needs a message's id and text back, never a `discord.Message`, and its buttons are dynamic items read
by custom id (`bot/host/buttons.py`), so no view is stored. Building neither saves most of what discord.py
spends on a post. `InlineSender` makes the calls on the bot's own HTTP client; `bot/sender.py`
makes the same calls (`perform`) in a process of their own, so the answers to moves do not share the event
loop with the posts they cause. Both raise discord.py's own exceptions, so delivery's handling of a refusal
is the same for either.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any, Protocol

import discord
from discord import utils
from discord.http import HTTPClient, handle_message_parameters


@dataclass(frozen=True, slots=True)
class Picture:
    """A file attached to a post."""

    data: bytes
    filename: str
    description: str | None = None


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A post, or an edit of one (`message_id`), as Discord's JSON gets it."""

    channel_id: int
    content: str | None
    allowed_mentions: dict[str, Any] | None = None
    components: list[dict[str, Any]] | None = None  # None: leave the message's as they are
    nonce: str | None = None
    picture: Picture | None = None
    message_id: int | None = None


@dataclass(frozen=True, slots=True)
class Sent:
    """What Discord says it posted (with a repeated nonce: the message first posted with it)."""

    id: int
    content: str


class Sender(Protocol):
    """Posts, edits and opens DMs for the outbox."""

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def send(self, out: Outgoing) -> Sent: ...

    async def edit(self, out: Outgoing) -> None: ...

    async def open_dm(self, user_id: int) -> int:
        """The id of the DM channel with the user."""
        ...


class InlineSender(Sender):
    """The calls made on the bot's own HTTP client, in the bot's process."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def send(self, out: Outgoing) -> Sent:
        return await send(self.client.http, out)

    async def edit(self, out: Outgoing) -> None:
        await edit(self.client.http, out)

    async def open_dm(self, user_id: int) -> int:
        return await open_dm(self.client.http, user_id)


def _params(out: Outgoing) -> Any:
    file = None
    if out.picture is not None:
        file = discord.File(io.BytesIO(out.picture.data), out.picture.filename, description=out.picture.description)
    params = handle_message_parameters(content=out.content, nonce=out.nonce, file=file if file else utils.MISSING)
    extra: dict[str, Any] = {}
    if out.components is not None:
        extra["components"] = out.components
    if out.allowed_mentions is not None:
        extra["allowed_mentions"] = out.allowed_mentions
    if extra and params.payload is not None:
        params.payload.update(extra)
    elif extra:  # with a file, the payload is already the multipart's payload_json
        for part in params.multipart or ():
            if part.get("name") == "payload_json":
                part["value"] = utils._to_json({**utils._from_json(part["value"]), **extra})
    return params


async def send(http: HTTPClient, out: Outgoing) -> Sent:
    """POST the message; Discord's refusal raises discord.py's exception for it."""
    params = _params(out)
    try:
        data = await http.send_message(out.channel_id, params=params)
    finally:
        for file in params.files or ():
            file.close()
    return Sent(int(data["id"]), str(data.get("content") or ""))


async def edit(http: HTTPClient, out: Outgoing) -> None:
    await http.edit_message(out.channel_id, out.message_id or 0, params=_params(out))


async def open_dm(http: HTTPClient, user_id: int) -> int:
    data = await http.start_private_message(user_id)
    return int(data["id"])


# ---- refusals across a process boundary: discord.py's exceptions, rebuilt from what they carry --------


@dataclass(frozen=True, slots=True)
class _Response:
    """Stands for the aiohttp response a discord.HTTPException reads its status and reason from."""

    status: int
    reason: str


KINDS: dict[str, type[discord.HTTPException]] = {
    "Forbidden": discord.Forbidden,
    "NotFound": discord.NotFound,
    "DiscordServerError": discord.DiscordServerError,
    "HTTPException": discord.HTTPException,
}


class SenderLost(OSError):
    """The sending process went away before answering: the row is tried again, as after a network error."""


def refusal(exc: BaseException) -> tuple[Any, ...]:
    """What to send back instead of `exc` (picklable, small)."""
    if isinstance(exc, discord.HTTPException):
        kind = next((name for name, cls in KINDS.items() if type(exc) is cls), "HTTPException")
        reason = str(getattr(exc.response, "reason", "") or "")
        return ("http", kind, int(exc.status), int(exc.code), exc.text, reason)
    if isinstance(exc, TimeoutError):
        return ("timeout", str(exc))
    return ("os", f"{type(exc).__name__}: {exc}")


def rebuilt(info: tuple[Any, ...]) -> BaseException:
    """The exception `refusal` described."""
    if info[0] == "http":
        _, kind, status, code, text, reason = info
        cls = KINDS.get(kind, discord.HTTPException)
        return cls(_Response(status, reason), {"code": code, "message": text})
    if info[0] == "timeout":
        return TimeoutError(info[1])
    return SenderLost(info[1])
