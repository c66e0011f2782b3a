"""The presentation without Discord, over many random games of the rules: every step gives at least one
channel post (one message per action) that fits Discord and holds no hidden card or sealed ballot; the
picture comes at the end of every move and every turn; DMs go to seats only, and a seat's private events
reach that seat alone; every public event kind of replay.md has its words."""

from __future__ import annotations

import re
from random import Random
from typing import Any

import pytest

from bot.games.organizedcrime.events import private_line, public_line
from bot.games.organizedcrime.names import Names
from bot.games.organizedcrime.presentation import PRESENTATION
from bot.host import DM, GameRow, HostOptions, Post, Roster, SeatRow, StepView
from rules.contract import Action, SeededChance
from rules.organizedcrime.game import GAME
from tests.support.ocsecrets import BALLOT, CARD, secret_for

PUBLIC_KINDS = {  # replay.md "Events", public ones (turn_began and game_over are said as headings / results)
    "shuffled", "setup_roll", "base_order", "base_chosen", "first_player", "income", "bought_hitmen",
    "bought_power", "drew", "deck_empty", "bought_official", "cashed", "declared", "rolled", "move_began",
    "stepped", "hit_played", "rubbed_out", "attack_succeeded", "returned_home", "move_ended", "attack_failed",
    "attack_lapsed", "mistake", "removed", "paid", "debt", "debt_paid", "eliminated", "debt_settled",
    "debt_transferred", "acquired", "meeting_called", "gave", "vote_called", "ballot", "ballot_sealed",
    "ballots_revealed", "vote_result", "penalty_card", "placement_lapsed", "meeting_closed", "turn_ended",
    "limit_expired", "penalty_window", "penalty_called", "penalty_declined", "penalty_cancelled", "timed_out",
}
PRIVATE_KINDS = {"drew_card", "received_cards", "gave_card", "ballot"}


def roster(seats: list[str]) -> Roster:
    return Roster([SeatRow(s, i, 1000 + i, f"user{i}", f"name{i}") for i, s in enumerate(seats, 1)])


def row(settings: dict) -> GameRow:
    return GameRow(1, "organizedcrime", 1, 2, 3, "running", settings, HostOptions(), "s", 0, None, None, 1, 1, None,
                   None, False, None, None, 0.0, 0.0, None)


def games(n: int, players: int, settings: dict, seed: int):
    """(state before, actions, outcome) for every step of `n` random games (1 in 40 decisions time out)."""
    for g in range(n):
        seats = [f"p{i}" for i in range(1, players + 1)]
        chance = SeededChance(f"pres-{seed}-{g}")
        given = GAME.info.settings_from(settings)
        out = GAME.setup(seats, given, chance)
        yield seats, given, None, (), out
        state, rng = out.state, Random(seed * 100 + g)
        for _ in range(3000):
            pending = GAME.pending(state)
            if pending is None:
                break
            if rng.random() < 0.025:
                actions = tuple(GAME.timeout_actions(state))
            else:
                seat = pending.awaited[0]
                actions = (Action(seat, GAME.random_move(state, seat, rng)),)
            out = GAME.step(state, list(actions), chance)
            yield seats, given, state, actions, out
            state = out.state


@pytest.mark.parametrize(("players", "ballots"), [(2, "open"), (3, "sealed"), (4, "open"), (4, "sealed")])
def test_every_step_reads_well_and_keeps_secrets(players: int, ballots: str) -> None:
    seen: set[str] = set()
    steps = 0
    for seats, settings, before, actions, out in games(4, players, {"ballots": ballots, "round_cap": 8}, players):
        r = roster(seats)
        pending_before = None if before is None else GAME.pending(before)
        pending = GAME.pending(out.state)
        opened = pending is not None and (pending_before is None or pending.to_json() != pending_before.to_json())
        view = StepView(row(settings), r, out.state, actions, out.events, pending_before, pending, opened, 1e9,
                        GAME.results(out.state))
        messages = PRESENTATION.step_messages(view)
        posts = [m for m in messages if isinstance(m, Post)]
        dms = [m for m in messages if isinstance(m, DM)]
        assert posts, "every action gives a channel post"
        secret = secret_for(out.state, None)
        for p in posts:
            assert len(p.text) <= 2000 and len(p.alt) <= 1024
            for card in CARD.findall(p.text + p.alt):
                assert card not in secret, (card, p.text)
            if out.state["sealed"]:
                assert not BALLOT.search(p.text), p.text
            assert set(p.mention) <= {r.user_of(s) for s in seats}
        kinds = {e.kind for e in out.events}
        if kinds & {"move_ended", "turn_ended"}:
            assert any(p.picture is not None for p in posts), "the board at the end of every move and turn"
        for dm in dms:
            assert dm.seat in seats and len(dm.text) <= 2000
            own = secret_for(out.state, dm.seat)
            for card in CARD.findall(dm.text):
                assert card not in own, (card, dm.seat, dm.text)
        for e in out.events:
            seen.add(e.kind)
        steps += 1
    assert steps > 200
    assert {"declared", "rolled", "stepped", "turn_ended"} <= seen


