-- Crime City bot schema, version 1.
-- Rules state is JSON (rules.GameState.to_dict); Discord ids are integers; times are epoch seconds.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE games (
    id                INTEGER PRIMARY KEY,
    guild_id          INTEGER NOT NULL,
    channel_id        INTEGER NOT NULL,
    host_id           INTEGER NOT NULL,
    status            TEXT    NOT NULL,            -- lobby | draft | round | ec | ended
    phase_seq         INTEGER NOT NULL DEFAULT 0,  -- bumped on every phase change (compare-and-set)
    round             INTEGER NOT NULL DEFAULT 0,  -- the round open for submissions (0 before play)
    rounds_total      INTEGER NOT NULL,
    deadline_hours    REAL    NOT NULL,
    start_garnets     INTEGER NOT NULL,
    wait_for_deadline INTEGER NOT NULL DEFAULT 0,
    deadline_at       REAL,                        -- NULL while paused or without a phase
    paused_remaining  REAL,                        -- seconds left when paused, else NULL
    placements_json   TEXT,                        -- seat ids, best first; NULL = join order
    state_json        TEXT,                        -- rules GameState, from the first round on
    draft_json        TEXT,                        -- rules DraftResult summary, once resolved
    results_json      TEXT,                        -- rules Results.to_json(), once over
    ec_seat           TEXT,                        -- the decided EC (by rules or by vote)
    reveal            INTEGER NOT NULL DEFAULT 1,  -- post the seats at the end (admin end reveal:false)
    created_at        REAL    NOT NULL,
    ended_at          REAL
);
-- A channel holds at most one game that has not ended.
CREATE UNIQUE INDEX games_one_active_per_channel ON games(channel_id) WHERE status != 'ended';

CREATE TABLE players (
    game_id       INTEGER NOT NULL REFERENCES games(id),
    seat          TEXT    NOT NULL,                -- stable rules player id: p1, p2, ...
    join_seq      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    user_name     TEXT    NOT NULL,
    display_name  TEXT    NOT NULL,
    start_garnets INTEGER NOT NULL,
    joined_at     REAL    NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);

CREATE TABLE draft_submissions (
    game_id         INTEGER NOT NULL REFERENCES games(id),
    seat            TEXT    NOT NULL,
    bid             INTEGER NOT NULL,
    roles_json      TEXT    NOT NULL,
    characters_json TEXT    NOT NULL,
    submitted_at    REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE submissions (
    game_id      INTEGER NOT NULL REFERENCES games(id),
    round        INTEGER NOT NULL,
    seat         TEXT    NOT NULL,
    actions_json TEXT,                             -- NULL until /crimecity act
    buys_json    TEXT    NOT NULL DEFAULT '[]',
    guess_json   TEXT,
    submitted_at REAL    NOT NULL,
    PRIMARY KEY (game_id, round, seat)
);

CREATE TABLE round_log (
    game_id       INTEGER NOT NULL REFERENCES games(id),
    round         INTEGER NOT NULL,
    rejected_json TEXT    NOT NULL,
    view_json     TEXT    NOT NULL,                -- public view after the round
    resolved_at   REAL    NOT NULL,
    PRIMARY KEY (game_id, round)
);

CREATE TABLE private_results (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games(id),
    seat       TEXT    NOT NULL,
    round      INTEGER NOT NULL,
    kind       TEXT    NOT NULL,
    data_json  TEXT    NOT NULL,
    created_at REAL    NOT NULL
);
CREATE INDEX private_results_seat ON private_results(game_id, seat);

CREATE TABLE ec_votes (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat    TEXT    NOT NULL,
    choice  TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE timers (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games(id),
    kind       TEXT    NOT NULL,                   -- deadline | reminder
    phase_seq  INTEGER NOT NULL,                   -- the phase it belongs to
    due_at     REAL    NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX timers_due ON timers(due_at);

CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER NOT NULL REFERENCES games(id),
    target       TEXT    NOT NULL,                 -- channel | dm
    channel_id   INTEGER,                          -- for channel posts
    seat         TEXT,                             -- for DMs: resolved to the seat's user at send time
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
