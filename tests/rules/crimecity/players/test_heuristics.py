"""The per-role estimates of rounds to a goal, on boards worked out by hand (rulings R22-R25)."""

from __future__ import annotations

from rules.crimecity.ids import Character, Location, Role
from rules.crimecity.players.heuristics import UNREACHABLE, rounds_to_goal, score
from rules.crimecity.state import START, GameState, Progress, Seat

C, L, R = Character, Location, Role
OTHERS = [(C.POLICEMAN, R.NONE), (C.SECRETARY, R.NONE), (C.BANKER, R.NONE), (C.ARMED_GUARD, R.NONE)]


def board(own: Character, role: Role, moves: dict[Character, Location] | None = None, *,
          progress: Progress | None = None, cooldowns: frozenset[str] = frozenset(), round_: int = 2) -> GameState:
    seats = {"me": Seat(own, role)}
    fillers = [c for c, _ in OTHERS if c is not own][:4]
    seats.update({f"o{i}": Seat(c, R.NONE) for i, c in enumerate(fillers)})
    players = tuple(seats)
    return GameState(players, seats, 6, round_, {**START, **(moves or {})}, True, {}, {"me": cooldowns},
                     {p: 0 for p in players}, {"me": progress or Progress()}, {})


def test_bank_robber_counts_moves_and_turns_left() -> None:
    assert rounds_to_goal(board(C.STORE_CLERK, R.BANK_ROBBER), "me") == 3  # to the Bank, the Guard out, 2 turns
    clear = {C.ARMED_GUARD: L.MANSION, C.STORE_CLERK: L.BANK}
    assert rounds_to_goal(board(C.STORE_CLERK, R.BANK_ROBBER, clear, progress=Progress(bank_turns=1)), "me") == 1
    assert rounds_to_goal(board(C.STORE_CLERK, R.BANK_ROBBER, clear), "me") == 2


def test_hitman_needs_the_governor_alone_with_him() -> None:
    # the Daughter out of the Mansion and the Policeman in: two moves
    assert rounds_to_goal(board(C.POLICEMAN, R.HITMAN), "me") == 2
    beside = {C.POLICEMAN: L.MANSION, C.GOVERNORS_DAUGHTER: L.BANK}
    assert rounds_to_goal(board(C.POLICEMAN, R.HITMAN, beside), "me") == 1  # (completion is the engine's)


def test_a_move_on_cooldown_costs_a_round() -> None:
    far = {C.STORE_CLERK: L.TOWN_HALL}
    four = Progress(frozenset({C.POLICEMAN, C.BANKER, C.GOVERNOR, C.SECRETARY}))
    free = rounds_to_goal(board(C.STORE_CLERK, R.PICKPOCKET, far, progress=four), "me")
    locked = rounds_to_goal(board(C.STORE_CLERK, R.PICKPOCKET, far, progress=four,
                                  cooldowns=frozenset({"move:store_clerk"})), "me")
    assert (free, locked) == (1, 2)


def test_fraud_needs_two_turns_in_order() -> None:
    assert rounds_to_goal(board(C.POLICEMAN, R.FRAUD), "me") == 3  # Secretary out, then back (not at once)
    staged = {C.SECRETARY: L.MAIN_STREET}
    assert rounds_to_goal(board(C.POLICEMAN, R.FRAUD, staged, progress=Progress(fraud_stage=1)), "me") == 1


def test_pickpocket_finds_the_shortest_tour() -> None:
    # Main Street with its 1 steal, then 2 more by pulling characters in, or a tour of the Bank
    assert rounds_to_goal(board(C.DETECTIVE, R.PICKPOCKET, progress=Progress(frozenset({C.STORE_CLERK}))), "me") == 3


def test_score_is_one_when_done_and_zero_when_out_of_time() -> None:
    done = board(C.POLICEMAN, R.FRAUD).with_changes(completed={"me": 2})
    assert score(done, "me") == 1.0
    late = board(C.STORE_CLERK, R.BANK_ROBBER, round_=6)
    assert score(late, "me") == 0.0
    assert score(board(C.STORE_CLERK, R.MOB_BOSS), "me") == 0.0
    assert rounds_to_goal(board(C.STORE_CLERK, R.MOB_BOSS), "me") == UNREACHABLE
