"""The outbox's calls to Discord made by a process of their own (`python -m bot.sender`).

A move's answer and the posts, DMs and pictures it causes used to share one event loop: under load, the
answers queued behind the posts (docs/performance.md). Here the bot's process keeps all of delivery's
bookkeeping (which row goes next, marks, inboxes, the database) and hands only the HTTP calls to a child,
which makes them with a discord.py HTTP client of its own (its own rate-limit buckets, the same token, so
the same author for nonces). The child runs a little below the bot's priority (`NICE`): on a machine of
few cores, an answer comes before a post.

Frames on the child's stdin and stdout: a 4-byte length, then a pickle. The bot sends `("hello", base,
token)`, then `(id, op, argument)`; the child answers `(id, "ok", value)` or `(id, "err", refusal)`
(`bot.sending.refusal`), in whatever order its calls end. The child exits when its stdin closes, so
it never outlives the bot, killed or not. If the child dies, the calls it held fail as a network error
would (the rows are tried again) and the next call starts a new one; if none can start, the calls are
made in the bot's own process.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import pickle
import struct
import sys
from typing import Any

import discord

from .sending import InlineSender, Outgoing, Sender, SenderLost, Sent, rebuilt, refusal
from .sending import edit as edit_on
from .sending import open_dm as open_dm_on
from .sending import send as send_on

log = logging.getLogger(__name__)

NICE = 5  # the child's priority below the bot's
START_SECONDS = 30.0  # the longest the child may take to start and log in
HEADER = struct.Struct(">I")
LIMIT = 1 << 26  # the largest frame read (a post's picture is well under 1 MB)


def frame(message: Any) -> bytes:
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(body)) + body


async def read_frame(reader: asyncio.StreamReader) -> Any:
    (size,) = HEADER.unpack(await reader.readexactly(HEADER.size))
    return pickle.loads(await reader.readexactly(size))


class ProcessSender(Sender):
    """The outbox's calls, made by a child process; `fallback` makes them when no child can start."""

    def __init__(self, client: discord.Client, *, nice: int = NICE) -> None:
        self.client = client
        self.nice = nice
        self.fallback = InlineSender(client)
        self.started = 0  # children started, for tests
        self._proc: asyncio.subprocess.Process | None = None
        self._reading: asyncio.Task[None] | None = None
        self._pending: dict[int, asyncio.Future[tuple[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._starting = asyncio.Lock()
        self._inline = False  # no child could start: every call is made here
        self._starter: asyncio.Task[bool] | None = None

    @property
    def pid(self) -> int | None:
        return None if self._proc is None or self._proc.returncode is not None else self._proc.pid

    async def start(self) -> None:
        """Start the child without waiting for it (the bot connects meanwhile); the first call waits for it."""
        if self._starter is None or self._starter.done():
            self._starter = asyncio.create_task(self._ensure(), name="sender-start")

    async def ready(self) -> bool:
        """Whether a child takes the calls, once it has started (False: the bot makes them itself)."""
        return await self._ensure()

    async def stop(self) -> None:
        if self._starter is not None:
            self._starter.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._starter
            self._starter = None
        proc, self._proc = self._proc, None
        if self._reading is not None:
            self._reading.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reading
            self._reading = None
        self._fail_pending()
        if proc is not None and proc.returncode is None:
            if proc.stdin is not None:
                proc.stdin.close()  # the child exits when its stdin closes
            try:
                await asyncio.wait_for(proc.wait(), 5.0)
            except TimeoutError:
                proc.kill()
                await proc.wait()

    async def send(self, out: Outgoing) -> Sent:
        if await self._ensure():
            value: Sent = await self._call("send", out)
            return value
        return await self.fallback.send(out)

    async def edit(self, out: Outgoing) -> None:
        if await self._ensure():
            await self._call("edit", out)
            return
        await self.fallback.edit(out)

    async def open_dm(self, user_id: int) -> int:
        if await self._ensure():
            value: int = await self._call("open_dm", user_id)
            return value
        return await self.fallback.open_dm(user_id)

    async def _ensure(self) -> bool:
        """Whether a child is there to take calls (started now if need be)."""
        if self.pid is not None:
            return True
        if self._inline:
            return False
        async with self._starting:
            if self.pid is not None:
                return True
            try:
                await self._spawn()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("the sending process did not start; the bot sends its posts itself", exc_info=True)
                self._inline = True
                return False
        return True

    async def _spawn(self) -> None:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.sender",
            str(self.nice),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=LIMIT,
        )
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(frame(("hello", discord.http.Route.BASE, self.client.http.token)))
            await proc.stdin.drain()
            _, status, value = await asyncio.wait_for(read_frame(proc.stdout), START_SECONDS)
        except BaseException:
            if proc.returncode is None:
                proc.kill()
            await proc.wait()
            raise
        if status != "ok":
            proc.kill()
            await proc.wait()
            raise rebuilt(value)
        self._proc = proc
        self.started += 1
        self._reading = asyncio.create_task(self._read(proc), name="sender-replies")
        log.info("the sending process is up (pid %s)", proc.pid)

    async def _call(self, op: str, argument: Any) -> Any:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise SenderLost("the sending process is gone")
        call_id = next(self._ids)
        future: asyncio.Future[tuple[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[call_id] = future
        try:
            proc.stdin.write(frame((call_id, op, argument)))
            await proc.stdin.drain()
            status, value = await future
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise SenderLost(f"the sending process is gone ({exc})") from exc
        finally:
            self._pending.pop(call_id, None)
        if status != "ok":
            raise rebuilt(value)
        return value

    async def _read(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        try:
            while True:
                call_id, status, value = await read_frame(proc.stdout)
                future = self._pending.get(call_id)
                if future is not None and not future.done():
                    future.set_result((status, value))
        except (asyncio.IncompleteReadError, ConnectionError, pickle.UnpicklingError, ValueError):
            pass
        if self._proc is proc:
            log.warning("the sending process exited (%s); the next post starts another", proc.returncode)
            self._proc = None
        self._fail_pending()

    def _fail_pending(self) -> None:
        for future in self._pending.values():
            if not future.done():
                future.set_exception(SenderLost("the sending process exited before answering"))


# ---- the child ---------------------------------------------------------------------------------------


async def _perform(http: Any, op: str, argument: Any) -> Any:
    if op == "send":
        return await send_on(http, argument)
    if op == "edit":
        await edit_on(http, argument)
        return None
    if op == "open_dm":
        return await open_dm_on(http, int(argument))
    raise ValueError(f"unknown call {op!r}")


async def _serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    from .ratelimits import sweep_now_and_then

    _, base, token = await read_frame(reader)
    discord.http.Route.BASE = base
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    sweep_now_and_then(http)
    try:
        me = await http.static_login(token)
    except Exception as exc:
        cause = exc.__cause__ if isinstance(exc, discord.LoginFailure) and exc.__cause__ is not None else exc
        writer.write(frame((0, "err", refusal(cause))))
        await writer.drain()
        await http.close()
        return
    writer.write(frame((0, "ok", int(me["id"]))))
    tasks: set[asyncio.Task[None]] = set()

    async def handle(call_id: int, op: str, argument: Any) -> None:
        try:
            reply = (call_id, "ok", await _perform(http, op, argument))
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            reply = (call_id, "err", refusal(exc))
        writer.write(frame(reply))

    try:
        while True:
            try:
                call_id, op, argument = await read_frame(reader)
            except (asyncio.IncompleteReadError, ConnectionError):
                break  # the bot closed our stdin, or is gone
            task = asyncio.create_task(handle(call_id, op, argument))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await http.close()


async def _child(nice: int) -> None:
    with contextlib.suppress(OSError):
        os.nice(nice)
    out = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)  # a stray print goes to stderr, never into the frames
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=LIMIT)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(0, "rb", buffering=0))
    transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, out)
    writer = asyncio.StreamWriter(transport, protocol, None, loop)
    await _serve(reader, writer)


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.WARNING, format="sender: %(levelname)s %(name)s: %(message)s")
    asyncio.run(_child(int(argv[0]) if argv else NICE))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
