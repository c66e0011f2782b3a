-- A member's active games (a command in a DM, the `game` option's list) are found by host and by seat:
-- with this index SQLite and PostgreSQL look up both instead of reading every game ever played.
CREATE INDEX games_host ON games(host_id);
