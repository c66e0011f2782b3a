"""Crime City's game flow through the host without Discord: lobby → draft → rounds, on a real SQLite file."""

from __future__ import annotations

import json

import pytest

from bot.host.clocks import reminder_at
from bot.host.context import Caller
from bot.host.errors import NotAllowed, Refused, UserError
from bot.storage.db import Database
from tests.support.crimecity import CAST, WE1  # CAST-EX and WE-1 (rulings Part 4)
from tests.support.service import Service

GUILD, CHANNEL = 10, 20
HOST = Caller(1, "host", "Host", GUILD, CHANNEL, manage_guild=True)
NAMES = ["andy", "grunkle", "cara", "dev", "eve"]
PLAYERS = {n: Caller(100 + i, n, n.title(), GUILD, CHANNEL) for i, n in enumerate(NAMES)}


@pytest.fixture
async def service(tmp_path):
    db = Database(tmp_path / "game.db")
    await db.open()
    yield Service(db)
    await db.close()


async def outbox(service: Service) -> list[dict]:
    return await service.outbox()


async def drafted_game(service: Service) -> int:
    game = await service.new_game(HOST, rounds=6, deadline_hours=24, garnets=20, wait_for_deadline=False)
    for n in NAMES:
        await service.join(PLAYERS[n])
    await service.start(HOST)
    for n in NAMES:
        role, char = CAST[n]
        await service.submit_draft(PLAYERS[n], bid=0, roles=role, characters=char)
    assert await service.resolve(game.id)
    return game.id


async def test_worked_example_round_one(service: Service) -> None:
    game_id = await drafted_game(service)
    for n in NAMES:
        await service.submit_actions(PLAYERS[n], *WE1[n])
    # all five in: an immediate timer was persisted with the submission
    timers = await service.db.fetchall("SELECT * FROM timers WHERE game_id = ? AND due_at <= ?", (game_id, 1e12))
    assert any(t["kind"] == "resolve" for t in timers)
    assert await service.resolve(game_id)
    posts = [o["payload"]["content"] for o in await outbox(service) if o["target"] == "channel"]
    board = posts[-1]
    assert "Round 1" in board
    assert "**Town Hall**: The Policeman, The Banker, The Governor" in board
    assert "**Mansion**: The Governor's Daughter" in board
    assert "**Main Street**: The Secretary, The Store Clerk, The Detective" in board
    assert "**Bank**: The Armed Guard" in board
    dms = [(o["seat"], o["payload"]["content"]) for o in await outbox(service) if o["target"] == "dm"]
    assert any(seat == "p1" and "The Store Clerk has no hidden role" in text for seat, text in dms)
    assert any(seat == "p3" and "Andy controls The Detective" in text for seat, text in dms)
    # WE-2: Eve has no legal non-movement action; two actions are refused naming the rule
    with pytest.raises(Refused) as refused:
        await service.submit_actions(PLAYERS["eve"], "move vertical armed_guard", "converse banker")
    assert "rule" in refused.value.message
    await service.submit_actions(PLAYERS["eve"], "move vertical armed_guard", None)
    with pytest.raises(Refused) as cooldown:
        await service.submit_actions(PLAYERS["andy"], "move vertical secretary", "converse store_clerk")
    assert cooldown.value.code == "cooldown"


async def test_refusals(service: Service) -> None:
    game_id = await drafted_game(service)
    stranger = Caller(999, "zed", "Zed", GUILD, CHANNEL)
    with pytest.raises(NotAllowed):
        await service.submit_actions(stranger, "move vertical secretary", "ability store_clerk")
    with pytest.raises(NotAllowed):
        await service.admin_resolve(PLAYERS["andy"])
    with pytest.raises(Refused):
        await service.submit_guess(PLAYERS["grunkle"], "banker=mob_boss")
    assert game_id


async def test_one_game_per_channel(service: Service) -> None:
    await service.new_game(HOST, rounds=6, deadline_hours=24, garnets=0, wait_for_deadline=False)
    with pytest.raises(UserError):
        await service.new_game(HOST, rounds=6, deadline_hours=24, garnets=0, wait_for_deadline=False)


async def test_reminders_go_to_those_who_have_not_submitted(service: Service) -> None:
    assert reminder_at(0, 24 * 3600, 1) == 23 * 3600
    assert reminder_at(0, 60, 1) is None
    game_id = await drafted_game(service)
    await service.submit_actions(PLAYERS["andy"], *WE1["andy"])
    timers = await service.db.fetchall("SELECT kind, step, clock FROM timers WHERE game_id = ?", (game_id,))
    assert {t["kind"] for t in timers} == {"deadline", "reminder"}
    seq, clock = timers[0]["step"], timers[0]["clock"]
    await service.on_timer(game_id, "reminder", seq, clock)
    reminded = [o["seat"] for o in await outbox(service) if "reminder" in o["payload"]["content"]]
    assert reminded == ["p2", "p3", "p4", "p5"]
    # a stale reminder (another phase) does nothing
    await service.on_timer(game_id, "reminder", seq - 1, clock)
    assert len([o for o in await outbox(service) if "reminder" in o["payload"]["content"]]) == 4


