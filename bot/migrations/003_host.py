"""Migration 3: one schema for every game (docs/architecture.md, "Storage").

The tables of versions 1 and 2 held one game's phases and rows; they are renamed `legacy_*`, the
generic tables are created, and each game's presentation turns its legacy rows into generic ones
(`bot.games.adopt_legacy`): a game in progress before the upgrade continues after it. The legacy
tables are dropped in the same transaction, so the upgrade happens whole or not at all.
"""

from __future__ import annotations

from typing import Any

LEGACY = (
    "games",
    "players",
    "draft_submissions",
    "submissions",
    "round_log",
    "private_results",
    "ec_votes",
    "timers",
    "outbox",
    "inbox",
    "panels",
)

SCHEMA = """
CREATE TABLE games (
    id             INTEGER PRIMARY KEY,
    kind           TEXT    NOT NULL,             -- the game's registry id (rules/registry.py)
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,
    host_id        INTEGER NOT NULL,
    status         TEXT    NOT NULL,             -- lobby | running | ended
    settings_json  TEXT    NOT NULL,             -- the game's own settings (GameInfo.settings)
    options_json   TEXT    NOT NULL,             -- the host's: deadlines, reminders, wait_for_deadline, reveal
    seed           TEXT,                         -- the secret chance seed, from the start on
    draws          INTEGER NOT NULL DEFAULT 0,   -- chance draws made so far (SeededChance start)
    setup_json     TEXT,                         -- seats, settings and chance outcomes of setup
    state_json     TEXT,                         -- the snapshot: game.encode_state
    version        INTEGER NOT NULL DEFAULT 0,   -- bumped on every state change (compare-and-set)
    step           INTEGER NOT NULL DEFAULT 0,   -- the open decision's number; submissions are guarded by it
    pending_json   TEXT,                         -- the open decision (Pending), NULL when none
    step_opened_at REAL,                         -- when the open decision opened
    paused         INTEGER NOT NULL DEFAULT 0,
    results_json   TEXT,                         -- game.results once over
    season_id      INTEGER,
    created_at     REAL    NOT NULL,
    started_at     REAL,
    ended_at       REAL
);
CREATE UNIQUE INDEX games_one_active_per_channel ON games(channel_id) WHERE status != 'ended';
CREATE INDEX games_guild ON games(guild_id, status);

CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games(id),
    seat         TEXT    NOT NULL,               -- the id the rules know: p1, p2, ...
    join_seq     INTEGER NOT NULL,
    user_id      INTEGER,                        -- NULL for a computer player
    user_name    TEXT    NOT NULL,
    display_name TEXT    NOT NULL,
    computer     TEXT,                           -- a computer player's level, else NULL
    joined_at    REAL    NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);
CREATE INDEX seats_user ON seats(user_id);

-- The move log: every step the host applied (players' moves, timeouts, host moves), in order, with
-- the chance outcomes it drew. Setup plus this log replays to the snapshot, always.
CREATE TABLE moves (
    game_id      INTEGER NOT NULL REFERENCES games(id),
    seq          INTEGER NOT NULL,
    step         INTEGER NOT NULL,               -- the decision it was applied in
    kind         TEXT    NOT NULL DEFAULT 'step', -- step (replayed) | seat (who holds a seat changed)
    actions_json TEXT    NOT NULL,
    chance_json  TEXT    NOT NULL,
    user_id      INTEGER,                        -- who caused it (a player, the host), NULL for the clock
    at           REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- Decisions as they opened and closed.
CREATE TABLE steps (
    game_id      INTEGER NOT NULL REFERENCES games(id),
    step         INTEGER NOT NULL,
    pending_json TEXT    NOT NULL,
    opened_at    REAL    NOT NULL,
    closed_at    REAL,
    PRIMARY KEY (game_id, step)
);

-- Moves collected for a decision that resolves them together; replaced until it resolves.
CREATE TABLE submissions (
    game_id   INTEGER NOT NULL REFERENCES games(id),
    step      INTEGER NOT NULL,
    seat      TEXT    NOT NULL,
    move_json TEXT    NOT NULL,
    user_id   INTEGER,
    at        REAL    NOT NULL,
    PRIMARY KEY (game_id, step, seat)
);

-- What each step made happen, and who may see it: 'public', or one row per seat in event_seats.
CREATE TABLE events (
    id        INTEGER PRIMARY KEY,
    game_id   INTEGER NOT NULL REFERENCES games(id),
    seq       INTEGER NOT NULL,                  -- the move it came from (0: setup)
    step      INTEGER NOT NULL,
    kind      TEXT    NOT NULL,
    public    INTEGER NOT NULL,
    data_json TEXT    NOT NULL,
    at        REAL    NOT NULL
);
CREATE INDEX events_game ON events(game_id, id);
CREATE TABLE event_seats (
    event_id INTEGER NOT NULL REFERENCES events(id),
    game_id  INTEGER NOT NULL,
    seat     TEXT    NOT NULL,
    PRIMARY KEY (event_id, seat)
);
CREATE INDEX event_seats_seat ON event_seats(game_id, seat);

-- Deadline clocks of the open decision: the running one has deadline_at, a paused one remaining.
CREATE TABLE clocks (
    game_id     INTEGER NOT NULL REFERENCES games(id),
    clock       TEXT    NOT NULL,
    position    INTEGER NOT NULL,                -- outermost first; the last one runs
    deadline_at REAL,
    remaining   REAL,
    PRIMARY KEY (game_id, clock)
);

CREATE TABLE timers (
    id       INTEGER PRIMARY KEY,
    game_id  INTEGER NOT NULL REFERENCES games(id),
    kind     TEXT    NOT NULL,                   -- deadline | reminder | computer
    step     INTEGER NOT NULL,                   -- the decision it belongs to
    clock    TEXT,                               -- the clock it watches
    due_at   REAL    NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX timers_due ON timers(due_at);
CREATE INDEX timers_game ON timers(game_id);

CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER NOT NULL REFERENCES games(id),
    target       TEXT    NOT NULL,               -- channel | dm
    channel_id   INTEGER,                        -- for channel posts
    seat         TEXT,                           -- for DMs: resolved to the seat's holder at send time
    payload_json TEXT    NOT NULL,
    created_at   REAL    NOT NULL,
    delivered_at REAL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_try_at  REAL    NOT NULL DEFAULT 0,
    last_error   TEXT
);
CREATE INDEX outbox_pending ON outbox(delivered_at, next_try_at);

CREATE TABLE inbox (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games(id),
    seat       TEXT    NOT NULL,
    content    TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    read_at    REAL
);
CREATE INDEX inbox_seat ON inbox(game_id, seat);

-- Persistent panels: their components carry only the nonce; what was picked lives here.
CREATE TABLE panels (
    nonce      TEXT    PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games(id),
    user_id    INTEGER NOT NULL,
    step       INTEGER NOT NULL,
    data_json  TEXT    NOT NULL DEFAULT '{}',
    created_at REAL    NOT NULL
);
CREATE INDEX panels_game ON panels(game_id, user_id);
"""


def statements(script: str) -> list[str]:
    """The script's statements, one by one (executescript would commit the migration's transaction)."""
    import sqlite3

    out: list[str] = []
    current = ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            if current.strip():
                out.append(current.strip())
            current = ""
    return out


async def apply(conn: Any) -> None:
    existing = {r[0] for r in await conn.execute_fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")}
    for table in LEGACY:
        if table in existing:
            await conn.execute(f"ALTER TABLE {table} RENAME TO legacy_{table}")
    for index in await conn.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name LIKE 'legacy_%'"
    ):
        await conn.execute(f"DROP INDEX {index[0]}")
    for statement in statements(SCHEMA):
        await conn.execute(statement)
    from bot.games import adopt_legacy

    await adopt_legacy(conn)
    for table in reversed(LEGACY):
        if table in existing:
            await conn.execute(f"DROP TABLE legacy_{table}")
