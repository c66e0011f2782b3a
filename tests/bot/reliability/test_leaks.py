"""No seat, role or submission leaks before the end, in anything others can see; and what others
can observe (the order and count of posts and DMs per round) does not depend on the roles."""

from __future__ import annotations

import logging
import re
from typing import Any

from tests.support.crimecity import CAST, WE1
from tests.support.leakscan import Secrets, png_text_chunks
from tests.support.table import NAMES, Table, draft_cast, open_game

PERMUTED = {  # the same characters, every role moved to another seat (a pairing the draft allows)
    "andy": ("hitman", "detective"),
    "grunkle": ("pickpocket", "banker"),
    "cara": ("bank_robber", "secretary"),
    "dev": ("fraud", "governor"),
    "eve": ("mob_boss", "armed_guard"),
}


def secrets_of(cast: dict[str, tuple[str, str]]) -> Secrets:
    actions = {n: [a for a in WE1[n] if a] for n in NAMES}
    return Secrets({n: (char, role) for n, (role, char) in cast.items()}, actions)


async def play_two_rounds(t: Table, cast: dict[str, tuple[str, str]]) -> list[tuple[str, str]]:
    """Draft, round 1 (the worked example's actions), round 2 forced with nothing submitted.
    Returns what an observer could log: every message create, as (where, round tag), in order."""
    fd = t.fd
    start = len(fd.requests)
    await open_game(t, garnets=20)
    await draft_cast(t, cast)
    for n in NAMES:
        first, second = WE1[n]
        reply = await t.cmd(t.players[n], "act", first=first, **({"second": second} if second else {}))
        assert "recorded" in reply.text(), reply.text()
    await t.idle()
    await t.cmd(t.host, "admin resolve")
    await t.idle()
    dm_of = {fd.dm_channel(t.players[n]).id: n for n in NAMES}
    seq = []
    nonces: set[str] = set()
    for r in fd.requests[start:]:
        m = re.fullmatch(r"/channels/(\d+)/messages", r.path)
        if r.method != "POST" or not m or r.status != 200:
            continue
        # A resend after a timeout carries the row's nonce again and Discord returns the first message
        # instead of a new one: members see it once, so an observer counts it once.
        nonce = (r.json or {}).get("nonce")
        if nonce is not None and (r.json or {}).get("enforce_nonce"):
            if nonce in nonces:
                continue
            nonces.add(nonce)
        where = "channel" if int(m.group(1)) == t.chan.id else f"dm:{dm_of.get(int(m.group(1)), '?')}"
        content = (r.json or {}).get("content") or ""
        tag = re.search(r"Round \d+|draft is resolved|reminder|could not send you", content)
        seq.append((where, tag.group(0) if tag else ""))
    return seq


async def test_nothing_secret_in_anything_public_before_the_end(table: Table, caplog: Any) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    t = table
    fd = t.fd
    fd.close_dms(t.players["cara"])  # her DMs go to the inbox, with a note in the channel
    await play_two_rounds(t, CAST)
    secrets = secrets_of(CAST)
    findings: list[str] = []

    # everything in the channel: text, embeds, picture metadata, components
    for m in fd.channel_messages(t.chan):
        findings += secrets.scan(m.text(), "channel post")
        for name, data in m.attachments:
            findings += secrets.scan_all((f"{name} metadata", chunk) for chunk in png_text_chunks(data))
            assert png_text_chunks(data) == [], f"{name} carries metadata: {png_text_chunks(data)}"
        findings += secrets.scan_all(("custom_id", cid) for cid in m.custom_ids())
    # what each player is shown: autocomplete answers and error replies may show their own seat only
    for n in NAMES:
        who = t.players[n]
        first = await fd.autocomplete(who, t.chan, "crimecity act", focused="first", first="")
        items = [("autocomplete", c["name"] + " " + c["value"]) for c in first]
        if first:
            second = await fd.autocomplete(
                who, t.chan, "crimecity act", focused="second", first=first[0]["value"], second=""
            )
            items += [("autocomplete", c["name"] + " " + c["value"]) for c in second]
        for bad in ("ability player nobody", "converse governor", "move vertical governors_daughter"):
            reply = await t.cmd(who, "act", first=bad, second="friend detective")
            items.append(("error reply", reply.text()))
        status = await t.cmd(who, "status")  # carries a panel: its custom_ids are random tokens
        items += [("custom_id", cid) for cid in status.custom_ids()]
        for msg in fd.ephemerals(who):
            items += [("custom_id", cid) for cid in msg.custom_ids()]
        findings += secrets.scan_all(items, viewer=n)
    # a non-player sees nothing either
    outsider = t.guild.add_member("lurker")
    for cmd, opts in (("act", {"first": "converse banker"}), ("status", {}), ("board", {})):
        reply = await fd.slash(outsider, t.chan, f"crimecity {cmd}", **opts)
        findings += secrets.scan(reply.text(), f"/{cmd} to a non-player")
    ac = await fd.autocomplete(outsider, t.chan, "crimecity act", focused="first", first="")
    assert ac == []
    # INFO logs
    info = [r.getMessage() for r in caplog.records if r.name.startswith("bot") and r.levelno >= logging.INFO]
    assert info, "the bot logs at INFO"
    findings += secrets.scan_all(("INFO log", line) for line in info)
    assert findings == [], "\n".join(findings[:20])


async def test_public_posts_and_dms_per_round_do_not_depend_on_roles(table: Table) -> None:
    t = table
    t.fd.close_dms(t.players["dev"])
    first = await play_two_rounds(t, CAST)
    t.chan = t.guild.add_text_channel("crime-city-2")  # the same five, a second game, roles permuted
    second = await play_two_rounds(t, PERMUTED)
    # Each target (the channel, each player's DMs) gets the same messages in the same order; how the
    # targets interleave is the senders' timing (each target has its own), not the roles.
    def by_target(seq: list[tuple[str, str]]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for where, tag in seq:
            out.setdefault(where, []).append(tag)
        return out

    assert by_target(first) == by_target(second), f"{by_target(first)} | {by_target(second)}"
    per_round = [x for x in first if x[1] == "Round 1"]
    # one board post and exactly one DM per player for the round, whatever happened to whom
    assert sorted(w for w, _ in per_round if w.startswith("dm:")) == sorted(f"dm:{n}" for n in NAMES if n != "dev")
