-- SQLite's 009: how long the open decision has been paused (`GameRow.open_for`).
ALTER TABLE games ADD COLUMN paused_at DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN paused_for DOUBLE PRECISION NOT NULL DEFAULT 0;
