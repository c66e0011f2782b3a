"""Authorization matrix: every command against every kind of caller, as commands.md says.

"auth" = refused because of who is asking (NotAllowed / NoGame, or "not a player"): nothing changes.
"ok"   = gets past the check of who is asking (it may still be refused by the rules or the phase,
         with a message that is not about the caller's rights).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.host.context import Caller, Member
from bot.host.errors import NoGame, NotAllowed, Refused, UserError
from bot.tree import APOLOGY, user_message
from rules.crimecity import Character, Location, ParseError, Role, RuleError, new_game
from rules.crimecity.game import GAME
from rules.crimecity.state import Seat
from tests.support.service import CHANNEL, GUILD, HOST, PLAYERS, now, round_one, snapshot

OTHER_CHANNEL, OTHER_GUILD, OTHER_GUILD_CHANNEL = CHANNEL + 5, GUILD + 1, CHANNEL + 9
OUTSIDER, OTHER_PLAYER, OTHER_ADMIN, SUBSTITUTE = 900, 901, 902, 903


def who(kind: str) -> Caller:
    base = now("andy")
    return {
        "player": base,
        "player (DM)": replace(base, guild_id=None, channel_id=None),
        "host": now(HOST),
        "host (DM)": replace(now(HOST), guild_id=None, channel_id=None, manage_guild=False),
        "server admin": Caller(
            OTHER_ADMIN - 1, "mod", "mod", GUILD, CHANNEL, manage_guild=True, issued_at=base.issued_at
        ),
        "non-member": Caller(OUTSIDER, "lurker", "lurker", GUILD, CHANNEL, issued_at=base.issued_at),
        "non-member (DM)": Caller(OUTSIDER, "lurker", "lurker", issued_at=base.issued_at),
        "other game's player": Caller(OTHER_PLAYER, "o1", "o1", GUILD, CHANNEL, issued_at=base.issued_at),
        "other server's admin": Caller(
            OTHER_ADMIN, "boss", "boss", OTHER_GUILD, OTHER_GUILD_CHANNEL, manage_guild=True, issued_at=base.issued_at
        ),
        "other server's admin (here)": Caller(
            OTHER_ADMIN, "boss", "boss", GUILD, CHANNEL, manage_guild=False, issued_at=base.issued_at
        ),
        "replaced player": now("dev"),
        "substitute": Caller(SUBSTITUTE, "sub", "sub", GUILD, CHANNEL, issued_at=base.issued_at),
    }[kind]


def member(name: str) -> Member:
    return Member(PLAYERS[name], name, name)


COMMANDS: dict[str, Any] = {
    "act": lambda s, c: s.submit_actions(c, "converse banker", "converse policeman"),
    "guess": lambda s, c: s.submit_guess(c, "policeman=none"),
    "friendship": lambda s, c: s.buy_friendship(c, "banker", "policeman", 0),
    "status": lambda s, c: s.status(c),
    "board": lambda s, c: s.board(c),
    "draft": lambda s, c: s.submit_draft(c, bid=0, roles=None, characters=None),
    "ec": lambda s, c: s.choose_ec(c, member("eve")),
    "join": lambda s, c: s.join(c),
    "leave": lambda s, c: s.leave(c),
    "new": lambda s, c: s.new_game(c, rounds=6, deadline_hours=24, garnets=0, wait_for_deadline=False),
    "start": lambda s, c: s.start(c),
    "admin deadline": lambda s, c: s.admin_deadline(c, 30),
    "admin pause": lambda s, c: s.admin_pause(c, True),
    "admin garnets": lambda s, c: s.admin_garnets(c, member("eve"), 4),
    "admin placements": lambda s, c: s.admin_placements(c, "eve, andy"),
    "admin export": lambda s, c: s.admin_export(c),
    "admin replace": lambda s, c: s.admin_replace(c, member("eve"), Member(904, "sub2", "sub2")),
    "admin resolve": lambda s, c: s.admin_resolve(c),
    "admin end": lambda s, c: s.admin_end(c, True),
}
PLAYER_ONLY = ["act", "guess", "friendship", "status", "draft", "ec", "leave"]
ADMIN_ONLY = [c for c in COMMANDS if c.startswith("admin ")] + ["start"]

# (caller kind, command) -> expected; anything not listed is derived below.
MATRIX: dict[tuple[str, str], str] = {}
for cmd in COMMANDS:
    MATRIX[("player", cmd)] = "auth" if cmd in ADMIN_ONLY or cmd == "new" else "ok"
    MATRIX[("player (DM)", cmd)] = "auth" if cmd in ADMIN_ONLY or cmd in ("new", "join", "leave") else "ok"
    MATRIX[("host", cmd)] = "auth" if cmd in PLAYER_ONLY else "ok"  # the host holds no seat
    MATRIX[("host (DM)", cmd)] = "auth" if cmd in PLAYER_ONLY or cmd in ("new", "join") else "ok"
    MATRIX[("server admin", cmd)] = "auth" if cmd in PLAYER_ONLY else "ok"
    for stranger in ("non-member", "other game's player", "other server's admin (here)", "replaced player"):
        MATRIX[(stranger, cmd)] = "ok" if cmd in ("board", "join") else "auth"
    MATRIX[("non-member (DM)", cmd)] = "auth"
    MATRIX[("other server's admin", cmd)] = "ok" if cmd == "new" else "auth"  # no game in their channel
    MATRIX[("substitute", cmd)] = "auth" if cmd in ADMIN_ONLY or cmd == "new" else "ok"
# rules/phase refusals that still passed the rights check are "ok"; rights that the phase decides:
MATRIX[("host (DM)", "board")] = "ok"
MATRIX[("player (DM)", "join")] = MATRIX[("player (DM)", "leave")] = MATRIX[("host (DM)", "join")] = (
    "ok"  # their game, refused by its phase
)
MATRIX[("host (DM)", "status")] = "ok"  # "you host this game and do not hold a seat"
MATRIX[("host", "status")] = MATRIX[("server admin", "status")] = "ok"


def is_auth_refusal(exc: BaseException) -> bool:
    if isinstance(exc, NotAllowed | NoGame):
        return True
    return isinstance(exc, UserError) and any(
        s in exc.message
        for s in ("not a player", "not in this game", "not one of the players", "not in any", "not in a DM")
    )


async def world(tmp_path: Path) -> Any:
    """Game 1 in round 1 (Dev's seat handed to a substitute), game 2 in another channel of the same
    server with another five players, and a server of its own for the other admin."""
    svc, gid = await round_one(tmp_path)
    await svc.admin_replace(now(HOST), member("dev"), Member(SUBSTITUTE, "sub", "sub"))
    other_host = Caller(HOST + 50, "host2", "host2", GUILD, OTHER_CHANNEL, manage_guild=True)
    await svc.new_game(other_host, rounds=6, deadline_hours=24, garnets=0, wait_for_deadline=True)
    for i in range(5):
        await svc.join(Caller(OTHER_PLAYER + 10 * i, f"o{i}", f"o{i}", GUILD, OTHER_CHANNEL))
    return svc, gid


@pytest.mark.parametrize("kind", sorted({k for k, _ in MATRIX}))
async def test_authorization_matrix(tmp_path: Path, kind: str) -> None:
    svc, gid = await world(tmp_path)
    # the "other game's player" holds a seat in game 2 (OTHER_PLAYER is its first joiner)
    wrong = []
    last = ("admin resolve", "admin replace", "admin end", "new")  # these change the world: run them last
    for cmd in sorted(COMMANDS, key=lambda c: last.index(c) + 1 if c in last else 0):
        expected = MATRIX[(kind, cmd)]
        ec_any = cmd == "ec"  # outside the EC phase: "no decision to make" or "no game", both fine
        before = await snapshot(svc.db)
        try:
            await COMMANDS[cmd](svc, who(kind))
            outcome = "ok"
        except Exception as exc:  # noqa: BLE001
            message = user_message(exc)
            if message is None or message == APOLOGY:
                wrong.append(f"{kind} /{cmd}: crashed {exc!r}")
                continue
            outcome = "auth" if is_auth_refusal(exc) else "ok"
            if await snapshot(svc.db) != before:
                wrong.append(f"{kind} /{cmd}: refused ({message}) but the game changed")
            detail = message
        else:
            detail = "done"
        if outcome != expected and not ec_any:
            wrong.append(f"{kind} /{cmd}: expected {expected}, got {outcome} ({detail})")
    await svc.db.close()
    assert wrong == [], "\n".join(wrong)


async def test_dead_governor_moves_only_and_still_reads_its_status(tmp_path: Path) -> None:
    """The Governor's player after the Hitman completed: one movement action per round (Q27)."""
    svc, gid = await round_one(tmp_path)
    seats = {
        "p1": Seat(Character.DETECTIVE, Role.PICKPOCKET),
        "p2": Seat(Character.BANKER, Role.MOB_BOSS),
        "p3": Seat(Character.SECRETARY, Role.HITMAN),
        "p4": Seat(Character.ARMED_GUARD, Role.FRAUD),
        "p5": Seat(Character.GOVERNOR, Role.BANK_ROBBER),
    }
    state = new_game([f"p{i}" for i in range(1, 6)], seats, garnets={f"p{i}": 20 for i in range(1, 6)})
    positions = {c: loc for c, loc in state.positions.items() if c is not Character.GOVERNOR}
    state = state.with_changes(governor_alive=False, positions=positions)
    # Like every write to a game's rows, under the game's lock (the host keeps what it read until then).
    game = await svc.game(gid)
    match = GAME.decode_state(game.state)
    match = match.__class__(**{**{f: getattr(match, f) for f in match.__slots__}, "game": state})
    async with svc.host.locks(gid), svc.db.transaction() as conn:
        await conn.execute(
            "UPDATE games SET state_json = ?, version = version + 1 WHERE id = ?",
            (json.dumps(GAME.encode_state(match)), gid),
        )
    eve = now("eve")
    before = await snapshot(svc.db)
    with pytest.raises((RuleError, Refused)) as refused:
        await svc.submit_actions(eve, "converse banker", "move vertical banker")
    assert user_message(refused.value) and await snapshot(svc.db) == before
    with pytest.raises((UserError, RuleError, ParseError, Refused)):
        await svc.submit_actions(eve, "ability banker bank", None)
    text = await svc.status(eve)
    assert "dead" in text
    played = await svc.submit_actions(eve, "move vertical banker", None)
    assert len(played.move["actions"]) == 1 and played.turn.state.game.round == 1
    # other players still cannot act for the dead seat, and the board shows no Governor
    board = await svc.board(now("andy"))
    assert "Governor" not in board.text.split("Friendship")[0] or "dead" in board.text.lower()
    assert Location.BANK
    await svc.db.close()
