-- Shared seats (a game whose options allow them): a seat's second member. `user_id` stays the seat's
-- first member; a seat holds at most two members, so the partner is three columns of its one row and
-- every read of a game's seats stays one query.
ALTER TABLE seats ADD COLUMN partner_id INTEGER;
ALTER TABLE seats ADD COLUMN partner_name TEXT;
ALTER TABLE seats ADD COLUMN partner_display TEXT;
CREATE UNIQUE INDEX seats_partner ON seats(game_id, partner_id);
CREATE INDEX seats_partner_user ON seats(partner_id);
