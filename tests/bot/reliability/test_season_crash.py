"""A season game's end is recorded once: the bot process SIGKILLed inside the end's transaction, or just
after it commits, leaves a ledger that after the restart equals the game's final balances, with one match."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from tests.fakediscord import FakeDiscord
from tests.support.crash_runner import KILL_AT_END
from tests.support.crashkit import CrashWorld
from tests.support.crimecity import CAST, WE1
from tests.support.table import NAMES

PERFECT = (
    "policeman=none, secretary=hitman, banker=mob_boss, armed_guard=fraud, store_clerk=none, "
    "detective=pickpocket, governor=bank_robber, governors_daughter=none"
)
FINAL = {"andy": 17, "grunkle": 35, "cara": 20, "dev": 14, "eve": 20}


def ledger(world: CrashWorld) -> list[tuple[str, int, str]]:
    found = world.query(
        "SELECT m.display_name, l.amount, l.reason FROM season_ledger l JOIN season_members m"
        " ON m.season_id = l.season_id AND m.user_id = l.user_id ORDER BY l.id"
    )
    return [(r[0], r[1], r[2]) for r in found]


def balances(world: CrashWorld) -> dict[str, int]:
    out: dict[str, int] = {}
    for name, amount, _ in ledger(world):
        out[name] = out.get(name, 0) + amount
    return out


@pytest.mark.parametrize("where", ["inside", "after"])
async def test_sigkill_at_a_season_games_end_changes_nothing_in_the_ledger(tmp_path: Path, where: str) -> None:
    async with FakeDiscord() as fd:
        world = CrashWorld(fd, tmp_path / "crimecity.db", tmp_path / "bot.log")
        world.env = {KILL_AT_END: where}
        try:
            await world.start()
            await world.cmd(world.host, "season new", name="S1")
            for n in NAMES:
                await world.cmd(world.players[n], "season join")
                await world.cmd(world.host, "season garnets", player=world.players[n], amount=20, reason="purse")
            (choice,) = await fd.autocomplete(world.host, world.chan, "crimecity new", focused="season")
            await world.cmd(world.host, "new", season=choice["value"], rounds=1)
            for n in NAMES:
                await world.cmd(world.players[n], "join")
            await world.cmd(world.host, "start")
            for n in NAMES:
                role, char = CAST[n]
                await world.cmd(world.players[n], "draft", bid=3 if n == "andy" else 0, roles=role, characters=char)
            await world.idle()
            await world.cmd(world.players["grunkle"], "guess", roles=PERFECT)
            await world.cmd(world.players["dev"], "friendship", a="banker", b="governor", points=2)
            for n in NAMES[:-1]:
                await world.cmd(world.players[n], "act", first=WE1[n][0], second=WE1[n][1])
            before = ledger(world)
            with contextlib.suppress(Exception):  # the process dies while it resolves: no answer
                await world.cmd(world.players["eve"], "act", first=WE1["eve"][0], second=WE1["eve"][1], timeout=3)
            assert world.proc is not None
            await world.proc.wait()
            assert world.proc.returncode == -9, "the bot was to kill itself at the game's end"
            world.proc = None
            at_kill = ledger(world)
            if where == "inside":
                assert at_kill == before, "nothing of the end was committed"
            else:
                assert balances(world) == FINAL

            world.env = {}
            await world.start()
            await world.idle()
            # eve never saw an answer: she sends her actions again, as a player would
            again = await world.cmd(world.players["eve"], "act", first=WE1["eve"][0], second=WE1["eve"][1])
            await world.idle()
            assert world.query("SELECT status FROM games ORDER BY id DESC LIMIT 1")[0][0] == "ended"
            if where == "after":
                assert "no Crime City game in this channel" in again.text(), again.text()  # it has ended
                assert ledger(world) == at_kill, "the restart added nothing"
            assert balances(world) == FINAL
            assert world.query("SELECT COUNT(*) FROM season_matches")[0][0] == 1
            marks = world.query("SELECT mark, SUM(count) FROM season_marks GROUP BY mark ORDER BY mark")
            assert [(m[0], m[1]) for m in marks] == [("ec", 1), ("tol", 1)]
            results = [m.text() for m in fd.channel_messages(world.chan) if "game over after Round 1" in m.text()]
            assert len(results) == 1, "the results were posted once"
        finally:
            await world.stop()
