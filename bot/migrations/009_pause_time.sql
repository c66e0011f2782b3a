-- How long the open decision has been paused, so that a minimum of bargaining time (Organized Crime's
-- Q22 "ample time") counts only the time the clock ran: `paused_at` is when the game was last paused
-- (NULL while it runs), `paused_for` the seconds the open decision spent paused up to the last resume.
ALTER TABLE games ADD COLUMN paused_at REAL;
ALTER TABLE games ADD COLUMN paused_for REAL NOT NULL DEFAULT 0;
