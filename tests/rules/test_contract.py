"""The contract suite: every convention of rules/contract.py, checked over every registered game
(as OpenSpiel's API tests run over every registered game)."""

from __future__ import annotations

from random import Random

import pytest

from rules import registry
from rules.contract import Action, Game, Pending, RecordedChance, replay_record
from tests.support.playthrough import SEED_TOKEN, canonical, play_random, start

GAMES = registry.games()
IDS = [g.info.id for g in GAMES]
SEEDS = range(12)


@pytest.fixture(params=GAMES, ids=IDS)
def game(request: pytest.FixtureRequest) -> Game:
    return request.param


def test_every_game_declares_itself(game: Game) -> None:
    info = game.info
    assert isinstance(game, Game)
    assert registry.get(info.id) is game and registry.by_format(info.replay_format) is game
    assert 1 <= info.min_players <= info.max_players
    assert info.settings_from({}) == {s.name: s.default for s in info.settings}
    with pytest.raises(ValueError):
        info.settings_from({"no_such_setting": 1})


@pytest.mark.parametrize("seed", SEEDS)
def test_random_play_ends_and_pending_is_empty_exactly_when_results_exist(game: Game, seed: int) -> None:
    play = play_random(game, Random(seed), end_rate=0.002)
    assert game.pending(play.state) is None, f"not over after {len(play.log)} steps"
    assert game.results(play.state) is not None
    state = start(game, Random(seed)).state
    assert game.pending(state) is not None and game.results(state) is None


@pytest.mark.parametrize("seed", SEEDS)
def test_replaying_the_log_gives_the_snapshot(game: Game, seed: int) -> None:
    play = play_random(game, Random(seed))
    replayed = replay_record(game, play.record())
    assert canonical(game.encode_state(replayed.state)) == canonical(game.encode_state(play.state))
    assert [e.to_json() for e in replayed.events] == [e.to_json() for e, _ in play.events]


@pytest.mark.parametrize("seed", SEEDS[:6])
def test_encodings_round_trip_and_step_is_deterministic(game: Game, seed: int) -> None:
    rng = Random(seed)
    play = start(game, rng)
    for _ in range(400):
        pending = game.pending(play.state)
        if pending is None:
            break
        text = canonical(game.encode_state(play.state))
        decoded = game.decode_state(game.encode_state(play.state))
        assert canonical(game.encode_state(decoded)) == text
        actions = _one_step(game, play.state, pending, rng)
        for a in actions:
            assert game.decode_move(game.encode_move(a.move)) == a.move
            assert Action.from_json(a.to_json()) == a
        entry = len(play.log)
        out = play.apply(actions)
        again = game.step(decoded, actions, RecordedChance(play.log[entry].chance))
        assert canonical(game.encode_state(again.state)) == canonical(game.encode_state(out.state))
        assert [e.to_json() for e in again.events] == [e.to_json() for e in out.events]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_random_legal_move_passes_check(game: Game, seed: int) -> None:
    rng = Random(seed)
    play = start(game, rng)
    checked = 0
    for _ in range(300):
        pending = game.pending(play.state)
        if pending is None:
            break
        for seat in (*pending.awaited, *pending.optional):
            move = game.random_move(play.state, seat, rng)
            if move is not None:
                assert game.check(play.state, seat, move) is None, (seat, move)
                checked += 1
        play.apply(_one_step(game, play.state, pending, rng))
    assert checked > 0


@pytest.mark.parametrize("seed", SEEDS)
def test_no_public_view_or_event_holds_a_secret_or_the_seed(game: Game, seed: int) -> None:
    play = play_random(game, Random(seed))
    assert play.hidden, "hidden() named no secret in a whole game: the check would be empty"
    for view in play.publics:
        text = canonical(view)
        assert SEED_TOKEN not in text
        for secret in play.hidden:
            assert secret not in text, f"public view holds {secret!r}"
    for event, over in play.events:
        text = canonical(event.to_json())
        assert SEED_TOKEN not in text
        if event.is_public and not over:
            for secret in play.hidden:
                assert secret not in text, f"public event {event.kind} holds {secret!r}"


def test_every_game_refuses_with_stable_codes(game: Game) -> None:
    play = start(game, Random(1))
    refusal = game.check(play.state, play.seats[0], {"no": "such move"})
    assert refusal is not None and refusal.code and refusal.message


def _one_step(game: Game, state: object, pending: Pending, rng: Random) -> list[Action]:
    if pending.together:
        moves = [(s, game.random_move(state, s, rng)) for s in pending.awaited]
        return [Action(s, m) for s, m in moves if m is not None]
    for seat in (*pending.awaited, *pending.optional):
        move = game.random_move(state, seat, rng)
        if move is not None:
            return [Action(seat, move)]
    return game.timeout_actions(state)
