"""Bad input: generated strings for every string option, huge and negative numbers, unknown
characters, and replay files fuzzed field by field.

Always a clear message (never the bug apology, never a traceback), and a refused command never
changes the game (every table compared before and after).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import io
import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.host.context import Caller, Member
from bot.tree import APOLOGY, user_message
from rules.cli import main as rules_main
from tests.support.crimecity import CAST
from tests.support.rules_helpers import GOLDEN
from tests.support.service import CHANNEL, GUILD, HOST, PLAYERS, now, round_one, snapshot
from tests.support.table import NAMES, Table, draft_cast, open_game

NASTY = [
    "", " ", "\x00", "'; DROP TABLE games; --", "<@99999999999999999999999999>", "<@!-1>", "@everyone",
    "🕵️‍♂️", "ability player", "friend", "friend friend friend", "move", "move diagonal banker",
    "converse", "ability governor nowhere", "the the the", "x" * 5000, "policeman,policeman",
    "banker=none" * 50, "=", ",,,", "none", "\u202egovernor", "99999999999999999999999999999",
    "-1", "nan", "inf", "1e309", "%s%s%n", "{}", "[]", "null", "²", "#99999999999999999999999",
]  # fmt: skip
texts = st.one_of(st.sampled_from(NASTY), st.text(max_size=300), st.from_regex(r"[a-z_ =,<@!>0-9-]{0,60}"))
numbers = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70), st.sampled_from([0, -1, 2**53, 2**63, -(2**63) - 1])
)
floats = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.0, -0.0, 1e308, -1e-9, math.nan]))


def dm(c: Caller) -> Caller:
    return replace(c, guild_id=None, channel_id=None, manage_guild=False)


def ops(gid: int) -> dict[str, Any]:
    """Every service entry point that takes a string or number from a user, by name."""
    return {
        "act first": lambda s, t, n, f: s.submit_actions(now("andy"), t, None),
        "act second": lambda s, t, n, f: s.submit_actions(now("andy"), "converse banker", t),
        "act game (DM)": lambda s, t, n, f: s.submit_actions(dm(now("andy")), "converse banker", None, t),
        "guess": lambda s, t, n, f: s.submit_guess(now("grunkle"), t),
        "friendship a/b": lambda s, t, n, f: s.buy_friendship(now("cara"), t, t[::-1], 1),
        "friendship points": lambda s, t, n, f: s.buy_friendship(now("cara"), "banker", "policeman", n),
        "draft roles (over)": lambda s, t, n, f: s.submit_draft(now("dev"), bid=0, roles=t, characters=None),
        "draft characters (over)": lambda s, t, n, f: s.submit_draft(now("dev"), bid=n, roles=None, characters=t),
        "placements (over)": lambda s, t, n, f: s.admin_placements(now(HOST), t),
        "deadline hours": lambda s, t, n, f: s.admin_deadline(now(HOST), f),
        "garnets amount": lambda s, t, n, f: s.admin_garnets(now(HOST), _member("eve"), n),
        "ec player": lambda s, t, n, f: s.choose_ec(now("eve"), Member(n if n > 0 else 7, t, t)),
        "status game (DM)": lambda s, t, n, f: s.status(dm(now("eve")), t),
        "board game (DM)": lambda s, t, n, f: s.board(dm(now("eve")), t),
        "export game (DM)": lambda s, t, n, f: s.admin_export(dm(now("eve")), t),
        "export game (DM, number)": lambda s, t, n, f: s.admin_export(dm(now("eve")), str(n)),
        "new (numbers)": lambda s, t, n, f: s.new_game(
            replace(now(HOST), channel_id=CHANNEL + 1), rounds=n, deadline_hours=f, garnets=n, wait_for_deadline=True
        ),
        "replace (unknown members)": lambda s, t, n, f: s.admin_replace(
            now(HOST), Member(abs(n) % 2**63, t, t), _member("eve")
        ),
    }


def _member(name: str) -> Member:
    return Member(PLAYERS[name], name, name)


async def refused_cleanly(svc: Any, call: Any, label: str, problems: list[str]) -> None:
    before = await snapshot(svc.db)
    try:
        await call
    except Exception as exc:  # noqa: BLE001 - what matters is what the user would be told
        message = user_message(exc)
        if message is None or message == APOLOGY:
            problems.append(f"{label}: {type(exc).__name__}: {exc!r}"[:300])
        elif await snapshot(svc.db) != before:
            problems.append(f"{label}: refused ({message}) but the game changed")


def test_generated_input_to_every_option_is_refused_cleanly(tmp_path: Path) -> None:
    loop = asyncio.new_event_loop()
    try:
        svc, gid = loop.run_until_complete(round_one(tmp_path))
        table = ops(gid)
        problems: list[str] = []

        @settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        @given(st.sampled_from(sorted(table)), texts, numbers, floats)
        def one(label: str, text: str, number: int, hours: float) -> None:
            loop.run_until_complete(refused_cleanly(svc, table[label](svc, text, number, hours), label, problems))

        one()
        for label in sorted(table):  # every entry point with every fixed nasty value, too
            for text in NASTY:
                for number, hours in ((-1, -1.0), (2**63, math.inf), (0, math.nan)):
                    loop.run_until_complete(
                        refused_cleanly(svc, table[label](svc, text, number, hours), label, problems)
                    )
        loop.run_until_complete(svc.db.close())
    finally:
        loop.close()
    assert problems == [], "\n".join(sorted(set(problems))[:20])


async def test_bad_options_through_discord_get_a_clear_answer_and_change_nothing(table: Table) -> None:
    t = table
    await open_game(t, garnets=20)
    await draft_cast(t, CAST)
    before = await snapshot(t.bot.db)
    andy, grunkle = t.players["andy"], t.players["grunkle"]
    for text in NASTY[:-8]:
        if not text.strip() or "\x00" in text:
            continue  # Discord does not send empty or NUL option values
        text = text[:100]
        replies = [
            await t.cmd(andy, "act", first=text),
            await t.cmd(andy, "act", first="converse banker", second=text),
            await t.cmd(grunkle, "guess", roles=text),
            await t.cmd(grunkle, "friendship", a=text, b="banker"),
            await t.cmd(t.host, "admin placements", order=text),
            await t.cmd(andy, "draft", bid=0, roles=text),
            await t.cmd(andy, "status", game=text),
            await t.cmd(t.host, "admin deadline", hours=-5.0),
            await t.cmd(andy, "draft", bid=-3),
            await t.cmd(t.host, "admin garnets", player=andy, amount=-7),
        ]
        for reply in replies:
            assert reply.ephemeral and reply.text() and APOLOGY not in reply.text(), reply.text()
            assert "Traceback" not in reply.text()
    choices = await t.fd.autocomplete(andy, t.chan, "crimecity act", focused="first", first="\u202e" + "x" * 90)
    assert choices == []
    assert await snapshot(t.bot.db) == before


# ---- replay files, fuzzed field by field -----------------------------------------------------------


def run_cli(doc: Any, path: Path) -> tuple[int, str, str]:
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = rules_main(["replay", str(path)])
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    found = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            found += paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += paths(v, (*prefix, i))
    return found


def put(doc: Any, path: tuple, value: Any) -> Any:
    doc = copy.deepcopy(doc)
    if not path:
        return value
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


def drop(doc: Any, path: tuple) -> Any:
    doc = copy.deepcopy(doc)
    target = doc
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return doc


REPLACEMENTS = [None, "", "zzz", -1, 10**30, 1.5, True, [], {}, "policeman", "hitman", ["andy"] * 6, {"x": 1}]


def check_cli(doc: Any, where: str, path: Path, problems: list[str]) -> None:
    try:
        code, _out, err = run_cli(doc, path)
    except Exception as exc:  # noqa: BLE001 - a traceback is the finding
        problems.append(f"{where}: traceback {type(exc).__name__}: {exc}"[:300])
        return
    if code == 2:
        if len(err.strip().splitlines()) != 1:
            problems.append(f"{where}: exit 2 without exactly one line: {err[:200]!r}")
    elif code != 0:
        problems.append(f"{where}: exit {code}: {err[:200]!r}")


def test_replay_fuzzed_field_by_field_exits_0_or_2_with_one_line(tmp_path: Path) -> None:
    base = json.loads((GOLDEN / "we1_we3.replay.json").read_text())
    problems: list[str] = []
    f = tmp_path / "fuzz.json"
    every = paths(base)
    for p in every:
        for value in REPLACEMENTS:
            check_cli(put(base, p, value), f"{p} = {value!r}", f, problems)
        if p:
            check_cli(drop(base, p), f"without {p}", f, problems)
    for raw in ["", "{", "[]", "null", "1", '"x"', "\xff\xfe", '{"format": "crimecity-replay/1"}']:
        check_cli(raw, f"file {raw!r}", f, problems)

    json_values = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=12,
    )

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.sampled_from(every), json_values)
    def one(p: tuple, value: Any) -> None:
        check_cli(put(base, p, value), f"{p} = {value!r}", f, problems)

    one()
    assert problems == [], f"{len(problems)} problems, e.g.\n" + "\n".join(problems[:15])


def test_unknown_member_names_in_options_are_refused(tmp_path: Path) -> None:
    """A sanity anchor for the fuzzers: the obvious cases give the obvious messages."""

    async def go() -> None:
        svc, _gid = await round_one(tmp_path)
        for call, want in [
            (svc.submit_actions(now("andy"), "converse nobody", None), "Could not read"),
            (svc.buy_friendship(now("cara"), "banker", "banker", 1), ""),
            (svc.admin_garnets(now(HOST), Member(424242, "ghost", "ghost"), 5), "not a player"),
            # regressions: each of these answered with the bug apology before
            (svc.admin_export(dm(now("eve")), "99999999999999999999999"), "Only the game's host"),
            (svc.status(dm(now("eve")), "#²"), "not one of your active games"),
            (svc.submit_actions(now("cara"), "ability player ²", None), "Could not read"),
            (svc.buy_friendship(now("cara"), "banker", "policeman", 10**12), "At most 50"),
        ]:
            try:
                await call
            except Exception as exc:  # noqa: BLE001
                message = user_message(exc)
                assert message and want in message, (message, exc)
            else:
                raise AssertionError("accepted")
        await svc.db.close()

    asyncio.run(go())
    assert NAMES and GUILD
