-- Seasons: a server's show of matches. A balance is the sum of its ledger; marks count what a match
-- (or the host) recorded for a member (the game's presentation names them); each match is recorded once.
CREATE TABLE seasons (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    kind       TEXT    NOT NULL,                 -- the game its matches are played in
    name       TEXT    NOT NULL,
    status     TEXT    NOT NULL,                 -- open | ended
    created_by INTEGER NOT NULL,
    created_at REAL    NOT NULL,
    ended_at   REAL
);
CREATE UNIQUE INDEX seasons_one_open ON seasons(guild_id, kind) WHERE status = 'open';

CREATE TABLE season_members (
    season_id    INTEGER NOT NULL REFERENCES seasons(id),
    user_id      INTEGER NOT NULL,
    user_name    TEXT    NOT NULL,
    display_name TEXT    NOT NULL,
    joined_at    REAL    NOT NULL,
    left_at      REAL,                           -- removed from the roster (their rows stay)
    PRIMARY KEY (season_id, user_id)
);

CREATE TABLE season_ledger (
    id         INTEGER PRIMARY KEY,
    season_id  INTEGER NOT NULL REFERENCES seasons(id),
    user_id    INTEGER NOT NULL,
    amount     INTEGER NOT NULL,
    reason     TEXT    NOT NULL,
    match_id   INTEGER,                          -- the match it came from, if any
    by_user    INTEGER,                          -- who made an adjustment (NULL: a match)
    created_at REAL    NOT NULL
);
CREATE INDEX season_ledger_member ON season_ledger(season_id, user_id);

CREATE TABLE season_marks (
    id         INTEGER PRIMARY KEY,
    season_id  INTEGER NOT NULL REFERENCES seasons(id),
    user_id    INTEGER NOT NULL,
    mark       TEXT    NOT NULL,                 -- a word of the game's (e.g. a token won, a token used)
    count      INTEGER NOT NULL,
    reason     TEXT    NOT NULL,
    match_id   INTEGER,
    by_user    INTEGER,
    created_at REAL    NOT NULL
);
CREATE INDEX season_marks_member ON season_marks(season_id, user_id);

CREATE TABLE season_matches (
    id          INTEGER PRIMARY KEY,
    season_id   INTEGER NOT NULL REFERENCES seasons(id),
    game_id     INTEGER UNIQUE,                  -- NULL for a match played off the bot; once per game
    placements  TEXT    NOT NULL,                -- user ids, best first
    summary     TEXT    NOT NULL,                -- what the game's presentation shows of it
    recorded_by INTEGER,
    played_at   REAL    NOT NULL
);
CREATE INDEX season_matches_season ON season_matches(season_id, played_at);
