"""Board pictures drawn in worker processes (bot/host/pictures.py): the same bytes as in the bot's own
process, drawn elsewhere, and a dead worker costs one picture's detour, never the post."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bot import preflight
from bot.config import Settings
from bot.games import picture
from bot.host import pictures
from bot.host.delivery import Delivery
from bot.host.pictures import Painter
from tests.support import painting


def oc_view() -> dict[str, Any]:
    from rules.contract import SeededChance
    from rules.organizedcrime.game import GAME

    out = GAME.setup(("p1", "p2", "p3"), {}, SeededChance("cd" * 16))
    return GAME.view(out.state, None)


async def test_a_worker_process_draws_the_same_bytes_as_this_process() -> None:
    view = oc_view()
    painter = Painter(picture, 1)
    png = await painter.draw("organizedcrime", view)
    assert png is not None and png.startswith(b"\x89PNG")
    assert png == picture("organizedcrime", view)
    assert painter.drawn == 1
    assert await painter.draw("no-such-game", view) is None


async def test_the_drawing_is_done_in_another_process() -> None:
    painter = Painter(painting.whose, 2)
    drawn = await asyncio.gather(*(painter.draw("k", {"b": 1, "a": 2}) for _ in range(4)))
    pids = {int(d.split(b":")[0]) for d in drawn}
    assert os.getpid() not in pids
    assert all(d.endswith(b":k:['a', 'b']") for d in drawn)


async def test_a_worker_runs_below_the_bots_priority() -> None:
    # A picture may wait; the answer to a move, on the same cores, should not wait for a picture.
    painter = Painter(painting.niceness, 1)
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    assert int(await painter.draw("k", {})) == min(19, ours + pictures.NICE)
    assert pictures.NICE > 0


async def test_a_dead_worker_fails_one_picture_and_the_next_one_starts_a_new_pool() -> None:
    dying = Painter(painting.dies, 3)
    with pytest.raises(Exception, match="terminated abruptly"):
        await dying.draw("k", {})
    well = Painter(painting.whose, 3)  # the same pool size: it gets the new pool, not the broken one
    assert (await well.draw("k", {})).endswith(b":k:[]")


class _Broken:
    drawn = 0

    async def draw(self, kind: str, view: dict[str, Any]) -> bytes | None:
        raise RuntimeError("the workers are gone")


async def test_delivery_draws_in_its_own_process_when_the_workers_fail(caplog: pytest.LogCaptureFixture) -> None:
    delivery = Delivery(object(), object(), renderer=lambda kind, view: f"here:{kind}".encode())  # type: ignore[arg-type]
    assert delivery.painter is None
    assert await delivery.picture("k", {}) == b"here:k"
    delivery.painter = _Broken()  # type: ignore[assignment]
    assert await delivery.picture("k", {}) == b"here:k"
    assert "board picture workers failed" in caplog.text
    delivery.painter = Painter(painting.whose, 1)
    assert (await delivery.picture("k", {})).endswith(b":k:[]")


def test_the_number_of_picture_processes_is_a_setting(tmp_path: Path) -> None:
    assert Settings.from_env({}).picture_processes == 1
    assert Settings.from_env({"CRIMECITY_PICTURE_PROCESSES": "0"}).picture_processes == 0
    for bad in ("two", "-1", "9", "1.5"):
        settings = Settings.from_env({"CRIMECITY_PICTURE_PROCESSES": bad, "CRIMECITY_DB": str(tmp_path / "a.db")})
        problems = [p for p in preflight.check(settings) if p.startswith("CRIMECITY_PICTURE_PROCESSES")]
        assert len(problems) == 1 and "from 0 to 8" in problems[0], (bad, problems)
    with pytest.raises(ValueError):
        Painter(painting.whose, 0)


KILLED_BOT = """
import asyncio, os, signal
from bot.host import pictures
from bot.host.pictures import Painter
from tests.support import painting

async def main():
    drawn = await Painter(painting.whose, 1).draw("k", {})
    print(drawn.split(b":")[0].decode(), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)

asyncio.run(main())
"""


def test_a_killed_bot_leaves_no_picture_worker_behind() -> None:
    root = Path(__file__).resolve().parents[3]
    run = subprocess.run([sys.executable, "-c", KILLED_BOT], cwd=root, capture_output=True, text=True, timeout=60)
    assert run.returncode == -signal.SIGKILL, run.stderr
    worker = int(run.stdout.strip())
    deadline = time.monotonic() + 30  # it looks twice a second; generous for a loaded machine
    while alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(worker), "the picture worker outlived the bot's process"


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"  # a zombie has exited
    except FileNotFoundError:
        return False