def test_every_event_kind_has_words() -> None:
    players = {f"p{i}": {"colour": c} for i, c in enumerate(("green", "yellow", "white", "red"), 1)}
    names = Names({"players": players}, lambda s: f"Boss{s[1:]}")
    seen: set[str] = set()
    for _seats, _settings, _before, _actions, out in games(8, 4, {"round_cap": 10, "ballots": "sealed"}, 9):
        for e in out.events:
            seen.add(e.kind)
            if not e.is_public:
                assert e.kind in PRIVATE_KINDS
                assert private_line(e, e.audience[0], names), e
                continue
            assert e.kind in PUBLIC_KINDS | {"turn_began", "game_over"}, e.kind
            line = public_line(e, names)
            if e.kind in ("turn_began", "game_over") or (e.kind == "move_ended" and e.data["reason"] == "attack"):
                assert line is None  # said as the turn heading, the results, or by the attack's success
                continue
            assert line and "None" not in line and "{" not in line and not re.search(r"\bp\d\b", line), (e, line)
    assert len(seen & PUBLIC_KINDS) > 30, sorted(PUBLIC_KINDS - seen)


def test_counted_words_agree_with_their_number() -> None:
    from bot.games.organizedcrime.board import turns
    from bot.games.organizedcrime.notation import describe

    names = Names({"players": {"p1": {"colour": "green"}}}, lambda s: "Boss1")
    assert describe({"act": "buy_hitmen", "count": 1}, names).startswith("Buy 1 Hit-Man (")
    assert describe({"act": "buy_hitmen", "count": 3}, names).startswith("Buy 3 Hit-Men (")
    assert (turns(1), turns(2)) == ("1 turn", "2 turns")
    players = {f"p{i}": {"colour": c} for i, c in enumerate(("green", "yellow", "white", "red"), 1)}
    names = Names({"players": players}, lambda s: f"Boss{s[1:]}")
    lines = [public_line(e, names) or "" for *_, out in games(8, 4, {"round_cap": 10}, 9) for e in out.events
             if e.kind == "eliminated" and e.is_public]
    assert lines and not [x for x in lines if re.search(r"\b1 card go\b|\b([2-9]|\d\d+) cards goes\b", x)], lines
    assert not [x for x in lines if "Hit-Manen" in x]


def test_the_lobby_labels_every_house_option_set_or_not() -> None:
    # commands.md `/organizedcrime new`: "The lobby post states every option; house options are labelled "house rule""
    from bot.games.organizedcrime.prompts import settings_lines

    for settings in ({}, {"ballots": "sealed", "round_cap": 3, "auto_income": True}):
        lines = settings_lines(settings)
        for option in ("Round cap:", "Automatic income:"):
            line = next(x for x in lines if x.startswith(option))
            assert line.endswith("(house rule)"), (settings, line)
        ballots = next(x for x in lines if x.startswith("Ballots:"))
        assert ballots.endswith("(house rule)" if settings else "(as the Bylaws)"), ballots


def test_a_board_too_long_for_one_post_goes_on_in_the_posts_before_the_picture(monkeypatch) -> None:
    # The longest real boards stay near 1,300 characters (four players with Discord's longest names); one past a
    # message's 2,000 is split at its lines, not cut.
    import bot.games.organizedcrime.presentation as presentation

    long_board = "\n".join(f"line {i:02} of a long board " + "x" * 30 for i in range(60))
    monkeypatch.setattr(presentation, "board_text", lambda public, names, **_: long_board)
    checked = 0
    for seats, settings, before, actions, out in games(2, 4, {"round_cap": 8}, 5):
        pending_before = None if before is None else GAME.pending(before)
        view = StepView(row(settings), roster(seats), out.state, actions, out.events, pending_before,
                        GAME.pending(out.state), True, 1e9, GAME.results(out.state))
        posts = [m for m in PRESENTATION.step_messages(view) if isinstance(m, Post)]
        pictured = [i for i, p in enumerate(posts) if p.picture is not None]
        if not pictured:
            continue
        assert all(len(p.text) <= 2000 for p in posts)
        said = "\n".join(p.text for p in posts[: pictured[-1] + 1])
        assert all(line in said for line in long_board.split("\n")), "every line of the board is posted"
        checked += 1
    assert checked > 5


def test_notation_refuses_words_left_over() -> None:
    # a malformed command gets a clear message: words after an action are a mistake, not something to drop
    from bot.games.organizedcrime.notation import read
    from rules.contract import ParseError

    names = Names({"players": {"p1": {"colour": "green"}, "p2": {"colour": "yellow"}}}, lambda s: f"Boss{s[1:]}")
    assert read("base 1", names, "p1") == {"act": "base", "base": 1}
    assert read("step o04 Mistake", names, "p1") == {"act": "step", "to": "o04"}
    assert read("vote abstain", names, "p1") == {"act": "vote", "side": "abstain"}
    for text in ("base 1 banana 99", "step h1 extra", "cash PW17 extra", "buy hitmen 3 more", "vote for 2 please",
                 "vote abstain now", "rub green:1 yellow:2", "move green:1 4 5"):
        with pytest.raises(ParseError):
            read(text, names, "p1")


def test_the_share_autocomplete_is_in_legal_order(monkeypatch: Any) -> None:
    """commands.md: autocomplete gives the first 25 of the engine's `legal` list in its order (shares ascending)."""
    from bot.games.organizedcrime import choices

    legal = [{"act": "move", "by": "green", "piece": p, "share": k} for p in ("green:0", "green:1") for k in (3, 4)]
    monkeypatch.setattr(choices, "legal", lambda ctx: legal)
    assert [value for _, value in choices.shares(None, None, "")] == ["3", "4"]  # type: ignore[arg-type]
