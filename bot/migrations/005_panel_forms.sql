-- A player keeps one live panel per game and kind of form (a decision's panel, a menu of choices, ...).
ALTER TABLE panels ADD COLUMN form TEXT NOT NULL DEFAULT '';
DROP INDEX panels_game;
CREATE INDEX panels_game ON panels(game_id, user_id, form);