async def test_a_new_game_in_the_channel_gets_the_commands_after_the_last_one_ended(service: Service) -> None:
    """The service remembers each channel's game to save a read; once that game has ended and another
    has opened in the same channel, commands (and autocomplete) reach the new game, not the old."""
    first = await drafted_game(service)
    await service.submit_actions(PLAYERS["andy"], *WE1["andy"])  # the channel's game is now remembered
    assert (await service.turn(PLAYERS["andy"])).game.id == first
    if (await service.admin_end(HOST, reveal=False)).status != "ended":  # an EC decision was pending
        await service.admin_end(HOST, reveal=False)
    assert await service.turn(PLAYERS["andy"]) is None  # ended: nothing to offer
    with pytest.raises(UserError):
        await service.submit_actions(PLAYERS["andy"], *WE1["andy"])
    second = await drafted_game(service)
    assert second != first
    assert (await service.turn(PLAYERS["cara"])).game.id == second
    await service.submit_actions(PLAYERS["andy"], *WE1["andy"])
    rows = await service.db.fetchall("SELECT game_id FROM submissions WHERE seat = 'p1'")
    assert {r["game_id"] for r in rows} == {second}, "the first game's collected moves are in its log"
    logged = await service.db.fetchall("SELECT game_id FROM moves WHERE actions_json LIKE '%\"p1\"%'")
    assert first in {r["game_id"] for r in logged}


async def test_the_remembered_round_context_follows_every_change(service: Service) -> None:
    """Submissions keep the game's round context in memory between commands; every other command on the
    game (a replacement, a pause, a resolution) must be seen by the next submission all the same."""
    from bot.host.context import Member

    game_id = await drafted_game(service)
    andy, newbie = PLAYERS["andy"], Caller(555, "newbie", "Newbie", GUILD, CHANNEL)

    async def row(seat: str) -> dict:
        game = await service.game(game_id)
        found = await service.db.fetchone(
            "SELECT move_json FROM submissions WHERE game_id = ? AND step = ? AND seat = ?", (game_id, game.step, seat)
        )
        return json.loads(found["move_json"]) if found else {}

    await service.submit_actions(andy, *WE1["andy"])
    acted = (await row("p1"))["actions"]
    await service.buy_friendship(andy, "banker", "governor", 1)  # keeps the actions just written
    assert (await row("p1"))["actions"] == acted
    assert (await row("p1"))["buy"] == [["banker", "governor"]]
    await service.submit_actions(andy, *WE1["andy"])  # keeps the purchase just written
    assert (await row("p1"))["buy"] == [["banker", "governor"]]

    await service.admin_replace(HOST, Member(andy.user_id, "andy", "Andy"), Member(555, "newbie", "Newbie"))
    with pytest.raises(NotAllowed):
        await service.submit_actions(andy, *WE1["andy"])
    played = await service.submit_actions(newbie, *WE1["andy"])
    assert played.turn.seat == "p1"

    await service.admin_pause(HOST, True)
    for n in NAMES[1:]:  # Cara's ability names the seat's new holder: the roster is current too
        await service.submit_actions(PLAYERS[n], *(a.replace("Andy", "Newbie") for a in WE1[n]))
    due = "SELECT COUNT(*) AS n FROM timers WHERE game_id = ? AND kind IN ('deadline', 'resolve') AND due_at <= ?"
    assert (await service.db.fetchone(due, (game_id, service.clock() + 1)))["n"] == 0  # paused: no resolving
    await service.admin_pause(HOST, False)
    assert (await service.db.fetchone(due, (game_id, service.clock() + 1)))["n"] == 1  # all five in

    assert await service.resolve(game_id)
    played = await service.submit_actions(newbie, "move vertical detective", "converse store_clerk")
    assert played.turn.state.game.round == 2
    assert (await row("p1"))["actions"]


async def test_start_up_reads_the_contexts_of_games_in_round_play(tmp_path) -> None:
    """After a restart the round contexts are read in the background, so no game's first act waits."""
    db = Database(tmp_path / "game.db")
    await db.open()
    first = Service(db)
    game_id = await drafted_game(first)  # round play
    await first.new_game(Caller(1, "host", "Host", GUILD, 21, manage_guild=True), rounds=6, deadline_hours=24,
                         garnets=0, wait_for_deadline=False)  # another channel, still in its lobby
    await db.close()

    db = Database(tmp_path / "game.db")
    await db.open()
    restarted = Service(db)
    assert await restarted.host.play.warm() == 1
    assert list(restarted.host.play._contexts) == [game_id]
    assert await restarted.host.play.warm() == 0  # nothing left to read
    played = await restarted.submit_actions(PLAYERS["andy"], *WE1["andy"])
    assert played.turn.game.id == game_id and played.turn.state.game.round == 1
    await db.close()
