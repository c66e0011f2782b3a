-- Game night: per-game reminder lead time, and the state of persistent action panels.

-- Hours before a deadline at which players who have not submitted get a DM; 0 = no reminder.
ALTER TABLE games ADD COLUMN reminder_hours REAL NOT NULL DEFAULT 1;

-- One row per /crimecity panel message. Its components carry only `cc:panel:<game>:<nonce>:<part>`,
-- so what the player picked lives here and survives a restart.
CREATE TABLE panels (
    nonce      TEXT    PRIMARY KEY,               -- random hex, no meaning
    game_id    INTEGER NOT NULL REFERENCES games(id),
    user_id    INTEGER NOT NULL,                  -- who opened it; nobody else may use it
    phase_seq  INTEGER NOT NULL,                  -- the round it was opened for
    kind       TEXT,                              -- the action kind shown (move, converse, ability, friend)
    page       INTEGER NOT NULL DEFAULT 0,
    picks_json TEXT    NOT NULL DEFAULT '[]',     -- the picked actions, in notation
    created_at REAL    NOT NULL
);
CREATE INDEX panels_game ON panels(game_id);
