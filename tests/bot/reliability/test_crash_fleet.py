"""Two bot processes (a shard each) on one PostgreSQL, SIGKILLed at random while two servers' players
submit through both of them (in their channel, or by DM to shard 0's process) and rounds resolve.

A handful of kills here; `bench/crash_kill.py --processes 3 --kills 500` runs hundreds
(docs/reliability.md has the figures).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.fakediscord import FakeDiscord
from tests.support.crashkit import acknowledged
from tests.support.crashkit_fleet import Fleet

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.timeout(300)]


async def test_sigkill_any_of_two_processes_on_one_postgresql(tmp_path: Path, pg_url: str) -> None:
    async with FakeDiscord() as fd:
        fleet = Fleet(fd, pg_url, 2, tmp_path, seed=5)
        try:
            await fleet.start_all()
            window = max(0.2, await fleet.measure())  # both drafts, without a kill
            # six kills at least, and until one caught a submission the killed process had not answered
            while fleet.figures.kills < 6 or (fleet.figures.kills_in_flight == 0 and fleet.figures.kills < 40):
                await fleet.step(window, recovery_kill_p=0.5)
            await fleet.finish()
        finally:
            await fleet.stop()
    f = fleet.figures
    assert f.problems == [], f.problems
    assert f.lost == f.duplicate_posts == f.duplicate_dms == f.steps_resolved_twice == f.replay_mismatches == 0
    assert f.kills >= 6 and f.acked >= 20 and f.phases_resolved >= 4, f.line()
    assert f.games_started >= 2 and f.games_finished == f.games_started, f.line()
    assert f.kills_in_flight >= 1, f.line()  # some kill caught a submission the killed process had not answered
    assert fleet.killed[0] >= 1 and fleet.killed[1] >= 1, fleet.killed
    shards: Any = {s for s in fd.gateway.identified_shards if s is not None}
    assert shards == {(0, 2), (1, 2)}


def test_a_refusal_after_the_round_resolved_is_no_acknowledgement() -> None:
    # the harness once counted this answer (to a player resubmitting as the round resolved) as "recorded",
    # then reported the earlier, stored submission as an acknowledged one lost
    refused = (
        "Round 3 was resolved just before your command arrived, so it was not recorded. "
        "Look at the new board and submit again."
    )
    assert not acknowledged(refused)
    assert acknowledged("Round 3 actions recorded:\n- `move`\nYou can replace them until the round resolves.")
    assert acknowledged("Draft submission recorded: bid **2** of your 6 garnets.")
