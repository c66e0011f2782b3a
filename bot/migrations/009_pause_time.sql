-- How long the open decision has been paused, so that a minimum time a game sets on a decision counts
-- only the time its clock ran: `paused_at` is when the game was last paused (NULL while it runs),
-- `paused_for` the seconds the open decision spent paused up to the last resume.
ALTER TABLE games ADD COLUMN paused_at REAL;
ALTER TABLE games ADD COLUMN paused_for REAL NOT NULL DEFAULT 0;
