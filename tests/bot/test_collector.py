"""Garbage collections between interactions, not wherever a count runs out (bot/collector.py)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.client import GameBot
from bot.collector import Collector


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


def cycle() -> weakref.ref[Node]:
    """A piece of cyclic garbage, and a way to see whether it was freed."""
    return weakref.ref(Node())


@pytest.fixture
async def collector() -> AsyncIterator[tuple[Collector, Clock]]:
    clock = Clock()
    # A tick far away: the tests call `step` themselves, but for the tick's own test.
    out = Collector(young=100, tick=3600, quiet=0.5, every=60, at_most=600, clock=clock)
    out.start()
    yield out, clock
    await out.stop()


async def test_it_takes_over_from_the_automatic_collector_and_gives_it_back() -> None:
    collector = Collector(tick=3600)
    collector.start()
    assert not gc.isenabled()
    assert gc.get_freeze_count() > 0  # what was loaded before is out of the collections' reach
    await collector.stop()
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


async def test_a_young_collection_frees_new_cycles_once_enough_are_new(collector: tuple[Collector, Clock]) -> None:
    c, _ = collector
    gc.collect(0)  # the young generation starts empty
    gc.freeze()
    garbage = cycle()
    c.step()
    assert garbage() is not None  # under `young` new objects: nothing collected yet
    assert c.young_runs == 0
    padding = [[] for _ in range(200)]
    c.step()
    assert c.young_runs == 1
    assert garbage() is None
    assert gc.get_count()[0] < 100
    del padding


async def test_survivors_are_frozen_and_wait_for_the_whole_heap(collector: tuple[Collector, Clock]) -> None:
    c, clock = collector
    survivor = Node()
    seen = weakref.ref(survivor)
    padding = [[] for _ in range(200)]
    frozen = gc.get_freeze_count()
    c.step()
    assert c.young_runs == 1
    assert gc.get_freeze_count() > frozen  # the survivors: no later young collection walks them
    del survivor, padding
    more = [[] for _ in range(200)]
    c.step()  # a young collection does not reach a cycle that was alive at the last one
    assert c.young_runs == 2 and len(more) == 200
    assert seen() is not None
    clock.now += 60
    c.touch()  # an interaction just came: not a quiet moment
    c.step()
    assert c.whole_runs == 0 and seen() is not None
    clock.now += 0.5
    c.step()  # quiet, and a minute on
    assert c.whole_runs == 1
    assert seen() is None
    assert gc.get_freeze_count() > 0  # what survived the whole heap's collection is frozen again


async def test_the_whole_heap_is_collected_after_at_most_ten_minutes_even_when_busy(
    collector: tuple[Collector, Clock],
) -> None:
    c, clock = collector
    c.young = 10**9  # no young collections in this test
    survivor = Node()
    seen = weakref.ref(survivor)
    gc.freeze()
    del survivor
    for _ in range(20):
        clock.now += 30
        c.touch()
        c.step()
    assert c.whole_runs == 1  # at 600 s, though an interaction came every 30 s
    assert seen() is None


async def test_the_tick_collects_while_the_loop_runs() -> None:
    c = Collector(young=100, tick=0.001)
    c.start()
    try:
        garbage = cycle()
        padding = [[] for _ in range(200)]
        for _ in range(200):
            await asyncio.sleep(0.002)
            if garbage() is None:
                break
        assert garbage() is None
        assert c.young_runs >= 1
        del padding
    finally:
        await c.stop()


async def test_the_bot_runs_one_and_each_interaction_makes_the_moment_busy(tmp_path: Path) -> None:
    bot = GameBot(tmp_path / "bot.db")
    clock = Clock()
    bot.collector.clock = clock
    bot.collector.last_interaction = clock.now
    clock.now += 5
    bot.dispatch("guild_available_somewhere")  # any other event leaves the moment quiet
    assert bot.collector.last_interaction < clock.now
    bot.dispatch("interaction", None)  # as discord.py does for each INTERACTION_CREATE
    assert bot.collector.last_interaction == clock.now


async def test_a_running_bot_collects_its_own_garbage_and_hears_every_interaction(tmp_path: Path) -> None:
    from bot import Settings, create_bot
    from tests.fakediscord import FakeDiscord

    async with FakeDiscord() as fd:
        guild = fd.add_guild("Collectors")
        channel = guild.add_text_channel("games")
        member = guild.add_member("ann")
        bot = create_bot(tmp_path / "bot.db", Settings(command_sync="global"))
        fd.start(bot)
        await fd.wait_ready()
        assert not gc.isenabled()  # the bot's own collections from on_ready on
        before = bot.collector.last_interaction
        await asyncio.sleep(0.01)
        reply = await fd.slash(member, channel, "crimopolis help")
        assert reply.text()
        assert bot.collector.last_interaction > before
        await bot.close()
        fd.detach(bot)
    assert gc.isenabled()
