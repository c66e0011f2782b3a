"""Crime City on the game contract (rules/contract.py): the draft, six rounds, the EC decision.

A `Match` is the whole game as the contract sees it: the draft's balances and tie-break before the
draft resolves, then the round state (`GameState`), then the results and the EC decision. Every
decision is collected (`Pending.together`) except the EC choice, which applies vote by vote.

Moves, in replay.md's notation:
- `{"kind": "draft", "bid": 3, "roles": [...], "characters": [...]}` (rankings completed in the book's order)
- `{"kind": "round", "actions": [...], "buy": [[a, b], ...], "guess": {...} | null}`
- `{"kind": "ec", "player": SEAT}`: a decider's choice of EC (R88, R89)
Host moves (`by=None`):
- `{"host": "garnets", "seat": SEAT, "amount": N}`: a balance set by the host (draft or round)
- `{"host": "placements", "order": [SEAT, ...]}`: the draft's tie-break, best first (R7, Q29)
- `{"host": "ec", "player": SEAT}`: the host settles the EC when the deciders cannot agree (Q42)
- `{"host": "end"}`: the game ends now, with the results so far
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from random import Random
from typing import Any

from ..contract import (
    JSON,
    Action,
    Chance,
    Clock,
    Event,
    GameInfo,
    Move,
    Outcome,
    Pending,
    Record,
    Refusal,
    Refused,
    Setting,
)
from .actions import Submission
from .draft import DraftSubmission, complete_ranking, resolve_draft
from .errors import ParseError, RuleError
from .ids import CHARACTERS, ROLE_GOALS, ROLES, Character, Role
from .replay_format import FORMAT, FormatError, parse_submission
from .resolve import resolve_round
from .results import final_results
from .state import GameState, new_game
from .validate import check_buys, check_guess, validate_submission
from .views import public_view, view_for

PLAYERS = 5
MAX_GARNETS = 10**9

DRAFT, ROUND, EC, OVER = "draft", "round", "ec", "over"

INFO = GameInfo(
    id="crimecity",
    title="Crime City",
    min_players=PLAYERS,
    max_players=PLAYERS,
    replay_format=FORMAT,
    settings=(
        Setting("rounds", "int", 6, "How many rounds the game has at most (R4)", minimum=1, maximum=6),
        Setting("garnets", "int", 0, "Starting garnets for each player", minimum=0, maximum=MAX_GARNETS),
        Setting("balances", "map", {}, "Starting garnets of particular seats (a season's balances)"),
        Setting("placements", "list", [], "The previous main match's order, best first (the draft's tie-break)"),
        Setting("import", "map", {}, "A replay file to continue from its last round (seats in the file's order)"),
    ),
    summary="A hidden-role game for 5 players: secret characters and roles, private submissions every round.",
)


@dataclass(frozen=True, slots=True)
class Match:
    phase: str  # draft, round, ec, over
    players: tuple[str, ...]
    rounds_total: int
    garnets: dict[str, int]  # balances before the draft resolves
    placements: tuple[str, ...]  # the draft's tie-break, complete, best first
    draft: dict[str, JSON] | None = None  # the draft's outcome once resolved
    game: GameState | None = None
    results: dict[str, JSON] | None = None  # the results once the rounds are over
    ec_votes: dict[str, str] = field(default_factory=dict)
    ec: str | None = None
    decided_by: str | None = None  # who settled the EC: "rules", "deciders", "host", or None
    ended_early: bool = False


# ---- the contract ------------------------------------------------------------------------------------


class CrimeCity:
    info = INFO

    def setup(self, seats: Sequence[str], settings: Mapping[str, JSON], chance: Chance) -> Outcome:
        players = tuple(seats)
        if len(players) != PLAYERS or len(set(players)) != PLAYERS:
            raise ValueError(f"Crime City needs exactly {PLAYERS} distinct seats (rule R1)")
        given = self.info.settings_from(settings)
        if given["import"]:
            return _imported(players, given["import"])
        balances = given["balances"]
        garnets = {p: int(balances.get(p, given["garnets"])) for p in players}
        for p, g in garnets.items():
            if not 0 <= g <= MAX_GARNETS:
                raise ValueError(f"balances: {p} cannot start with {g} garnets")
        match = Match(DRAFT, players, given["rounds"], garnets, _placements(players, given["placements"]))
        return Outcome(match, (Event.public("draft_open", {"rounds_total": match.rounds_total}),))

    def pending(self, state: Match) -> Pending | None:
        if state.phase == DRAFT:
            return Pending(DRAFT, state.players, together=True, clocks=(Clock(DRAFT),))
        if state.phase == ROUND:
            assert state.game is not None
            return Pending(ROUND, state.players, together=True, clocks=(Clock(f"round:{state.game.round}"),))
        if state.phase == EC:
            ec = _ec_pending(state)
            voted = tuple(s for s in ec["deciders"] if s in state.ec_votes)
            awaited = tuple(s for s in ec["deciders"] if s not in voted) or voted
            return Pending(EC, awaited, optional=tuple(s for s in voted if s not in awaited))
        return None

    def check(self, state: Match, seat: str | None, move: Move) -> Refusal | None:
        try:
            self._checked(state, seat, move)
        except RuleError as err:
            return Refusal(err.code, err.message)
        return None

    def step(self, state: Match, actions: Sequence[Action], chance: Chance) -> Outcome:
        if state.phase in (DRAFT, ROUND) and actions and all(a.by is not None for a in actions):
            return self._resolve(state, actions)
        if not actions and state.phase in (DRAFT, ROUND):
            return self._resolve(state, ())  # the deadline passed with nobody's submission
        events: list[Event] = []
        for action in actions:
            refusal = self.check(state, action.by, action.move)
            if refusal is not None:
                raise Refused(refusal)
            out = self._apply(state, action)
            state = out.state
            events.extend(out.events)
        return Outcome(state, tuple(events))

    def timeout_actions(self, state: Match) -> list[Action]:
        # Draft and rounds resolve with what was collected; the EC has no deadline of its own.
        return []

    def view(self, state: Match, seat: str | None) -> dict[str, JSON]:
        if state.game is None:
            # What a human sees while drafting: the seats, the rounds, the tie-break order and their balance.
            out: dict[str, JSON] = {
                "phase": state.phase,
                "rounds_total": state.rounds_total,
                "players": list(state.players),
                "placements": list(state.placements),
            }
            if seat is not None and seat in state.players:
                out["player"] = seat
                out["garnets"] = state.garnets[seat]
            return out
        view = public_view(state.game) if seat is None else view_for(state.game, seat)
        view["phase"] = state.phase
        view["players"] = list(state.players)
        if state.phase == OVER:
            view["seats"] = _seats_json(state.game)
        return view

    def results(self, state: Match) -> dict[str, JSON] | None:
        if state.phase != OVER:
            return None
        base = dict(state.results or _empty_results(state))
        base["ec"] = state.ec
        base["ec_pending"] = None
        base["ec_decided_by"] = state.decided_by
        base["ended_early"] = state.ended_early
        base["draft_resolved"] = state.game is not None
        return base

    def encode_state(self, state: Match) -> dict[str, JSON]:
        return {
            "phase": state.phase,
            "players": list(state.players),
            "rounds_total": state.rounds_total,
            "garnets": dict(state.garnets),
            "placements": list(state.placements),
            "draft": state.draft,
            "game": None if state.game is None else state.game.to_dict(),
            "results": state.results,
            "ec_votes": dict(state.ec_votes),
            "ec": state.ec,
            "decided_by": state.decided_by,
            "ended_early": state.ended_early,
        }

    def decode_state(self, doc: Mapping[str, JSON]) -> Match:
        return Match(
            phase=doc["phase"],
            players=tuple(doc["players"]),
            rounds_total=int(doc["rounds_total"]),
            garnets={p: int(g) for p, g in doc["garnets"].items()},
            placements=tuple(doc["placements"]),
            draft=doc.get("draft"),
            game=None if doc.get("game") is None else GameState.from_dict(doc["game"]),
            results=doc.get("results"),
            ec_votes=dict(doc.get("ec_votes") or {}),
            ec=doc.get("ec"),
            decided_by=doc.get("decided_by"),
            ended_early=bool(doc.get("ended_early")),
        )

    def encode_move(self, move: Move) -> dict[str, JSON]:
        return dict(move)

    def decode_move(self, doc: Any) -> Move:
        if not isinstance(doc, dict):
            raise ParseError("a move must be an object")
        return dict(doc)

    def random_move(self, state: Match, seat: str, rng: Random) -> Move | None:
        from .simulate import random_submission

        if state.phase == DRAFT:
            roles, chars = list(ROLES), list(CHARACTERS)
            rng.shuffle(roles)
            rng.shuffle(chars)
            bid = rng.randint(0, state.garnets.get(seat, 0)) if rng.random() < 0.5 else 0
            return draft_move(DraftSubmission(bid, tuple(roles), tuple(chars)))
        if state.phase == ROUND:
            assert state.game is not None
            sub = random_submission(state.game, seat, rng)
            return {"kind": "round", **sub.to_json()}
        if state.phase == EC:
            ec = _ec_pending(state)
            if seat not in ec["deciders"]:
                return None
            return {"kind": "ec", "player": rng.choice(list(ec["candidates"]))}
        return None

    def replay(self, doc: Any) -> dict[str, JSON]:
        from .replay import run_replay

        return run_replay(doc)

    def legal(self, doc: Any, player: str) -> dict[str, JSON]:
        from .replay import legal_for

        return legal_for(doc, player)

    def export(self, record: Record) -> dict[str, JSON]:
        from .export import export_record

        return export_record(self, record)

    def simulate(self, games: int, seed: int, tick: Callable[[], None] | None = None) -> str:
        from .simulate import simulate

        return simulate(games, seed, tick).report()

    def counts(self, state: Match, move: Move) -> bool:
        """Optional member of the contract for collected decisions: does this move count as submitted?"""
        return counts(move)

    def hidden(self, state: Match) -> set[str]:
        if state.phase == OVER or state.game is None:
            return set()
        return {s.role.value for s in state.game.seats.values()}

    # ---- checks --------------------------------------------------------------------------------------

    def _checked(self, state: Match, seat: str | None, move: Move) -> None:
        if state.phase == OVER:
            raise RuleError("over", "The game is over.")
        if seat is None:
            self._check_host(state, move)
            return
        if seat not in state.players:
            raise RuleError("not_in_game", "That seat is not in this game.")
        kind = move.get("kind")
        if kind == "draft":
            if state.phase != DRAFT:
                raise RuleError("wrong_phase", "The draft is not open.")
            draft = parse_draft_move(move)
            balance = state.garnets[seat]
            if draft.bid > balance:
                raise RuleError("garnets", f"A bid cannot exceed your balance of {balance} garnets (rule R6).")
            return
        if kind == "round":
            if state.phase != ROUND or state.game is None:
                raise RuleError("wrong_phase", "No round is open for submissions.")
            sub = parse_round_move(move, state.players, partial=True)
            extras_only = move.get("actions") is None
            err = _check_extras(state.game, seat, sub) if extras_only else validate_submission(state.game, seat, sub)
            if err is not None:
                raise err
            return
        if kind == "ec":
            if state.phase != EC:
                raise RuleError("wrong_phase", "There is no EC decision to make.")
            ec = _ec_pending(state)
            if seat not in ec["deciders"]:
                raise RuleError("not_decider", "You are not one of the players who decide the EC (rules R88, R89).")
            if move.get("player") not in ec["candidates"]:
                raise RuleError("not_candidate", "That player is not a candidate for EC.")
            return
        raise RuleError("malformed", "Not a Crime City move.")

    def _check_host(self, state: Match, move: Move) -> None:
        kind = move.get("host")
        if kind == "end":
            return
        if kind == "garnets":
            seat, amount = move.get("seat"), move.get("amount")
            if seat not in state.players:
                raise RuleError("not_in_game", "That player is not in this game.")
            if isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= MAX_GARNETS:
                raise RuleError("malformed", f"A garnet balance is a whole number from 0 to {MAX_GARNETS:,}.")
            if state.phase not in (DRAFT, ROUND):
                raise RuleError("wrong_phase", "The rounds are over; balances are final.")
            return
        if kind == "placements":
            if state.phase != DRAFT:
                raise RuleError("wrong_phase", "Placements can only be set before the draft resolves.")
            order = move.get("order")
            if not isinstance(order, list) or not order or not all(p in state.players for p in order):
                raise RuleError("malformed", "List the players from first to last.")
            if len(set(order)) != len(order):
                raise RuleError("malformed", "A player is listed twice.")
            return
        if kind == "ec":
            if state.phase != EC:
                raise RuleError("wrong_phase", "There is no EC decision to make.")
            ec = _ec_pending(state)
            if move.get("player") not in ec["candidates"]:
                raise RuleError("not_candidate", "That player is not a candidate for EC.")
            votes = [state.ec_votes.get(s) for s in ec["deciders"]]
            if None in votes or len(set(votes)) == 1:
                raise RuleError(
                    "not_deadlocked",
                    "The host decides the EC only when every decider has chosen and they disagree (rulings R88, Q42).",
                )
            return
        raise RuleError("malformed", "Not a Crime City host move.")

    # ---- steps ---------------------------------------------------------------------------------------

    def _resolve(self, state: Match, actions: Sequence[Action]) -> Outcome:
        by_seat: dict[str, Move] = {}
        for action in actions:
            if action.by is None or action.by not in state.players:
                raise Refused(Refusal("not_in_game", "That seat is not in this game."))
            by_seat[action.by] = action.move  # the last one a seat sent counts
        if state.phase == DRAFT:
            return self._resolve_draft(state, by_seat)
        return self._resolve_round(state, by_seat)

    def _resolve_draft(self, state: Match, moves: Mapping[str, Move]) -> Outcome:
        events: list[Event] = []
        drafts: dict[str, DraftSubmission] = {}
        for seat in state.players:
            move = moves.get(seat)
            if move is None:
                continue
            refusal = self.check(state, seat, move)
            if refusal is not None:  # e.g. a host lowered the balance below the bid: no submission (Q30)
                events.append(Event.to(seat, "draft_refused", refusal.to_json()))
                continue
            drafts[seat] = parse_draft_move(move)
        result = resolve_draft(state.players, drafts, state.placements, state.garnets)
        game = new_game(state.players, result.seats, garnets=result.garnets, rounds_total=state.rounds_total)
        draft = {
            "priority": list(result.priority),
            "unassigned": [c.value for c in result.unassigned],
            "garnets": dict(result.garnets),
            "placements": list(state.placements),
            "submitted": sorted(drafts),
        }
        new = replace(state, phase=ROUND, draft=draft, game=game)
        events.append(Event.public("draft_resolved", {"view": public_view(game)}))
        for seat in state.players:
            s = game.seats[seat]
            events.append(
                Event.to(
                    seat,
                    "seat",
                    {
                        "character": s.character.value,
                        "role": s.role.value,
                        "goal": ROLE_GOALS[s.role],
                        "garnets": game.garnets[seat],
                    },
                )
            )
        return Outcome(new, tuple(events))

    def _resolve_round(self, state: Match, moves: Mapping[str, Move]) -> Outcome:
        assert state.game is not None
        subs: dict[str, Submission | None] = {}
        events: list[Event] = []
        for seat in state.players:
            move = moves.get(seat)
            if move is None:
                subs[seat] = None
                continue
            try:
                sub = parse_round_move(move, state.players, partial=True)
                subs[seat] = None if move.get("actions") is None else sub  # extras alone: no submission
            except RuleError as err:
                subs[seat] = None
                events.append(Event.to(seat, "rejected", {**err.to_json(), "round": state.game.round}))
        result = resolve_round(state.game, subs)
        rnd = state.game.round
        for ev in result.events:
            if ev.audience is None:
                if ev.kind == "board":
                    events.append(Event.public("board", {"round": rnd, "view": ev.data}))
                continue  # the game-over event is ours to make (below)
            events.append(Event.to(ev.audience, ev.kind, {**ev.data, "round": rnd}))
        for seat, refused in sorted(result.rejected.items()):
            events.append(Event.to(seat, "rejected", {**refused.to_json(), "round": rnd}))
        new = replace(state, game=result.state)
        if result.state.over:
            return _rounds_over(new, events, final_results(result.state).to_json(), early=False)
        return Outcome(new, tuple(events))

    def _apply(self, state: Match, action: Action) -> Outcome:
        move = action.move
        if action.by is not None:  # an EC vote (the only move applied on its own)
            votes = {**state.ec_votes, action.by: str(move["player"])}
            new = replace(state, ec_votes=votes)
            ec = _ec_pending(state)
            chosen = [votes.get(s) for s in ec["deciders"]]
            decided = not ec["unanimous"] or (None not in chosen and len(set(chosen)) == 1)
            vote = Event.to(action.by, "ec_vote", {"player": move["player"], "decided": decided})
            if decided:
                return _finish(new, str(move["player"]), "deciders", [vote])
            return Outcome(new, (vote,))
        kind = move["host"]
        if kind == "end":
            return self._end(state)
        if kind == "garnets":
            seat, amount = str(move["seat"]), int(move["amount"])
            event = Event.to(seat, "garnets_set", {"amount": amount})
            if state.phase == DRAFT:
                return Outcome(replace(state, garnets={**state.garnets, seat: amount}), (event,))
            assert state.game is not None
            game = state.game.with_changes(garnets={**state.game.garnets, seat: amount})
            return Outcome(replace(state, game=game), (event,))
        if kind == "placements":
            order = _placements(state.players, list(move["order"]))
            return Outcome(replace(state, placements=order), (Event.public("placements", {"order": list(order)}),))
        # "ec": the host settles a deadlock (checked above)
        return _finish(state, str(move["player"]), "host", [])

    def _end(self, state: Match) -> Outcome:
        if state.phase == DRAFT:
            new = replace(state, phase=OVER, ended_early=True)
            return Outcome(new, (Event.public("game_over", _game_over_data(new)),))
        if state.phase == ROUND:
            assert state.game is not None
            results = final_results(state.game, ended_after_round=max(0, state.game.round - 1)).to_json()
            return _rounds_over(replace(state, ended_early=True), [], results, early=True, host=True)
        return _finish(state, None, None, [])  # EC left open by the host


# ---- helpers -----------------------------------------------------------------------------------------


def _placements(players: tuple[str, ...], given: Sequence[JSON]) -> tuple[str, ...]:
    order = [p for p in given if p in players]
    return tuple(dict.fromkeys(order)) + tuple(p for p in players if p not in order)


def _ec_pending(state: Match) -> dict[str, Any]:
    pending: dict[str, Any] | None = (state.results or {}).get("ec_pending")
    assert pending is not None, "EC phase without a pending decision"
    return pending


def _rounds_over(
    state: Match, events: list[Event], results: dict[str, JSON], *, early: bool, host: bool = False
) -> Outcome:
    new = replace(state, phase=EC, results=results)
    events = [*events, Event.public("results", {"results": results, "early": early, "host": host})]
    if results.get("ec") is not None or not results.get("ec_pending"):
        return _finish(new, results.get("ec"), "rules" if results.get("ec") else None, events)
    pending = results["ec_pending"]
    events.append(
        Event.to(
            pending["deciders"],
            "ec_decide",
            {"candidates": list(pending["candidates"]), "unanimous": bool(pending["unanimous"])},
        )
    )
    return Outcome(new, tuple(events))


def _finish(state: Match, ec: str | None, decided_by: str | None, events: list[Event]) -> Outcome:
    new = replace(state, phase=OVER, ec=ec, decided_by=decided_by)
    return Outcome(new, (*events, Event.public("game_over", _game_over_data(new))))


def _game_over_data(state: Match) -> dict[str, JSON]:
    data: dict[str, JSON] = {"ec": state.ec, "decided_by": state.decided_by, "ended_early": state.ended_early}
    if state.game is not None:
        data["seats"] = _seats_json(state.game)
        data["unassigned"] = [c.value for c in state.game.unassigned]
    return data


def _seats_json(game: GameState) -> dict[str, JSON]:
    return {p: {"character": s.character.value, "role": s.role.value} for p, s in game.seats.items()}


def _imported(players: tuple[str, ...], doc: Mapping[str, JSON]) -> Outcome:
    """A game brought in from a replay file: the round after the file's last, seats in the file's order."""
    from .handover import handover

    try:
        h = handover(doc, players)
    except FormatError as err:
        raise ValueError(f"import: {err}") from None
    game = h.state
    match = Match(ROUND, players, game.rounds_total, h.garnets, h.placements, draft=h.draft, game=game)
    events = [Event.public("imported", {"view": public_view(game), "rounds_played": h.rounds_played})]
    for seat in players:
        s = game.seats[seat]
        data = {
            "character": s.character.value,
            "role": s.role.value,
            "goal": ROLE_GOALS[s.role],
            "garnets": game.garnets[seat],
            "learned": h.learned[seat],
            "completed": game.completed.get(seat),
        }
        events.append(Event.to(seat, "seat", data))
    return Outcome(match, tuple(events))


def _empty_results(state: Match) -> dict[str, JSON]:
    return {
        "ended_after_round": 0,
        "completion_order": [],
        "awards": dict.fromkeys(state.players, 0),
        "final_garnets": dict(state.garnets),
        "tol": [],
    }


def draft_move(sub: DraftSubmission) -> dict[str, JSON]:
    return {
        "kind": "draft",
        "bid": sub.bid,
        "roles": [r.value for r in sub.roles],
        "characters": [c.value for c in sub.characters],
    }


def parse_draft_move(move: Move) -> DraftSubmission:
    """A draft move as a DraftSubmission (rankings completed, Q30); RuleError when it is not one."""
    bid = move.get("bid", 0)
    if isinstance(bid, bool) or not isinstance(bid, int) or bid < 0:
        raise RuleError("malformed", "A bid is a whole number of garnets, 0 or more.")
    try:
        roles = [Role(r) for r in move.get("roles") or ()]
        chars = [Character(c) for c in move.get("characters") or ()]
    except (TypeError, ValueError):
        raise RuleError("malformed", "A ranking names only roles and characters of the game.") from None
    if Role.NONE in roles:
        raise RuleError("malformed", "Rank only the five hidden roles; 'none' is not one you can draft.")
    return DraftSubmission(bid, tuple(complete_ranking(roles, ROLES)), tuple(complete_ranking(chars, CHARACTERS)))


def parse_round_move(move: Move, players: tuple[str, ...], *, partial: bool = False) -> Submission:
    """A round move as a Submission; RuleError("malformed") when it cannot be read. With `partial`,
    `"actions": null` is allowed: purchases or a guess recorded before the actions (no actions yet)."""
    body = {k: v for k, v in move.items() if k != "kind"}
    extras_only = partial and body.get("actions") is None
    if extras_only:
        body = {**body, "actions": []}
    try:
        sub = parse_submission(body, players, "move")
    except (FormatError, ParseError) as exc:
        raise RuleError("malformed", str(exc)) from None
    if sub is None:
        raise RuleError("shape", "A submission needs at least one action.")
    return sub if not extras_only else Submission((), sub.buys, sub.guess)


def counts(move: Move) -> bool:
    """Whether a collected round move is a submission (it has actions), not only purchases or a guess."""
    return move.get("kind") != "round" or move.get("actions") is not None


def _check_extras(game: GameState, seat: str, sub: Submission) -> RuleError | None:
    if sub.guess is not None:
        err = check_guess(game, seat, sub.guess)
        if err is not None:
            return err
    return check_buys(game, seat, sub.buys) if sub.buys else None


GAME = CrimeCity()
