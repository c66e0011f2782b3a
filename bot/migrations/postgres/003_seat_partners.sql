-- SQLite's 008: a seat's second member (shared seats), three columns of the seat's row.
ALTER TABLE seats ADD COLUMN partner_id BIGINT;
ALTER TABLE seats ADD COLUMN partner_name TEXT;
ALTER TABLE seats ADD COLUMN partner_display TEXT;
CREATE UNIQUE INDEX seats_partner ON seats(game_id, partner_id);
CREATE INDEX seats_partner_user ON seats(partner_id);
