"""Stopping at the racy moment: a cancellation that arrives as the awaited thing finishes is never lost.

Each test repeats the race many times; before the fix a lost cancellation left the loop asleep for up
to 300 s (the suite's 120 s timeouts). `asyncio.wait_for(..., STOP)` is only a hang guard here.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.aio import finish, settled, wait_event
from bot.host.delivery import Delivery
from bot.host.scheduler import Scheduler
from bot.storage.db import Database

STOP = 5.0  # a stopped loop must be gone long before this
RACES = 300


async def test_wait_event_keeps_a_cancel_that_arrives_as_the_event_is_set() -> None:
    for _ in range(RACES):
        event = asyncio.Event()
        task = asyncio.ensure_future(wait_event(event, 300))
        await asyncio.sleep(0)  # now waiting
        event.set()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, STOP)


async def test_wait_event_times_out_and_sees_the_event() -> None:
    event = asyncio.Event()
    assert await wait_event(event, 0.01) is False
    asyncio.get_running_loop().call_later(0.01, event.set)
    assert await wait_event(event, 5) is True
    assert await wait_event(event, 0) is True  # already set: no wait at all


async def test_finish_keeps_a_cancel_that_arrives_as_the_work_ends() -> None:
    loop = asyncio.get_running_loop()
    for _ in range(RACES):
        work: asyncio.Future[int] = loop.create_future()
        task = asyncio.ensure_future(finish(work))
        await asyncio.sleep(0)  # now awaiting the shielded work
        work.set_result(1)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, STOP)


async def test_finish_lets_the_work_end_before_the_cancel_is_raised() -> None:
    ended: list[bool] = []

    async def work() -> int:
        await asyncio.sleep(0.02)
        ended.append(True)
        return 7

    task = asyncio.ensure_future(finish(work()))
    await asyncio.sleep(0.005)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert ended == [True]
    assert await finish(work()) == 7


async def test_settled_gives_what_a_task_raised_without_raising_it() -> None:
    async def fails() -> None:
        raise ValueError("no")

    async def works() -> int:
        return 1

    failed = await settled(asyncio.ensure_future(fails()))
    assert isinstance(failed, ValueError)
    assert await settled(asyncio.ensure_future(works())) is None
    task = asyncio.ensure_future(asyncio.sleep(10))
    asyncio.get_running_loop().call_soon(task.cancel)
    assert isinstance(await settled(task), asyncio.CancelledError)


async def test_scheduler_and_delivery_stop_when_woken_at_the_moment_of_stopping(tmp_path: Path) -> None:
    """The loops are woken (a commit, a new timer) at the very moment they are stopped, at random
    points of their cycle; every stop must end at once."""
    db = Database(tmp_path / "race.db")
    await db.open()

    class Offline:  # Delivery only asks the client whether it is ready
        def is_ready(self) -> bool:
            return True

    async def handler(timer: object) -> None:
        return None

    rng = random.Random(86296)
    try:
        for i in range(120):
            scheduler = Scheduler(db, handler)
            delivery = Delivery(db, Offline())  # type: ignore[arg-type]
            scheduler.start()
            await delivery.start()
            for _ in range(rng.randrange(4)):
                await asyncio.sleep(0)
            if i % 3:
                await asyncio.sleep(rng.random() * 0.003)
            scheduler.wake()
            delivery.kick()
            await asyncio.wait_for(asyncio.gather(scheduler.stop(), delivery.stop()), STOP)
    finally:
        await db.close()
