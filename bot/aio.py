"""asyncio helpers whose cancellation is never lost (Python 3.11's `wait_for` can drop one)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

_T = TypeVar("_T")


async def wait_event(event: asyncio.Event, timeout: float) -> bool:
    """Wait until `event` is set or `timeout` seconds pass; True when it was set.

    Not `asyncio.wait_for(event.wait(), timeout)`: on Python 3.11 that swallows a cancellation that
    arrives as the event is set (python/cpython#86296), and a loop built on it then never stops.
    `asyncio.wait` only ever waits, so a cancellation of the caller always reaches the caller."""
    if event.is_set():
        return True
    waiter = asyncio.ensure_future(event.wait())
    try:
        done, _ = await asyncio.wait((waiter,), timeout=timeout)
    finally:
        waiter.cancel()
    return bool(done)


async def finish(aw: Awaitable[_T]) -> _T:
    """Await `aw` to its end even if the caller is cancelled meanwhile, then re-raise the cancellation.

    For statements that end a transaction or a snapshot: the connection must not be left in a state
    the next user of the lock does not expect. A cancellation that arrives at the moment `aw` ends is
    still re-raised: dropping it would leave a stopping loop running."""
    task = asyncio.ensure_future(aw)
    cancelled = False
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            cancelled = True
        except BaseException:
            break
    if cancelled:
        if not task.cancelled():
            task.exception()  # retrieved, so it is not logged as lost: the cancellation is what the caller sees
        raise asyncio.CancelledError
    return task.result()


async def settled(task: asyncio.Future[_T]) -> BaseException | None:
    """Wait for `task` to end, without raising; what it raised, if anything (so never "not retrieved")."""
    await asyncio.wait((task,))
    if task.cancelled():
        return asyncio.CancelledError()
    return task.exception()
