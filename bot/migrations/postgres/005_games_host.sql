-- SQLite's 010: a member's active games found by host through an index (`games.active_games_of_user`).
CREATE INDEX games_host ON games(host_id);
