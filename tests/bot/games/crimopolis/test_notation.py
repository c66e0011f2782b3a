"""The notation of commands.md: every legal action the rules list writes as a value (at most 100 characters)
that reads back as the same action, so every autocomplete choice and panel option sends what it shows; the
panel's screens page long lists with More… and keep to Discord's limits."""

from __future__ import annotations

import random

import pytest

from bot.games.crimopolis.choices import choices, ordered
from bot.games.crimopolis.names import Names
from bot.games.crimopolis.notation import format_action, parse, parse_sources, with_param
from bot.games.crimopolis.screens import MORE, Button, Option, Select, answer_screen, paged, turn_screen
from rules.contract import Action, ParseError, SeededChance
from rules.crimopolis import GAME
from rules.crimopolis.actions import needed_params
from rules.crimopolis.legal import legal_actions

NAMES = {"p1": "ann", "p2": "Big Ben", "p3": "cat"}


def lookup(text: str) -> str | None:
    return next((s for s, n in NAMES.items() if n.casefold() == text.strip().casefold()), None)


def states(games: int = 3, steps: int = 160):
    for seed in range(games):
        state = GAME.setup(list(NAMES), {}, SeededChance(f"notation-{seed}")).state
        rng = random.Random(seed)
        for _ in range(steps):
            pending = GAME.pending(state)
            if pending is None:
                break
            yield state
            move = GAME.random_move(state, pending.awaited[0], rng)
            assert move is not None
            state = GAME.step(state, [Action(pending.awaited[0], move)], SeededChance("-")).state


def read_back(value: str) -> dict:
    action = parse(value, lookup)
    if action["kind"] == "fortune":
        action = with_param(action, needed_params(GAME.content, action["card"]), lookup)
    return action


def test_every_legal_action_reads_back_as_itself() -> None:
    seen: set[str] = set()
    for state in states():
        seat = GAME.pending(state).awaited[0]
        for action in legal_actions(GAME.content, state, seat):
            value = format_action(action, NAMES.__getitem__)
            assert len(value) <= 100, value
            assert read_back(value) == action, (value, action)
            seen.add(action["kind"])
    assert {"setup_tile", "place_hq", "move", "recruit", "end", "job", "explore"} <= seen, seen


def test_typing_variants() -> None:
    assert parse("MOVE 0,0 0,0 s 1", lookup) == {"kind": "move", "from": "0,0", "to": "h:0,1", "count": 1}
    assert parse("occupy 0,1 from 0,1 N=1 v:1,1=2", lookup)["from"] == {"h:0,1": 1, "v:1,1": 2}
    assert parse("target big ben", lookup) == {"kind": "target", "player": "p2"}
    assert parse("react none", lookup) == {"kind": "react", "card": None}
    assert parse_sources("h:0,1=2  v:1,1=1") == {"h:0,1": 2, "v:1,1": 1}
    for bad in ("fly away", "move 0,0", "job J03 0,1", "recruit garage", "keep 12", "target nobody"):
        with pytest.raises(ParseError):
            parse(bad, lookup)


def test_choices_are_ordered_and_named() -> None:
    for state in states(games=1):
        if GAME.pending(state).decision != "turn":
            continue
        seat = GAME.pending(state).awaited[0]
        actions = legal_actions(GAME.content, state, seat)
        kinds = [a["kind"] for a in ordered(actions)]
        order = ["job", "takeover", "occupy", "move", "recruit", "fortune", "invest", "abort", "redraw", "end"]
        assert kinds == sorted(kinds, key=order.index)
        found = choices(actions, state, seat, Names(NAMES.get, GAME.view(state, None)), NAMES.__getitem__)  # type: ignore[arg-type]
        assert all(len(c.name) <= 100 for c in found)
        assert found[-1].value == "end"


def test_long_lists_page_with_more() -> None:
    options = [Option(f"option {i}", str(i)) for i in range(60)]
    first, page = paged(options, 0)
    assert len(first) == 25 and first[-1].value == MORE and page == 0
    assert first[-1].label == "More…", "commands.md names the option **More…** (the page goes in its description)"
    third, page = paged(options, 2)
    assert [o.value for o in third[:-1]] == [str(i) for i in range(48, 60)] and page == 2
    again, page = paged(options, 3)
    assert again[0].value == "0" and page == 0, "More… wraps around"
    assert paged(options[:25], 5) == (options[:25], 0)


def test_screens_stay_within_discord_limits() -> None:
    for state in states(games=2):
        pending = GAME.pending(state)
        seat = pending.awaited[0]
        actions = legal_actions(GAME.content, state, seat)
        n = Names(NAMES.get, GAME.view(state, None))  # type: ignore[arg-type]
        if pending.decision == "turn":
            for kind in {a["kind"] for a in actions}:
                screen = turn_screen(1, "ab" * 6, actions, {"kind": kind, "picks": []}, state, seat, n, "head")
                check(screen)
        else:
            found = choices(actions, state, seat, n, NAMES.__getitem__)
            check(answer_screen(1, "ab" * 6, found, {}, "head"))
            check(answer_screen(1, "ab" * 6, found, {}, "head", buttons=False))


def check(screen) -> None:  # noqa: ANN001
    assert len(screen.rows) <= 5 and len(screen.text) <= 2000
    for row in screen.rows:
        assert len(row) <= 5
        if any(isinstance(x, Select) for x in row):
            assert len(row) == 1
        for item in row:
            if isinstance(item, Select):
                assert 1 <= len(item.options) <= 25 and len({o.value for o in item.options}) == len(item.options)
                assert all(len(o.label) <= 100 and len(o.value) <= 100 for o in item.options)
            else:
                assert isinstance(item, Button) and len(item.label) <= 80


def test_the_final_round_line_says_it_in_the_words_of_commands_md() -> None:
    from bot.games.crimopolis.names import Names
    from bot.games.crimopolis.texts import event_line
    from rules.contract import Event

    names = {"p1": "ann", "p2": "cat"}
    view = {"players": {"p1": {"color": "yellow"}, "p2": {"color": "green"}}}
    line = event_line(Event.public("final_round", {"player": "p1", "last": "p2"}), Names(names.get, view))
    assert line is not None and "final round: the game ends after cat's turn" in line.lower(), line
