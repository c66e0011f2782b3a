-- The living lobby message: the lobby post the bot edits in place as members join and leave.
ALTER TABLE games ADD COLUMN lobby_message_id INTEGER;
