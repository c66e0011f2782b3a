"""/crimecity admin export: a whole game played through the bot with random legal submissions
(purchases and Mob Boss guesses included), exported, replayed with `python -m rules replay`, gives
back EXACTLY the boards (text and picture), the private results and the results the bot announced."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from random import Random

from bot.games.crimecity import texts as formatting
from bot.games.crimecity.picture import render_board
from rules.crimecity import CHARACTERS
from rules.crimecity.notation import format_action
from rules.crimecity.simulate import random_submission
from tests.support.crimecity import CAST, match_of
from tests.support.table import NAMES, Table, draft_cast, open_game

NOTHING_NEW = "Nothing new for you this round."  # a DM every round, so their number tells nothing


def same(name: str | None) -> str:
    """Replay files name players by user name; the fake's display names are the same."""
    return name or "no player"


async def play_random_round(t: Table, rng: Random, seats: dict[str, str]) -> None:
    state = (await match_of(t)).game
    name_of = {seat: name for name, seat in seats.items()}.get
    for name in NAMES:
        who, seat = t.players[name], seats[name]
        sub = random_submission(state, seat, rng, buy_rate=0.5)
        for a, b in sub.buys:  # extras first: the fifth set of actions resolves the round
            reply = await t.cmd(who, "friendship", a=a.value, b=b.value, points=1)
            assert "Purchases for this round" in reply.text(), reply.text()
        if sub.guess:
            roles = ", ".join(f"{c.value}={sub.guess[c].value}" for c in CHARACTERS)
            assert "Guess recorded" in (await t.cmd(who, "guess", roles=roles)).text()
        first, *rest = [format_action(a, name_of) for a in sub.actions]
        reply = await t.cmd(who, "act", first=first, **({"second": rest[0]} if rest else {}))
        assert "actions recorded" in reply.text(), reply.text()
    await t.idle()


async def test_exported_game_replays_to_exactly_what_was_announced(table: Table, tmp_path) -> None:
    t = table
    fd = t.fd
    await open_game(t, garnets=12)
    await draft_cast(t, CAST)
    seats = {r["user_name"]: r["seat"] for r in await t.bot.db.fetchall("SELECT seat, user_name FROM seats")}
    rng = Random(4)
    while (await match_of(t)).phase == "round":
        await play_random_round(t, rng, seats)
    match = await match_of(t)
    if match.phase == "ec":  # the deciders settle the open EC decision (rulings R88)
        pending = match.results["ec_pending"]
        seat = pending["candidates"][0]
        name = next(n for n, s in seats.items() if s == seat)
        for decider in pending["deciders"]:
            who = next(n for n, s in seats.items() if s == decider)
            await t.cmd(t.players[who], "ec", player=t.players[name])
        await t.idle()

    reply = await t.cmd(t.host, "admin export")
    assert reply.ephemeral and reply.attachments[0].filename.endswith(".json")
    path = tmp_path / "game.json"
    path.write_bytes(reply.attachments[0].data)
    run = subprocess.run([sys.executable, "-m", "rules", "replay", str(path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    replay = json.loads(run.stdout)

    # the draft: each seat as DMed
    for name in NAMES:
        seat = replay["draft"]["seats"][name]
        assert f"Your character: **{formatting.char_title(seat['character'])}**" in t.dm_texts(t.players[name])[0]

    # every board, as text and as picture, in order
    posts = [m for m in fd.channel_messages(t.chan) if "the board after the round" in m.text()]
    rounds = replay["rounds"]
    assert len(posts) == len(rounds) >= 4
    for post, rnd in zip(posts, rounds, strict=True):
        assert rnd["rejected"] == {}, "every submission was legal"
        assert f"Round {rnd['round']}**" in post.text()
        view = {k: rnd[k] for k in ("round", "board", "dead", "friendship")}
        assert "\n".join(formatting.board_lines(view)) in post.text()
        last = rnd is rounds[-1]
        view |= {"rounds_total": 6, "over": last and replay["result"] is not None}
        assert post.attachments[0].data == render_board(view)
    assert any(rnd["friendship"] for rnd in rounds), "purchases or conversations made points"

    # every private result, exactly the ones each player was DMed, round by round, in order
    told = 0
    for name in NAMES:
        got: dict[int, list[str]] = {}
        for dm in t.dm_texts(t.players[name]):
            heading = re.match(r"\*\*Crime City — Round (\d+)\*\*\n", dm)
            if heading:
                lines = dm[heading.end() :].split("\n")
                got.setdefault(int(heading[1]), []).extend(x for x in lines if x != NOTHING_NEW)
        want = {
            rnd["round"]: [formatting.private_result_text(item, same) for item in rnd["private"][name]]
            for rnd in rounds
            if rnd["private"].get(name)
        }
        assert {r: lines for r, lines in got.items() if lines} == want, name
        told += sum(len(lines) for lines in want.values())
    assert told >= 5

    # the results as posted
    result = replay["result"]
    assert result is not None
    assert formatting.results_text(result, same, ec_seat=result["ec"]) in t.posts()
